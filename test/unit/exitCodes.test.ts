/**
 * Exit statuses are named (shared/exitCodes.ts), never written as numbers: `npm run lint`'s rule
 * (scripts/exit-literals.mjs) finds a literal 0 to 3 wherever an exit status goes, and the sources
 * have none.
 */
import * as assert from "node:assert/strict";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { EXIT, TRACECITE_EXIT, worstExit } from "../../shared/exitCodes";

const repo = path.resolve(__dirname, "../../..");

interface Hit {
    line: number;
    text: string;
    why: string;
}
interface ExitLiterals {
    literalExitCodes(fileName: string, text: string): Hit[];
    literalExitCodesUnder(dirs: string[]): (Hit & { file: string })[];
}

/** The lint script, an ES module, loaded as it runs in `npm run lint`. */
async function rule(): Promise<ExitLiterals> {
    const url = pathToFileURL(path.join(repo, "scripts", "exit-literals.mjs"));
    return (await (new Function("u", "return import(u)") as (u: string) => Promise<ExitLiterals>)(
        url.href,
    )) as ExitLiterals;
}

/** Each line one way an exit code came back as a literal: every one must be found, on its line. */
const LITERALS = [
    "const r = { ok: true, exitCode: 2 };",
    "function f(): ExitStatus { return 1; }",
    "if (report.exitCode !== 0) say();",
    "process.exit(1);",
    "process.exitCode = 3;",
    "const exitCode = broken ? 1 : 0;",
    "interface R { exitCode: 0 | 1 | 2 }",
    "const s = z.object({ exitCode: z.union([z.literal(0), z.literal(1)]) });",
    "const worst = { exitCode: Math.max(0, ...files.map((f) => f.exitCode)) };",
    "const c = { run(line, io) { return 0; } };",
    "const usage = { code: 2, meaning: 'bad usage' };",
    "class E extends Error { constructor(readonly exitCode: number = 2) { super(); } }",
];

/** Numbers that are not exit statuses, beside names that are: none of these is found. */
const NOT_EXITS = [
    "const r = { ok: true, exitCode: EXIT.clean };",
    "function f(): ExitStatus { return help(argv.slice(1), io); }",
    "const line = lines[exitCode === EXIT.usage ? 0 : 1];",
    "const first = files[0].exitCode;",
    "const exitCode = worstExit(files.map((f) => f.exitCode));",
    "const index = items.length > 0 ? 1 : 0;",
    "function count(): number { return 1; }",
];

describe("exit codes are named, never literals", () => {
    it("the rule finds each way a literal exit code comes back, on its line", async () => {
        const { literalExitCodes } = await rule();
        const hits = literalExitCodes("planted.ts", LITERALS.join("\n"));
        const lines = new Set(hits.map((hit) => hit.line));
        for (const [i, text] of LITERALS.entries()) assert.ok(lines.has(i + 1), `not found: ${text}`);
    });

    it("the rule leaves numbers that are not exit statuses alone", async () => {
        const { literalExitCodes } = await rule();
        assert.deepEqual(literalExitCodes("named.ts", NOT_EXITS.join("\n")), []);
    });

    it("no literal exit code in the server, the client or shared/", async () => {
        const { literalExitCodesUnder } = await rule();
        const dirs = ["server/src", "client/src", "shared"].map((dir) => path.join(repo, dir));
        const found = literalExitCodesUnder(dirs).map(
            (hit) => `${path.relative(repo, hit.file)}:${hit.line}: ${hit.text}`,
        );
        assert.deepEqual(found, []);
    });

    it("the names: SourceCheck's 0/1/2/3, TraceCite's 0/2/1, a run's status its worst file's", () => {
        assert.deepEqual(EXIT, { clean: 0, findings: 1, usage: 2, internal: 3 });
        assert.deepEqual(TRACECITE_EXIT, { pass: 0, usage: 1, mismatch: 2, internal: 3 });
        assert.equal(worstExit([]), EXIT.clean);
        assert.equal(worstExit([EXIT.findings, EXIT.clean, EXIT.usage, EXIT.findings]), EXIT.usage);
    });
});
