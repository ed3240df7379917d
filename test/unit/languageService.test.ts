/**
 * The language service without a connection (server/src/languageService.ts): documents in memory,
 * the workspace in memory (memoryService.ts), pages through a fetch that records what it was asked.
 * It tells annotation files from quote files in one place and answers both in LSP types.
 */
import * as assert from "node:assert/strict";
import type { FetchPage } from "../../server/src/features/quoteFiles";
import { NOTES_LANGUAGE } from "../../shared/quoteProtocol";
import { serviceOver } from "./memoryService";

const NOTES = "claim: c\nquote: The quoted words\nurl: https://example.test/page\n";

function setUp() {
    const fetched: string[] = [];
    const fetchPage: FetchPage = async (url) => {
        fetched.push(url);
        return { ok: true, url, mediaType: "text/plain", text: "The quoted words are here." };
    };
    const memory = serviceOver({ "doc.md": "Alpha beta gamma.\n" }, { fetchPage });
    return { ...memory, fetched };
}

describe("language service (no connection)", () => {
    it("dispatches by document kind: annotation file, quote file, neither", () => {
        const { service, openDocument } = setUp();
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
        assert.equal(service.hover({ textDocument: { uri: plain.uri }, position: { line: 0, character: 0 } }), null);
    });

    it("re-fetches a notes file's pages only through the fetch it was given", async () => {
        const { service, openDocument, fetched, reads } = setUp();
        const notes = openDocument("notes.txt", NOTES_LANGUAGE, NOTES);
        const result = await service.refetchQuotes(notes.uri, new AbortController().signal);
        assert.deepEqual(fetched, ["https://example.test/page"]);
        assert.deepEqual(result, { ok: true, pageCount: 1, failedCount: 0, citationCount: 1, matchedCount: 1 });
        const aborted = new AbortController();
        aborted.abort();
        const cancelled = await service.refetchQuotes(notes.uri, aborted.signal);
        assert.equal(cancelled.ok, false);
        assert.deepEqual(fetched, ["https://example.test/page"], "nothing fetched once cancelled");
        // A page's text comes from the fetch: no file is read but the configuration of the notes' root.
        assert.deepEqual(reads(), ["/workspace/sourcecheck.config.json", "/sourcecheck.config.json"]);
    });

    it("is one frozen object that answers the custom protocol itself, its internals out of reach", async () => {
        const { service, openDocument, uri } = setUp();
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
        const listed = service.fileAnnotations(annotation.uri);
        assert.equal(listed?.annotations.length, 1);
        assert.equal(service.fileAnnotations(uri("doc.md")), undefined);
        // The claim's span in the cited document, with the annotation that cites it.
        const docUri = uri("doc.md");
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
    });
});
