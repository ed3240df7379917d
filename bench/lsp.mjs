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

/**
 * Start the bundled server on a workspace folder; resolves once it is initialised and indexing is
 * over. `settings` (the `sourcecheck` section) are what the server reads as its configuration;
 * `workspaceCapabilities` adds to the client's workspace capabilities (diagnostics refresh, say).
 */
export async function startServer(root, settings, workspaceCapabilities = {}) {
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
    connection.onRequest("workspace/configuration", (params) => params.items.map(() => settings ?? null));
    connection.onRequest("client/registerCapability", () => null);
    connection.onRequest("workspace/diagnostic/refresh", () => null);
    connection.onNotification("textDocument/publishDiagnostics", () => {});
    connection.onNotification("sourcecheck/refsCanFollow", () => {});
    connection.onNotification("sourcecheck/citedSpansChanged", () => {});
    connection.listen();
    const rootUri = pathToFileURL(root).href;
    await connection.sendRequest("initialize", {
        processId: process.pid,
        rootUri,
        workspaceFolders: [{ uri: rootUri, name: "bench" }],
        capabilities: {
            window: { workDoneProgress: true },
            workspace: {
                configuration: true,
                didChangeWatchedFiles: { dynamicRegistration: true },
                ...workspaceCapabilities,
            },
            textDocument: {
                diagnostic: { dynamicRegistration: false, relatedDocumentSupport: true },
                hover: { contentFormat: ["markdown", "plaintext"] },
                completion: { completionItem: { snippetSupport: false } },
                synchronization: { didSave: true },
            },
        },
        initializationOptions: settings,
    });
    connection.sendNotification("initialized", {});
    // unref: a pending 10-minute timer would keep the bench process alive that long after its last case.
    const timeout = new Promise((resolve) => setTimeout(resolve, 600_000).unref());
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

/** An offset of the text as an LSP position. */
function positionAt(text, at) {
    const before = text.slice(0, at);
    const line = before.split("\n").length - 1;
    return { line, character: at - before.lastIndexOf("\n") - 1 };
}

function lineStartOf(text, position) {
    let at = 0;
    for (let line = 0; line < position.line; line++) at = text.indexOf("\n", at) + 1;
    return at;
}

function offsetOf(text, position) {
    return lineStartOf(text, position) + position.character;
}

/** The last digit of the first two-decimal confidence after the n-th one: editing it keeps the JSON valid. */
function lastDigitOfConfidence(text, nth) {
    const pattern = /"confidence": 0\.\d\d/g;
    let seen = 0;
    for (const match of text.matchAll(pattern)) {
        if (seen++ >= nth) return positionAt(text, match.index + match[0].length - 1);
    }
    throw new Error("no two-decimal confidence in the workload");
}

/** Positions inside `count` different `str` values, spread evenly over the file. */
function strPositions(text, count) {
    const all = [];
    for (let at = text.indexOf('"str": "'); at !== -1; at = text.indexOf('"str": "', at + 1)) all.push(at + 9);
    if (all.length < count) throw new Error(`only ${all.length} str values for ${count} distinct positions`);
    const step = all.length / count;
    // Offsets to positions in one pass (the file is large).
    const wanted = Array.from({ length: count }, (_, i) => all[Math.floor(i * step)]);
    const positions = [];
    let line = 0;
    let lineStart = 0;
    let w = 0;
    for (let at = 0; at <= text.length && w < wanted.length; at++) {
        if (at === wanted[w]) {
            positions.push({ line, character: at - lineStart });
            w++;
        }
        if (text.charCodeAt(at) === 10) {
            line++;
            lineStart = at + 1;
        }
    }
    return positions;
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

        // 1. One-character edits until fresh diagnostics arrive, against a jsonc-parser parse of the
        // file. The valid edit changes the last digit of a confidence ("0.47" -> "0.41" -> "0.42"), so
        // the file stays valid JSON and every check is a full one; the invalid edit is measured apart.
        const digit = lastDigitOfConfidence(text, Math.floor(annotations / 2));
        let version = 1;
        const editAt = (position, replacement) => {
            connection.sendNotification("textDocument/didChange", {
                textDocument: { uri, version: ++version },
                contentChanges: [
                    {
                        range: { start: position, end: { ...position, character: position.character + 1 } },
                        text: replacement,
                    },
                ],
            });
        };
        const freshReport = async () => {
            const report = await pull(connection, uri);
            if (report.kind !== "full" && report.kind !== "unchanged") throw new Error("no diagnostic report");
            return report;
        };
        let round = 0;
        const edit = await sideBySide(
            async () => {
                editAt(digit, round++ % 2 ? "1" : "2");
                const report = await freshReport();
                if (report.kind === "full" && report.items.length > 0)
                    throw new Error(`the valid edit produced ${report.items[0].message}`);
            },
            () => {
                parseTree(text);
            },
            { runs: 7, warmup: 2 },
        );
        record(
            `lsp one-character valid edit to fresh diagnostics, ${annotations} annotations`,
            { ratio: edit.ours.median / edit.baseline.median },
            3,
            { ours: edit.ours, baseline: edit.baseline, baselineName: "jsonc-parser parseTree of the file" },
        );
        // The invalid edit: the ":" after that "confidence" becomes "x" or "y" (invalid JSON each time),
        // so the server takes its recovery path: jsonc-parser's tolerant parse and a syntax diagnostic.
        const colon = {
            line: digit.line,
            character: text.lastIndexOf(":", offsetOf(text, digit)) - lineStartOf(text, digit),
        };
        editAt(colon, "x");
        await freshReport();
        const invalid = await sideBySide(
            async () => {
                editAt(colon, round++ % 2 ? "x" : "y");
                const report = await freshReport();
                if (report.kind === "full" && !report.items.some((d) => d.code === "invalid-json"))
                    throw new Error("the invalid edit was not reported");
            },
            () => {
                parseTree(text);
            },
            { runs: 7, warmup: 2 },
        );
        record(
            `lsp one-character edit making the file invalid JSON, to fresh diagnostics, ${annotations} annotations`,
            { ratio: invalid.ours.median / invalid.baseline.median },
            3,
            { ours: invalid.ours, baseline: invalid.baseline, baselineName: "jsonc-parser parseTree of the file" },
        );
        editAt(colon, ":");
        await freshReport();

        // 2. Hover and completion at many distinct positions (every request a different str value
        // of a different ref, spread over the file, so no answer comes from a cache), against a
        // round trip that does no work (an unknown method).
        const batch = 20;
        const rounds = 9;
        const positions = strPositions(text, 2 * batch * rounds);
        let next = 0;
        const distinct = () => positions[next++];
        const noop = async () => {
            for (let i = 0; i < batch; i++)
                await connection.sendRequest("sourcecheck/benchNoop", {}).catch(() => undefined);
        };
        const hover = await sideBySide(
            async () => {
                for (let i = 0; i < batch; i++) {
                    const result = await connection.sendRequest("textDocument/hover", {
                        textDocument: { uri },
                        position: distinct(),
                    });
                    if (!result) throw new Error("no hover on a str value");
                }
            },
            noop,
            { runs: rounds - 2, warmup: 2 },
        );
        record(
            `lsp hover at ${batch * rounds} distinct refs vs no-op round trip`,
            { ratio: hover.ours.median / hover.baseline.median },
            2,
            { ours: hover.ours, baseline: hover.baseline },
        );
        const completion = await sideBySide(
            async () => {
                for (let i = 0; i < batch; i++) {
                    const result = await connection.sendRequest("textDocument/completion", {
                        textDocument: { uri },
                        position: distinct(),
                    });
                    const items = Array.isArray(result) ? result : result?.items;
                    if (!items || items.length === 0) throw new Error("no completion in a str value");
                }
            },
            noop,
            { runs: rounds - 2, warmup: 2 },
        );
        record(
            `lsp completion at ${batch * rounds} distinct refs vs no-op round trip`,
            { ratio: completion.ours.median / completion.baseline.median },
            2,
            { ours: completion.ours, baseline: completion.baseline },
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
        // Both sides make the same change: 9 characters inserted at the end of a file, or removed again,
        // as one incremental edit. Ours edits a cited document (every ref into it re-resolved); the
        // baseline edits the annotation file with whitespace (the whole file, every ref, re-checked).
        const appended = "\nappended";
        const blank = "\n        ";
        const endOf = (text) => positionAt(text, text.length);
        const toggle = (docUri, version, text, added) => {
            const end = endOf(text);
            const change =
                version % 2 === 0
                    ? { range: { start: end, end }, text: added }
                    : { range: { start: end, end: endOf(text + added) }, text: "" };
            connection.sendNotification("textDocument/didChange", {
                textDocument: { uri: docUri, version },
                contentChanges: [change],
            });
        };
        const measured = await sideBySide(
            async () => {
                toggle(citedUri, ++citedVersion, citedText, appended);
                await pull(connection, uri);
            },
            async () => {
                toggle(uri, ++fileVersion, annotationText, blank);
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
                baselineName: `re-check of all ${annotations} annotations after an edit of the same size`,
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
