// Installs, once, the offline VS Code that the e2e suite and `npm start` use where no desktop VS Code
// can be downloaded: the VS Code server inside the `code-server` npm package, driven by Debian's
// Chromium (see test/e2e/README.md).
//
//   node scripts/e2e-install.mjs        install what is missing, print what was done
//
// Exports for other scripts (scripts/start.mjs, scripts/e2e.mjs):
//   ensureOfflineVSCode({ log })        idempotent install; returns { serverMain, chromium, version }
//   startVSCodeServer({ ... })          start server-main.js on a free port; returns { port, url(), stop() }
//   workbenchUrl({ ... })               the workbench URL with folder and dev/test payload
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const CODE_SERVER_VERSION = "4.100.3"; // VS Code 1.100.3; engines.node 20 (newer ones want 22+)
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const installDir = join(repoRoot, ".vscode-test", "code-server");
const codeServerDir = join(installDir, "node_modules", "code-server");
export const serverMain = join(codeServerDir, "lib", "vscode", "out", "server-main.js");
const marker = join(installDir, ".installed");
// libkrb5-dev: kerberos compiles against GSSAPI during the install; ripgrep: seeds @vscode/ripgrep;
// chromium: runs the workbench; fonts-wqy-microhei (1.6 MB): CJK glyphs in the screenshots (the demo
// cites a Chinese survey).
const APT_PACKAGES = ["libkrb5-dev", "ripgrep", "chromium", "fonts-wqy-microhei"];

const chromiumCandidates = [
    process.env.SOURCECHECK_CHROMIUM,
    "/usr/bin/chromium",
    "/usr/bin/chromium-browser",
    "/usr/bin/google-chrome",
].filter(Boolean);

export function findChromium() {
    return chromiumCandidates.find((p) => existsSync(p));
}

function which(cmd) {
    const r = spawnSync("sh", ["-c", `command -v ${cmd}`], { encoding: "utf8" });
    return r.status === 0 ? r.stdout.trim() : undefined;
}

function dpkgInstalled(pkg) {
    const r = spawnSync("dpkg-query", ["-W", `-f=\${Status}`, pkg], { encoding: "utf8" });
    return r.status === 0 && r.stdout.includes("install ok installed");
}

function runOrThrow(cmd, args, opts = {}) {
    const r = spawnSync(cmd, args, { stdio: "inherit", ...opts });
    if (r.error) throw new Error(`${cmd} ${args.join(" ")}: ${r.error.message}`);
    if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} exited with ${r.status ?? r.signal}`);
}

function ensureAptPackages(log) {
    const hasDpkg = which("dpkg-query") !== undefined;
    const missing = hasDpkg
        ? APT_PACKAGES.filter((p) => !dpkgInstalled(p))
        : [!findChromium() && "chromium", !which("rg") && "ripgrep"].filter(Boolean);
    // node-gyp builds node-pty, kerberos, spdlog...: a C++ toolchain and Python (usually present).
    for (const [cmd, pkg] of [
        ["g++", "g++"],
        ["make", "make"],
        ["python3", "python3"],
    ]) {
        if (!which(cmd)) missing.push(pkg);
    }
    aptInstall(missing, log);
}

/**
 * Idempotent: Debian's Chromium, which the unit suite's render test drives (scripts/test-plan.mjs
 * installs it before that suite). Returns its path; throws with what to run when it cannot install.
 */
export function ensureChromium({ log = (m) => console.log(`[setup] ${m}`) } = {}) {
    if (!findChromium()) aptInstall(["chromium"], log);
    const chromium = findChromium();
    if (!chromium) throw new Error(`no Chromium found after installing (looked at ${chromiumCandidates.join(", ")})`);
    return chromium;
}

function aptInstall(missing, log) {
    if (missing.length === 0) return;
    const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
    // Not root: a password-less sudo (hosted CI runners) serves too.
    const sudo = !isRoot && which("sudo") && spawnSync("sudo", ["-n", "true"]).status === 0;
    if (!(isRoot || sudo) || !which("apt-get")) {
        throw new Error(
            `missing system packages: ${missing.join(", ")}. Install them (Debian: ` +
                `sudo apt-get install -y ${missing.join(" ")}) or run this script as root.`,
        );
    }
    log(`apt: installing ${missing.join(", ")}`);
    const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
    const apt = (args) =>
        sudo ? runOrThrow("sudo", ["-n", "-E", "apt-get", ...args], { env }) : runOrThrow("apt-get", args, { env });
    apt(["update"]);
    apt(["install", "-y", "--no-install-recommends", ...missing]);
}

// code-server's lib/vscode needs @vscode/ripgrep, whose postinstall downloads `rg` from GitHub
// unless its cache already holds the archive. Seed that cache with Debian's rg. Both versions are
// read from the package files: the @vscode/ripgrep version from lib/vscode/npm-shrinkwrap.json, the
// ripgrep release from @vscode/ripgrep's lib/postinstall.js.
async function seedRipgrepCache(log) {
    const rg = which("rg");
    if (!rg) throw new Error("ripgrep (rg) is not on PATH; apt-get install -y ripgrep");
    const scratch = mkdtempSync(join(tmpdir(), "sourcecheck-rg-"));
    try {
        const pack = (spec) => {
            const r = spawnSync("npm", ["pack", spec, "--json", "--pack-destination", scratch], {
                cwd: scratch,
                encoding: "utf8",
            });
            if (r.status !== 0) throw new Error(`npm pack ${spec} failed: ${r.stderr}`);
            return join(scratch, JSON.parse(r.stdout)[0].filename);
        };
        const extract = (tgz, file) => {
            const r = spawnSync("tar", ["-xzOf", tgz, file], { encoding: "utf8", maxBuffer: 64 << 20 });
            if (r.status !== 0) throw new Error(`reading ${file} from ${tgz}: ${r.stderr}`);
            return r.stdout;
        };
        const csTgz = pack(`code-server@${CODE_SERVER_VERSION}`);
        const shrinkwrap = JSON.parse(extract(csTgz, "package/lib/vscode/npm-shrinkwrap.json"));
        const rgPkgVersion = shrinkwrap.packages?.["node_modules/@vscode/ripgrep"]?.version;
        if (!rgPkgVersion) throw new Error("no @vscode/ripgrep in code-server's lib/vscode/npm-shrinkwrap.json");
        const rgTgz = pack(`@vscode/ripgrep@${rgPkgVersion}`);
        const postinstall = extract(rgTgz, "package/lib/postinstall.js");
        const m = postinstall.match(/const\s+VERSION\s*=\s*['"]([^'"]+)['"]/);
        if (!m) throw new Error(`could not read VERSION from @vscode/ripgrep@${rgPkgVersion} lib/postinstall.js`);
        const cache = join(tmpdir(), `vscode-ripgrep-cache-${rgPkgVersion}`);
        const names = [
            `ripgrep-${m[1]}-x86_64-unknown-linux-musl.tar.gz`,
            `ripgrep-${m[1]}-x86_64-unknown-linux-gnu.tar.gz`,
        ];
        mkdirSync(cache, { recursive: true });
        const stage = join(scratch, "rg");
        mkdirSync(stage);
        runOrThrow("cp", [rg, join(stage, "rg")]);
        for (const name of names) {
            if (existsSync(join(cache, name))) continue;
            runOrThrow("tar", ["-czf", join(cache, name), "-C", stage, "rg"]);
        }
        log(`ripgrep cache seeded: ${join(cache, names[0])} (@vscode/ripgrep ${rgPkgVersion}, rg ${m[1]})`);
    } finally {
        rmSync(scratch, { recursive: true, force: true });
    }
}

function installedVersion() {
    try {
        return JSON.parse(readFileSync(join(codeServerDir, "package.json"), "utf8")).version;
    } catch {
        return undefined;
    }
}

// Native modules the VS Code server loads; their install scripts must have run.
function checkNativeModules() {
    const vsNodeModules = join(codeServerDir, "lib", "vscode", "node_modules");
    const problems = [];
    const ptyBuild = join(vsNodeModules, "node-pty", "build", "Release");
    if (!existsSync(ptyBuild) || !readdirSync(ptyBuild).some((f) => f.endsWith(".node"))) {
        problems.push(`node-pty was not built (${ptyBuild} holds no .node file)`);
    }
    const spdlog = join(vsNodeModules, "@vscode", "spdlog", "build", "Release", "spdlog.node");
    if (!existsSync(spdlog)) problems.push(`@vscode/spdlog was not built (${spdlog})`);
    const rgBin = join(vsNodeModules, "@vscode", "ripgrep", "bin", "rg");
    if (!existsSync(rgBin)) problems.push(`@vscode/ripgrep has no binary at ${rgBin}`);
    if (!existsSync(serverMain)) problems.push(`no ${serverMain}`);
    return problems;
}

/** Whether the offline VS Code is installed and whole: ensureOfflineVSCode() will install nothing. */
export function offlineVSCodeInstalled() {
    return installedVersion() === CODE_SERVER_VERSION && existsSync(marker) && checkNativeModules().length === 0;
}

let ensured;
/** Idempotent: a second call (or run) with everything in place does nothing but check. */
export async function ensureOfflineVSCode({ log = (m) => console.log(`[e2e-install] ${m}`) } = {}) {
    if (ensured) return ensured;
    const started = Date.now();
    ensureAptPackages(log);
    const chromium = findChromium();
    if (!chromium) throw new Error(`no Chromium found (looked at ${chromiumCandidates.join(", ")})`);
    if (offlineVSCodeInstalled()) {
        ensured = { serverMain, chromium, version: CODE_SERVER_VERSION, installed: false };
        return ensured;
    }
    await seedRipgrepCache(log);
    mkdirSync(installDir, { recursive: true });
    rmSync(marker, { force: true });
    // npm 11 runs install scripts it has not been told about but warns ("not yet covered by
    // allowScripts"), and may refuse them in strict mode: approve the two top-level packages that have
    // them. The nested install in lib/vscode (node-pty, kerberos, spdlog...) runs under its own
    // package.json; checkNativeModules() below proves its scripts ran.
    writeFileSync(
        join(installDir, "package.json"),
        `${JSON.stringify(
            {
                name: "sourcecheck-offline-vscode",
                private: true,
                dependencies: { "code-server": CODE_SERVER_VERSION },
                allowScripts: { "code-server": true, argon2: true },
            },
            null,
            2,
        )}\n`,
    );
    log(`npm install code-server@${CODE_SERVER_VERSION} into ${installDir} (about a minute)`);
    runOrThrow(
        "npm",
        [
            "install",
            "--unsafe-perm",
            "--no-audit",
            "--no-fund",
            "--foreground-scripts",
            `code-server@${CODE_SERVER_VERSION}`,
        ],
        {
            cwd: installDir,
            // npm_config_yes lets node-pty's postinstall run `npx node-gyp` without a prompt.
            env: { ...process.env, npm_config_yes: "true" },
        },
    );
    const problems = checkNativeModules();
    if (problems.length > 0) {
        throw new Error(`code-server installed but its install scripts did not complete:\n  ${problems.join("\n  ")}`);
    }
    writeFileSync(marker, `${CODE_SERVER_VERSION}\n`);
    log(`installed in ${Math.round((Date.now() - started) / 1000)} s`);
    ensured = { serverMain, chromium, version: CODE_SERVER_VERSION, installed: true };
    return ensured;
}

/**
 * The workbench both e2e legs run (scripts/e2e.mjs, scripts/e2e-web.mjs): a quiet first run (no welcome
 * page, gallery, tips or telemetry over the screenshots), the trust prompt settled (the runner's
 * workspace is trusted), and no auto-save: the web workbench saves after 1 s by default (the desktop's
 * default is off), and under load a suite's unsaved edit outlived that second and was saved to the
 * demo's files (CI flake).
 */
export const WORKBENCH_SETTINGS = Object.freeze({
    "workbench.startupEditor": "none",
    "workbench.tips.enabled": false,
    "workbench.enableExperiments": false,
    "extensions.autoCheckUpdates": false,
    "extensions.autoUpdate": false,
    "telemetry.telemetryLevel": "off",
    "update.mode": "none",
    "security.workspace.trust.enabled": false,
    "editor.minimap.enabled": false,
    "window.commandCenter": false,
    "chat.commandCenter.enabled": false,
    "workbench.secondarySideBar.defaultVisibility": "hidden",
    "files.autoSave": "off",
});

/** The VS Code server's own switches for both legs (trust and telemetry as the settings). */
export const WORKBENCH_ARGS = Object.freeze(["--disable-workspace-trust", "--disable-telemetry", "--log", "warn"]);

/** Writes WORKBENCH_SETTINGS where the server (remote) and the workbench (user) read settings under dataDir. */
export function writeWorkbenchSettings(dataDir) {
    for (const dir of [join(dataDir, "user", "User"), join(dataDir, "server", "data", "User")]) {
        mkdirSync(dir, { recursive: true });
        writeFileSync(join(dir, "settings.json"), JSON.stringify(WORKBENCH_SETTINGS, null, 2));
    }
}

export function freePort() {
    return new Promise((res, rej) => {
        const srv = createServer();
        srv.unref();
        srv.on("error", rej);
        srv.listen(0, "127.0.0.1", () => {
            const { port } = srv.address();
            srv.close(() => res(port));
        });
    });
}

/** Every descendant process of `pid` (Linux/macOS `ps`), deepest last. */
export function descendants(pid) {
    const r = spawnSync("ps", ["-A", "-o", "pid=,ppid="], { encoding: "utf8" });
    if (r.status !== 0) return [];
    const children = new Map();
    for (const line of r.stdout.split("\n")) {
        const [p, pp] = line.trim().split(/\s+/).map(Number);
        if (!p) continue;
        if (!children.has(pp)) children.set(pp, []);
        children.get(pp).push(p);
    }
    const out = [];
    const queue = [pid];
    while (queue.length > 0) {
        for (const c of children.get(queue.shift()) ?? []) {
            out.push(c);
            queue.push(c);
        }
    }
    return out;
}

/**
 * The workbench URL. `extensionDevelopmentPath` and `extensionTestsPath` travel in the `payload`
 * query parameter, because the server refuses --extensionTestsPath.
 */
export function workbenchUrl({
    port,
    host = "127.0.0.1",
    folder,
    openFile,
    extensionDevelopmentPath,
    extensionTestsPath,
}) {
    const remote = (p) => `vscode-remote://${host}:${port}${p}`;
    const payload = [];
    // The workbench opens this file once the folder is open (its payload's `openFile`).
    if (openFile) payload.push(["openFile", remote(resolve(openFile))]);
    if (extensionDevelopmentPath) payload.push(["extensionDevelopmentPath", remote(resolve(extensionDevelopmentPath))]);
    if (extensionTestsPath) payload.push(["extensionTestsPath", remote(resolve(extensionTestsPath))]);
    const query = [];
    if (folder) query.push(`folder=${encodeURIComponent(resolve(folder))}`);
    if (payload.length > 0) query.push(`payload=${encodeURIComponent(JSON.stringify(payload))}`);
    return `http://${host}:${port}/${query.length ? `?${query.join("&")}` : ""}`;
}

/**
 * Starts the VS Code server (no connection token, bound to 127.0.0.1) and waits until it answers.
 * Returns { port, process, dataDir, output(), url(opts), stop(signal) }. `dataDir` is a fresh temp
 * folder unless given. extraArgs go to server-main.js (e.g. "--disable-workspace-trust").
 */
export async function startVSCodeServer({
    port,
    dataDir,
    log = (m) => console.log(`[vscode-server] ${m}`),
    extraArgs = [],
    timeoutMs = 60_000,
    stdio = "pipe",
    env = process.env,
} = {}) {
    if (!existsSync(serverMain))
        throw new Error(`VS Code server not installed (${serverMain}); run ensureOfflineVSCode()`);
    const p = port ?? (await freePort());
    const data = dataDir ?? mkdtempSync(join(tmpdir(), "sourcecheck-vscode-"));
    mkdirSync(join(data, "server"), { recursive: true });
    mkdirSync(join(data, "user"), { recursive: true });
    const args = [
        serverMain,
        "--host",
        "127.0.0.1",
        "--port",
        String(p),
        "--without-connection-token",
        "--accept-server-license-terms",
        "--server-data-dir",
        join(data, "server"),
        "--user-data-dir",
        join(data, "user"),
        ...extraArgs,
    ];
    // Not detached: whoever kills our process group (Ctrl+C, a CI timeout) reaches the server too.
    const child = spawn(process.execPath, args, { stdio: ["ignore", stdio, stdio], env });
    let output = "";
    if (stdio === "pipe") {
        const keep = (chunk) => {
            output += chunk;
            if (output.length > 200_000) output = output.slice(-100_000);
        };
        child.stdout.on("data", keep);
        child.stderr.on("data", keep);
    }
    let exited = null;
    child.on("exit", (code, signal) => {
        exited = { code, signal };
    });
    // The server's whole tree: extension hosts, file watcher, language servers they started.
    const stop = (signal = "SIGTERM") => {
        for (const pid of [child.pid, ...descendants(child.pid)]) {
            try {
                process.kill(pid, signal);
            } catch {}
        }
    };
    process.once("exit", () => stop("SIGKILL"));
    const deadline = Date.now() + timeoutMs;
    for (;;) {
        if (exited) {
            throw new Error(`VS Code server exited early (${exited.code ?? exited.signal}):\n${output.slice(-4000)}`);
        }
        try {
            const r = await fetch(`http://127.0.0.1:${p}/version`, { signal: AbortSignal.timeout(2000) });
            if (r.ok || r.status < 500) break;
        } catch {}
        if (Date.now() > deadline) {
            stop();
            throw new Error(
                `VS Code server did not answer on port ${p} within ${timeoutMs / 1000} s:\n${output.slice(-4000)}`,
            );
        }
        await new Promise((r) => setTimeout(r, 250));
    }
    log(`listening on http://127.0.0.1:${p}/`);
    return {
        port: p,
        process: child,
        dataDir: data,
        output: () => output,
        url: (opts = {}) => workbenchUrl({ port: p, ...opts }),
        stop,
    };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
    ensureOfflineVSCode()
        .then((r) => {
            console.log(
                r.installed
                    ? `[e2e-install] ready: VS Code server ${r.version}, Chromium ${r.chromium}`
                    : `[e2e-install] already installed (code-server ${r.version}, ${installDir}); nothing to do`,
            );
        })
        .catch((e) => {
            console.error(`[e2e-install] FAILED: ${e.message}`);
            process.exit(1);
        });
}
