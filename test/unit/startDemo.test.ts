/**
 * `npm start` opens a fresh copy of the demo (scripts/start.mjs, scripts/start-demo.mjs): trying the
 * quick fixes writes the copy, never the tracked examples/demo, and the next run starts from the demo
 * again (issue 34, item 1). The preparation runs as npm start runs it: `node scripts/start.mjs
 * --prepare-only` stops where the build would begin.
 */
import * as assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";

const repo = path.resolve(__dirname, "../../..");
const demo = path.join(repo, "examples", "demo");
type StartDemo = {
    startFolders: (root: string) => { start: string; demo: string; data: string };
    desktopArgs: (root: string, demo: string) => string[];
};
type Install = { workbenchUrl: (opts: Record<string, unknown>) => string };
// The scripts are ES modules; a CommonJS test reaches them through a real dynamic import.
const importModule = new Function("url", "return import(url)") as <T = StartDemo>(url: string) => Promise<T>;

function git(cwd: string, ...args: string[]): string {
    const result = spawnSync("git", args, { cwd, encoding: "utf8" });
    assert.equal(result.status, 0, `git ${args.join(" ")}: ${result.stderr}`);
    return result.stdout;
}

/** Every file below `dir` (no .git) with its bytes, by relative path. */
function snapshot(dir: string, skip: ReadonlySet<string> = new Set([".git"])): Map<string, string> {
    const files = new Map<string, string>();
    const walk = (at: string) => {
        for (const entry of readdirSync(at, { withFileTypes: true })) {
            if (skip.has(entry.name)) continue;
            const full = path.join(at, entry.name);
            if (entry.isDirectory()) walk(full);
            else files.set(path.relative(dir, full), readFileSync(full, "base64"));
        }
    };
    walk(dir);
    return files;
}

function prepare(): void {
    const result = spawnSync(process.execPath, ["scripts/start.mjs", "--prepare-only"], {
        cwd: repo,
        encoding: "utf8",
    });
    assert.equal(result.status, 0, result.stderr);
}

describe("npm start: the demo is tried in a copy", () => {
    it("leaves git status clean and the tracked demo as it was, and starts afresh each run", async () => {
        const { startFolders } = await importModule(pathToFileURL(path.join(repo, "scripts", "start-demo.mjs")).href);
        const folders = startFolders(repo);
        const statusBefore = git(repo, "status", "--porcelain");
        const demoBefore = snapshot(demo);

        prepare();
        const copy = snapshot(folders.demo, new Set([".git", ".vscode"]));
        assert.deepEqual(copy, demoBefore, "the copy holds exactly the demo's files");
        assert.equal(git(repo, "check-ignore", folders.demo).trim(), folders.demo, "git ignores the copy");
        for (const settings of [
            path.join(folders.demo, ".vscode", "settings.json"),
            path.join(folders.data, "user", "User", "settings.json"),
            path.join(folders.data, "server", "data", "User", "settings.json"),
        ]) {
            const written = JSON.parse(readFileSync(settings, "utf8"));
            assert.equal(written["files.autoSave"], "off", settings);
            // The answer opens alone: no Welcome page, no walkthrough over it.
            assert.equal(written["workbench.startupEditor"], "none", settings);
            assert.equal(written["workbench.welcomePage.walkthroughs.openOnInstall"], false, settings);
            // The server's profile trusts the copy (no trust dialog first); the copy's own settings cannot.
            if (!settings.startsWith(folders.demo))
                assert.equal(written["security.workspace.trust.enabled"], false, settings);
        }
        assert.equal(git(folders.demo, "status", "--porcelain"), "", "the copy starts committed: git diff shows a try");

        // What trying the demo did in issue 34: a quick fix saved, a lock file written.
        const annotations = path.join(folders.demo, "answer.sourcecheck.json");
        writeFileSync(annotations, readFileSync(annotations, "utf8").replace("planned for 2.6.", "planned for 2.5."));
        writeFileSync(path.join(folders.demo, "answer.sourcecheck.lock.json"), "{}\n");
        assert.equal(git(repo, "status", "--porcelain"), statusBefore, "trying the demo changes nothing git sees");
        assert.deepEqual(snapshot(demo), demoBefore, "the tracked demo is never written");

        prepare();
        assert.deepEqual(
            snapshot(folders.demo, new Set([".git", ".vscode"])),
            demoBefore,
            "the next run starts afresh",
        );
        assert.ok(!existsSync(path.join(folders.demo, "answer.sourcecheck.lock.json")));
        assert.equal(git(repo, "status", "--porcelain"), statusBefore);
    });

    it("opens the copy's answer.md, trusted: on the desktop and in the offline server's workbench", async () => {
        const { startFolders, desktopArgs } = await importModule(
            pathToFileURL(path.join(repo, "scripts", "start-demo.mjs")).href,
        );
        const { demo: copy } = startFolders(repo);
        const args = desktopArgs(repo, copy);
        assert.ok(args.includes("--disable-workspace-trust"), args.join(" "));
        assert.ok(args.includes(copy) && args.includes(path.join(copy, "answer.md")), args.join(" "));
        assert.ok(existsSync(path.join(demo, "answer.md")), "the demo has the answer opened");
        const { workbenchUrl } = await importModule<Install>(
            pathToFileURL(path.join(repo, "scripts", "e2e-install.mjs")).href,
        );
        const url = new URL(workbenchUrl({ port: 4000, folder: copy, openFile: path.join(copy, "answer.md") }));
        const payload = JSON.parse(url.searchParams.get("payload") ?? "[]") as [string, string][];
        assert.deepEqual(payload, [["openFile", `vscode-remote://127.0.0.1:4000${path.join(copy, "answer.md")}`]]);
        assert.equal(url.searchParams.get("folder"), copy);
    });
});
