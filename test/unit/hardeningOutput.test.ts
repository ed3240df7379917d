/**
 * Hardening: text outputs show names and values, they never act on a terminal or a CI log
 * (docs/security.md, "Outputs"). A file name, URI or trace id carrying an escape sequence, a newline
 * followed by `::error`, or U+202E comes out escaped (`\x1b`, `\n`, `\u202e`); `--format github`
 * escapes every field by the workflow-command rules; the HTML report marks bidi controls.
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { escapeData, escapeProperty } from "../../server/src/cli/github";
import { visible } from "../../server/src/core/visible";
import { escapeHtml } from "../../server/src/render/html";
import { runCliAsync } from "./cliRun";

const HOSTILE = "x\u001b[31m\n::error file=a::pwned\u202eexe.txt";

function tempDir(): string {
    return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "sourcecheck-output-")));
}

const run = (args: string[], cwd: string) => runCliAsync(args, { cwd });

/** No raw control or bidi character, and no line a CI runner would read as a workflow command. */
function assertInert(text: string, what: string, commands = false): void {
    assert.ok(
        // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
        !/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/.test(text),
        `${what}: ${JSON.stringify(text)}`,
    );
    if (commands) return;
    for (const line of text.split("\n")) assert.ok(!line.startsWith("::"), `${what}: a line starts with '::': ${line}`);
}

describe("hardening: text outputs escape what they print", () => {
    it("visible() escapes control characters, newlines and bidi controls, and leaves other text alone", () => {
        assert.equal(visible(HOSTILE), "x\\x1b[31m\\n::error file=a::pwned\\u202eexe.txt");
        assert.equal(visible("café – 東京 \u{1F600}"), "café – 東京 \u{1F600}");
        assert.equal(visible("\u0085\u2028\u2066\u200f\u061c\u007f"), "\\x85\\u2028\\u2066\\u200f\\u061c\\x7f");
    });

    it("check (text) prints a hostile cited path escaped", async () => {
        const dir = tempDir();
        fs.writeFileSync(
            path.join(dir, "a.sourcecheck.json"),
            JSON.stringify({
                annotations: [
                    { claim: { path: HOSTILE, start: { line: 1, str: "a" }, end: { line: 1, str: "b" } }, sources: [] },
                ],
            }),
        );
        const out = await run(["check", "a.sourcecheck.json"], dir);
        assert.notEqual(out.status, 0);
        assertInert(out.stdout, "check");
        assert.match(out.stdout, /pwned/);
    });

    it("check of a folder (each file named) prints hostile file names and messages escaped", async () => {
        const dir = tempDir();
        fs.writeFileSync(path.join(dir, "doc.md"), "alpha beta\n");
        const annotations = JSON.stringify({
            annotations: [
                {
                    claim: { path: HOSTILE, start: { line: 1, str: "alpha" }, end: { line: 1, str: "beta" } },
                    sources: [],
                },
            ],
        });
        fs.writeFileSync(path.join(dir, "b\u001b[2J\n::warning::x\u202e.sourcecheck.json"), annotations);
        fs.writeFileSync(path.join(dir, "e\n::error::y.sourcecheck.json"), "");
        fs.writeFileSync(path.join(dir, "ok\u202e.sourcecheck.json"), '{"annotations": []}');
        for (const args of [
            ["check", "."],
            ["check", "--jobs", "2", "."],
        ]) {
            const out = await run(args, dir);
            assert.equal(out.status, 2, out.stderr);
            assertInert(out.stdout, args.join(" "));
            assert.match(out.stdout, /b\\x1b\[2J\\n::warning::x\\u202e\.sourcecheck\.json: 1 annotation/);
            assert.match(out.stdout, /e\\n::error::y\.sourcecheck\.json:1:1: invalid-json/);
            assert.match(out.stdout, /ok\\u202e\.sourcecheck\.json: warning: no-annotations/);
        }
    });

    it("an error on stderr shows the user's input escaped, and the command's usage as it is", async () => {
        const dir = tempDir();
        const missing = await run(["check", "zz\n::error::nope\u202e"], dir);
        assert.equal(missing.status, 2);
        assertInert(missing.stderr, "check of a missing file");
        assert.match(missing.stderr, /^sourcecheck: cannot read zz\\n::error::nope\\u202e: no such file\n$/);
        const option = await run(["repair", "--x\n::error::y", "a.json"], dir);
        assert.equal(option.status, 2);
        assertInert(option.stderr, "repair with an unknown option");
        assert.match(option.stderr, /^sourcecheck: repair: .*--x\\n::error::y.*\nUsage:\n {2}sourcecheck repair /);
        const top = await run(["--bogus\u001b[2J\n::error::z"], dir);
        assert.equal(top.status, 2);
        assertInert(top.stderr, "an unknown option of check");
        assert.match(
            top.stderr,
            /^sourcecheck: check: unknown option --bogus\\x1b\[2J\\n::error::z\nUsage:\n {2}sourcecheck \[check\]/,
        );
        const usage = await run(["render", "a", "b\u001b[31m"], dir);
        assert.equal(usage.status, 2);
        assertInert(usage.stderr, "render with two files");
        assert.match(usage.stderr, /\nUsage:\n {2}sourcecheck render /);
    });

    it("check --format github escapes every field; a file name cannot start a command of its own", async () => {
        const dir = tempDir();
        const name = "b\u001b[2J\n::warning::x\u202e.sourcecheck.json";
        fs.writeFileSync(
            path.join(dir, name),
            JSON.stringify({
                annotations: [
                    { claim: { path: HOSTILE, start: { line: 1, str: "a" }, end: { line: 1, str: "b" } }, sources: [] },
                ],
            }),
        );
        const out = await run(["check", "--format", "github", "."], dir);
        const lines = out.stdout
            .trimEnd()
            .split("\n")
            .filter((line) => !/^\d+ files?, /.test(line));
        assert.ok(lines.length >= 1);
        for (const line of lines) {
            assert.match(line, /^::error file=[^,:]*,line=\d+,col=\d+,endLine=\d+,endColumn=\d+,title=[^:,]*::/);
            assertInert(line, "github", true);
        }
        assert.equal(escapeProperty("a,b:c%\n"), "a%2Cb%3Ac%25%0A");
        assert.equal(escapeData("x\u001b\u202e\r\n"), "x\\x1b\\u202e%0D%0A");
    });

    it("trace, verify-files and compare print hostile URIs and ids escaped", async () => {
        const dir = tempDir();
        const trace = (uri: string) =>
            [
                { type: "tool_call", run_id: HOSTILE, call_id: "c", tool: "x" },
                {
                    type: "tool_result",
                    run_id: HOSTILE,
                    call_id: "c",
                    ok: true,
                    sources: [{ id: "s", uri, content: "text" }],
                },
                {
                    type: "answer",
                    run_id: HOSTILE,
                    claims: [{ text: "t", citations: [{ source_id: "s", quote: "text" }] }],
                },
            ]
                .map((line) => JSON.stringify(line))
                .join("\n");
        fs.writeFileSync(path.join(dir, "old.jsonl"), trace(`file:${HOSTILE}`));
        fs.writeFileSync(path.join(dir, "new.jsonl"), trace(`file:other${HOSTILE}`));
        for (const args of [
            ["trace", "old.jsonl"],
            ["trace", "verify-files", "old.jsonl"],
            ["trace", "compare", "old.jsonl", "new.jsonl"],
        ]) {
            const out = await run(args, dir);
            assertInert(out.stdout, args.join(" "));
        }
        const compared = await run(["trace", "compare", "old.jsonl", "new.jsonl"], dir);
        assert.match(compared.stdout, /\\u202e/);
    });

    it("repair (text) prints hostile paths escaped", async () => {
        const dir = tempDir();
        fs.writeFileSync(path.join(dir, "doc.md"), "alpha beta\n");
        fs.writeFileSync(
            path.join(dir, "a.sourcecheck.json"),
            JSON.stringify({
                annotations: [
                    {
                        claim: { path: HOSTILE, start: { line: 1, str: "alpha" }, end: { line: 1, str: "beta" } },
                        sources: [],
                    },
                ],
            }),
        );
        const out = await run(["repair", "a.sourcecheck.json"], dir);
        assertInert(out.stdout, "repair");
    });

    it("the HTML report shows bidi controls as visible marks", () => {
        assert.equal(escapeHtml("a\u202eb<"), "a[U+202E]b&lt;");
        assert.equal(escapeHtml("\u2066x\u2069"), "[U+2066]x[U+2069]");
    });
});
