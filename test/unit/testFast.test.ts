/**
 * `npm run test:fast` on a fresh clone (scripts/test-fast.mjs, scripts/fast-build.mjs): with nothing
 * built, the fast loop builds every module its tests load. The oracle does not ask esbuild what the
 * tests import: it follows the `require("./…")` calls of the compiled files themselves, as Node will.
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";

const repo = path.resolve(__dirname, "../../..");
type FastBuild = {
    buildFast: (root: string, outdir: string) => Promise<{ compiled: string[]; copied: string[] }>;
};
type Plan = { FAST_TESTS: string[] };
// The scripts are ES modules; a CommonJS test reaches them through a real dynamic import.
const importModule = new Function("url", "return import(url)") as <T>(url: string) => Promise<T>;
const script = <T>(name: string) => importModule<T>(pathToFileURL(path.join(repo, "scripts", name)).href);

/** Node's resolution of a relative require, on the files that exist; undefined when none does. */
function resolveRelative(from: string, specifier: string): string | undefined {
    const base = path.resolve(path.dirname(from), specifier);
    const candidates = [base, `${base}.js`, `${base}.json`, path.join(base, "index.js")];
    return candidates.find((file) => fs.existsSync(file) && fs.statSync(file).isFile());
}

/** Follows every relative require from the entries; returns the files reached and the requires that miss. */
function walkRequires(entries: string[]): { reached: Set<string>; missing: string[] } {
    const reached = new Set<string>();
    const missing: string[] = [];
    const queue = [...entries];
    while (queue.length > 0) {
        const file = queue.pop() as string;
        if (reached.has(file)) continue;
        if (!fs.existsSync(file)) {
            missing.push(file);
            continue;
        }
        reached.add(file);
        if (!file.endsWith(".js")) continue;
        for (const match of fs.readFileSync(file, "utf8").matchAll(/\brequire\("(\.\.?\/[^"]*)"\)/g)) {
            const target = resolveRelative(file, match[1]);
            if (target) queue.push(target);
            else missing.push(`${match[1]} (required by ${path.relative(path.dirname(path.dirname(file)), file)})`);
        }
    }
    return { reached, missing };
}

describe("npm run test:fast on a fresh clone", () => {
    let outdir: string;
    before(() => {
        // Inside the repository, as out/ is: the compiled files find node_modules from there.
        fs.mkdirSync(path.join(repo, "test-results"), { recursive: true });
        outdir = fs.mkdtempSync(path.join(repo, "test-results", "fast-"));
    });
    after(() => fs.rmSync(outdir, { recursive: true, force: true }));

    it("builds every module and JSON file the fast tests require, into an empty directory", async function () {
        this.timeout(60_000);
        const { buildFast } = await script<FastBuild>("fast-build.mjs");
        const { FAST_TESTS } = await script<Plan>("test-plan.mjs");
        const built = await buildFast(repo, path.relative(repo, outdir));
        const entries = FAST_TESTS.map((file) => path.join(outdir, file.replace(/\.ts$/, ".js")));
        const { reached, missing } = walkRequires(entries);
        assert.deepEqual(missing, []);
        // What the fresh clone failed on: the protocol suite's harness and the config schema.
        assert.ok(reached.has(path.join(outdir, "test/protocol/harness.js")), "the harness is built");
        assert.ok(reached.has(path.join(outdir, "schemas/sourcecheck.config.schema.json")), "the schema is copied");
        assert.ok(reached.size > FAST_TESTS.length + 50, `${reached.size} files reached`);
        assert.ok(built.compiled.length >= reached.size - built.copied.length, "nothing reached that was not built");
    });

    it("the walk reports a require whose file was not built", () => {
        const dir = path.join(outdir, "walk-check");
        fs.mkdirSync(dir, { recursive: true });
        // Written through JSON.stringify so that this file's own compiled text holds no such require.
        const requireOf = (specifier: string) => `require(${JSON.stringify(specifier)});\n`;
        fs.writeFileSync(path.join(dir, "a.js"), requireOf("./b") + requireOf("node:fs"));
        fs.writeFileSync(path.join(dir, "b.js"), requireOf("../missing/schema.json"));
        const { reached, missing } = walkRequires([path.join(dir, "a.js")]);
        assert.equal(reached.size, 2);
        assert.equal(missing.length, 1);
        assert.match(missing[0], /^\.\.\/missing\/schema\.json /);
    });
});
