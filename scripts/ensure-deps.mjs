// The README's two commands must work on a fresh clone: install the locked dependencies first when
// node_modules is missing or older than package-lock.json (npm ci also builds dist/ via `prepare`).
import { spawnSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";

export function ensureDependencies(root) {
    const installed = join(root, "node_modules", ".package-lock.json");
    const lock = join(root, "package-lock.json");
    if (existsSync(installed) && statSync(installed).mtimeMs >= statSync(lock).mtimeMs) return;
    console.log("[setup] installing dependencies (npm ci)");
    const result = spawnSync("npm", ["ci", "--no-audit", "--no-fund"], { cwd: root, stdio: "inherit" });
    if (result.status !== 0) throw new Error(`npm ci failed with status ${result.status ?? result.signal}`);
}
