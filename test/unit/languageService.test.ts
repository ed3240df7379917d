/**
 * The language service without a connection (server/src/languageService.ts): documents in memory,
 * the workspace on a temporary folder, pages through a fetch that records what it was asked. It
 * tells annotation files from quote files in one place and answers both in LSP types.
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { TextDocument } from "vscode-languageserver-textdocument";
import type { FetchPage } from "../../server/src/features/quoteFiles";
import { createLanguageService } from "../../server/src/languageService";
import { NODE_HOST } from "../../server/src/workspace/nodeHost";
import { NOTES_LANGUAGE } from "../../shared/quoteProtocol";

const NOTES = "claim: c\nquote: The quoted words\nurl: https://example.test/page\n";

function setUp() {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "sc-service-"));
    fs.writeFileSync(path.join(root, "doc.md"), "Alpha beta gamma.\n");
    const open = new Map<string, TextDocument>();
    const fetched: string[] = [];
    const fetchPage: FetchPage = async (url) => {
        fetched.push(url);
        return { ok: true, url, mediaType: "text/plain", text: "The quoted words are here." };
    };
    const changed: string[] = [];
    const service = createLanguageService({
        ...NODE_HOST,
        documents: { get: (uri) => open.get(uri) },
        logger: { error: (message) => assert.fail(message) },
        events: { changed: (files) => changed.push(...files.map((f) => f.uri)), removed() {}, refsCanFollow() {} },
        fetchPage,
    });
    service.initialize({ rootPath: root });
    const openDocument = (name: string, languageId: string, text: string) => {
        const document = TextDocument.create(pathToFileURL(path.join(root, name)).href, languageId, 1, text);
        open.set(document.uri, document);
        return document;
    };
    return { root, service, openDocument, fetched, changed };
}

describe("language service (no connection)", () => {
    it("dispatches by document kind: annotation file, quote file, neither", () => {
        const { root, service, openDocument } = setUp();
        try {
            const annotation = openDocument(
                "answer.sourcecheck.json",
                "sourcecheck",
                JSON.stringify({
                    annotations: [
                        {
                            claim: {
                                path: "doc.md",
                                start: { line: 1, str: "Alpha" },
                                end: { line: 1, str: "gamma." },
                            },
                            sources: [
                                {
                                    path: "doc.md",
                                    start: { line: 1, str: "beta" },
                                    end: { line: 1, str: "beta" },
                                    polarity: "supports",
                                    confidence: 0.9,
                                },
                            ],
                        },
                    ],
                }),
            );
            const notes = openDocument("notes.txt", NOTES_LANGUAGE, NOTES);
            const plain = openDocument("doc.md", "plaintext", "Alpha beta gamma.\n");
            assert.equal(service.target(annotation.uri).kind, "annotation");
            assert.equal(service.target(notes.uri).kind, "quote");
            assert.equal(service.target(plain.uri).kind, "none");
            // The annotation file's pull report comes from its analysis, stamped; the quote file's has none.
            const annotationReport = service.diagnostics(annotation.uri, undefined);
            assert.ok(annotationReport.file, "an annotation file's report names its file");
            assert.equal(annotationReport.report.kind, "full");
            assert.equal(service.diagnostics(notes.uri, undefined).file, undefined);
            // Hover on the claim's path answers from the annotation service, in LSP types.
            const at = annotation.getText().indexOf("doc.md");
            const hover = service.hover({ textDocument: { uri: annotation.uri }, position: annotation.positionAt(at) });
            assert.ok(hover && typeof hover.contents === "object", "a hover on the claim");
            assert.equal(
                service.hover({ textDocument: { uri: plain.uri }, position: { line: 0, character: 0 } }),
                null,
            );
        } finally {
            fs.rmSync(root, { recursive: true, force: true });
        }
    });

    it("re-fetches a notes file's pages only through the fetch it was given", async () => {
        const { root, service, openDocument, fetched } = setUp();
        try {
            const notes = openDocument("notes.txt", NOTES_LANGUAGE, NOTES);
            const result = await service.refetchQuotes(notes.uri, new AbortController().signal);
            assert.deepEqual(fetched, ["https://example.test/page"]);
            assert.deepEqual(result, { ok: true, pageCount: 1, failedCount: 0, citationCount: 1, matchedCount: 1 });
            const aborted = new AbortController();
            aborted.abort();
            const cancelled = await service.refetchQuotes(notes.uri, aborted.signal);
            assert.equal(cancelled.ok, false);
            assert.deepEqual(fetched, ["https://example.test/page"], "nothing fetched once cancelled");
        } finally {
            fs.rmSync(root, { recursive: true, force: true });
        }
    });

    it("is one frozen object that answers the custom protocol itself, its internals out of reach", async () => {
        const { root, service, openDocument } = setUp();
        try {
            assert.ok(Object.isFrozen(service), "frozen");
            for (const internal of ["workspace", "analysis", "follower", "quotes", "evidence", "buffers"]) {
                assert.equal(internal in service, false, `no ${internal}`);
            }
            assert.throws(() => {
                (service as unknown as { hover: unknown }).hover = () => null;
            }, TypeError);
            const claim = { path: "doc.md", start: { line: 1, str: "Alpha" }, end: { line: 1, str: "beta" } };
            const source = { path: "doc.md", start: { line: 1, str: "gamma." }, end: { line: 1, str: "gamma." } };
            const sources = [{ ...source, polarity: "supports", confidence: 0.9 }];
            const annotation = openDocument(
                "answer.sourcecheck.json",
                "sourcecheck",
                JSON.stringify({ annotations: [{ claim, sources }] }),
            );
            service.documentOpened(annotation);
            const listed = service.fileAnnotations(annotation.uri);
            assert.equal(listed?.annotations.length, 1);
            assert.equal(service.fileAnnotations(pathToFileURL(path.join(root, "doc.md")).href), undefined);
            // The claim's span in the cited document, with the annotation that cites it.
            const docUri = pathToFileURL(path.join(root, "doc.md")).href;
            const spans = service.citedSpans(docUri);
            assert.deepEqual(
                spans.spans.map((s) => [s.kind, s.range]),
                [
                    ["claim", { start: { line: 0, character: 0 }, end: { line: 0, character: 10 } }],
                    ["supports", { start: { line: 0, character: 11 }, end: { line: 0, character: 17 } }],
                ],
            );
            assert.deepEqual(service.citedDocuments(), { uris: [docUri] });
            assert.equal(service.coverage(docUri).coveredChars, 9, "the claim's non-blank characters");
            assert.equal(service.lineIndex(docUri)?.text, "1 | Alpha beta gamma.\n2 | ");
            // Find Sources and the agent tools are the host's to give: without them, the service says so.
            const search = await service.findEvidence({ annotationUri: annotation.uri, annotation: 1 });
            assert.match(search.ok ? "" : search.message, /not available in VS Code for the Web/);
            const tool = await service.agentTool({ name: "check", input: {} }, async () => true);
            assert.match(tool.ok ? "" : tool.error.message, /not available in VS Code for the Web/);
        } finally {
            fs.rmSync(root, { recursive: true, force: true });
        }
    });
});
