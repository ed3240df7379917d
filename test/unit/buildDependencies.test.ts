/**
 * What a git install builds with (docs/install.md, "pre-commit"): the package has no `dependencies`
 * (dist/ is self-contained), and `buildDependencies` names every package the bundled sources import,
 * so that `scripts/prepare.mjs` can build in a bare clone from those alone, at their locked versions.
 */
import * as assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";

const repo = path.resolve(__dirname, "../../..");
const manifest = JSON.parse(fs.readFileSync(path.join(repo, "package.json"), "utf8"));
const lock = JSON.parse(fs.readFileSync(path.join(repo, "package-lock.json"), "utf8"));

/** The package names the bundled sources import (bare specifiers), found by reading the sources. */
function importedPackages(): Set<string> {
    const names = new Set<string>();
    const visit = (dir: string) => {
        for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
            const file = path.join(dir, entry.name);
            if (entry.isDirectory()) visit(file);
            else if (/\.ts$/.test(entry.name)) {
                const text = fs.readFileSync(file, "utf8");
                for (const m of text.matchAll(/(?:from |import\(|require\()\s*"([^".][^"]*)"/g)) {
                    const specifier = m[1];
                    if (specifier.startsWith("node:") || specifier === "vscode") continue;
                    const parts = specifier.split("/");
                    names.add(specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]);
                }
            }
        }
    };
    for (const dir of ["server/src", "client/src", "shared"]) visit(path.join(repo, dir));
    return names;
}

/** scripts/prepare.mjs's pinning of a manifest's build dependencies, run as an ES module; or its error. */
function pinnedByPrepare(of: unknown): Record<string, string> {
    const script = `import { lockedBuildDependencies } from ${JSON.stringify(path.join(repo, "scripts", "prepare.mjs"))};
import { readFileSync } from "node:fs";
const lock = JSON.parse(readFileSync(${JSON.stringify(path.join(repo, "package-lock.json"))}, "utf8"));
try { console.log(JSON.stringify(lockedBuildDependencies(${JSON.stringify(of)}, lock))); }
catch (e) { console.log(JSON.stringify({ error: e.message })); }`;
    return JSON.parse(execFileSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" }));
}

describe("build dependencies of a git install", () => {
    it("the package declares no dependencies: nothing is installed beside the self-contained dist/", () => {
        assert.equal(manifest.dependencies, undefined);
    });

    it("buildDependencies holds esbuild and every package the sources import", () => {
        const declared = new Set<string>(manifest.buildDependencies);
        const imported = importedPackages();
        assert.ok(imported.size >= 10, `found only ${imported.size} imported packages`);
        const missing = [...imported, "esbuild"].filter((name) => !declared.has(name));
        assert.deepEqual(missing, []);
    });

    it("every build dependency is a locked development dependency, pinned as prepare pins it", () => {
        const pinned = pinnedByPrepare(manifest);
        for (const name of manifest.buildDependencies) {
            assert.ok(manifest.devDependencies[name], `${name} is not in devDependencies`);
            assert.equal(pinned[name], lock.packages[`node_modules/${name}`].version, name);
        }
        assert.match(
            JSON.stringify(pinnedByPrepare({ buildDependencies: ["no-such-package"] })),
            /no-such-package is a build dependency missing from package-lock\.json/,
        );
    });
});
