/**
 * `verdict` on every entry of `check --json` and the MCP `check` tool, and `check --fail-on` gating on
 * verdicts (docs/verdicts.md, "In CI"). Each annotation's verdict is written out by hand (the oracle).
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { runTool } from "../../server/src/agentTools/tools";
import { diskToolContext } from "../../server/src/mcp/diskContext";
import { runCli, runCliAsync } from "./cliRun";

const DOC = "Alpha beta gamma.\nDelta epsilon zeta.\nEta theta iota.\n";
const claim = (line: number, start: string, end: string) => ({
    path: "doc.md",
    start: { line, str: start },
    end: { line, str: end },
});
const source = (line: number, start: string, end: string, polarity: string) => ({
    ...claim(line, start, end),
    polarity,
    confidence: 0.8,
});

/** One annotation per verdict, in this order. */
const ANSWER = {
    annotations: [
        { claim: claim(1, "Alpha", "beta"), sources: [source(2, "Delta", "epsilon", "supports")] },
        { claim: claim(1, "gamma.", "gamma."), sources: [source(3, "Eta", "theta", "refutes")] },
        {
            claim: claim(2, "zeta.", "zeta."),
            sources: [source(3, "iota.", "iota.", "supports"), source(1, "Alpha", "Alpha", "refutes")],
        },
        { claim: claim(3, "Eta", "Eta"), sources: [source(2, "Omega", "zeta.", "supports")] },
        { claim: claim(2, "Delta", "Delta"), sources: [] },
    ],
};
const VERDICTS = ["supported", "refuted", "contested", "broken", "none"];

function setUp(answer: object = ANSWER): string {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "sc-verdict-"));
    fs.writeFileSync(path.join(root, "doc.md"), DOC);
    fs.writeFileSync(path.join(root, "answer.sourcecheck.json"), JSON.stringify(answer, null, 2));
    return root;
}

describe("verdict per entry and --fail-on", () => {
    let root: string;
    beforeEach(() => {
        root = setUp();
    });
    afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

    it("check --json and the MCP check tool give each entry its verdict", async () => {
        const cli = JSON.parse(runCli(["check", "answer.sourcecheck.json", "--json"], { cwd: root }).stdout);
        assert.deepEqual(
            cli.entries.map((e: { verdict: string }) => e.verdict),
            VERDICTS,
        );
        const tool = await runTool("check", { file: "answer.sourcecheck.json" }, diskToolContext(root));
        assert.ok(tool.ok);
        const entries = tool.structured.entries as { index: number; verdict: string }[];
        assert.deepEqual(
            entries.map((e) => e.verdict),
            VERDICTS,
        );
    });

    it("--fail-on fails a passing check on a listed verdict, and names the annotations", () => {
        const valid = { annotations: ANSWER.annotations.slice(0, 3) };
        fs.writeFileSync(path.join(root, "answer.sourcecheck.json"), JSON.stringify(valid));
        const args = ["check", "answer.sourcecheck.json"];
        assert.equal(runCli(args, { cwd: root }).status, 0);
        assert.equal(runCli([...args, "--fail-on", "broken"], { cwd: root }).status, 0);
        const gated = runCli([...args, "--fail-on", "refuted,contested"], { cwd: root });
        assert.equal(gated.status, 1, gated.stdout);
        assert.match(gated.stdout, /annotation 2 is refuted \(--fail-on refuted,contested\)/);
        assert.match(gated.stdout, /annotation 3 is contested/);
        assert.doesNotMatch(gated.stdout, /annotation 1 is/);
        const json = runCli([...args, "--json", "--fail-on", "supported"], { cwd: root });
        assert.equal(json.status, 1);
        const report = JSON.parse(json.stdout);
        assert.equal(report.exitCode, 1);
        assert.equal(report.ok, false);
        assert.deepEqual(report.gate, { failOn: ["supported"], failed: [{ annotation: 1, verdict: "supported" }] });
    });

    it("a schema error stays exit 2 whatever --fail-on says, and an unknown verdict is a usage error", () => {
        const args = ["check", "answer.sourcecheck.json"];
        // Annotation 5 has no sources: a schema error.
        assert.equal(runCli([...args, "--fail-on", "none"], { cwd: root }).status, 2);
        const wrong = runCli([...args, "--fail-on", "refuted,wrong"], { cwd: root });
        assert.equal(wrong.status, 2);
        assert.match(wrong.stderr, /unknown verdict "wrong"/);
    });

    it("gates each file of many (worker threads included)", async () => {
        const valid = { annotations: ANSWER.annotations.slice(0, 2) };
        fs.writeFileSync(path.join(root, "answer.sourcecheck.json"), JSON.stringify(valid));
        fs.writeFileSync(
            path.join(root, "other.sourcecheck.json"),
            JSON.stringify({ annotations: ANSWER.annotations.slice(0, 1) }),
        );
        const run = await runCliAsync(["check", ".", "--jobs", "2", "--fail-on", "refuted", "--json"], { cwd: root });
        assert.equal(run.status, 1, run.stdout + run.stderr);
        const files = JSON.parse(run.stdout).files as { file: string; exitCode: number }[];
        const exits = Object.fromEntries(files.map((f) => [path.basename(f.file), f.exitCode]));
        assert.deepEqual(exits, { "answer.sourcecheck.json": 1, "other.sourcecheck.json": 0 });
    });
});
