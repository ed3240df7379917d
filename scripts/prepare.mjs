// `prepare` (npm ci, npm pack, and npm's git installs): build dist/.
//
// In a clone whose dependencies are installed (npm ci) that is all. When npm prepares this repository
// as a git dependency of a global install (pre-commit's `language: node` hooks run `npm install -g
// git+file://…`), nothing is installed in the clone being prepared: install the build's dependencies
// (package.json's `buildDependencies`, at their locked versions) into it first, in a directory of
// their own that becomes the clone's node_modules. The package has no `dependencies`: dist/ is
// self-contained, and a dependency npm unpacked into the global folder at the same time as it
// unpacked this package raced it (ENOTEMPTY, docs/install.md "pre-commit").
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

function resolvable(name) {
    try {
        createRequire(join(root, "package.json")).resolve(name);
        return true;
    } catch {
        return false;
    }
}

function run(command, args, options = {}) {
    const r = spawnSync(command, args, { cwd: root, stdio: "inherit", ...options });
    if (r.status !== 0) {
        console.error(`[prepare] ${command} ${args.join(" ")} exited with ${r.status ?? r.signal}`);
        process.exit(1);
    }
}

/** `buildDependencies` pinned to the versions package-lock.json holds for them. */
export function lockedBuildDependencies(manifest, lock) {
    return Object.fromEntries(
        manifest.buildDependencies.map((name) => {
            const version = lock.packages?.[`node_modules/${name}`]?.version;
            if (!version) throw new Error(`[prepare] ${name} is a build dependency missing from package-lock.json`);
            return [name, version];
        }),
    );
}

function installBuildDependencies() {
    const read = (file) => JSON.parse(readFileSync(join(root, file), "utf8"));
    const dependencies = lockedBuildDependencies(read("package.json"), read("package-lock.json"));
    const staging = join(root, ".build-dependencies");
    rmSync(staging, { recursive: true, force: true });
    mkdirSync(staging);
    writeFileSync(join(staging, "package.json"), JSON.stringify({ private: true, dependencies }));
    // Never global, whatever the npm that prepares us was asked for.
    const env = { ...process.env, npm_config_global: "false", npm_config_location: "project" };
    run("npm", ["install", "--ignore-scripts", "--no-audit", "--no-fund", "--no-package-lock", "--global=false"], {
        cwd: staging,
        env,
    });
    rmSync(join(root, "node_modules"), { recursive: true, force: true });
    renameSync(join(staging, "node_modules"), join(root, "node_modules"));
    rmSync(staging, { recursive: true, force: true });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
    if (!resolvable("esbuild")) {
        console.log("[prepare] building a git install: installing the build's dependencies into the clone");
        installBuildDependencies();
    }
    run(process.execPath, [join(root, "scripts", "build.mjs")]);
}
