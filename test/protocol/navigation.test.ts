import * as assert from "node:assert/strict";
import type { DocumentLink, InlayHint, Location, LocationLink } from "vscode-languageserver-protocol";
import { rangeOf, startClient, type TestClient } from "./harness";

const CLAIM_0 = '{ "path": "answer.md", "start": { "line": 3, "str": "37%" }, "end": { "line": 3, "str": "37%" } }';
const SOURCE_0 =
    '{ "path": "sources/benchmark.txt", "start": { "line": 4, "str": "delta" }, "end": { "line": 4, "str": "-37%" }, "polarity": "supports", "confidence": 0.95 }';

describe("definition, references, inlay hints, document links", () => {
    let client: TestClient;
    let uri: string;
    let text: string;
    before(async () => {
        client = await startClient({ pull: false });
        uri = await client.open("answer.sourcecheck.json", "sourcecheck");
        text = client.text(uri);
    });
    after(async () => {
        await client.stop();
    });

    it("go to definition leads from a ref to its exact span (LocationLink)", async () => {
        const at = rangeOf(text, '"delta"').start;
        const links = await client.request<LocationLink[]>("textDocument/definition", {
            textDocument: { uri },
            position: { line: at.line, character: at.character + 2 },
        });
        const span = { start: { line: 3, character: 0 }, end: { line: 3, character: 11 } };
        assert.deepEqual(links, [
            {
                originSelectionRange: rangeOf(text, SOURCE_0),
                targetUri: client.uri("sources/benchmark.txt"),
                targetRange: span,
                targetSelectionRange: span,
            },
        ]);
    });

    it("find references from a position in a cited document lists every ref covering it", async () => {
        // answer.md line 3, inside "37%": only annotation 0's claim covers it.
        const fromAnswer = await client.request<Location[]>("textDocument/references", {
            textDocument: { uri: client.uri("answer.md") },
            position: { line: 2, character: 42 },
            context: { includeDeclaration: true },
        });
        assert.deepEqual(fromAnswer, [{ uri, range: rangeOf(text, CLAIM_0) }]);
        // Inside "cold-start latency": annotation 6's claim.
        const fromLatency = await client.request<Location[]>("textDocument/references", {
            textDocument: { uri: client.uri("answer.md") },
            position: { line: 2, character: 30 },
            context: { includeDeclaration: true },
        });
        assert.equal(fromLatency.length, 1);
        assert.deepEqual(
            fromLatency[0].range,
            rangeOf(
                text,
                '{ "path": "answer.md", "start": { "line": 3, "str": "improves cold-start" }, "end": { "line": 3, "str": "latency" } }',
            ),
        );
        // Outside every cited span: nothing.
        const none = await client.request<Location[]>("textDocument/references", {
            textDocument: { uri: client.uri("answer.md") },
            position: { line: 0, character: 3 },
            context: { includeDeclaration: true },
        });
        assert.deepEqual(none, []);
    });

    it("find references across annotation files", async () => {
        const other = JSON.stringify({
            annotations: [
                {
                    claim: { path: "answer.md", start: { line: 3, str: "by 37%" }, end: { line: 3, str: "over" } },
                    sources: [
                        {
                            path: "sources/benchmark.txt",
                            start: { line: 4, str: "-37" },
                            end: { line: 4, str: "%" },
                            polarity: "supports",
                            confidence: 1,
                        },
                    ],
                },
            ],
        });
        const otherUri = await client.open("second.annotations.json", "json", other);
        const locations = await client.request<Location[]>("textDocument/references", {
            textDocument: { uri: client.uri("sources/benchmark.txt") },
            position: { line: 3, character: 9 },
            context: { includeDeclaration: true },
        });
        assert.deepEqual(locations.map((l) => l.uri).sort(), [uri, otherUri].sort());
        await client.close(otherUri);
    });

    it("inlay hints show each valid ref's resolved text after it", async () => {
        const hints = await client.request<InlayHint[]>("textDocument/inlayHint", {
            textDocument: { uri },
            range: { start: { line: 0, character: 0 }, end: { line: 200, character: 0 } },
        });
        // 17 refs, 5 of them broken (annotations 4 claim, 5-7 sources).
        assert.equal(hints.length, 12);
        assert.deepEqual(hints[0].position, rangeOf(text, CLAIM_0).end);
        assert.equal(hints[0].label, '⇒ "37%"');
        assert.equal(hints[1].label, '⇒ "delta: -37%"');
        // VS Code cuts labels over 43 characters with its own "…": ours fit, shortened once, by us.
        const long = hints.filter((h) => typeof h.label === "string" && h.label.includes("…"));
        assert.ok(long.length > 0, "the demo has refs longer than a hint");
        for (const hint of hints) {
            const label = hint.label as string;
            assert.ok(label.length <= 43, `${label} is longer than VS Code's default inlay hint maximum`);
            assert.ok(!label.includes("characters cut"), label);
            const tooltip = String(hint.tooltip);
            if (!label.includes("…")) continue;
            const [head, tail] = label.slice(3, -1).split("…");
            assert.ok(
                tooltip.startsWith(head) && tooltip.endsWith(tail),
                `${label} is not the head and tail of ${tooltip}`,
            );
        }
    });

    it("document links on path values lead to the cited files", async () => {
        const links = await client.request<DocumentLink[]>("textDocument/documentLink", { textDocument: { uri } });
        // Every ref path but the misspelt sources/benchmarks.txt.
        assert.equal(links.length, 16);
        const first = rangeOf(text, '"answer.md"');
        assert.deepEqual(links[0], {
            range: {
                start: { line: first.start.line, character: first.start.character + 1 },
                end: { line: first.end.line, character: first.end.character - 1 },
            },
            target: client.uri("answer.md"),
            tooltip: "Open answer.md",
        });
        assert.ok(!links.some((l) => l.target?.endsWith("benchmarks.txt")));
    });
});

describe("inlay hints setting", () => {
    it("sourcecheck.inlayHints.enabled = false turns them off", async () => {
        const client = await startClient({ pull: false, settings: { inlayHints: { enabled: false } } });
        try {
            const uri = await client.open("answer.sourcecheck.json", "sourcecheck");
            const hints = await client.request<InlayHint[]>("textDocument/inlayHint", {
                textDocument: { uri },
                range: { start: { line: 0, character: 0 }, end: { line: 200, character: 0 } },
            });
            assert.deepEqual(hints, []);
        } finally {
            await client.stop();
        }
    });
});

describe("embedded sessions", () => {
    it("definition and hover point into the document's content string, escapes counted", async () => {
        const client = await startClient({ pull: false });
        try {
            // "\"quoted\"" and "\n" take more characters in the file than in the content.
            const session = JSON.stringify(
                {
                    documents: [{ path: "doc", content: 'say "quoted"\nthen the answer: 42\n' }],
                    annotations: [
                        {
                            claim: { path: "doc", start: { line: 2, str: "answer" }, end: { line: 2, str: "42" } },
                            sources: [
                                {
                                    path: "doc",
                                    start: { line: 1, str: "say" },
                                    end: { line: 1, str: 'd"' },
                                    polarity: "supports",
                                    confidence: 1,
                                },
                            ],
                        },
                    ],
                },
                null,
                2,
            );
            const uri = await client.open("embedded.sourcecheck.json", "sourcecheck", session);
            const at = rangeOf(session, '"answer"').start;
            const links = await client.request<LocationLink[]>("textDocument/definition", {
                textDocument: { uri },
                position: { line: at.line, character: at.character + 1 },
            });
            assert.equal(links.length, 1);
            assert.equal(links[0].targetUri, uri);
            assert.deepEqual(links[0].targetRange, rangeOf(session, "answer: 42"));
            const source = await client.request<LocationLink[]>("textDocument/definition", {
                textDocument: { uri },
                position: rangeOf(session, '"say"').start,
            });
            assert.deepEqual(source[0].targetRange, rangeOf(session, 'say \\"quoted\\"'));
        } finally {
            await client.stop();
        }
    });
});
