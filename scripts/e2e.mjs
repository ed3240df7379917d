// End-to-end suite inside a real VS Code (issue 5). Runs out/test/e2e/index.js in an extension host
// with the extension under development loaded and a fresh copy of examples/demo as the workspace.
//
// Routes (SOURCECHECK_E2E_ROUTE=auto|electron|web, default auto):
//   electron  @vscode/test-electron with a desktop VS Code: VSCODE_EXECUTABLE, or a download when the
//             update server answers quickly (and, on Linux, a display is available).
//   web       offline: the VS Code server from the code-server npm package (installed on first use by
//             scripts/e2e-install.mjs) plus Debian's Chromium driven by playwright-core; also takes
//             the screenshots in test-results/screenshots/.
//
// Prints every test and a summary, writes {"passed":N,"failed":M} to $SOURCECHECK_STATS, exits
// non-zero on any failure, including "no VS Code could be started". Whole run bounded by
// SOURCECHECK_E2E_TIMEOUT_MS (default 6 minutes, the one-time install excluded).
// SOURCECHECK_E2E_GREP runs a subset; SOURCECHECK_E2E_KEEP=1 keeps the temp workspace and logs.
// SOURCECHECK_E2E_LOCALE=zh-cn opens the window in that display language and runs the suites of
// test/e2e/<locale>/ instead of the others (test/e2e/README.md, "Locales").
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
    ensureOfflineVSCode,
    repoRoot,
    startVSCodeServer,
    WORKBENCH_ARGS,
    writeWorkbenchSettings,
} from "./e2e-install.mjs";

const timeoutMs = Number(process.env.SOURCECHECK_E2E_TIMEOUT_MS ?? 6 * 60_000);
const route = process.env.SOURCECHECK_E2E_ROUTE ?? "auto";
const keep = process.env.SOURCECHECK_E2E_KEEP === "1";
const locale = process.env.SOURCECHECK_E2E_LOCALE || undefined;
const screenshotDir = join(repoRoot, "test-results", "screenshots");
const extensionTestsPath = join(repoRoot, "out", "test", "e2e", "index.js");
const log = (m) => console.log(`[e2e] ${m}`);
const t0 = Date.now();
const elapsed = () => `${((Date.now() - t0) / 1000).toFixed(1)} s`;

// Undone last-in first-out; each step may be async (closing Chromium properly lets it reap its
// children) but gets at most 5 s.
const cleanups = [];
async function cleanup() {
    while (cleanups.length > 0) {
        const step = cleanups.pop();
        try {
            await Promise.race([step(), new Promise((r) => setTimeout(r, 5000))]);
        } catch {}
    }
}

function writeStats(passed, failed) {
    if (process.env.SOURCECHECK_STATS) writeFileSync(process.env.SOURCECHECK_STATS, JSON.stringify({ passed, failed }));
}

async function fail(message) {
    console.error(`[e2e] FAILED: ${message}`);
    writeStats(0, 1);
    console.log("e2e: 0 passed, 1 failed");
    await cleanup();
    process.exit(1);
}

for (const sig of ["SIGINT", "SIGTERM"]) {
    process.on(sig, async () => {
        console.error(`[e2e] interrupted (${sig}): stopping VS Code and Chromium`);
        await cleanup();
        process.exit(130);
    });
}

// 1. The compiled extension and tests (scripts/test.mjs builds them; build here when run alone).
if (!existsSync(join(repoRoot, "dist", "extension.js")) || !existsSync(extensionTestsPath)) {
    log("dist/ or out/ missing: building");
    for (const [cmd, args] of [
        ["node", ["scripts/build.mjs"]],
        ["npx", ["tsc", "-p", "."]],
    ]) {
        const r = spawnSync(cmd, args, { cwd: repoRoot, stdio: "inherit" });
        if (r.status !== 0) await fail(`${cmd} ${args.join(" ")} failed`);
    }
}

// 2. A fresh workspace (the suite edits files) and a control folder for results and screenshots.
const workspaceParent = mkdtempSync(join(tmpdir(), "sourcecheck-e2e-ws-"));
const workspace = join(workspaceParent, "demo"); // the name the explorer and title bar show
cpSync(join(repoRoot, "examples", "demo"), workspace, { recursive: true });
const control = mkdtempSync(join(tmpdir(), "sourcecheck-e2e-ctl-"));
const resultsFile = join(control, "results.json");
if (!keep) {
    cleanups.push(() => rmSync(workspaceParent, { recursive: true, force: true }));
    cleanups.push(() => rmSync(control, { recursive: true, force: true }));
}

async function chooseRoute() {
    if (route === "web" || route === "electron") return route;
    if (route !== "auto") await fail(`SOURCECHECK_E2E_ROUTE must be auto, electron or web, not "${route}"`);
    if (process.env.VSCODE_EXECUTABLE) return "electron";
    if (process.platform === "linux" && !process.env.DISPLAY) {
        log("no DISPLAY for a desktop VS Code: using the offline VS Code server + Chromium");
        return "web";
    }
    try {
        const r = await fetch("https://update.code.visualstudio.com/api/releases/stable", {
            signal: AbortSignal.timeout(5000),
        });
        if (r.ok) return "electron";
        log(`VS Code update server answered ${r.status}: using the offline route`);
    } catch (e) {
        log(`VS Code cannot be downloaded (${e.cause?.code ?? e.name}): using the offline route`);
    }
    return "web";
}

// Prints tests as they complete; returns the parsed results (or undefined before the host starts).
let printed = 0;
function readResults() {
    if (!existsSync(resultsFile)) return undefined;
    let results;
    try {
        results = JSON.parse(readFileSync(resultsFile, "utf8"));
    } catch {
        return undefined; // written atomically, but be lenient
    }
    for (; printed < results.tests.length; printed++) {
        const t = results.tests[printed];
        if (t.state === "passed") console.log(`  ok    ${t.title} (${t.durationMs} ms)`);
        else console.log(`  FAIL  ${t.title}\n${indent(t.error ?? "")}`);
    }
    return results;
}

const indent = (s) =>
    s
        .split("\n")
        .slice(0, 25)
        .map((l) => `        ${l}`)
        .join("\n");

async function finish(results, extraFailure) {
    const passed = results?.passed ?? 0;
    let failed = results?.failed ?? 0;
    if (results?.fatal) console.log(`  FATAL in the test runner:\n${indent(results.fatal)}`);
    if (extraFailure) {
        console.error(`[e2e] FAILED: ${extraFailure}`);
        failed = Math.max(failed, 0) + 1;
    }
    if (passed + failed === 0) {
        console.error("[e2e] FAILED: the extension host ran no test");
        failed = 1;
    }
    writeStats(passed, failed);
    console.log(`e2e: ${passed} passed, ${failed} failed (${elapsed()})`);
    await cleanup();
    process.exit(failed > 0 ? 1 : 0);
}

/** The extension's output channels and the extension host's errors, from the server's log folder. */
function extensionHostLogs(dataDir) {
    const files = [];
    const walk = (dir) => {
        if (!existsSync(dir)) return;
        for (const entry of readdirSync(dir, { withFileTypes: true })) {
            const p = join(dir, entry.name);
            if (entry.isDirectory()) walk(p);
            else if (/sourcecheck.*\.log$/i.test(entry.name) || entry.name === "remoteexthost.log") files.push(p);
        }
    };
    walk(join(dataDir, "user", "logs"));
    return files
        .map((f) => {
            let lines = readFileSync(f, "utf8").split("\n");
            if (f.endsWith("remoteexthost.log")) lines = lines.filter((l) => /\[error\]|\[warning\]/.test(l));
            return `\n--- ${f.slice(dataDir.length + 1)} (last lines) ---\n${lines.slice(-30).join("\n")}`;
        })
        .join("");
}

/** A screenshot request: `{ waitForText?, within?, collapse? }` (harness.ts, ShotOptions); a plain timestamp asks nothing. */
function readRequest(file) {
    try {
        const request = JSON.parse(readFileSync(file, "utf8"));
        return typeof request === "object" && request !== null ? request : {};
    } catch {
        return {};
    }
}

/**
 * Waits (at most 10 s) until the page shows every text asked for, inside `within` when given, then
 * shoots the page or that element. Returns the texts still missing, for the test to judge.
 */
async function takeScreenshot(page, name, { waitForText = [], within, collapse = [], trimTo } = {}) {
    const path = join(screenshotDir, `${name}.png`);
    // Expanded sections with these titles: their headers are clicked now, and again after the shot.
    const headers = [];
    for (const title of collapse) {
        try {
            // The element itself: a locator would look for an expanded header again when clicked back.
            const header = await page
                .locator('.pane-header[aria-expanded="true"]')
                .filter({ has: page.locator(".title", { hasText: new RegExp(`^${escapeRegExp(title)}$`, "i") }) })
                .first()
                .elementHandle({ timeout: 5000 });
            await header.click({ timeout: 5000 });
            headers.push(header);
        } catch (e) {
            log(`screenshot ${name}: could not collapse the section "${title}": ${e.message.split("\n")[0]}`);
        }
    }
    const texts = waitForText.filter((t) => typeof t === "string" && t !== "");
    const missingNow = () =>
        page
            .evaluate(
                ({ selector, wanted }) => {
                    // biome-ignore lint/performance/useDomNodeTextContent: only text the page draws counts
                    const shown = (selector ? document.querySelector(selector) : document.body)?.innerText ?? "";
                    return wanted.filter((t) => !shown.includes(t));
                },
                { selector: within, wanted: texts },
            )
            .catch(() => texts);
    // A clicked header keeps the focus outline: the shot shows none.
    if (headers.length > 0) await page.evaluate(() => document.activeElement?.blur?.()).catch(() => {});
    let missing = await missingNow();
    for (const until = Date.now() + 10_000; missing.length > 0 && Date.now() < until; missing = await missingNow())
        await new Promise((r) => setTimeout(r, 100));
    try {
        let clip = within ? await clipOf(page, within, trimTo) : undefined;
        // A collapsed section animates: shoot once the box holds still.
        for (let i = 0; within && i < 20; i++) {
            await new Promise((r) => setTimeout(r, 250));
            const next = await clipOf(page, within, trimTo);
            const still = JSON.stringify(next) === JSON.stringify(clip);
            clip = next;
            if (still) break;
        }
        await page.screenshot(clip ? { path, clip } : { path });
        log(
            `screenshot test-results/screenshots/${name}.png${missing.length > 0 ? ` (not drawn: ${missing.join(" | ")})` : ""}`,
        );
    } catch (e) {
        log(`screenshot ${name} failed: ${e.message}`);
    }
    for (const header of headers) await header.click({ timeout: 5000 }).catch(() => {});
    return { missing };
}

/** The box of the element `within`, ending 8 px below the lowest visible element `trimTo` matches in it. */
function clipOf(page, within, trimTo) {
    return page.evaluate(
        ({ within, trimTo }) => {
            const element = document.querySelector(within);
            if (!element) throw new Error(`nothing matches ${within}`);
            const box = element.getBoundingClientRect();
            let bottom = box.bottom;
            if (trimTo) {
                const drawn = [...element.querySelectorAll(trimTo)]
                    .map((e) => e.getBoundingClientRect())
                    .filter((r) => r.height > 0 && r.bottom <= box.bottom);
                if (drawn.length > 0) bottom = Math.min(box.bottom, Math.max(...drawn.map((r) => r.bottom)) + 8);
            }
            return { x: box.x, y: box.y, width: box.width, height: bottom - box.y };
        },
        { within, trimTo },
    );
}

function escapeRegExp(text) {
    return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

async function runWeb() {
    const installStart = Date.now();
    let vscode;
    try {
        vscode = await ensureOfflineVSCode({ log: (m) => console.log(`[e2e-install] ${m}`) });
    } catch (e) {
        await fail(`could not install the offline VS Code (code-server + Chromium): ${e.message}`);
    }
    if (vscode.installed) log(`one-time install took ${((Date.now() - installStart) / 1000).toFixed(0)} s`);
    const runStart = Date.now();
    const deadline = runStart + timeoutMs;

    writeFileSync(
        join(control, "config.json"),
        JSON.stringify({ resultsFile, screenshots: true, grep: process.env.SOURCECHECK_E2E_GREP || undefined, locale }),
    );
    let server;
    try {
        server = await startVSCodeServer({
            env: { ...process.env, SOURCECHECK_E2E_CONTROL: control },
            extraArgs: [...WORKBENCH_ARGS, ...(locale ? ["--locale", locale] : [])],
            dataDir: join(control, "vscode-data"),
            log,
        });
    } catch (e) {
        await fail(e.message);
    }
    cleanups.push(() => server.stop("SIGKILL"));
    // The workbench both legs share (e2e-install.mjs): quiet, trusted, no auto-save.
    writeWorkbenchSettings(join(control, "vscode-data"));

    const { chromium } = await import("playwright-core");
    const chromiumTmp = join(control, "tmp");
    mkdirSync(chromiumTmp, { recursive: true });
    let browser;
    try {
        browser = await chromium.launch({
            executablePath: vscode.chromium,
            headless: true,
            // Our own signal handlers close Chromium and then the rest; Playwright's would exit first.
            handleSIGINT: false,
            handleSIGTERM: false,
            handleSIGHUP: false,
            // Chromium leaves singleton sockets in TMPDIR: keep them in the control folder, removed at the end.
            env: { ...process.env, TMPDIR: chromiumTmp },
            args: [
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
            ],
        });
    } catch (e) {
        await fail(`could not start Chromium (${vscode.chromium}): ${e.message}`);
    }
    cleanups.push(() => browser.close().catch(() => {}));
    const page = await browser.newPage({ viewport: { width: 1400, height: 860 } });
    const consoleLines = [];
    let testsModuleFailed = false;
    page.on("console", (msg) => {
        // The tests module failed to load (a syntax error, a missing import): no result will ever come.
        if (msg.type() === "error" && msg.text().includes("$extensionTestsExecute")) testsModuleFailed = true;
        consoleLines.push(`[${msg.type()}] ${msg.text()}`);
        if (consoleLines.length > 400) consoleLines.shift();
    });
    page.on("pageerror", (err) => consoleLines.push(`[pageerror] ${err.message}`));
    if (locale) {
        // The display language of a web workbench is the global a language pack's nls.messages.js sets;
        // with no pack installed (none can be, offline) the server serves none, so it is set here before
        // the workbench loads. The extension host then gets it as vscode.env.language, and VS Code
        // applies package.nls.<locale>.json and l10n/bundle.l10n.<locale>.json as with a pack.
        await page.addInitScript((language) => {
            globalThis._VSCODE_NLS_LANGUAGE = language;
        }, locale);
    }
    const url = server.url({ folder: workspace, extensionDevelopmentPath: repoRoot, extensionTestsPath });
    log(
        `VS Code server (code-server ${vscode.version}) up in ${((Date.now() - runStart) / 1000).toFixed(1)} s; opening the workbench`,
    );
    await page.goto(url, { waitUntil: "domcontentloaded", timeout: 60_000 });

    const diagnose = () =>
        `\n--- last browser console lines ---\n${consoleLines.slice(-40).join("\n")}\n--- last server output ---\n${server
            .output()
            .slice(-3000)}${extensionHostLogs(join(control, "vscode-data"))}`;
    const shots = new Set();
    const startDeadline = Date.now() + 60_000;
    let results;
    for (;;) {
        results = readResults();
        for (const f of readdirSync(control)) {
            const m = f.match(/^shot-(.+)\.request$/);
            if (!m || shots.has(m[1])) continue;
            shots.add(m[1]);
            mkdirSync(screenshotDir, { recursive: true });
            const shot = await takeScreenshot(page, m[1], readRequest(join(control, f)));
            writeFileSync(join(control, `shot-${m[1]}.done`), JSON.stringify(shot));
        }
        if (results?.done) break;
        if (!results && testsModuleFailed) {
            await new Promise((r) => setTimeout(r, 1000)); // let the rest of the error reach the console
            await finish(undefined, `the extension host could not load ${extensionTestsPath}${diagnose()}`);
        }
        if (!results && Date.now() > startDeadline) {
            await finish(
                undefined,
                `the extension host did not start the tests within 60 s (extension failed to load?)${diagnose()}`,
            );
        }
        if (Date.now() > deadline) {
            await finish(results, `timed out after ${timeoutMs / 1000} s; the tests above completed${diagnose()}`);
        }
        if (server.process.exitCode !== null) await finish(results, `the VS Code server exited${diagnose()}`);
        await new Promise((r) => setTimeout(r, 250));
    }
    log(
        `VS Code ${results.vscodeVersion} (${results.uiKind}, remote ${results.remoteName}); suite took ${((Date.now() - runStart) / 1000).toFixed(1)} s`,
    );
    if (keep) log(`kept workspace ${workspace} and control folder ${control}`);
    if (results.failed > 0)
        console.log(`[e2e] logs that may explain the failures:${extensionHostLogs(join(control, "vscode-data"))}`);
    await finish(results);
}

async function runElectron() {
    const { runTests, downloadAndUnzipVSCode } = await import("@vscode/test-electron");
    writeFileSync(
        join(control, "config.json"),
        JSON.stringify({
            resultsFile,
            screenshots: false,
            grep: process.env.SOURCECHECK_E2E_GREP || undefined,
            locale,
        }),
    );
    let vscodeExecutablePath = process.env.VSCODE_EXECUTABLE;
    try {
        if (!vscodeExecutablePath) {
            const pkg = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8"));
            const version = (pkg.engines?.vscode ?? "stable").replace(/^\^/, "");
            vscodeExecutablePath = await downloadAndUnzipVSCode({ version, timeout: 60_000 });
        }
    } catch (e) {
        await fail(`could not download VS Code for @vscode/test-electron: ${e.message}`);
    }
    let status = 0;
    const poll = setInterval(readResults, 500);
    const timer = setTimeout(
        async () => await finish(readResults(), `timed out after ${timeoutMs / 1000} s`),
        timeoutMs,
    );
    try {
        status = await runTests({
            vscodeExecutablePath,
            extensionDevelopmentPath: repoRoot,
            extensionTestsPath,
            extensionTestsEnv: { SOURCECHECK_E2E_CONTROL: control },
            launchArgs: [
                workspace,
                "--disable-workspace-trust",
                "--disable-extensions",
                "--skip-welcome",
                "--skip-release-notes",
                ...(locale ? ["--locale", locale] : []),
            ],
        });
    } catch (e) {
        status = 1;
        console.error(`[e2e] VS Code exited with an error: ${e.message ?? e}`);
    }
    clearInterval(poll);
    clearTimeout(timer);
    const results = readResults();
    await finish(results, results?.done ? undefined : `VS Code exited (status ${status}) before the suite finished`);
}

const chosen = await chooseRoute();
log(`route: ${chosen}`);
try {
    await (chosen === "web" ? runWeb() : runElectron());
} catch (e) {
    await fail(`the e2e driver crashed: ${e instanceof Error ? e.stack : String(e)}`);
}
