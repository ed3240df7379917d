// `npm run test:fast`: the fast loop (scripts/test-plan.mjs FAST_TESTS) in seconds, on a fresh clone
// too. No type check and no bundles: scripts/fast-build.mjs strips the types of the tests and of what
// they import into out/, where tsc would put them (`npm run lint` type-checks; `npm test` is the full
// gate and runs these files too). Mocha's own reporter: its "N passing" is not the "N passed, N failed"
// line that closes `npm test` and .ci/run.
import { spawnSync } from "node:child_process";
import { buildFast } from "./fast-build.mjs";
import { FAST_TESTS } from "./test-plan.mjs";

const root = new URL("..", import.meta.url).pathname;
await buildFast(root, "out");
const compiled = FAST_TESTS.map((file) => `out/${file.replace(/\.ts$/, ".js")}`);
const mocha = spawnSync(process.execPath, ["node_modules/mocha/bin/mocha.js", "--timeout", "20000", ...compiled], {
    cwd: root,
    stdio: "inherit",
});
process.exit(mocha.status ?? 1);
