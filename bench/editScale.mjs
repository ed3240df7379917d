// Edits cost what changed (docs/architecture.md): the time from a one-character edit of an annotation
// file to its fresh diagnostics, in a file of 3,000 annotations against one of 300, through the real
// server over stdio as VS Code sees it: didChange, the server's pause before it checks (120 ms), its
// request that the client pull again (workspace/diagnostic/refresh), the pull. Both servers run at
// once and take turns (measure.mjs), each opened, pulled and warmed the same way. Beside it, the
// server's peak memory (VmHWM) once the large file was edited.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { startServer } from "./lsp.mjs";
import { round, sideBySide } from "./measure.mjs";
import { makeWorkspace } from "./workload.mjs";

/** A server on a workspace of `annotations`, its file open and pulled once, and a way to time one edit. */
async function editedServer(dir, annotations) {
    const workspace = makeWorkspace(dir, { annotations, totalBytes: 2_000_000, documents: 20, seed: 45 });
    let refreshed;
    const server = await startServer(workspace.dir, undefined, { diagnostics: { refreshSupport: true } });
    const { connection } = server;
    // The refresh request the server sends once the pause is over and the file was checked again.
    connection.onRequest("workspace/diagnostic/refresh", () => {
        refreshed?.();
        return null;
    });
    const uri = pathToFileURL(workspace.annotationFile).href;
    const text = readFileSync(workspace.annotationFile, "utf8");
    connection.sendNotification("textDocument/didOpen", {
        textDocument: { uri, languageId: "sourcecheck", version: 1, text },
    });
    await connection.sendRequest("textDocument/diagnostic", { textDocument: { uri } });
    // The last digit of a confidence in the middle of the file: the file stays valid, every ref resolves.
    const at = text.indexOf('"confidence": 0.', Math.floor(text.length / 2)) + '"confidence": 0.'.length + 1;
    const before = text.slice(0, at);
    const position = { line: before.split("\n").length - 1, character: at - before.lastIndexOf("\n") - 1 };
    let version = 1;
    return {
        server,
        bytes: Buffer.byteLength(text),
        async edit() {
            const asked = new Promise((resolve) => {
                refreshed = resolve;
            });
            connection.sendNotification("textDocument/didChange", {
                textDocument: { uri, version: ++version },
                contentChanges: [
                    {
                        range: { start: position, end: { ...position, character: position.character + 1 } },
                        text: String(version % 10),
                    },
                ],
            });
            await asked;
            const report = await connection.sendRequest("textDocument/diagnostic", { textDocument: { uri } });
            if (report.kind !== "full" || report.items.length > 0)
                throw new Error("the edit did not give clean diagnostics");
        },
        peakMB() {
            const status = readFileSync(`/proc/${server.child.pid}/status`, "utf8");
            return Number(/VmHWM:\s+(\d+)/.exec(status)[1]) / 1024;
        },
    };
}

export async function editScaleCases({ scratch, smoke, record, results }) {
    const large = smoke ? 600 : 3_000;
    const small = large / 10;
    const big = await editedServer(join(scratch, "edit-large"), large);
    const little = await editedServer(join(scratch, "edit-small"), small);
    try {
        const measured = await sideBySide(
            () => big.edit(),
            () => little.edit(),
            { runs: smoke ? 3 : 15, warmup: 3 },
        );
        record(
            `lsp edit to fresh diagnostics, ${large} annotations (${round(big.bytes / 1e6, 2)} MB) vs ${small}, over stdio with the 120 ms pause`,
            { ratio: measured.ours.median / measured.baseline.median },
            smoke ? undefined : 1.25,
            { ours: measured.ours, baseline: measured.baseline, baselineName: `the same edit in ${small} annotations` },
        );
        console.log(`     (medians: ${round(measured.ours.median)} ms vs ${round(measured.baseline.median)} ms)`);
        const peak = big.peakMB();
        const pass = smoke ? null : peak <= 150;
        results.push({
            name: `lsp server peak RSS after ${measured.runs} edits of ${large} annotations`,
            ratio: round(peak, 1),
            target: smoke ? null : 150,
            pass,
            rssMB: round(peak, 1),
        });
        console.log(
            `${pass === null ? "    " : pass ? "PASS" : "FAIL"} server peak RSS after editing ${large} annotations: ${round(peak, 1)} MB (target <= 150)`,
        );
    } finally {
        await big.server.stop();
        await little.server.stop();
    }
}
