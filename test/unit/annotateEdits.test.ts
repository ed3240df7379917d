/**
 * annotate edits without re-sending (docs/annotate.md): several annotations in one call, one source
 * replaced or removed by { annotation, source } numbered from 1, and `replace: N` (the tool) and
 * `--replace N` (the CLI) naming the same annotation (docs/contract.md, "Numbers").
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { runTool } from "../../server/src/agentTools/tools";
import { diskToolContext } from "../../server/src/mcp/diskContext";
import { runCli } from "./cliRun";
import { driftedWorkspace, FILE, GUIDE } from "./driftWorkspace";

const claim = (quote: string) => ({ path: "answer.md", quote });
const source = (quote: string, polarity = "supports") => ({ path: GUIDE, quote, polarity, confidence: 0.8 });

function annotations(root: string) {
    return JSON.parse(fs.readFileSync(path.join(root, FILE), "utf8")).annotations as {
        claim: { start: { line: number } };
        sources: { start: { line: number; str: string }; polarity: string }[];
    }[];
}

describe("annotate: several at once, one source by number, replace numbered as the CLI numbers", () => {
    it("appends several annotations in one call, all or nothing", async () => {
        const root = driftedWorkspace({ git: false });
        const context = diskToolContext(root);
        const two = [
            { claim: claim("Orbit resumes sync offline"), sources: [source("Offline sync resumes")] },
            { claim: claim("Windows support comes later"), sources: [source("Windows support is planned")] },
        ];
        const bad = await runTool(
            "annotate",
            { file: FILE, annotations: [...two, { ...two[0], sources: [source("no such words")] }], write: true },
            context,
        );
        assert.equal(bad.ok, false);
        assert.equal(annotations(root).length, 3, "nothing written when one quote fails");
        const done = await runTool("annotate", { file: FILE, annotations: two, write: true }, context);
        assert.ok(done.ok, JSON.stringify(done));
        assert.deepEqual(
            (done.structured.added as { annotation: number }[]).map((a) => a.annotation),
            [4, 5],
        );
        assert.equal(annotations(root).length, 5);
    });

    it("replaces and removes one source by { annotation, source } from 1", async () => {
        const root = driftedWorkspace({ git: false });
        const context = diskToolContext(root);
        const replaced = await runTool(
            "annotate",
            {
                file: FILE,
                replace: { annotation: 3, source: 2 },
                sources: [source("Linux packages", "refutes")],
                write: true,
            },
            context,
        );
        assert.ok(replaced.ok, JSON.stringify(replaced));
        assert.equal(annotations(root)[2].sources[1].polarity, "refutes");
        assert.equal(annotations(root)[2].sources[1].start.str, "Linux");
        assert.equal(annotations(root)[2].sources[0].polarity, "supports", "source 1 untouched");
        const removed = await runTool(
            "annotate",
            { file: FILE, remove: { annotation: 1, source: 2 }, write: true },
            context,
        );
        assert.ok(removed.ok, JSON.stringify(removed));
        assert.equal(annotations(root)[0].sources.length, 1);
        const missing = await runTool("annotate", { file: FILE, remove: { annotation: 1, source: 2 } }, context);
        assert.ok(!missing.ok && missing.error.code === "no-such-source", JSON.stringify(missing));
        assert.match(
            missing.ok ? "" : missing.error.message,
            /annotation 1 of .* has no source 2 \(it has 1, numbered 1 to 1\)/,
        );
    });

    it("replace: N and --replace N replace the same annotation; another claim is refused unless forced", async () => {
        const root = driftedWorkspace({ git: false });
        const context = diskToolContext(root);
        const again = {
            claim: claim("It starts cold in under two seconds and uses a third less memory."),
            sources: [source("Cold start takes", "refutes")],
        };
        const viaTool = await runTool("annotate", { file: FILE, ...again, replace: 2, write: true }, context);
        assert.ok(viaTool.ok, JSON.stringify(viaTool));
        const afterTool = annotations(root);
        assert.equal(afterTool[1].sources[0].polarity, "refutes");
        const other = driftedWorkspace({ git: false });
        const args = [
            "annotate",
            FILE,
            "--claim",
            "answer.md",
            again.claim.quote,
            "--source",
            "refutes",
            "0.8",
            GUIDE,
            "Cold start takes",
            "--replace",
            "2",
            "--write",
        ];
        const viaCli = runCli(args, { cwd: other });
        assert.equal(viaCli.status, 0, viaCli.stderr);
        assert.deepEqual(annotations(other), afterTool);
        const mismatch = await runTool("annotate", { file: FILE, ...again, replace: 1 }, context);
        assert.ok(!mismatch.ok && mismatch.error.code === "replace-mismatch", JSON.stringify(mismatch));
        assert.match(
            mismatch.ok ? "" : mismatch.error.message,
            /^annotation 1 of answer\.sourcecheck\.json claims "Orbit resumes sync/,
        );
        const forced = await runTool("annotate", { file: FILE, ...again, replace: 1, force: true }, context);
        assert.ok(forced.ok);
        const cliMismatch = runCli([...args.slice(0, -3), "--replace", "1"], { cwd: other });
        assert.equal(cliMismatch.status, 1);
        assert.match(cliMismatch.stderr, /replace-mismatch/);
    });

    it("a number a model counted from 0 is refused with the numbering in the error", async () => {
        const root = driftedWorkspace({ git: false });
        const context = diskToolContext(root);
        const cases: [string, Record<string, unknown>, RegExp][] = [
            ["index", { path: GUIDE, startLine: 0 }, /^index: startLine: .*\(lines count from 1\)$/],
            ["annotate", { file: FILE, remove: 0 }, /remove: .*\(annotations count from 1\)/],
            [
                "annotate",
                { file: FILE, remove: { annotation: 1, source: 0 } },
                /remove\.source: .*\(sources count from 1\)/,
            ],
            [
                "check",
                {
                    annotations: [
                        { claim: { path: "a", start: { line: 0, str: "x" }, end: { line: 1, str: "y" } }, sources: [] },
                    ],
                },
                /lines count from 1/,
            ],
        ];
        for (const [tool, args, expected] of cases) {
            const result = await runTool(tool, args, context);
            const said = result.ok ? result.text : result.error.message;
            assert.match(said, expected, `${tool} ${JSON.stringify(args)}`);
        }
    });
});
