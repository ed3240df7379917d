/**
 * Find Sources in the web worker (docs/web.md, docs/evidence.md "In the browser"): the server as
 * browserServer.ts starts it (browserHost.ts), bundled as the worker gets it, over a MessageChannel, with a
 * client that serves a workspace from memory on the `sourcecheck-mem:` scheme and records every read,
 * stat and listing. The search finds the source through those requests only (the bundle cannot import a
 * Node built-in, and no file of it is on disk), leaves out the answer, and its index follows the changes
 * the client forwards: an unchanged document is not read again, a changed one is, a new one is found.
 */
import * as assert from "node:assert/strict";
import type { MessagePort } from "node:worker_threads";
import { FIND_EVIDENCE, type FindEvidenceResult } from "../../shared/evidenceProtocol";
import {
    loadWebServer,
    serveFromMemory,
    startWebClient,
    WEB_ANSWER,
    WEB_BENCHMARK,
    type WebServerBundle,
    type WebTestClient,
} from "./webDemo";

type Client = WebTestClient;

interface Bundle extends WebServerBundle {
    /** vscode-jsonrpc's CancellationTokenSource of the bundle (the client's cancellations). */
    cancellation(): { token: unknown; cancel(): void };
}

function loadBundle(): Bundle {
    return loadWebServer<Bundle>(
        "webevidence",
        () =>
            `import { CancellationTokenSource } from "vscode-languageserver-protocol/browser";
        export function cancellation() {
            const source = new CancellationTokenSource();
            return { token: source.token, cancel: () => source.cancel() };
        }`,
    );
}

const ROOT = "sourcecheck-mem:/demo";
/** A source that is no match, so the hit has to be chosen. */
const RELEASE_NOTES = "# Release notes\n\nThe settings page got a dark theme.\nExport to CSV was added.\n";

function demoFiles(): Map<string, string> {
    return new Map([
        [`${ROOT}/answer.sourcecheck.json`, WEB_ANSWER],
        [`${ROOT}/answer.md`, "Cold start is faster. It ships in May.\n"],
        [`${ROOT}/sources/benchmark.txt`, WEB_BENCHMARK],
        [`${ROOT}/sources/release-notes.md`, RELEASE_NOTES],
    ]);
}

/** The client's side: the workspace in memory, answering at once and recording what it was asked. */
function recordingWorkspace(client: Client, files: Map<string, string>) {
    const asked: { method: string; uri: string }[] = [];
    serveFromMemory(client, files, (method, uri, value) => {
        asked.push({ method, uri });
        return value();
    });
    return {
        asked,
        /** The reads of documents asked since `from` (by path under the root). */
        readsSince: (from: number) =>
            asked
                .slice(from)
                .filter((a) => a.method === "read")
                .map((a) => a.uri.slice(ROOT.length + 1)),
    };
}

describe("Find Sources in the web worker, over the client's files", function () {
    this.timeout(60_000);
    let bundle: Bundle;
    let ports: MessagePort[] = [];
    before(() => {
        bundle = loadBundle();
    });
    afterEach(() => {
        for (const port of ports) port.close();
        ports = [];
    });

    async function started(files: Map<string, string>) {
        const started = await startWebClient(bundle, ROOT, (client) => recordingWorkspace(client, files));
        ports = started.ports;
        return started;
    }

    const findSources = (client: Client, token?: unknown) => {
        const params = { annotationUri: `${ROOT}/answer.sourcecheck.json`, annotation: 1 };
        // A third argument that is not a token would be sent as a parameter.
        return token === undefined
            ? client.sendRequest<FindEvidenceResult>(FIND_EVIDENCE, params)
            : client.sendRequest<FindEvidenceResult>(FIND_EVIDENCE, params, token);
    };

    function hitsOf(result: FindEvidenceResult) {
        assert.ok(result.ok, JSON.stringify(result));
        return result.hits;
    }

    it("finds the claim's source with its ready ref and text, read through the client, the answer left out", async () => {
        const files = demoFiles();
        const { client, workspace } = await started(files);
        const result = await findSources(client);
        assert.ok(result.ok, JSON.stringify(result));
        assert.equal(result.query, "Cold start is faster.");
        const hits = result.hits;
        assert.equal(hits[0]?.path, "sources/benchmark.txt", JSON.stringify(hits));
        assert.ok(hits[0].ref !== null, "the hit has a ref to write into the annotation");
        assert.equal(hits[0].ref.path, "sources/benchmark.txt");
        assert.equal(hits[0].startLine, 1);
        assert.match(hits[0].text, /^Cold start, median of 50 runs/);
        assert.match(hits[0].refText, /Cold start/);
        // The claim's own document (the answer being written) is never its own source.
        assert.ok(!hits.some((hit) => hit.path === "answer.md"), JSON.stringify(hits));
        // Every question went to the client, on the in-memory scheme only; the documents were read.
        assert.ok(workspace.asked.length > 0);
        for (const { uri } of workspace.asked) assert.ok(uri.startsWith("sourcecheck-mem:/"), uri);
        const reads = workspace.readsSince(0);
        for (const document of ["sources/benchmark.txt", "sources/release-notes.md"])
            assert.ok(reads.includes(document), `${document} read through the client: ${reads.join(", ")}`);
        assert.ok(
            workspace.asked.some((a) => a.method === "list" && a.uri === `${ROOT}/sources`),
            "the corpus walk listed the folder through the client",
        );
    });

    it("follows the client's changes: nothing read again while unchanged; a changed file read again, a new one found", async () => {
        const files = demoFiles();
        const { client, workspace } = await started(files);
        hitsOf(await findSources(client));

        // Unchanged: the index in memory answers; no document is read again.
        let from = workspace.asked.length;
        const again = hitsOf(await findSources(client));
        assert.equal(again[0].path, "sources/benchmark.txt");
        assert.deepEqual(workspace.readsSince(from), []);

        // Changed outside the editor: that file is read again (only it), and its new text is searched.
        files.set(`${ROOT}/sources/release-notes.md`, "# Release notes\n\nCold start is faster since 2.4.0.\n");
        client.sendNotification("workspace/didChangeWatchedFiles", {
            changes: [{ uri: `${ROOT}/sources/release-notes.md`, type: 2 }],
        });
        from = workspace.asked.length;
        const changed = hitsOf(await findSources(client));
        assert.equal(changed[0].path, "sources/release-notes.md", JSON.stringify(changed));
        assert.deepEqual(
            workspace.readsSince(from).filter((path) => path.startsWith("sources/")),
            ["sources/release-notes.md"],
        );

        // Created in a new folder: the corpus is walked again and the new file found; deleted: gone again.
        const created = `${ROOT}/more/cold.md`;
        files.set(created, "# Cold start\n\nCold start is faster: cold start is faster than ever.\n");
        client.sendNotification("workspace/didChangeWatchedFiles", { changes: [{ uri: created, type: 1 }] });
        const withNew = hitsOf(await findSources(client));
        assert.ok(
            withNew.some((hit) => hit.path === "more/cold.md"),
            JSON.stringify(withNew.map((hit) => hit.path)),
        );
        files.delete(created);
        client.sendNotification("workspace/didChangeWatchedFiles", { changes: [{ uri: created, type: 3 }] });
        const afterDelete = hitsOf(await findSources(client));
        assert.ok(!afterDelete.some((hit) => hit.path === "more/cold.md"), JSON.stringify(afterDelete));
    });

    it("a cancelled search answers `cancelled`, and the next one still finds the source", async () => {
        const files = demoFiles();
        const { client } = await started(files);
        const { token, cancel } = bundle.cancellation();
        const cancelled = findSources(client, token);
        cancel();
        const result = await cancelled;
        assert.equal(result.ok, false);
        assert.equal(!result.ok && result.cancelled, true, JSON.stringify(result));
        const next = hitsOf(await findSources(client));
        assert.equal(next[0].path, "sources/benchmark.txt");
    });
});
