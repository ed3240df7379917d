// `npm run lint`'s function-length rule (docs/architecture.md, "Small functions"): no function, method,
// constructor or arrow function in server/src or client/src spans more than MAX_LINES lines, nested
// functions counted in the one that holds them (a 500-line closure is one long function however it is
// cut inside). Reads the sources with the TypeScript compiler's parser; no type checking.
//
//   node scripts/function-length.mjs [--max N] [DIR...]     exit 0 all within, 1 some over (listed)
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

export const MAX_LINES = 150;

/** Every function-like node of a source text longer than `max` lines: name, first line (1-based), lines. */
export function longFunctions(fileName, text, max = MAX_LINES) {
    const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
    const found = [];
    const visit = (node) => {
        if (ts.isFunctionLike(node) && "body" in node && node.body) {
            const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
            const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
            const lines = last - first + 1;
            if (lines > max) found.push({ name: nameOf(node, source), line: first + 1, lines });
        }
        ts.forEachChild(node, visit);
    };
    visit(source);
    return found;
}

function nameOf(node, source) {
    if (node.name) return node.name.getText(source);
    if (ts.isConstructorDeclaration(node)) return "constructor";
    const parent = node.parent;
    if (parent && ts.isVariableDeclaration(parent)) return parent.name.getText(source);
    if (parent && ts.isPropertyAssignment(parent)) return parent.name.getText(source);
    if (parent && ts.isCallExpression(parent)) return `(argument of ${parent.expression.getText(source).slice(0, 60)})`;
    return "(anonymous)";
}

function* sourceFiles(dir) {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) {
            if (entry.name !== "node_modules") yield* sourceFiles(full);
        } else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts")) yield full;
    }
}

function main(argv) {
    let max = MAX_LINES;
    const dirs = [];
    for (let i = 0; i < argv.length; i++) {
        if (argv[i] === "--max") max = Number(argv[++i]);
        else dirs.push(argv[i]);
    }
    if (!Number.isInteger(max) || max < 1) {
        console.error("function-length: --max takes a positive whole number");
        return 2;
    }
    const roots = dirs.length > 0 ? dirs : ["server/src", "client/src"];
    let over = 0;
    for (const root of roots) {
        for (const file of sourceFiles(root)) {
            for (const f of longFunctions(file, fs.readFileSync(file, "utf8"), max)) {
                over++;
                console.error(`${file}:${f.line}: ${f.name} is ${f.lines} lines (at most ${max})`);
            }
        }
    }
    if (over > 0) {
        console.error(`function-length: ${over} function(s) over ${max} lines: split them along their seams`);
        return 1;
    }
    return 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
    process.exitCode = main(process.argv.slice(2));
}
