/**
 * `npm test` on a fresh machine (scripts/test.mjs, scripts/test-plan.mjs): what a suite needs on the
 * machine (Chromium for the unit suite's render test) is installed before that suite, not by a
 * later one.
 */
import * as assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";

const repo = path.resolve(__dirname, "../../..");
type Step = { ensure?: string; suite?: string };
type Plan = {
    SUITE_NEEDS: Record<string, string[]>;
    testPlan: (suites: string[]) => Step[];
    FAST_TESTS: string[];
};
// The scripts are ES modules; a CommonJS test reaches them through a real dynamic import.
const importModule = new Function("url", "return import(url)") as (url: string) => Promise<Plan>;

/** The runner's own plan, as `node scripts/test.mjs --plan SUITE...` prints it. */
function runnerPlan(suites: string[]): Step[] {
    const r = spawnSync(process.execPath, ["scripts/test.mjs", "--plan", ...suites], { cwd: repo, encoding: "utf8" });
    assert.equal(r.status, 0, r.stderr);
    return r.stdout
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line));
}

/** Independent oracle: every suite is preceded by an ensure step for each of its needs. */
function assertNeedsComeFirst(steps: Step[], needs: Record<string, string[]>) {
    steps.forEach((step, i) => {
        if (!step.suite) return;
        for (const need of needs[step.suite] ?? []) {
            const at = steps.findIndex((s) => s.ensure === need);
            assert.ok(at >= 0 && at < i, `${need} is ensured before the ${step.suite} suite: ${JSON.stringify(steps)}`);
        }
    });
}

describe("npm test: install order on a fresh machine", () => {
    it("the runner ensures Chromium before the unit suite, in the README's order and in any other", () => {
        assert.deepEqual(runnerPlan([]), [
            { ensure: "chromium" },
            { suite: "unit" },
            { suite: "protocol" },
            { suite: "install" },
            { suite: "e2e" },
            { suite: "e2e-web" },
        ]);
        assert.deepEqual(runnerPlan(["protocol", "unit"]), [
            { suite: "protocol" },
            { ensure: "chromium" },
            { suite: "unit" },
        ]);
    });

    it("the unit suite needs Chromium (its render test drives one)", async () => {
        const { SUITE_NEEDS } = await importModule(pathToFileURL(path.join(repo, "scripts/test-plan.mjs")).href);
        assert.ok(SUITE_NEEDS.unit.includes("chromium"));
    });

    it("every order of suites installs each need once, before its first suite", async () => {
        const { SUITE_NEEDS, testPlan } = await importModule(
            pathToFileURL(path.join(repo, "scripts/test-plan.mjs")).href,
        );
        const all = ["unit", "protocol", "install", "e2e"];
        const orders: string[][] = [];
        const permute = (rest: string[], done: string[]) => {
            if (done.length > 0) orders.push(done);
            for (const s of rest)
                permute(
                    rest.filter((x) => x !== s),
                    [...done, s],
                );
        };
        permute(all, []);
        orders.push(["protocol", "unit", "unit"]);
        assert.equal(orders.length, 65);
        for (const order of orders) {
            const steps = testPlan(order);
            assert.deepEqual(
                steps.filter((s) => s.suite).map((s) => s.suite),
                order,
            );
            assertNeedsComeFirst(steps, SUITE_NEEDS);
            const ensures = steps.filter((s) => s.ensure).map((s) => s.ensure);
            assert.equal(new Set(ensures).size, ensures.length, "each need once");
        }
    });
});

describe("npm run test:fast", () => {
    it("runs only test files that exist and that the unit suite of npm test runs too", async () => {
        const { FAST_TESTS } = await importModule(pathToFileURL(path.join(repo, "scripts/test-plan.mjs")).href);
        assert.ok(FAST_TESTS.length >= 20, `${FAST_TESTS.length} files`);
        assert.equal(new Set(FAST_TESTS).size, FAST_TESTS.length, "no file twice");
        for (const file of FAST_TESTS) {
            assert.ok(fs.existsSync(path.join(repo, file)), `${file} exists`);
            // The unit suite's files (scripts/test.mjs specs): test/unit/ and the client's tests beside its modules.
            assert.match(file, /^(test\/unit|client\/src\/test)\/[^/]+\.test\.ts$/, file);
        }
    });
});
