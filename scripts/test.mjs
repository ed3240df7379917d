// `npm test`: build, then the unit, protocol, install and e2e suites, each after what it needs on the machine
// (scripts/test-plan.mjs); ends with one line "N passed, N failed"
// summing every suite, so a run that executed no test cannot pass for green.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { ensureDependencies } from "./ensure-deps.mjs";
import { ensureNeed, testPlan } from "./test-plan.mjs";

const root = new URL("..", import.meta.url).pathname;
// `--plan` prints the steps as JSON lines and runs nothing (test/unit/testPlan.test.ts reads it).
const planOnly = process.argv.includes("--plan");
const named = process.argv.slice(2).filter((a) => a !== "--plan");
// e2e-web: the extension in VS Code for the Web's web worker extension host (scripts/e2e-web.mjs, docs/web.md).
const suites = named.length > 0 ? named : ["unit", "protocol", "install", "e2e", "e2e-web"];
if (planOnly) {
    for (const step of testPlan(suites)) console.log(JSON.stringify(step));
    process.exit(0);
}

function run(command, args, env = {}) {
    const result = spawnSync(command, args, { cwd: root, stdio: "inherit", env: { ...process.env, ...env } });
    return result.status ?? 1;
}

const statsDir = join(root, "test-results");
mkdirSync(statsDir, { recursive: true });
ensureDependencies(root);
if (run("node", ["scripts/build.mjs"]) !== 0 || run("npx", ["tsc", "-p", "."]) !== 0) {
    console.log("0 passed, 1 failed");
    process.exit(1);
}

/** The compiled test files of a suite; the client's pure modules have their unit tests beside them. */
function specs(suite) {
    const own = `out/test/${suite}/**/*.test.js`;
    return suite === "unit" ? [own, "out/client/src/test/**/*.test.js"] : [own];
}

/** The display languages the e2e suite also runs in, each in its own window. */
const E2E_LOCALES = ["zh-cn"];

/** A suite's counts from its stats file; one that crashed or ran nothing counts as a failure. */
function countsOf(stats, status) {
    const counts = existsSync(stats) ? JSON.parse(readFileSync(stats, "utf8")) : { passed: 0, failed: 0 };
    if (status !== 0 && counts.failed === 0) counts.failed = 1;
    if (counts.passed + counts.failed === 0) counts.failed = 1;
    return counts;
}

let passed = 0;
let failed = 0;
const suiteEnv = {};
for (const step of testPlan(suites)) {
    if (step.ensure) {
        // A need that cannot be installed (no root, no apt) is reported here; the tests that need it
        // then fail with their own message, they are not skipped.
        try {
            Object.assign(suiteEnv, ensureNeed(step.ensure));
        } catch (error) {
            console.error(`[setup] could not install ${step.ensure}: ${error.message}`);
        }
        continue;
    }
    const suite = step.suite;
    const stats = join(statsDir, `${suite}.json`);
    rmSync(stats, { force: true });
    console.log(`\n=== ${suite} ===`);
    const env = { ...suiteEnv, SOURCECHECK_STATS: stats };
    const status =
        suite === "e2e"
            ? run("node", ["scripts/e2e.mjs"], env)
            : suite === "e2e-web"
              ? run("node", ["scripts/e2e-web.mjs"], env)
              : run(
                    "npx",
                    ["mocha", "--reporter", "scripts/mocha-reporter.cjs", "--timeout", "20000", ...specs(suite)],
                    env,
                );
    const counts = countsOf(stats, status);
    if (suite === "e2e") {
        // A second, short window in Simplified Chinese runs test/e2e/zh-cn/ (docs/localization.md), whole.
        for (const locale of E2E_LOCALES) {
            const localeStats = join(statsDir, `e2e-${locale}.json`);
            rmSync(localeStats, { force: true });
            console.log(`\n=== e2e (${locale}) ===`);
            // No grep: a subset chosen for the English window would leave this one empty.
            const localeEnv = { ...env, SOURCECHECK_STATS: localeStats, SOURCECHECK_E2E_LOCALE: locale };
            const more = countsOf(
                localeStats,
                run("node", ["scripts/e2e.mjs"], { ...localeEnv, SOURCECHECK_E2E_GREP: "" }),
            );
            counts.passed += more.passed;
            counts.failed += more.failed;
        }
    }
    console.log(`${suite}: ${counts.passed} passed, ${counts.failed} failed`);
    passed += counts.passed;
    failed += counts.failed;
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
