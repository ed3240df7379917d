/**
 * What both browser-twin tests share: the small demo they serve from memory (one annotation whose claim
 * and source resolve, in a folder of the `sourcecheck-mem:` scheme, no `file:` URI anywhere), and the
 * bundling of a test entry as the web worker gets it (the web twins of scripts/web-build.mjs swapped in).
 */
import * as assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

const repo = path.resolve(__dirname, "../../..");

/**
 * Bundles `entry` (its text, given a quoter of server/src module paths) with scripts/web-build.mjs's web
 * options, and loads it. A build that fails fails the test with esbuild's messages.
 */
export function loadWebEntry<T>(name: string, entry: (server: (module: string) => string) => string): T {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), `sc-${name}-`));
    const entryFile = path.join(dir, "entry.ts");
    const out = path.join(dir, "out.js");
    fs.writeFileSync(
        entryFile,
        entry((module) => JSON.stringify(path.join(repo, "server", "src", module))),
    );
    const webBuild = JSON.stringify(path.join(repo, "scripts", "web-build.mjs"));
    const built = spawnSync(
        process.execPath,
        [
            "--input-type=module",
            "-e",
            `import * as web from ${webBuild};
            import { build } from "esbuild";
            await build({ ...web.webOptions(), logLevel: "silent", sourcemap: false, entryPoints: [${JSON.stringify(entryFile)}],
                outfile: ${JSON.stringify(out)}, define: { SOURCECHECK_VERSION: '"test"' },
                nodePaths: [${JSON.stringify(path.join(repo, "node_modules"))}] })
                .catch((e) => { console.log(e.errors.map((x) => x.text).join("\\n")); process.exit(1); });`,
        ],
        { cwd: repo, encoding: "utf8" },
    );
    assert.equal(built.status, 0, built.stdout + built.stderr);
    return require(out) as T;
}
export const WEB_ANSWER = JSON.stringify({
    annotations: [
        {
            claim: { path: "answer.md", start: { line: 1, str: "Cold" }, end: { line: 1, str: "faster." } },
            sources: [
                {
                    path: "sources/benchmark.txt",
                    start: { line: 4, str: "delta" },
                    end: { line: 4, str: "-37%" },
                    polarity: "supports",
                    confidence: 0.9,
                },
            ],
        },
    ],
});

export const WEB_BENCHMARK = "Cold start, median of 50 runs\n2.3.0: 820ms\n2.4.0: 517ms\ndelta: -37%\n";
