import * as assert from "node:assert/strict";
import type { ImportRequest, ImportResult } from "../../server/src/operations/import";
import {
    anthropicAnswer,
    anthropicRequest,
    anthropicResponse,
    anthropicStream,
    cohereAnswer,
    cohereResponse,
    cohereV1Response,
    FILES,
    geminiAnswer,
    geminiResponse,
    importInMemory,
    openAiAnswer,
    openAiResponse,
    resolvedTexts as resolved,
} from "./importFixtures";

function imported(request: Omit<ImportRequest, "answerPath">, files: Record<string, string> = FILES): ImportResult {
    const { outcome } = importInMemory(request, files);
    if (!outcome.ok) assert.fail(`import failed: ${outcome.error.code}: ${outcome.error.message}`);
    return outcome.result;
}

describe("import: Anthropic", () => {
    const request = { response: anthropicResponse, request: anthropicRequest };

    it("turns every document citation type into annotations that resolve to the cited texts", () => {
        const result = imported(request);
        assert.equal(result.provider, "anthropic");
        assert.equal(result.answerText, anthropicAnswer);
        assert.deepEqual(resolved(result), [
            ["收入增长 12%", ["收入增长 12%，云服务 ☁️ 领先。"]],
            ["costs fell by 3% across regions", ["Costs fell by 3%\nacross all regions."]],
            [
                "Storage moves first, then the old API goes",
                ["Phase one migrates storage.\n\nPhase two retires the old API."],
            ],
            ["The launch is in May", ["The launch moved to May."]],
            ["refunds take five days", ["Refunds take 5 business days."]],
        ]);
        assert.deepEqual(
            result.annotations.map((a) => a.sources.map((s) => s.path)),
            [["docs/report.md"], ["docs/report.md"], ["docs/plan.md"], ["docs/notes.txt"], ["kb/faq.md"]],
        );
        assert.deepEqual(
            result.notConverted.map((n) => [n.citation, n.reason]),
            [[6, "web-result"]],
        );
        assert.equal(result.exitCode, 1);
        assert.equal(result.converted, 5);
    });

    it("writes refs with readable boundaries, polarity supports and confidence 1", () => {
        const [first] = imported(request).annotations;
        assert.deepEqual(first.sources[0], {
            path: "docs/report.md",
            start: { line: 3, str: "收入" },
            end: { line: 3, str: "领先。" },
            polarity: "supports",
            confidence: 1,
        });
    });

    it("reads a streamed response the same as the message it assembles to", () => {
        const streamed = imported({ response: anthropicStream(), request: anthropicRequest });
        assert.deepEqual(streamed.annotations, imported(request).annotations);
        const sse = anthropicStream()
            .map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n`)
            .join("\n");
        assert.deepEqual(imported({ response: sse, request: anthropicRequest }).annotations, streamed.annotations);
    });

    it("without the request finds each document by title, then by the cited text", () => {
        const result = imported({ response: anthropicResponse });
        // The plan's blocks are joined in cited_text as no file holds them: without the request, not found.
        assert.deepEqual(
            result.notConverted.map((n) => [n.citation, n.reason]),
            [
                [3, "text-not-found"],
                [6, "web-result"],
            ],
        );
        assert.equal(resolved(result).length, 4);
    });

    it("takes --document N=PATH over the title, and says when the named file lacks the text", () => {
        const files = { ...FILES, "other.md": "nothing cited here\n" };
        const result = imported(
            { response: anthropicResponse, request: anthropicRequest, documents: [{ key: "0", path: "other.md" }] },
            files,
        );
        assert.deepEqual(
            result.notConverted.map((n) => [n.citation, n.reason]),
            [
                [1, "text-not-found"],
                [2, "text-not-found"],
                [6, "web-result"],
            ],
        );
    });

    it("never guesses between two files holding the cited text", () => {
        const files = { ...FILES, "copy.md": FILES["docs/notes.txt"], "docs/notes.txt": "moved\n" };
        const twice = { ...files, "copy2.md": FILES["docs/notes.txt"] };
        const result = imported({ response: anthropicResponse, request: anthropicRequest }, twice);
        const launch = result.notConverted.find((n) => n.citation === 4);
        assert.equal(launch?.reason, "text-not-found");
        const noTitle = structuredClone(anthropicResponse) as {
            content: { citations: { document_title?: string | null }[] | null }[];
        };
        for (const block of noTitle.content) for (const c of block.citations ?? []) c.document_title = null;
        const untitled = imported({ response: noTitle }, twice);
        assert.equal(untitled.notConverted.find((n) => n.citation === 4)?.reason, "text-ambiguous");
    });

    it("refuses an existing answer file that does not hold the answer, and accepts one that does", () => {
        const { outcome } = importInMemory({ response: anthropicResponse, existingAnswer: "something else\n" });
        assert.equal(outcome.ok, false);
        assert.equal(!outcome.ok && outcome.error.code, "answer-differs");
        const framed = `# Answer\n\n${anthropicAnswer}\n\n(end)\n`;
        const result = imported({ response: anthropicResponse, request: anthropicRequest, existingAnswer: framed });
        assert.equal(result.writeAnswer, false);
        assert.equal(result.answerText, framed);
        assert.equal(result.annotations[0].claim.start.line, 3);
        assert.equal(resolved(result).length, 5);
    });
});

describe("import: OpenAI Responses", () => {
    it("cites the file_search_call chunk for the sentence ending at each file_citation's index", () => {
        const result = imported({ response: openAiResponse });
        assert.equal(result.provider, "openai");
        assert.equal(result.answerText, openAiAnswer);
        assert.deepEqual(resolved(result), [
            ["Refunds take five business days.", ["Refunds take 5 business days."]],
            ["退货 🎁 within 30 days is fine.", ["Returns are accepted within 30 days of delivery."]],
        ]);
        assert.deepEqual(
            result.notConverted.map((n) => [n.citation, n.reason]),
            [
                [2, "web-result"],
                [4, "no-source-text"],
            ],
        );
    });

    it("says a file citation has no text without the search results, and never picks one of several chunks", () => {
        const bare = structuredClone(openAiResponse);
        bare.output = bare.output.filter((item) => item.type !== "file_search_call");
        assert.deepEqual(
            imported({ response: bare }).notConverted.map((n) => n.reason),
            ["no-source-text", "web-result", "no-source-text", "no-source-text"],
        );
        const twoChunks = structuredClone(openAiResponse);
        const search = twoChunks.output[0];
        if (search.type !== "file_search_call") assert.fail("fixture order");
        search.results?.push({
            file_id: "file-faq",
            filename: "faq.md",
            score: 0.5,
            text: "Shipping is free over $50.",
        });
        assert.equal(imported({ response: twoChunks }).notConverted[0].reason, "text-ambiguous");
    });
});

describe("import: Gemini", () => {
    it("reads segments in UTF-8 bytes of their part and keeps each chunk's confidence", () => {
        const result = imported({ response: geminiResponse });
        assert.equal(result.provider, "gemini");
        assert.equal(result.answerText, geminiAnswer);
        assert.deepEqual(resolved(result), [
            ["退款需要五个工作日。", ["Refunds take 5 business days."]],
            ["Returns within 30 days are accepted", ["Returns are accepted within 30 days of delivery."]],
        ]);
        assert.deepEqual(
            result.annotations.map((a) => a.sources.map((s) => s.confidence)),
            [[0.92], [0.81]],
        );
        assert.deepEqual(
            result.notConverted.map((n) => [n.citation, n.reason]),
            [[3, "web-result"]],
        );
    });
});

describe("import: Cohere", () => {
    it("reads v2 citations (offsets verified against their text) and lists tool outputs", () => {
        const result = imported({ response: cohereResponse });
        assert.equal(result.provider, "cohere");
        assert.equal(result.answerText, cohereAnswer);
        assert.deepEqual(resolved(result), [
            ["Phase one 🚀 migrates storage", ["Phase one migrates storage."]],
            ["phase two retires the old API", ["Phase two retires the old API."]],
        ]);
        assert.deepEqual(
            result.notConverted.map((n) => [n.citation, n.reason]),
            [[3, "no-source-text"]],
        );
        assert.equal(result.exitCode, 1);
    });

    it("reads v1 responses, and exits 0 when every citation converts", () => {
        const result = imported({ response: cohereV1Response });
        assert.deepEqual(resolved(result), [["Refunds take five business days", ["Refunds take 5 business days."]]]);
        assert.equal(result.exitCode, 0);
        assert.deepEqual(result.notConverted, []);
    });
});

describe("import: bad input", () => {
    for (const [name, response, code] of [
        ["not JSON", "{", "invalid-response"],
        ["an unknown shape", { hello: 1 }, "unknown-provider"],
        ["a text block without text", { type: "message", content: [{ type: "text" }] }, "invalid-response"],
    ] as const) {
        it(`refuses ${name} with a stable code`, () => {
            const { outcome } = importInMemory({ response });
            assert.equal(outcome.ok, false);
            assert.equal(!outcome.ok && outcome.error.code, code);
        });
    }

    it("takes --from over the shape", () => {
        const { outcome } = importInMemory({ response: cohereV1Response, from: "openai" });
        assert.equal(!outcome.ok && outcome.error.code, "invalid-response");
    });
});
