// VS Code for the Web (docs/web.md, docs/benchmarks.md): the demo's first diagnostics with the extension in
// the web worker extension host, against the same with it in the Node extension host, in the same browser
// workbench (the offline VS Code server of the e2e route, scripts/e2e-install.mjs) on the same folder of
// the server's disk. Each round opens a fresh workbench page with one side's extension and the probe
// (bench/webHostProbe.cjs), which times from opening the annotation file (which activates the extension)
// until the server's diagnostics on it number as many as the CLI reports; sides alternate (measure.mjs).
// Both sides run minified bundles, as the published extension ships them. Also reported: the web bundles'
// minified sizes (docs/web.md, "The build"; each <= 1 MB).
import { spawnSync } from "node:child_process";
import {
    copyFileSync,
    cpSync,
    mkdirSync,
    readdirSync,
    readFileSync,
    rmSync,
    statSync,
    symlinkSync,
    writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import {
    ensureOfflineVSCode,
    startVSCodeServer,
    WORKBENCH_ARGS,
    writeWorkbenchSettings,
} from "../scripts/e2e-install.mjs";
import { round, sideBySide, stats } from "./measure.mjs";

const repo = dirname(dirname(fileURLToPath(import.meta.url)));
export const WEB_HOST_TARGET = 1.5;
const BUNDLE_BUDGET = 1024 * 1024;
const ROUND_LIMIT_MS = 150_000;

/**
 * The extension for one host: the repository's files by symlink and a manifest of its own. Both sides drop
 * the `workspaceContains` activation events, so that opening the annotation file is what activates the
 * extension and the probe's clock covers activation, the server's start and its reads. The web side is the
 * manifest e2e-web.mjs gives (extensionKind web, no `main`); the Node side keeps `main` and its kind.
 */
function extensionFor(host, dir, expected) {
    mkdirSync(dir, { recursive: true });
    for (const entry of readdirSync(repo)) {
        if (entry === "package.json" || entry === "dist" || entry.startsWith(".") || entry === "node_modules") continue;
        symlinkSync(join(repo, entry), join(dir, entry));
    }
    productionBundles(host, join(dir, "dist"));
    const manifest = JSON.parse(readFileSync(join(repo, "package.json"), "utf8"));
    manifest.activationEvents = manifest.activationEvents.filter((e) => !e.startsWith("workspaceContains:"));
    if (host === "web") {
        delete manifest.main;
        manifest.extensionKind = ["web"];
    }
    writeFileSync(join(dir, "package.json"), JSON.stringify(manifest, null, 2));
    const probe = join(dir, "bench-probe");
    mkdirSync(probe, { recursive: true });
    copyFileSync(join(repo, "bench", "webHostProbe.cjs"), join(probe, "probe.js"));
    writeFileSync(join(probe, "config.json"), JSON.stringify({ expected }));
    return dir;
}

/**
 * The demo in a folder, and how many of its refs the CLI finds broken: the probe waits for at least as many
 * diagnostics (the editor marks each offending token, so a ref broken at both ends has two).
 */
function demoFolder(scratch) {
    const demo = join(scratch, "demo");
    cpSync(join(repo, "examples", "demo"), demo, { recursive: true });
    const run = spawnSync(
        process.execPath,
        [join(repo, "bin", "sourcecheck.js"), "check", "--format", "json", "answer.sourcecheck.json"],
        { cwd: demo, encoding: "utf8" },
    );
    const refs = JSON.parse(run.stdout).entries.flatMap((entry) => [entry.claim, ...entry.sources]);
    const broken = refs.filter((ref) => !ref.valid).length;
    if (broken === 0) throw new Error(`sourcecheck check found no broken ref in the demo:\n${run.stdout}${run.stderr}`);
    return { demo, expected: broken };
}

async function waitForResult(file, page) {
    const until = Date.now() + ROUND_LIMIT_MS;
    for (;;) {
        try {
            return JSON.parse(readFileSync(file, "utf8"));
        } catch {}
        if (Date.now() > until) throw new Error(`no probe result within ${ROUND_LIMIT_MS / 1000} s (${page.url()})`);
        await new Promise((r) => setTimeout(r, 100));
    }
}

/** One round of one side: a fresh page (a fresh extension host), the probe's time from its result. */
async function firstDiagnosticsIn(side, { browser, port, demo }) {
    const result = join(side.dir, "bench-probe", "result.json");
    rmSync(result, { force: true });
    const remote = (path) => `vscode-remote://127.0.0.1:${port}${path}`;
    const payload = [
        ["extensionDevelopmentPath", remote(side.dir)],
        ...(side.host === "web" ? [["extensionDevelopmentKind", "web"]] : []),
        ["extensionTestsPath", remote(join(side.dir, "bench-probe", "probe.js"))],
    ];
    const context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
    try {
        const page = await context.newPage();
        const url = `http://127.0.0.1:${port}/?folder=${encodeURIComponent(demo)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
        await page.goto(url, { waitUntil: "domcontentloaded", timeout: 60_000 });
        const probe = await waitForResult(result, page);
        const wanted = side.host === "web" ? "web worker" : "node";
        if (probe.error) throw new Error(`${side.host} probe: ${probe.error}`);
        if (probe.host !== wanted) throw new Error(`the ${side.host} side ran in the ${probe.host} extension host`);
        if (probe.activeBefore) throw new Error(`the ${side.host} side was active before the probe opened the file`);
        side.seen.push(probe);
        return probe.ms;
    } finally {
        await context.close();
    }
}

async function openChromium(executablePath, scratch) {
    const { chromium } = await import("playwright-core");
    const tmp = join(scratch, "chromium-tmp");
    mkdirSync(tmp, { recursive: true });
    return chromium.launch({
        executablePath,
        headless: true,
        env: { ...process.env, TMPDIR: tmp },
        args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"],
    });
}

/** The bundles a side runs, minified as the published extension has them (`--production`). */
const OWN_BUNDLES = {
    web: ["web"],
    node: ["extension.js", "extension.js.map", "server.js", "server.js.map"],
};

/**
 * The side's dist/: its own bundles built minified, as `node scripts/build.mjs --production` builds them
 * (the web ones by scripts/web-build.mjs itself, the Node ones with build.mjs's options), beside the rest
 * of the repository's dist/ by symlink. Both sides run what a user installs, not the debug build.
 */
function productionBundles(host, dist) {
    mkdirSync(dist, { recursive: true });
    for (const entry of readdirSync(join(repo, "dist"))) {
        if (!OWN_BUNDLES[host].includes(entry)) symlinkSync(join(repo, "dist", entry), join(dist, entry));
    }
    const define = `{ SOURCECHECK_VERSION: '"bench"' }`;
    const node = (entry, outfile) =>
        `build({ bundle: true, platform: "node", target: "node20", format: "cjs", minify: true, logLevel: "warning",
            mainFields: ["module", "main"], define: ${define}, external: ["vscode"],
            entryPoints: [${JSON.stringify(entry)}], outfile: ${JSON.stringify(join(dist, outfile))} })`;
    const script =
        host === "web"
            ? `import { buildWeb } from "./scripts/web-build.mjs";
               await buildWeb({ production: true, outdir: ${JSON.stringify(join(dist, "web"))}, define: ${define} });`
            : `import { build } from "esbuild";
               await Promise.all([${node("client/src/extension.ts", "extension.js")}, ${node("server/src/server.ts", "server.js")}]);`;
    const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], { cwd: repo, encoding: "utf8" });
    if (run.status !== 0) throw new Error(`the ${host} build failed:\n${run.stdout}${run.stderr}`);
}

function recordBundleSizes(webDist, results) {
    const sizes = ["extension.js", "server.js"].map((name) => ({ name, bytes: statSync(join(webDist, name)).size }));
    for (const { name, bytes } of sizes) {
        const pass = bytes <= BUNDLE_BUDGET;
        results.push({
            name: `web bundle dist/web/${name}, minified`,
            ratio: round(bytes / BUNDLE_BUDGET),
            target: 1,
            pass,
            summary: `${bytes.toLocaleString("en")} bytes (${round(bytes / BUNDLE_BUDGET)} of 1 MB)`,
        });
        console.log(
            `${pass ? "PASS" : "FAIL"} web bundle dist/web/${name}: ${bytes.toLocaleString("en")} bytes minified`,
        );
    }
}

export async function webHostCases({ scratch, smoke, record, results }) {
    const vscode = await ensureOfflineVSCode({ log: (m) => console.log(`     [e2e-install] ${m}`) });
    const dir = join(scratch, "web-host");
    const { demo, expected } = demoFolder(dir);
    const web = { host: "web", dir: extensionFor("web", join(dir, "ext-web"), expected), seen: [] };
    recordBundleSizes(join(web.dir, "dist", "web"), results);
    const node = { host: "node", dir: extensionFor("node", join(dir, "ext-node"), expected), seen: [] };
    const server = await startVSCodeServer({ extraArgs: [...WORKBENCH_ARGS], dataDir: join(dir, "vscode"), log() {} });
    writeWorkbenchSettings(join(dir, "vscode"));
    const browser = await openChromium(vscode.chromium, dir);
    try {
        const shared = { browser, port: server.port, demo };
        // Alternated as every row is; the times are the probe's (from opening the file), not the rounds'.
        await sideBySide(
            () => firstDiagnosticsIn(web, shared),
            () => firstDiagnosticsIn(node, shared),
            { runs: smoke ? 1 : 5, warmup: 1 },
        );
        const measured = (side, key) => stats(side.seen.slice(1).map((probe) => probe[key]));
        const ours = measured(web, "ms");
        const baseline = measured(node, "ms");
        const activated = { web: measured(web, "activatedMs"), node: measured(node, "activatedMs") };
        record(
            "VS Code for the Web: first diagnostics of the demo, web worker vs Node extension host",
            { ratio: ours.median / baseline.median },
            smoke ? undefined : WEB_HOST_TARGET,
            { ours, baseline, baselineName: "the Node extension host, same workbench and folder", activated },
        );
        console.log(
            `     (medians: ${round(ours.median)} ms vs ${round(baseline.median)} ms; activated after ${activated.web.median} ms vs ${activated.node.median} ms)`,
        );
    } finally {
        await browser.close();
        server.stop("SIGKILL");
    }
}
