// `npm run lint`'s named-exit-code rule (docs/cli.md, "Exit statuses"): an exit status is written as
// EXIT.* or TRACECITE_EXIT.* (shared/exitCodes.ts), never as a number. Reads the sources with the
// TypeScript compiler's parser (no type checking) and finds a literal 0 to 3 where an exit status goes:
//   - the value or type of anything named like an exit (`exitCode`, `exitStatus`, `exits`...),
//     a z.literal() among them;
//   - beside an exit in `=`, `===`, `!==`, `<`, `>` (`exitCode === 0`, `process.exitCode = 1`);
//   - an argument of a call named like an exit (`process.exit(1)`) or of Math.max over exits;
//   - what a function returns when it is declared to return an exit status (`ExitStatus`), or is a
//     command's `run`;
//   - the `code` of an `{ code, meaning }` exit declaration.
// Through parentheses, `as`, `?:` branches, `??`/`||`, arrays and call arguments, not into functions.
//
//   node scripts/exit-literals.mjs [DIR...]     exit 0 none, 1 some (listed)
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const EXITISH = /exit/i;
/** Calls whose arguments are the value: z.literal(0), z.union([...]), Math.max(...), worstExit([...]). */
const VALUE_CALLS = /^(literal|union|max|min)$|exit/i;
const EXIT_VALUES = new Set(["0", "1", "2", "3"]);
const COMPARISONS = new Set([
    ts.SyntaxKind.EqualsToken,
    ts.SyntaxKind.EqualsEqualsEqualsToken,
    ts.SyntaxKind.ExclamationEqualsEqualsToken,
    ts.SyntaxKind.EqualsEqualsToken,
    ts.SyntaxKind.ExclamationEqualsToken,
    ts.SyntaxKind.LessThanToken,
    ts.SyntaxKind.GreaterThanToken,
    ts.SyntaxKind.LessThanEqualsToken,
    ts.SyntaxKind.GreaterThanEqualsToken,
]);

/** Every literal exit code of a source text: `{ line, text, why }`, lines from 1. */
export function literalExitCodes(fileName, text) {
    const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
    const found = new Map();
    const report = (literal, why) => {
        const line = source.getLineAndCharacterOfPosition(literal.getStart(source)).line + 1;
        const key = literal.getStart(source);
        if (!found.has(key)) found.set(key, { line, text: literal.parent.getText(source).slice(0, 80), why });
    };
    const inValue = (node, why) => literalsIn(node, (literal) => report(literal, why));
    const visit = (node) => {
        const named = declaredName(node);
        if (named !== undefined && EXITISH.test(named)) {
            if (node.initializer) inValue(node.initializer, `${named}'s value`);
            if (node.type) inValue(node.type, `${named}'s type`);
        }
        if (ts.isPropertyAssignment(node) && node.name.getText(source) === "code" && isExitDeclaration(node.parent))
            inValue(node.initializer, "an exit declaration's code");
        if (ts.isBinaryExpression(node) && COMPARISONS.has(node.operatorToken.kind)) {
            if (isExitish(node.left)) inValue(node.right, `beside ${lastName(node.left)}`);
            if (isExitish(node.right)) inValue(node.left, `beside ${lastName(node.right)}`);
        }
        if (ts.isCallExpression(node)) {
            const callee = lastName(node.expression);
            const overExits = callee === "max" && node.arguments.some(isExitish);
            if ((callee !== undefined && EXITISH.test(callee)) || overExits)
                for (const argument of node.arguments) inValue(argument, `an argument of ${callee}`);
        }
        if (ts.isReturnStatement(node) && node.expression && returnsExit(enclosingFunction(node)))
            inValue(node.expression, "returned as an exit status");
        if (ts.isArrowFunction(node) && !ts.isBlock(node.body) && returnsExit(node))
            inValue(node.body, "returned as an exit status");
        ts.forEachChild(node, visit);
    };
    visit(source);
    return [...found.values()].sort((a, b) => a.line - b.line);
}

function declaredName(node) {
    if (
        ts.isPropertyAssignment(node) ||
        ts.isVariableDeclaration(node) ||
        ts.isPropertyDeclaration(node) ||
        ts.isParameter(node) ||
        ts.isPropertySignature(node) ||
        ts.isBindingElement(node)
    ) {
        return node.name && ts.isIdentifier(node.name) ? node.name.text : undefined;
    }
    return undefined;
}

/** `{ code: …, meaning: … }`: one exit status as a command declares it. */
function isExitDeclaration(object) {
    return (
        ts.isObjectLiteralExpression(object) &&
        object.properties.some((p) => p.name && ts.isIdentifier(p.name) && p.name.text === "meaning")
    );
}

function lastName(expression) {
    let node = expression;
    while (ts.isParenthesizedExpression(node) || ts.isAsExpression(node) || ts.isNonNullExpression(node))
        node = node.expression;
    if (ts.isIdentifier(node)) return node.text;
    if (ts.isPropertyAccessExpression(node)) return node.name.text;
    return undefined;
}

function isExitish(expression) {
    const name = lastName(expression);
    return name !== undefined && EXITISH.test(name);
}

function enclosingFunction(node) {
    let at = node.parent;
    while (at && !ts.isFunctionLike(at)) at = at.parent;
    return at;
}

/** Declared to return an exit status, or a command's `run`. */
function returnsExit(fn) {
    if (!fn) return false;
    if (fn.type && /ExitStatus|ExitCode/.test(fn.type.getText())) return true;
    const name = fn.name ?? (ts.isPropertyAssignment(fn.parent) ? fn.parent.name : undefined);
    return name !== undefined && ts.isIdentifier(name) && name.text === "run";
}

/** The numeric literals 0 to 3 an expression or type can evaluate to, without entering functions. */
function literalsIn(node, found) {
    if (ts.isNumericLiteral(node)) {
        if (EXIT_VALUES.has(node.text)) found(node);
        return;
    }
    if (ts.isFunctionLike(node)) return;
    if (ts.isConditionalExpression(node)) {
        literalsIn(node.whenTrue, found);
        literalsIn(node.whenFalse, found);
        return;
    }
    if (ts.isBinaryExpression(node)) {
        const kind = node.operatorToken.kind;
        if (kind === ts.SyntaxKind.QuestionQuestionToken || kind === ts.SyntaxKind.BarBarToken) {
            literalsIn(node.left, found);
            literalsIn(node.right, found);
        }
        return;
    }
    if (ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node)) return;
    if (ts.isCallExpression(node) && !VALUE_CALLS.test(lastName(node.expression) ?? "")) return;
    if (ts.isObjectLiteralExpression(node) || ts.isTemplateExpression(node)) return;
    ts.forEachChild(node, (child) => literalsIn(child, found));
}

function* sourceFiles(dir) {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) {
            if (entry.name !== "node_modules") yield* sourceFiles(full);
        } else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts")) yield full;
    }
}

/** Every literal exit code under the given folders: `{ file, line, text, why }`. */
export function literalExitCodesUnder(dirs) {
    const found = [];
    for (const dir of dirs) {
        for (const file of sourceFiles(dir)) {
            if (file.endsWith(`${path.sep}exitCodes.ts`)) continue;
            for (const hit of literalExitCodes(file, fs.readFileSync(file, "utf8"))) found.push({ file, ...hit });
        }
    }
    return found;
}

function main(argv) {
    const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
    const dirs = argv.length > 0 ? argv : ["server/src", "client/src", "shared"].map((d) => path.join(root, d));
    const found = literalExitCodesUnder(dirs);
    for (const hit of found) {
        console.error(
            `${path.relative(process.cwd(), hit.file)}:${hit.line}: a literal exit code (${hit.why}): ${hit.text}`,
        );
    }
    if (found.length > 0) {
        console.error(
            `exit-literals: ${found.length} literal exit code(s); name them with EXIT or TRACECITE_EXIT (shared/exitCodes.ts)`,
        );
        return 1;
    }
    return 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
    process.exitCode = main(process.argv.slice(2));
}
