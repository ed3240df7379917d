/**
 * Output hygiene everywhere (docs/security.md, "Outputs"): lock, annotate, evidence, index and SARIF
 * show names, document text and messages through the one escaping function (core/visible.ts): no raw
 * control or bidi character, no line a CI runner reads as a workflow command.
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { runCliAsync } from "./cliRun";

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
const COMMAND_LINE = /^\s*::/m;
const HOSTILE = "x\u001b[31m\u202e";
const TEXT = `# Notes\n\nThe cache ${HOSTILE} grew by 37% in tests.\n::error::injected\nThe end.\n`;

function assertClean(what: string, output: string): void {
    assert.ok(!RAW.test(output), `${what} printed a raw control or bidi character: ${JSON.stringify(output)}`);
    assert.ok(!COMMAND_LINE.test(output), `${what} printed a line starting with "::": ${JSON.stringify(output)}`);
}

describe("hardening: every text output through the one escaping function", () => {
    let dir: string;
    const name = "b\n::error::c\u202e.sourcecheck.json";
    before(() => {
        dir = fs.mkdtempSync(path.join(os.tmpdir(), "sourcecheck-escapes-"));
        fs.writeFileSync(path.join(dir, "doc.md"), "# Answer\n\nThe cache grew by 37% in tests.\n");
        fs.writeFileSync(path.join(dir, "src.md"), TEXT);
        const input = {
            annotations: [
                {
                    claim: { path: "doc.md", start: { line: 3, str: "The cache" }, end: { line: 3, str: "37%" } },
                    sources: [
                        {
                            path: "src.md",
                            start: { line: 3, str: `cache ${HOSTILE}` },
                            end: { line: 3, str: "tests." },
                            polarity: "supports",
                            confidence: 0.9,
                        },
                    ],
                },
            ],
        };
        fs.writeFileSync(path.join(dir, name), JSON.stringify(input));
    });
    after(() => fs.rmSync(dir, { recursive: true, force: true }));
    const cli = (args: string[]) => runCliAsync(args, { cwd: dir });

    it("lock prints hostile file names and messages escaped", async () => {
        const run = await cli(["lock", name]);
        assert.match(run.stdout, /refs? locked/);
        assertClean("lock", run.stdout + run.stderr);
    });

    it("index prints document text escaped, no line read as a workflow command", async () => {
        const run = await cli(["index", "src.md", "doc.md"]);
        assert.equal(run.status, 0);
        assert.match(run.stdout, /x\\x1b\[31m\\u202e/);
        assertClean("index", run.stdout);
    });

    it("annotate prints the annotation and its file name escaped", async () => {
        const run = await cli([
            "annotate",
            name,
            "--claim",
            "doc.md",
            "grew by 37%",
            "--source",
            "supports",
            "0.9",
            "src.md",
            `cache ${HOSTILE} grew`,
        ]);
        assert.equal(run.status, 0, run.stdout + run.stderr);
        assertClean("annotate", run.stdout + run.stderr);
    });

    it("evidence prints document text escaped", async () => {
        const run = await cli(["evidence", "--corpus", ".", "--query", "cache grew injected", "--index-dir", "idx"]);
        assert.equal(run.status, 0, run.stderr);
        assert.match(run.stdout, /injected/);
        assertClean("evidence", run.stdout + run.stderr);
    });

    it("SARIF message.text has no raw bidi or control character", async () => {
        fs.writeFileSync(
            path.join(dir, "bad.sourcecheck.json"),
            JSON.stringify([
                {
                    claim: {
                        path: "doc.md",
                        start: { line: 3, str: `nowhere\u202e\u001b` },
                        end: { line: 3, str: "37%" },
                    },
                    sources: [
                        {
                            path: "doc.md",
                            start: { line: 3, str: "The" },
                            end: { line: 3, str: "37%" },
                            polarity: "supports",
                            confidence: 1,
                        },
                    ],
                },
            ]),
        );
        const run = await cli(["check", "--format", "sarif", "bad.sourcecheck.json"]);
        const sarif = JSON.parse(run.stdout);
        const texts = sarif.runs[0].results.map((r: { message: { text: string } }) => r.message.text);
        assert.ok(texts.length > 0);
        for (const text of texts) assert.ok(!RAW.test(text), JSON.stringify(text));
    });
});
