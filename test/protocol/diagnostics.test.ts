import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import type { Diagnostic } from "vscode-languageserver-protocol";
import { copyDemo, rangeOf, startClient, type TestClient } from "./harness";

const ANNOTATIONS = "answer.sourcecheck.json";

/** What the demo's annotation file must report: code and the exact token (docs/contract.md section 6). */
function expectedDiagnostics(text: string) {
    const lineNine = text.indexOf('"sources/benchmark.txt", "start": { "line": 9');
    const nineStart = text.indexOf("9", lineNine);
    const nineEnd = text.indexOf("9", text.indexOf('"end"', nineStart));
    const at = (offset: number) =>
        rangeOf(text.slice(0, offset + 1), text[offset], text.slice(0, offset + 1).split(text[offset]).length - 2);
    return [
        { code: "boundary-ambiguous", range: rangeOf(text, '"release"') },
        { code: "boundary-not-found", range: rangeOf(text, '"planned for 2.6."') },
        { code: "boundary-not-found", range: rangeOf(text, '"Faster cold start"') },
        { code: "boundary-not-found", range: rangeOf(text, '"lazily."') },
        { code: "unreadable-document", range: rangeOf(text, '"sources/benchmarks.txt"') },
        { code: "line-out-of-range", range: at(nineStart) },
        { code: "line-out-of-range", range: at(nineEnd) },
    ];
}

function summary(diagnostics: Diagnostic[]) {
    return diagnostics
        .map((d) => ({ code: d.code, range: d.range }))
        .sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
}

function sortExpected(list: ReturnType<typeof expectedDiagnostics>) {
    return [...list].sort(
        (a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character,
    );
}

for (const pull of [true, false]) {
    describe(`diagnostics (${pull ? "pull" : "push"} mode)`, () => {
        let client: TestClient;
        let root: string;
        beforeEach(async () => {
            root = copyDemo();
            client = await startClient({ root, pull });
        });
        afterEach(async () => {
            await client.stop();
        });

        async function diagnosticsOf(
            uri: string,
            accept: (d: Diagnostic[]) => boolean = () => true,
        ): Promise<Diagnostic[]> {
            if (pull) return client.pullUntil(uri, accept);
            const version = client.version(uri);
            const params = await client.waitForPublished(
                uri,
                (p) => (p.version === undefined || p.version === version) && accept(p.diagnostics),
            );
            return params.diagnostics;
        }

        it("reports every broken ref of the demo on its exact token, with the error code", async () => {
            const uri = await client.open(ANNOTATIONS, "sourcecheck");
            const text = client.text(uri);
            const diagnostics = await diagnosticsOf(uri);
            assert.deepEqual(summary(diagnostics), sortExpected(expectedDiagnostics(text)));
            for (const d of diagnostics) {
                assert.equal(d.source, "sourcecheck");
                assert.equal(d.severity, 1);
            }
        });

        it("lists every occurrence of an ambiguous boundary as related information in the cited document", async () => {
            const uri = await client.open(ANNOTATIONS, "sourcecheck");
            const diagnostics = await diagnosticsOf(uri);
            const ambiguous = diagnostics.find((d) => d.code === "boundary-ambiguous");
            assert.ok(ambiguous);
            const answer = fs.readFileSync(path.join(root, "answer.md"), "utf8").split("\n")[6];
            const first = answer.indexOf("release");
            const second = answer.indexOf("release", first + 1);
            assert.deepEqual(
                ambiguous.relatedInformation?.map((r) => ({ uri: r.location.uri, range: r.location.range })),
                [first, second].map((column) => ({
                    uri: client.uri("answer.md"),
                    range: { start: { line: 6, character: column }, end: { line: 6, character: column + 7 } },
                })),
            );
        });

        it("re-checks when a cited document is edited in the editor (unsaved) and when it is restored", async () => {
            const uri = await client.open(ANNOTATIONS, "sourcecheck");
            assert.ok(
                (await diagnosticsOf(uri)).some((d) => d.code === "boundary-not-found" && d.message.includes("2.6.")),
            );
            const notes = await client.open("sources/release-notes.md");
            const fixed = client.text(notes).replace("planned for 2.5.", "planned for 2.6.");
            await client.change(notes, fixed);
            const after = await diagnosticsOf(uri, (d) => !d.some((x) => x.message.includes("2.6.")));
            assert.ok(!after.some((d) => d.message.includes("2.6.")), "the unsaved edit fixes annotation 5");
            assert.equal(after.length, 6);
            // Break a valid ref through the buffer: annotation 1's "Offline sync" disappears.
            await client.change(notes, fixed.replace("Offline sync", "Offline-sync"));
            const broken = await diagnosticsOf(uri, (d) => d.some((x) => x.message.includes("Offline sync")));
            const offline = broken.find((d) => d.message.includes('"Offline sync"'));
            assert.equal(offline?.code, "boundary-not-found");
            assert.deepEqual(offline?.range, rangeOf(client.text(uri), '"Offline sync"'));
            // Closing the buffer discards the unsaved text: the disk version is back.
            await client.close(notes);
            const restored = await diagnosticsOf(
                uri,
                (d) => d.length === 7 && !d.some((x) => x.message.includes("Offline sync")),
            );
            assert.equal(restored.length, 7);
        });

        it("marks a broken unsourced ref on its token, and re-checks it when the answer is edited (unsaved)", async () => {
            // The demo's annotations plus a claim searched with no source found (docs/contract.md, "Unsourced claims").
            const file = JSON.parse(fs.readFileSync(path.join(root, ANNOTATIONS), "utf8"));
            file.unsourced = [
                { path: "answer.md", start: { line: 1, str: "Orbit" }, end: { line: 1, str: "changed" } },
            ];
            fs.writeFileSync(path.join(root, "unsourced.sourcecheck.json"), JSON.stringify(file, null, 2));
            const uri = await client.open("unsourced.sourcecheck.json", "sourcecheck");
            assert.equal((await diagnosticsOf(uri)).length, 7, "the unsourced ref resolves");
            const answer = await client.open("answer.md");
            await client.change(answer, client.text(answer).replace("what changed", "what is new"));
            const broken = await diagnosticsOf(uri, (d) => d.length === 8);
            const unsourced = broken.find((d) => d.message.includes('"changed"'));
            assert.equal(unsourced?.code, "boundary-not-found");
            assert.deepEqual(unsourced?.range, rangeOf(client.text(uri), '"changed"'));
            await client.close(answer);
            assert.equal((await diagnosticsOf(uri, (d) => d.length === 7)).length, 7, "restored with the disk's text");
        });

        it("re-checks when a cited document changes on disk (didChangeWatchedFiles)", async () => {
            const uri = await client.open(ANNOTATIONS, "sourcecheck");
            assert.equal((await diagnosticsOf(uri)).length, 7);
            fs.copyFileSync(path.join(root, "sources/benchmark.txt"), path.join(root, "sources/benchmarks.txt"));
            await client.connection.sendNotification("workspace/didChangeWatchedFiles", {
                changes: [{ uri: client.uri("sources/benchmarks.txt"), type: 1 }],
            });
            const after = await diagnosticsOf(uri, (d) => !d.some((x) => x.code === "unreadable-document"));
            assert.deepEqual(after.map((d) => d.code).sort(), [
                "boundary-ambiguous",
                "boundary-not-found",
                "boundary-not-found",
                "boundary-not-found",
                "line-out-of-range",
                "line-out-of-range",
            ]);
        });

        it("reports JSON syntax errors and still checks the rest of the file", async () => {
            const original = fs.readFileSync(path.join(root, ANNOTATIONS), "utf8");
            const broken = original.replace(
                '"polarity": "supports", "confidence": 0.95 }',
                '"polarity": "supports", "confidence": 0.95, }',
            );
            const uri = await client.open(ANNOTATIONS, "sourcecheck", broken);
            const diagnostics = await diagnosticsOf(uri);
            const syntax = diagnostics.filter((d) => d.code === "invalid-json");
            assert.equal(syntax.length, 1);
            const comma = broken.indexOf("0.95, }") + 4;
            assert.equal(syntax[0].range.start.line, rangeOf(broken, "0.95, }").start.line);
            assert.equal(
                syntax[0].range.start.character,
                rangeOf(broken, "0.95, }").start.character + (comma - broken.indexOf("0.95, }")) + 2,
            );
            assert.ok(
                diagnostics.some((d) => d.code === "boundary-ambiguous"),
                "the rest of the file is still checked",
            );
        });

        it("reports schema errors on the offending value", async () => {
            const original = fs.readFileSync(path.join(root, ANNOTATIONS), "utf8");
            const broken = original.replace('"confidence": 0.6', '"confidence": 1.6');
            const uri = await client.open(ANNOTATIONS, "sourcecheck", broken);
            const diagnostics = await diagnosticsOf(uri);
            const schema = diagnostics.find((d) => d.code === "schema");
            assert.deepEqual(schema?.range, rangeOf(broken, "1.6"));
        });

        it("checks embedded sessions against their own documents only", async () => {
            const session = JSON.stringify(
                {
                    documents: [
                        { path: "article", content: "# Orbit 2.4\n\nOrbit 2.4 improves cold-start latency by 37%." },
                        { path: "bench", content: "2.3.0: 820ms\n2.4.0: 517ms\ndelta: -37%" },
                    ],
                    annotations: [
                        {
                            claim: { path: "article", start: { line: 3, str: "37%" }, end: { line: 3, str: "37%" } },
                            sources: [
                                {
                                    path: "bench",
                                    start: { line: 3, str: "delta" },
                                    end: { line: 3, str: "-37%" },
                                    polarity: "supports",
                                    confidence: 0.95,
                                },
                                {
                                    path: "answer.md",
                                    start: { line: 1, str: "#" },
                                    end: { line: 1, str: "#" },
                                    polarity: "supports",
                                    confidence: 0.5,
                                },
                            ],
                        },
                    ],
                },
                null,
                2,
            );
            const uri = await client.open("session.sourcecheck.json", "sourcecheck", session);
            const diagnostics = await diagnosticsOf(uri);
            // answer.md exists in the workspace, but an embedded session only sees its own documents.
            assert.deepEqual(summary(diagnostics), [{ code: "unknown-path", range: rangeOf(session, '"answer.md"') }]);
        });
    });
}

describe("diagnostics: document size cap", () => {
    it("reports a cited document over sourcecheck.maxDocumentSize as unreadable-document", async () => {
        const client = await startClient({ pull: false, settings: { maxDocumentSize: 100 } });
        try {
            const uri = await client.open(ANNOTATIONS, "sourcecheck");
            const params = await client.waitForPublished(uri);
            const big = params.diagnostics.filter(
                (d) => d.code === "unreadable-document" && d.message.includes("size cap"),
            );
            // release-notes.md (> 100 bytes) is cited by five refs; answer.md by eight claims.
            assert.ok(big.length >= 5, JSON.stringify(params.diagnostics.map((d) => d.message)));
            assert.deepEqual(big[0].range, rangeOf(client.text(uri), '"answer.md"'));
        } finally {
            await client.stop();
        }
    });

    it("a file whose name starts with two dots is inside the root", async () => {
        const root = copyDemo();
        fs.writeFileSync(path.join(root, "..notes.md"), "dot dot notes\n");
        const client = await startClient({ root, pull: false });
        try {
            const text = JSON.stringify({
                annotations: [
                    {
                        claim: { path: "..notes.md", start: { line: 1, str: "dot" }, end: { line: 1, str: "notes" } },
                        sources: [
                            {
                                path: "..notes.md",
                                start: { line: 1, str: "dot dot" },
                                end: { line: 1, str: "s" },
                                polarity: "supports",
                                confidence: 1,
                            },
                        ],
                    },
                ],
            });
            const uri = await client.open("dots.sourcecheck.json", "sourcecheck", text);
            const params = await client.waitForPublished(uri);
            assert.deepEqual(
                params.diagnostics.map((d) => d.code),
                ["boundary-ambiguous"],
            );
        } finally {
            await client.stop();
        }
    });

    it("never reads outside the document root, symlinks included", async () => {
        const root = copyDemo();
        const outside = fs.mkdtempSync(path.join(path.dirname(root), "outside-"));
        fs.writeFileSync(path.join(outside, "secret.md"), "top secret\n");
        fs.symlinkSync(path.join(outside, "secret.md"), path.join(root, "link.md"));
        const client = await startClient({ root, pull: false });
        try {
            const text = JSON.stringify({
                annotations: [
                    {
                        claim: { path: "link.md", start: { line: 1, str: "top" }, end: { line: 1, str: "secret" } },
                        sources: [
                            {
                                path: "../outside/secret.md",
                                start: { line: 1, str: "top" },
                                end: { line: 1, str: "secret" },
                                polarity: "supports",
                                confidence: 1,
                            },
                        ],
                    },
                ],
            });
            const uri = await client.open("escape.sourcecheck.json", "sourcecheck", text);
            const params = await client.waitForPublished(uri);
            assert.deepEqual(
                params.diagnostics.map((d) => [d.code, d.range]),
                [
                    ["path-outside-root", rangeOf(text, '"link.md"')],
                    ["path-outside-root", rangeOf(text, '"../outside/secret.md"')],
                ],
            );
        } finally {
            await client.stop();
        }
    });
});
