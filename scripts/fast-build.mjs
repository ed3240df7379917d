// What `npm run test:fast` compiles: the fast tests (scripts/test-plan.mjs FAST_TESTS) and every file
// they import, found by esbuild from the tests themselves, so a new import (a helper of the protocol
// suite, a JSON schema) is built without anyone listing it. The TypeScript files are stripped of their
// types into `outdir` where tsc would put them; the JSON files they import are copied there, as tsc
// copies them (resolveJsonModule). test/unit/testFast.test.ts checks the result from a fresh clone's view.
import { copyFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { build } from "esbuild";
import { FAST_TESTS } from "./test-plan.mjs";

const COMMON = {
    platform: "node",
    target: "node20",
    format: "cjs",
    // import() as require(), as tsc compiles it: Node's ESM loader would not find extensionless paths.
    supported: { "dynamic-import": false },
};

/** The repository files the tests import, transitively (packages stay outside: node_modules has them). */
export async function fastInputs(root, tests = FAST_TESTS) {
    const probe = await build({
        ...COMMON,
        absWorkingDir: root,
        entryPoints: tests,
        bundle: true,
        packages: "external",
        write: false,
        metafile: true,
        outdir: "probe",
        logLevel: "silent",
    });
    return Object.keys(probe.metafile.inputs).sort();
}

/** Builds the fast tests into `outdir` (relative to `root`); returns what it compiled and copied. */
export async function buildFast(root, outdir = "out", tests = FAST_TESTS) {
    const inputs = await fastInputs(root, tests);
    const compiled = inputs.filter((file) => /\.tsx?$/.test(file));
    const copied = inputs.filter((file) => file.endsWith(".json"));
    const other = inputs.filter((file) => !compiled.includes(file) && !copied.includes(file));
    if (other.length > 0) throw new Error(`test:fast cannot build these imports: ${other.join(", ")}`);
    await build({
        ...COMMON,
        absWorkingDir: root,
        entryPoints: compiled,
        outdir,
        outbase: ".",
        sourcemap: "inline",
        logLevel: "warning",
    });
    for (const file of copied) {
        const to = join(root, outdir, file);
        mkdirSync(dirname(to), { recursive: true });
        copyFileSync(join(root, file), to);
    }
    return { compiled, copied };
}
