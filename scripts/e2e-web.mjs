// The web leg of the end-to-end suite (docs/web.md, "Tested"): SourceCheck in VS Code for the Web. The
// offline VS Code server of the e2e route (scripts/e2e-install.mjs) serves the browser workbench, Chromium
// opens it on the virtual folder `sourcecheck-mem:/demo`, and the extension, declared `extensionKind:
// ["web"]` as in vscode.dev, runs in the web worker extension host with its tests (test/e2e-web/, bundled
// for the browser), which register the in-memory file system first and write their results through
// `vscode.workspace.fs` to the control folder here.
//
// Prints every test, writes {"passed":N,"failed":M} to $SOURCECHECK_STATS, exits non-zero on any failure
// (including "no test ran"). Bounded by SOURCECHECK_E2E_TIMEOUT_MS (default 4 minutes, install excluded).
import { spawnSync } from "node:child_process";
import {
    cpSync,
    existsSync,
    mkdirSync,
    mkdtempSync,
    readdirSync,
    readFileSync,
    rmSync,
    symlinkSync,
    writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { build } from "esbuild";
import {
    ensureOfflineVSCode,
    repoRoot,
    startVSCodeServer,
    WORKBENCH_ARGS,
    writeWorkbenchSettings,
} from "./e2e-install.mjs";
import { rejectNodeBuiltins } from "./web-build.mjs";

const timeoutMs = Number(process.env.SOURCECHECK_E2E_TIMEOUT_MS ?? 4 * 60_000);
const keep = process.env.SOURCECHECK_E2E_KEEP === "1";
const screenshotDir = join(repoRoot, "test-results", "screenshots");
const log = (m) => console.log(`[e2e-web] ${m}`);
const cleanups = [];

async function cleanup() {
    while (cleanups.length > 0) {
        try {
            await Promise.race([cleanups.pop()(), new Promise((r) => setTimeout(r, 5000))]);
        } catch {}
    }
}

async function finish(results, failure) {
    const passed = results?.passed ?? 0;
    let failed = results?.failed ?? 0;
    if (results?.fatal) console.log(`  FATAL in the test runner:\n${results.fatal}`);
    if (failure) {
        console.error(`[e2e-web] FAILED: ${failure}`);
        failed++;
    }
    if (passed + failed === 0) {
        console.error("[e2e-web] FAILED: the web worker extension host ran no test");
        failed = 1;
    }
    if (process.env.SOURCECHECK_STATS) writeFileSync(process.env.SOURCECHECK_STATS, JSON.stringify({ passed, failed }));
    console.log(`e2e-web: ${passed} passed, ${failed} failed`);
    await cleanup();
    process.exit(failed > 0 ? 1 : 0);
}

for (const signal of ["SIGINT", "SIGTERM"]) {
    process.on(signal, async () => {
        await cleanup();
        process.exit(130);
    });
}

/** Built extension and CLI (scripts/test.mjs builds them; built here when run alone). */
function ensureBuilt() {
    if (existsSync(join(repoRoot, "dist", "web", "server.js")) && existsSync(join(repoRoot, "dist", "cli.js"))) return;
    log("dist/ missing: building");
    if (spawnSync("node", ["scripts/build.mjs"], { cwd: repoRoot, stdio: "inherit" }).status !== 0)
        throw new Error("node scripts/build.mjs failed");
}

/**
 * The extension as vscode.dev runs it: the repository's files, its manifest with `extensionKind: ["web"]`
 * and no Node entry, so that this workbench, which also has a Node extension host, picks the web worker
 * (docs/web.md, "Tested").
 */
function webOnlyExtension(control) {
    const dir = join(control, "sourcecheck");
    mkdirSync(dir, { recursive: true });
    for (const entry of readdirSync(repoRoot)) {
        if (entry === "package.json" || entry.startsWith(".") || entry === "node_modules") continue;
        symlinkSync(join(repoRoot, entry), join(dir, entry));
    }
    const manifest = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8"));
    if (!manifest.browser) throw new Error("package.json declares no browser entry");
    // Without `main`: a workbench that also has a Node extension host runs a development extension with
    // a Node entry there, whatever its kind; vscode.dev has no Node host and uses `browser` alone.
    const { main: _nodeEntry, ...webManifest } = manifest;
    writeFileSync(join(dir, "package.json"), JSON.stringify({ ...webManifest, extensionKind: ["web"] }, null, 2));
    return dir;
}

/** The demo's files as text by path, with a lock written by `sourcecheck lock` (drift is checked against it). */
function demoFiles(scratch) {
    const demo = join(scratch, "demo");
    cpSync(join(repoRoot, "examples", "demo"), demo, { recursive: true });
    // Exit 1 is expected: the demo's broken refs are listed and left out; every other ref is locked.
    const lock = spawnSync("node", [join(repoRoot, "bin", "sourcecheck.js"), "lock", "answer.sourcecheck.json"], {
        cwd: demo,
        encoding: "utf8",
    });
    if (!existsSync(join(demo, "answer.sourcecheck.lock.json")))
        throw new Error(`sourcecheck lock wrote no lock (status ${lock.status}):\n${lock.stdout}${lock.stderr}`);
    const files = {};
    const walk = (dir) => {
        for (const entry of readdirSync(dir, { withFileTypes: true })) {
            const path = join(dir, entry.name);
            if (entry.isDirectory()) walk(path);
            else files[relative(demo, path)] = readFileSync(path, "utf8");
        }
    };
    walk(demo);
    return files;
}

/** Bundles a test module for the web worker extension host: no Node built-in may reach it either. */
function bundle(entry, outfile) {
    return build({
        entryPoints: [join(repoRoot, entry)],
        outfile,
        bundle: true,
        platform: "browser",
        format: "cjs",
        target: "es2022",
        external: ["vscode"],
        mainFields: ["browser", "module", "main"],
        logLevel: "warning",
        plugins: [rejectNodeBuiltins],
    });
}

/** The driver's files for the tests, in e2e-web/ of the extension copy: the demo and where results go. */
function driverFiles(extension, control, port) {
    const dir = join(extension, "e2e-web");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "demo.json"), JSON.stringify(demoFiles(control)));
    const remote = (path) => `vscode-remote://127.0.0.1:${port}${path}`;
    writeFileSync(
        join(dir, "config.json"),
        JSON.stringify({ results: remote(join(control, "results.json")), control: remote(control) }),
    );
    return dir;
}

function readResults(file, printed) {
    if (!existsSync(file)) return undefined;
    let results;
    try {
        results = JSON.parse(readFileSync(file, "utf8"));
    } catch {
        return undefined; // caught mid-write: read again on the next poll
    }
    for (; printed.count < results.tests.length; printed.count++) {
        const t = results.tests[printed.count];
        if (t.state === "passed") console.log(`  ok    ${t.title} (${t.durationMs} ms)`);
        else console.log(`  FAIL  ${t.title}\n${(t.error ?? "").split("\n").slice(0, 25).join("\n        ")}`);
    }
    return results;
}

async function openBrowser(chromiumPath, control) {
    const { chromium } = await import("playwright-core");
    const chromiumTmp = join(control, "tmp");
    mkdirSync(chromiumTmp, { recursive: true });
    const browser = await chromium.launch({
        executablePath: chromiumPath,
        headless: true,
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
        env: { ...process.env, TMPDIR: chromiumTmp },
        // Loopback only: nothing in the background reaches out.
        args: [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
        ],
    });
    cleanups.push(() => browser.close().catch(() => {}));
    return browser;
}

async function main() {
    const vscode = await ensureOfflineVSCode({ log: (m) => console.log(`[e2e-install] ${m}`) });
    ensureBuilt();
    const control = mkdtempSync(join(tmpdir(), "sourcecheck-e2e-web-"));
    if (!keep) cleanups.push(() => rmSync(control, { recursive: true, force: true }));
    const deadline = Date.now() + timeoutMs;
    const server = await startVSCodeServer({
        extraArgs: [...WORKBENCH_ARGS],
        dataDir: join(control, "vscode-data"),
        log,
    });
    cleanups.push(() => server.stop("SIGKILL"));
    // The trust prompt is settled by the shared settings: a virtual workspace the runner opens is trusted.
    writeWorkbenchSettings(join(control, "vscode-data"));
    const extension = webOnlyExtension(control);
    // Inside the extension: VS Code runs the tests in the host of the extension that holds them, here
    // the web worker's (a tests path outside every extension runs in the Node one). One development
    // extension only: this workbench honours the last extensionDevelopmentPath of the payload.
    const tests = join(driverFiles(extension, control, server.port), "index.js");
    await bundle("test/e2e-web/index.ts", tests);
    const remote = (path) => `vscode-remote://127.0.0.1:${server.port}${path}`;
    const payload = [
        ["extensionDevelopmentPath", remote(extension)],
        ["extensionDevelopmentKind", "web"],
        ["extensionTestsPath", remote(tests)],
    ];
    const url = `http://127.0.0.1:${server.port}/?folder=${encodeURIComponent("sourcecheck-mem:/demo")}&payload=${encodeURIComponent(JSON.stringify(payload))}`;

    const browser = await openBrowser(vscode.chromium, control);
    const page = await browser.newPage({ viewport: { width: 1400, height: 860 } });
    const consoleLines = [];
    page.on("console", (msg) => {
        consoleLines.push(`[${msg.type()}] ${msg.text()}`);
        if (keep) writeFileSync(join(control, "console.log"), `[${msg.type()}] ${msg.text()}\n`, { flag: "a" });
        if (consoleLines.length > 300) consoleLines.shift();
    });
    await page.goto(url, { waitUntil: "domcontentloaded", timeout: 60_000 });
    const diagnose = () => `\n--- last browser console lines ---\n${consoleLines.slice(-40).join("\n")}`;

    const resultsFile = join(control, "results.json");
    const printed = { count: 0 };
    const shots = new Set();
    const startBy = Date.now() + 90_000;
    let started = false;
    for (;;) {
        // A read that caught the file mid-write is undefined: once the tests have started, that is no failure.
        const results = readResults(resultsFile, printed);
        if (results) started = true;
        for (const f of readdirSync(control)) {
            const m = f.match(/^shot-(.+)\.request$/);
            if (!m || shots.has(m[1])) continue;
            shots.add(m[1]);
            mkdirSync(screenshotDir, { recursive: true });
            // Let the workbench draw what the test just showed (a shot, never an assertion).
            await new Promise((r) => setTimeout(r, 1500));
            await page.screenshot({ path: join(screenshotDir, `${m[1]}.png`) });
            log(`screenshot test-results/screenshots/${m[1]}.png`);
            writeFileSync(join(control, `shot-${m[1]}.done`), "{}");
        }
        if (results?.done) {
            log(`VS Code ${results.vscodeVersion} (${results.uiKind}, typeof process: ${results.processType})`);
            if (results.failed > 0) console.log(diagnose());
            return finish(results);
        }
        if (!started && Date.now() > startBy)
            return finish(undefined, `the web worker extension host did not start the tests within 90 s${diagnose()}`);
        if (Date.now() > deadline) return finish(results, `timed out after ${timeoutMs / 1000} s${diagnose()}`);
        if (server.process.exitCode !== null) return finish(results, `the VS Code server exited${diagnose()}`);
        await new Promise((r) => setTimeout(r, 250));
    }
}

try {
    await main();
} catch (error) {
    await finish(undefined, error instanceof Error ? (error.stack ?? error.message) : String(error));
}
