/**
 * Work bounded, not only bytes (docs/security.md, "Resource bounds"): each test counts steps or
 * output, never time.
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { compileGlob, GlobError, globProblem, globSteps, MAX_ALTERNATIVES } from "../../server/src/workspace/globs";
import { runCliAsync } from "./cliRun";

describe("hardening: linear globs", () => {
    it("@(a|aa|aaa) repeated k times then b: refused past the budget, else matched in steps linear in the name", () => {
        let accepted = 0;
        for (let k = 1; k <= 20; k++) {
            const pattern = `${"@(a|aa|aaa)".repeat(k)}b`;
            if (3 ** k > MAX_ALTERNATIVES) {
                assert.match(globProblem(pattern) ?? "", /alternatives/, `k = ${k}`);
                assert.throws(() => compileGlob(pattern), GlobError);
                continue;
            }
            accepted++;
            const matches = compileGlob(pattern);
            const stepsFor = (name: string) => {
                const before = globSteps();
                matches(name);
                return globSteps() - before;
            };
            // Near misses (no b): the worst case of a backtracking match.
            const short = stepsFor("a".repeat(100));
            const long = stepsFor("a".repeat(200));
            assert.ok(short > 0, "the matcher counted its steps");
            assert.ok(long <= 2 * short + 3 ** k, `k = ${k}: ${short} steps for 100, ${long} for 200`);
            assert.ok(long <= 3 ** k * 201, `k = ${k}: ${long} steps`);
            assert.equal(matches(`${"a".repeat(k)}b`), true);
            assert.equal(matches(`${"a".repeat(3 * k)}b`), true);
            assert.equal(matches(`${"a".repeat(3 * k + 1)}b`), false);
        }
        assert.equal(accepted, 5);
        // Repeated groups of alternatives are refused outright.
        assert.match(globProblem("+(a|aa)b") ?? "", /repeats a group/);
    });

    it("the CLI refuses such a glob with exit 2, as --exclude and as a path", async () => {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sourcecheck-globs-"));
        try {
            fs.writeFileSync(path.join(dir, "a.sourcecheck.json"), "[]");
            const hostile = `${"@(a|aa|aaa)".repeat(20)}b`;
            for (const args of [
                ["check", "--exclude", hostile, "."],
                ["check", `${hostile}/*.sourcecheck.json`],
            ]) {
                const run = await runCliAsync(args, { cwd: dir });
                assert.equal(run.status, 2, `${args.join(" ")}: ${run.stdout}${run.stderr}`);
                assert.match(run.stderr, /alternatives/);
            }
        } finally {
            fs.rmSync(dir, { recursive: true, force: true });
        }
    });
});
