// `npm start`: copy examples/demo afresh into the git-ignored .vscode-test/start/demo
// (scripts/start-demo.mjs: the tracked demo is never written), build, check the copy with the CLI,
// then open it in VS Code with the extension loaded: the desktop `code` when it is on PATH, else the
// offline VS Code server of scripts/e2e-install.mjs (a browser workbench; the URL is printed).
//
//   npm start [-- --port N] [-- --no-editor] [-- --prepare-only]
//   --port N        port of the offline VS Code server (default: a free one; also SOURCECHECK_PORT)
//   --no-editor     stop after the build and the CLI run
//   --prepare-only  stop after making the demo copy (test/unit/startDemo.test.ts)
import { spawn, spawnSync } from "node:child_process";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { ensureDependencies } from "./ensure-deps.mjs";
import { desktopArgs, prepareDemo, START_FILE } from "./start-demo.mjs";

const repoRoot = resolve(fileURLToPath(import.meta.url), "..", "..");
const args = process.argv.slice(2);
const log = (message) => console.log(`[start] ${message}`);

function option(name) {
    const at = args.indexOf(name);
    return at >= 0 ? args[at + 1] : undefined;
}

function run(command, commandArgs, what) {
    const result = spawnSync(command, commandArgs, { cwd: repoRoot, stdio: "inherit" });
    if (result.error) throw new Error(`${what}: ${result.error.message}`);
    return result.status;
}

function onPath(command) {
    return spawnSync("sh", ["-c", `command -v ${command}`], { encoding: "utf8" }).status === 0;
}

async function main() {
    const { demo, data: dataDir } = prepareDemo(repoRoot);
    const shown = relative(repoRoot, demo);
    log(`a fresh copy of examples/demo in ${shown} (git ignores it; made again on every run)`);
    if (args.includes("--prepare-only")) return;
    ensureDependencies(repoRoot);
    log("building (node scripts/build.mjs)");
    if (run(process.execPath, ["scripts/build.mjs"], "build") !== 0) throw new Error("the build failed");

    // The demo's annotations 4-7 are broken on purpose, so exit status 1 is the expected answer here.
    log(`node dist/cli.js check ${shown}/answer.sourcecheck.json --root ${shown}`);
    const status = run(
        process.execPath,
        ["dist/cli.js", "check", `${shown}/answer.sourcecheck.json`, "--root", shown],
        "CLI",
    );
    log(`CLI exit status ${status} (1 = resolution failures, as the demo intends)`);
    if (args.includes("--no-editor")) return;

    // The demo's answer.md opens in a trusted window, without the Welcome page or a walkthrough.
    if (onPath("code")) {
        const codeArgs = desktopArgs(repoRoot, demo);
        log(`code ${codeArgs.join(" ")}`);
        spawn("code", codeArgs, { stdio: "inherit", detached: true }).unref();
        return;
    }

    const { ensureOfflineVSCode, offlineVSCodeInstalled, startVSCodeServer } = await import("./e2e-install.mjs");
    if (offlineVSCodeInstalled()) log("no `code` on PATH: using the offline VS Code server");
    else log("no `code` on PATH: installing the offline VS Code server (once; a few minutes)");
    await ensureOfflineVSCode({ log: (message) => log(message) });
    const portOption = option("--port") ?? process.env.SOURCECHECK_PORT;
    const server = await startVSCodeServer({
        port: portOption ? Number(portOption) : undefined,
        dataDir,
        extraArgs: ["--disable-workspace-trust"],
        log: (message) => log(message),
    });
    const stop = () => {
        server.stop();
        process.exit(0);
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
    server.process.on("exit", (code) => {
        log(`the VS Code server exited (${code}); its last output:\n${server.output().slice(-2000)}`);
        process.exit(code ?? 1);
    });
    console.log(`\nOpen this URL in a browser (Chromium/Chrome/Firefox) to use the extension on the demo:\n`);
    console.log(
        `  ${server.url({ folder: demo, openFile: join(demo, START_FILE), extensionDevelopmentPath: repoRoot })}\n`,
    );
    console.log("The server listens on 127.0.0.1 only. Press Ctrl+C to stop it.");
}

main().catch((error) => {
    console.error(`[start] ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
});
