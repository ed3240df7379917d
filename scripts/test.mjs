// `npm test`: build, then the unit, protocol and e2e suites; ends with one line "N passed, N failed"
// summing every suite, so a run that executed no test cannot pass for green.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { ensureDependencies } from "./ensure-deps.mjs";

const root = new URL("..", import.meta.url).pathname;
const suites = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ["unit", "protocol", "e2e"];
const statsDir = join(root, "test-results");
mkdirSync(statsDir, { recursive: true });

function run(command, args, env = {}) {
    const result = spawnSync(command, args, { cwd: root, stdio: "inherit", env: { ...process.env, ...env } });
    return result.status ?? 1;
}

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

let passed = 0;
let failed = 0;
for (const suite of suites) {
    const stats = join(statsDir, `${suite}.json`);
    rmSync(stats, { force: true });
    console.log(`\n=== ${suite} ===`);
    const status =
        suite === "e2e"
            ? run("node", ["scripts/e2e.mjs"], { SOURCECHECK_STATS: stats })
            : run("npx", ["mocha", "--reporter", "scripts/mocha-reporter.cjs", "--timeout", "20000", ...specs(suite)], {
                  SOURCECHECK_STATS: stats,
              });
    const counts = existsSync(stats) ? JSON.parse(readFileSync(stats, "utf8")) : { passed: 0, failed: 0 };
    if (status !== 0 && counts.failed === 0) counts.failed = 1; // a suite that crashed counts as a failure
    if (counts.passed + counts.failed === 0) counts.failed = 1; // and so does one that ran nothing
    console.log(`${suite}: ${counts.passed} passed, ${counts.failed} failed`);
    passed += counts.passed;
    failed += counts.failed;
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
