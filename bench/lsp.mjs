// Language-server cases of the benchmark, over stdio against dist/server.js, as any LSP client would.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { round, sideBySide } from "./measure.mjs";
import { makeWorkspace } from "./workload.mjs";

const require = createRequire(import.meta.url);
const rpc = require("vscode-languageserver-protocol/node");
const { parseTree } = require("jsonc-parser");
const repo = dirname(dirname(fileURLToPath(import.meta.url)));

/** Start the bundled server on a workspace folder; resolves once it is initialised and indexing is over. */
async function startServer(root) {
    const child = spawn(process.execPath, ["--max-old-space-size=4096", join(repo, "dist/server.js"), "--stdio"], {
        stdio: ["pipe", "pipe", "inherit"],
    });
    const connection = rpc.createProtocolConnection(
        new rpc.StreamMessageReader(child.stdout),
        new rpc.StreamMessageWriter(child.stdin),
    );
    const progressTokens = new Set();
    let indexingDone;
    const indexed = new Promise((resolve) => {
        indexingDone = resolve;
    });
    connection.onRequest("window/workDoneProgress/create", (params) => {
        progressTokens.add(params.token);
        return null;
    });
    connection.onNotification("$/progress", (params) => {
        if (params.value?.kind === "end") indexingDone();
    });
    connection.onRequest("workspace/configuration", (params) => params.items.map(() => null));
    connection.onRequest("client/registerCapability", () => null);
    connection.onRequest("workspace/diagnostic/refresh", () => null);
    connection.onNotification("textDocument/publishDiagnostics", () => {});
    connection.listen();
    const rootUri = pathToFileURL(root).href;
    await connection.sendRequest("initialize", {
        processId: process.pid,
        rootUri,
        workspaceFolders: [{ uri: rootUri, name: "bench" }],
        capabilities: {
            window: { workDoneProgress: true },
            workspace: { configuration: true, didChangeWatchedFiles: { dynamicRegistration: true } },
            textDocument: {
                diagnostic: { dynamicRegistration: false, relatedDocumentSupport: true },
                hover: { contentFormat: ["markdown", "plaintext"] },
                completion: { completionItem: { snippetSupport: false } },
                synchronization: { didSave: true },
            },
        },
    });
    connection.sendNotification("initialized", {});
    const timeout = new Promise((resolve) => setTimeout(resolve, 600_000));
    await Promise.race([indexed, timeout]);
    return {
        connection,
        child,
        rssMB() {
            const status = readFileSync(`/proc/${child.pid}/status`, "utf8");
            return Number(/VmRSS:\s+(\d+)/.exec(status)[1]) / 1024;
        },
        async stop() {
            // Let the exit notification be written before the process is ended, else the write fails.
            const exited = new Promise((resolve) => child.once("exit", resolve));
            try {
                await connection.sendRequest("shutdown");
                await connection.sendNotification("exit");
            } catch {}
            await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 2000))]);
            connection.dispose();
            child.kill();
        },
    };
}

function open(connection, uri, text, languageId = "json") {
    connection.sendNotification("textDocument/didOpen", { textDocument: { uri, languageId, version: 1, text } });
}

/** Offset of the n-th occurrence of `needle`, as an LSP position. */
function positionOf(text, needle, nth = 1) {
    let at = -1;
    for (let i = 0; i < nth; i++) at = text.indexOf(needle, at + 1);
    const before = text.slice(0, at);
    const line = before.split("\n").length - 1;
    return { line, character: at - before.lastIndexOf("\n") - 1 };
}

async function pull(connection, uri) {
    return connection.sendRequest("textDocument/diagnostic", { textDocument: { uri } });
}

export async function lspCases({ scratch, smoke, record, results }) {
    const annotations = smoke ? 500 : 10_000;
    const workspace = makeWorkspace(join(scratch, "lsp"), {
        annotations,
        totalBytes: annotations * 500,
        documents: 20,
        seed: 11,
    });
    const server = await startServer(workspace.dir);
    const { connection } = server;
    try {
        const uri = pathToFileURL(workspace.annotationFile).href;
        let text = readFileSync(workspace.annotationFile, "utf8");
        open(connection, uri, text, "sourcecheck");
        await pull(connection, uri);

        // 1. A one-character edit, until fresh diagnostics arrive; against a jsonc-parser parse of the file.
        const confidenceAt = positionOf(text, '"confidence": ', Math.floor(annotations / 2));
        const digit = { line: confidenceAt.line, character: confidenceAt.character + 15 };
        let version = 1;
        const edit = await sideBySide(
            async () => {
                const replacement = version % 2 ? "1" : "2";
                connection.sendNotification("textDocument/didChange", {
                    textDocument: { uri, version: ++version },
                    contentChanges: [
                        {
                            range: { start: digit, end: { ...digit, character: digit.character + 1 } },
                            text: replacement,
                        },
                    ],
                });
                const report = await pull(connection, uri);
                if (report.kind !== "full" && report.kind !== "unchanged") throw new Error("no diagnostic report");
            },
            () => {
                parseTree(text);
            },
            { runs: 7, warmup: 2 },
        );
        record(
            `lsp one-character edit to fresh diagnostics, ${annotations} annotations`,
            { ratio: edit.ours.median / edit.baseline.median },
            3,
            {
                ours: edit.ours,
                baseline: edit.baseline,
                baselineName: "jsonc-parser parseTree of the file",
            },
        );

        // 2. Hover and completion, against a round trip that does no work (an unknown method).
        const batch = 20;
        const strAt = positionOf(text, '"str": "', Math.floor(annotations / 3));
        const inStr = { line: strAt.line, character: strAt.character + 9 };
        const noop = async () => {
            for (let i = 0; i < batch; i++)
                await connection.sendRequest("sourcecheck/benchNoop", {}).catch(() => undefined);
        };
        const hover = await sideBySide(
            async () => {
                for (let i = 0; i < batch; i++) {
                    const result = await connection.sendRequest("textDocument/hover", {
                        textDocument: { uri },
                        position: inStr,
                    });
                    if (!result) throw new Error("no hover on a str value");
                }
            },
            noop,
            { runs: 7, warmup: 2 },
        );
        record("lsp hover vs no-op round trip", { ratio: hover.ours.median / hover.baseline.median }, 2, {
            ours: hover.ours,
            baseline: hover.baseline,
        });
        const completion = await sideBySide(
            async () => {
                for (let i = 0; i < batch; i++) {
                    const result = await connection.sendRequest("textDocument/completion", {
                        textDocument: { uri },
                        position: inStr,
                    });
                    const items = Array.isArray(result) ? result : result?.items;
                    if (!items || items.length === 0) throw new Error("no completion in a str value");
                }
            },
            noop,
            { runs: 7, warmup: 2 },
        );
        record(
            "lsp completion vs no-op round trip",
            { ratio: completion.ours.median / completion.baseline.median },
            2,
            {
                ours: completion.ours,
                baseline: completion.baseline,
            },
        );
        text = undefined;
    } finally {
        await server.stop();
    }

    await oneOfManyCase({ scratch, smoke, record });
    await memoryCase({ scratch, smoke, results });
}

/** Re-check after one cited document of 1,000 changes, against a re-check of everything. */
async function oneOfManyCase({ scratch, smoke, record }) {
    const documents = smoke ? 50 : 1000;
    const annotations = smoke ? 500 : 10_000;
    const workspace = makeWorkspace(join(scratch, "many"), {
        annotations,
        totalBytes: documents * 20_000,
        documents,
        seed: 13,
    });
    const server = await startServer(workspace.dir);
    const { connection } = server;
    try {
        const uri = pathToFileURL(workspace.annotationFile).href;
        const annotationText = readFileSync(workspace.annotationFile, "utf8");
        open(connection, uri, annotationText, "sourcecheck");
        const cited = workspace.documents[1];
        const citedUri = pathToFileURL(join(workspace.dir, cited)).href;
        const citedText = readFileSync(join(workspace.dir, cited), "utf8");
        open(connection, citedUri, citedText, "markdown");
        await pull(connection, uri);
        let citedVersion = 1;
        let fileVersion = 1;
        const measured = await sideBySide(
            async () => {
                // Append a line: every ref into the document still resolves, but each must be re-checked.
                connection.sendNotification("textDocument/didChange", {
                    textDocument: { uri: citedUri, version: ++citedVersion },
                    contentChanges: [{ text: citedVersion % 2 ? citedText : `${citedText}\nappended` }],
                });
                await pull(connection, uri);
            },
            async () => {
                // Whitespace at the end of the annotation file: the whole file, every ref, re-checked.
                connection.sendNotification("textDocument/didChange", {
                    textDocument: { uri, version: ++fileVersion },
                    contentChanges: [{ text: fileVersion % 2 ? annotationText : `${annotationText} ` }],
                });
                await pull(connection, uri);
            },
            { runs: 7, warmup: 2 },
        );
        record(
            `lsp re-check after 1 of ${documents} cited documents changes vs full re-check`,
            { ratio: measured.ours.median / measured.baseline.median },
            1 / 50,
            {
                ours: measured.ours,
                baseline: measured.baseline,
                baselineName: `re-check of all ${annotations} annotations`,
            },
        );
    } finally {
        await server.stop();
    }
}

/** Server memory after indexing a workspace of 200 MB of text (resident set, an upper bound of its heap). */
async function memoryCase({ scratch, smoke, results }) {
    const totalBytes = smoke ? 5_000_000 : 200_000_000;
    const workspace = makeWorkspace(join(scratch, "memory"), {
        annotations: smoke ? 1000 : 20_000,
        totalBytes,
        documents: 100,
        seed: 17,
    });
    const server = await startServer(workspace.dir);
    try {
        const uri = pathToFileURL(workspace.annotationFile).href;
        // Every annotation file is checked at start; asking for its diagnostics proves it was indexed.
        const report = await pull(server.connection, uri);
        if (!report) throw new Error("no diagnostics for the indexed file");
        await new Promise((resolve) => setTimeout(resolve, 500));
        const rss = server.rssMB();
        const textMB = workspace.documentBytes / (1024 * 1024);
        const ratio = rss / textMB;
        const pass = smoke ? null : ratio <= 3;
        results.push({
            name: `server memory after indexing ${round(textMB, 0)} MiB of text`,
            ratio: round(ratio),
            target: smoke ? null : 3,
            pass,
            rssMB: round(rss, 1),
            textMB: round(textMB, 1),
        });
        console.log(
            `${pass === null ? "    " : pass ? "PASS" : "FAIL"} server RSS after indexing ${round(textMB, 0)} MiB of text: ${round(rss, 0)} MiB, ratio ${round(ratio)} (target <= 3)`,
        );
    } finally {
        await server.stop();
    }
}
