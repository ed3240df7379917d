// What `npm start` opens (docs/editor-features.md, "Trying the demo"): a fresh copy of examples/demo in
// the git-ignored .vscode-test/start/demo, made again on every run, so trying the quick fixes never
// writes the tracked demo and the next run shows the broken refs again. Auto save is off in the
// copy's own settings and in the offline server's profile: a fix is on disk only when it is saved.
// The copy is a git repository of its own: inside this one it would sit under an ignored folder,
// and the editor's scan, like git, lists nothing there; its first commit also lets `git diff` show
// what trying the demo changed.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * The settings of the demo copy and of the offline server's profile: no auto save, and no Welcome
 * page or walkthrough over the demo's answer.md (npm start opens that file).
 */
export const START_SETTINGS = {
    "files.autoSave": "off",
    "workbench.startupEditor": "none",
    "workbench.welcomePage.walkthroughs.openOnInstall": false,
};

/** Only in the offline server's own profile: the demo copy is trusted, no trust dialog first. */
export const PROFILE_SETTINGS = { ...START_SETTINGS, "security.workspace.trust.enabled": false };

/** The file npm start opens in the demo copy: the answer whose claims the demo checks. */
export const START_FILE = "answer.md";

/**
 * The desktop `code` command line: the demo folder with its answer.md open, trusted (the copy is made
 * by this script from the repository's own demo), the extension loaded from the repository.
 */
export function desktopArgs(repoRoot, demo) {
    return [`--extensionDevelopmentPath=${repoRoot}`, "--disable-workspace-trust", demo, join(demo, START_FILE)];
}

/** The folder npm start works in, below `root`: its demo copy and the offline server's data. */
export function startFolders(root) {
    const start = join(root, ".vscode-test", "start");
    return { start, demo: join(start, "demo"), data: join(start, "vscode-data") };
}

/** Removes any earlier copy and copies examples/demo afresh; returns the folders. */
export function prepareDemo(root) {
    const folders = startFolders(root);
    rmSync(folders.demo, { recursive: true, force: true });
    cpSync(join(root, "examples", "demo"), folders.demo, { recursive: true });
    writeSettings(join(folders.demo, ".vscode"));
    commitCopy(folders.demo);
    // The web workbench reads the user's settings from these two places of the server's data.
    writeSettings(join(folders.data, "user", "User"), PROFILE_SETTINGS);
    writeSettings(join(folders.data, "server", "data", "User"), PROFILE_SETTINGS);
    return folders;
}

function commitCopy(dir) {
    const git = (...args) => spawnSync("git", args, { cwd: dir, encoding: "utf8" });
    const identity = [
        "-c",
        "user.name=SourceCheck demo",
        "-c",
        "user.email=demo@localhost",
        "-c",
        "commit.gpgsign=false",
    ];
    const steps = [
        ["init", "-q"],
        ["add", "-A"],
        [...identity, "commit", "-q", "-m", "The demo as examples/demo has it"],
    ];
    for (const step of steps) {
        const result = git(...step);
        if (result.status !== 0)
            throw new Error(`git ${step.join(" ")} in ${dir} failed: ${result.error?.message ?? result.stderr}`);
    }
}

/** `wanted` over what else a person set in that profile (when it reads as plain JSON). */
function writeSettings(dir, wanted = START_SETTINGS) {
    mkdirSync(dir, { recursive: true });
    const file = join(dir, "settings.json");
    let settings = {};
    try {
        if (existsSync(file)) settings = JSON.parse(readFileSync(file, "utf8"));
    } catch {}
    writeFileSync(file, `${JSON.stringify({ ...settings, ...wanted }, null, 4)}\n`);
}
