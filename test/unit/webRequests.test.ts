/**
 * The custom requests of the language server in a web worker (docs/web.md, "How it reads files"): the
 * server as browserServer.ts starts it, bundled as the worker gets it, over a MessageChannel (what a worker's
 * port is), with a client that answers its reads only when the test releases them. Cited spans, coverage,
 * an annotation file's annotations and a line index asked for before the workspace has arrived must answer
 * from the files once read, never from a half-read workspace (empty spans, no text, "not an annotation file").
 */
import * as assert from "node:assert/strict";
import type { MessagePort } from "node:worker_threads";
import type {
    CitedSpansResult,
    CoverageResult,
    FileAnnotationsResult,
    LineIndexResult,
} from "../../shared/customProtocol";
import { CITED_SPANS, COVERAGE, FILE_ANNOTATIONS, LINE_INDEX } from "../../shared/customProtocol";
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

const ROOT = "sourcecheck-mem:/demo";
const FILES = new Map([
    [`${ROOT}/answer.sourcecheck.json`, WEB_ANSWER],
    [`${ROOT}/answer.md`, "Cold start is faster. It ships in May.\n"],
    [`${ROOT}/sources/benchmark.txt`, WEB_BENCHMARK],
]);

/** The client's side: the workspace in memory, every read, stat and listing held until `release()`. */
function heldWorkspace(client: Client) {
    const held: (() => void)[] = [];
    serveFromMemory(
        client,
        FILES,
        (_method, _uri, value) => new Promise((resolve) => held.push(() => resolve(value()))),
    );
    return {
        /** Answers what was asked so far; the number answered. */
        release: () => {
            const now = held.splice(0);
            for (const answer of now) answer();
            return now.length;
        },
    };
}

describe("the web worker's custom requests wait for the reads they need", function () {
    this.timeout(60_000);
    let bundle: WebServerBundle;
    let ports: MessagePort[] = [];
    before(() => {
        bundle = loadWebServer("webrequests");
    });
    afterEach(() => {
        for (const port of ports) port.close();
        ports = [];
    });

    async function started() {
        const started = await startWebClient(bundle, ROOT, heldWorkspace);
        ports = started.ports;
        return started;
    }

    /** Sends the request with every read held, then releases them round after round until it answers. */
    async function askedBeforeReads<R>(send: () => Promise<R>, workspace: { release(): number }) {
        let answered = false;
        const asked = send().finally(() => {
            answered = true;
        });
        let released = 0;
        for (let round = 0; !answered; round++) {
            assert.ok(round < 2000, "the request never answered");
            await new Promise((resolve) => setTimeout(resolve, 2));
            if (!answered) released += workspace.release();
        }
        assert.ok(released > 0, "answered before any read arrived");
        return await asked;
    }

    it("cited spans of a cited document not open: the span of the annotation file read meanwhile", async () => {
        const { client, workspace } = await started();
        const uri = `${ROOT}/sources/benchmark.txt`;
        const result = await askedBeforeReads(
            () => client.sendRequest<CitedSpansResult>(CITED_SPANS, { uri }),
            workspace,
        );
        assert.deepEqual(
            result.spans.map((s) => [
                s.kind,
                s.range.start.line + 1,
                s.range.start.character + 1,
                s.range.end.character + 1,
            ]),
            [["supports", 4, 1, 12]],
        );
        assert.deepEqual(result.brokenRefs, []);
    });

    it("coverage of the answer: its sentences, the one no claim covers listed", async () => {
        const { client, workspace } = await started();
        const uri = `${ROOT}/answer.md`;
        const result = await askedBeforeReads(() => client.sendRequest<CoverageResult>(COVERAGE, { uri }), workspace);
        const text = FILES.get(uri)!;
        assert.equal(result.totalChars > 0, true, JSON.stringify(result));
        assert.deepEqual(
            (result.uncovered ?? []).map((r) => text.slice(r.start.character, r.end.character)),
            ["It ships in May."],
        );
    });

    it("an annotation file not open: its annotations, each with its verdict", async () => {
        const { client, workspace } = await started();
        const uri = `${ROOT}/answer.sourcecheck.json`;
        const result = await askedBeforeReads(
            () => client.sendRequest<FileAnnotationsResult>(FILE_ANNOTATIONS, { uri }),
            workspace,
        );
        assert.deepEqual(
            result.annotations.map((a) => a.verdict),
            ["supported"],
        );
    });

    it("a line index of a file not yet read: its lines", async () => {
        const { client, workspace } = await started();
        const uri = `${ROOT}/sources/benchmark.txt`;
        const result = await askedBeforeReads(
            () => client.sendRequest<LineIndexResult>(LINE_INDEX, { uri }),
            workspace,
        );
        // Numbered from 1, as everything a person reads (features/customRequests.ts lineIndex).
        assert.equal(
            result.text,
            "1 | Cold start, median of 50 runs\n2 | 2.3.0: 820ms\n3 | 2.4.0: 517ms\n4 | delta: -37%\n5 | ",
        );
    });
});
