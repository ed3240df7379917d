// Editor start-up: the time from starting the language server until an opened annotation file has
// its first diagnostics, on a workspace of 200,000 files against the same annotation file alone.
// The start-up scan runs asynchronously (docs/editor-features.md), so the large workspace must not
// make the first diagnostics wait for it. Sides alternate (measure.mjs), over stdio like any client.
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { round, sideBySide } from "./measure.mjs";
import { makeWorkspace } from "./workload.mjs";

const require = createRequire(import.meta.url);
const rpc = require("vscode-languageserver-protocol/node");
const repo = dirname(dirname(fileURLToPath(import.meta.url)));

/** `count` small files in folders of 100, beside the workload (what a large repository looks like). */
function addFiles(root, count) {
    for (let folder = 0; folder * 100 < count; folder++) {
        const dir = join(root, "many", `f${Math.floor(folder / 100)}`, `d${folder}`);
        mkdirSync(dir, { recursive: true });
        for (let i = folder * 100; i < Math.min(count, (folder + 1) * 100); i++) {
            writeFileSync(join(dir, `file${i}.txt`), `file ${i}\n`);
        }
    }
}

/** Start a server on `root`, open the annotation file at once, and time until its first diagnostics. */
async function firstDiagnostics(workspace) {
    const child = spawn(process.execPath, [join(repo, "dist/server.js"), "--stdio"], {
        stdio: ["pipe", "pipe", "inherit"],
    });
    const connection = rpc.createProtocolConnection(
        new rpc.StreamMessageReader(child.stdout),
        new rpc.StreamMessageWriter(child.stdin),
    );
    connection.onRequest("workspace/configuration", (params) => params.items.map(() => null));
    connection.onRequest("client/registerCapability", () => null);
    connection.onRequest("window/workDoneProgress/create", () => null);
    connection.onRequest("workspace/diagnostic/refresh", () => null);
    connection.onRequest("workspace/inlayHint/refresh", () => null);
    connection.onNotification(() => {});
    connection.listen();
    const rootUri = pathToFileURL(workspace.dir).href;
    const uri = pathToFileURL(workspace.annotationFile).href;
    try {
        await connection.sendRequest("initialize", {
            processId: process.pid,
            rootUri,
            workspaceFolders: [{ uri: rootUri, name: "bench" }],
            capabilities: {
                window: { workDoneProgress: true },
                workspace: { configuration: true, didChangeWatchedFiles: { dynamicRegistration: true } },
                textDocument: { diagnostic: { dynamicRegistration: false } },
            },
        });
        await connection.sendNotification("initialized", {});
        const text = readFileSync(workspace.annotationFile, "utf8");
        await connection.sendNotification("textDocument/didOpen", {
            textDocument: { uri, languageId: "sourcecheck", version: 1, text },
        });
        const report = await connection.sendRequest("textDocument/diagnostic", { textDocument: { uri } });
        if (report.kind !== "full") throw new Error("expected a full diagnostic report");
        return report.items.length;
    } finally {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill();
        await exited;
        connection.dispose();
    }
}

export async function editorCases({ scratch, smoke, record }) {
    const files = smoke ? 2_000 : 200_000;
    const size = { annotations: 200, totalBytes: 200_000, documents: 5 };
    const alone = makeWorkspace(join(scratch, "editor-alone"), { ...size, seed: 11 });
    const large = makeWorkspace(join(scratch, "editor-large"), { ...size, seed: 11 });
    console.log(`     writing ${files.toLocaleString("en")} files for the editor start-up case…`);
    addFiles(large.dir, files);
    const measured = await sideBySide(
        () => firstDiagnostics(large),
        () => firstDiagnostics(alone),
        { runs: smoke ? 3 : 5, warmup: 1 },
    );
    record(
        `editor start-up, first diagnostics of an opened annotation file: ${files.toLocaleString("en")} files vs none`,
        { ratio: measured.ours.median / measured.baseline.median },
        smoke ? undefined : 1.5,
        { ours: measured.ours, baseline: measured.baseline, baselineName: "the same annotation file alone" },
    );
    console.log(`     (medians: ${round(measured.ours.median)} ms vs ${round(measured.baseline.median)} ms)`);
}
