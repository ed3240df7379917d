// `prepare` (npm ci, npm pack, and npm's git installs): build dist/.
//
// In a clone whose dependencies are installed (npm ci) that is all. When npm prepares this repository
// as a git dependency of a global install (pre-commit's `language: node` hooks run `npm install -g
// git+file://…`), it puts the dependencies in the global folder, not in the clone being prepared, so
// esbuild and the libraries it bundles are not there: install the locked runtime dependencies (esbuild
// among them, docs/install.md) into the clone first. The installed package then needs none of them:
// dist/ is self-contained.
import { spawnSync } from "node:child_process";
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

function run(command, args, env = process.env) {
    const r = spawnSync(command, args, { cwd: root, stdio: "inherit", env });
    if (r.status !== 0) {
        console.error(`[prepare] ${command} ${args.join(" ")} exited with ${r.status ?? r.signal}`);
        process.exit(1);
    }
}

if (!resolvable("esbuild")) {
    console.log("[prepare] building a git install: installing the build's dependencies into the clone");
    // Not global, whatever the npm that prepares us was asked for.
    const env = { ...process.env, npm_config_global: "false", npm_config_location: "project" };
    run("npm", ["ci", "--omit=dev", "--ignore-scripts", "--no-audit", "--no-fund", "--global=false"], env);
}
run(process.execPath, [join(root, "scripts", "build.mjs")]);
