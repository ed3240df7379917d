/**
 * Hostile clients: malformed URIs, notifications out of order, an open cited buffer over the size
 * cap. The server answers, logs no handler failure and keeps judging the demo correctly.
 */
import * as assert from "node:assert/strict";
import type { Hover } from "vscode-languageserver-protocol";
import { rangeOf, startClient, type TestClient } from "./harness";
import { assertHealthy, within } from "./hostileHelpers";

const BOUND_MS = 5000;
const BAD_URIS = [
    "file:///%",
    "file:///%E0%A4%A.sourcecheck.json",
    "file://host/share/x.sourcecheck.json",
    "file:",
    "untitled:Untitled-1",
    "http://example.com/a.sourcecheck.json",
    "not a uri",
    "",
];

describe("hostile input: protocol misuse", () => {
    let client: TestClient | undefined;
    afterEach(async () => {
        await client?.stop();
        client = undefined;
    });

    it("malformed URIs and out-of-order notifications leave the server answering correctly", async function () {
        this.timeout(30000);
        client = await startClient({ pull: true });
        const uri = await client.open("answer.sourcecheck.json", "sourcecheck");
        const zero = { line: 0, character: 0 };
        for (const bad of BAD_URIS) {
            const c = client.connection;
            await c.sendNotification("workspace/didChangeWatchedFiles", {
                changes: [1, 2, 3].map((type) => ({ uri: bad, type })),
            });
            await c.sendNotification("textDocument/didChange", {
                textDocument: { uri: bad, version: 7 },
                contentChanges: [{ text: "{" }],
            });
            await c.sendNotification("textDocument/didClose", { textDocument: { uri: bad } });
            await c.sendNotification("textDocument/didOpen", {
                textDocument: { uri: bad, languageId: "sourcecheck", version: 1, text: '{ "annotations": [ {' },
            });
            await c.sendNotification("textDocument/didOpen", {
                textDocument: { uri: bad, languageId: "sourcecheck", version: 2, text: "[]" },
            });
            for (const method of ["textDocument/hover", "textDocument/completion", "textDocument/definition"]) {
                await within(
                    client.request(method, { textDocument: { uri: bad }, position: zero }),
                    BOUND_MS,
                    `${method} ${bad}`,
                );
            }
            await within(client.request("textDocument/diagnostic", { textDocument: { uri: bad } }), BOUND_MS, "pull");
            await within(client.request("sourcecheck/citedSpans", { uri: bad }), BOUND_MS, "citedSpans");
            await within(client.request("sourcecheck/coverage", { uri: bad }), BOUND_MS, "coverage");
            await within(
                client.request("sourcecheck/refForSelection", { uri: bad, range: { start: zero, end: zero } }),
                BOUND_MS,
                "refForSelection",
            );
            await c.sendNotification("textDocument/didClose", { textDocument: { uri: bad } });
        }
        assert.equal((await client.pull(uri)).length, 7);
        const hover = await client.request<Hover | null>("textDocument/hover", {
            textDocument: { uri },
            position: rangeOf(client.text(uri), '"offline sync"').start,
        });
        assert.ok(hover, "still hovers");
        assertHealthy(client);
    });

    it("an open cited buffer over the size cap is unreadable-document, and fine again once it shrinks", async function () {
        this.timeout(30000);
        client = await startClient({ pull: true, settings: { maxDocumentSize: 4096 } });
        const uri = await client.open("answer.sourcecheck.json", "sourcecheck");
        const text = client.text(uri);
        const codesOnAnswer = async () =>
            (await client!.pull(uri)).filter((d) => d.code === "unreadable-document").map((d) => d.range);
        const baseline = await codesOnAnswer(); // the demo's missing sources/benchmarks.txt
        const cited = await client.open("answer.md", "markdown");
        const original = client.text(cited);
        await client.change(cited, `${original}${"padding ".repeat(1000)}\n`);
        const refs = text.split('"path": "answer.md"').length - 1;
        const over = await codesOnAnswer();
        assert.equal(over.length, baseline.length + refs, "every ref into the oversized buffer");
        for (let i = 0; i < refs; i++) {
            const token = rangeOf(text, '"answer.md"', i);
            assert.ok(
                over.some((r) => JSON.stringify(r) === JSON.stringify(token)),
                `ref ${i} on its path token`,
            );
        }
        await client.change(cited, original);
        assert.deepEqual(await codesOnAnswer(), baseline);
        assert.equal((await client.pull(uri)).length, 7);
        assertHealthy(client);
    });
});
