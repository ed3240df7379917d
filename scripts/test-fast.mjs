// `npm run test:fast`: the fast loop (scripts/test-plan.mjs FAST_TESTS) in seconds. No type check and
// no bundles: esbuild strips the types of the sources and tests into out/, where tsc would put them
// (`npm run lint` type-checks; `npm test` is the full gate and runs these files too).
import { spawnSync } from "node:child_process";
import { build } from "esbuild";
import { FAST_TESTS } from "./test-plan.mjs";

const root = new URL("..", import.meta.url).pathname;
await build({
    absWorkingDir: root,
    entryPoints: ["shared/**/*.ts", "server/src/**/*.ts", "client/src/**/*.ts", "test/unit/**/*.ts"],
    outdir: "out",
    outbase: ".",
    platform: "node",
    target: "node20",
    format: "cjs",
    // import() as require(), as tsc compiles it: Node's ESM loader would not find extensionless paths.
    supported: { "dynamic-import": false },
    sourcemap: "inline",
    logLevel: "warning",
});
const compiled = FAST_TESTS.map((file) => `out/${file.replace(/\.ts$/, ".js")}`);
const mocha = spawnSync(process.execPath, ["node_modules/mocha/bin/mocha.js", "--timeout", "20000", ...compiled], {
    cwd: root,
    stdio: "inherit",
});
process.exit(mocha.status ?? 1);
