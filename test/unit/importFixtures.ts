/**
 * Provider responses for the import tests, typed with the providers' own SDK types (type-only dev
 * dependencies: nothing of them is bundled), so a field misnamed here fails to compile. Offsets are
 * computed from the texts as each provider counts them: code points (Anthropic, as its Python SDK
 * counts), UTF-16 units, UTF-8 bytes (Gemini).
 */

import * as assert from "node:assert/strict";
import type Anthropic from "@anthropic-ai/sdk";
import type { Candidate, GroundingChunk, GroundingSupport } from "@google/genai";
import type { Cohere } from "cohere-ai";
import type { Response as OpenAiResponse, ResponseOutputItem } from "openai/resources/responses/responses";
import { validateAnnotations } from "../../server/src/core/check";
import { Session, SessionDocument } from "../../server/src/core/session";
import { type ImportRequest, type ImportResult, importResponse } from "../../server/src/operations/import";

/** Code points before `needle` in `text` (Python's `str.index`). */
export function codePoints(text: string, needle: string): { start: number; end: number } {
    const at = indexOnce(text, needle);
    const start = Array.from(text.slice(0, at)).length;
    return { start, end: start + Array.from(needle).length };
}

/** UTF-16 units (JavaScript's `indexOf`). */
export function utf16(text: string, needle: string): { start: number; end: number } {
    const at = indexOnce(text, needle);
    return { start: at, end: at + needle.length };
}

/** UTF-8 bytes (Gemini's `segment`). */
export function utf8(text: string, needle: string): { start: number; end: number } {
    const at = indexOnce(text, needle);
    const start = Buffer.byteLength(text.slice(0, at), "utf8");
    return { start, end: start + Buffer.byteLength(needle, "utf8") };
}

function indexOnce(text: string, needle: string): number {
    const at = text.indexOf(needle);
    if (at === -1 || text.indexOf(needle, at + 1) !== -1) throw new Error(`fixture: ${needle} is not once in the text`);
    return at;
}

/** The workspace every fixture cites: paths -> contents (one with CRLF line endings). */
export const FILES: Record<string, string> = {
    "docs/report.md":
        "# 季度报告 Q3 🚀\n\n收入增长 12%，云服务 ☁️ 领先。\nRevenue grew 12% in Q3, driven by cloud services.\nCosts fell by 3%\nacross all regions.\n",
    "docs/plan.md":
        "# Plan\n\nPhase one migrates storage.\n\nPhase two retires the old API.\n\nPhase three is optional.\n",
    "docs/notes.txt": "Meeting notes\r\nThe launch moved to May.\r\nNobody objected.\r\n",
    "kb/faq.md": "FAQ\n\nRefunds take 5 business days.\nShipping is free over $50.\n",
    "kb/policy.md": "Policy\n\nReturns are accepted within 30 days of delivery.\nOpened software cannot be returned.\n",
};

const REPORT = FILES["docs/report.md"];
const NOTES_AS_SENT = FILES["docs/notes.txt"];

// ---------------------------------------------------------------------------------------- Anthropic

const anthropicBlocks: Anthropic.TextBlock[] = [
    { type: "text", text: "根据报告 🚀，", citations: null },
    {
        type: "text",
        text: "收入增长 12%",
        citations: [
            {
                type: "char_location",
                cited_text: "收入增长 12%，云服务 ☁️ 领先。",
                document_index: 0,
                document_title: "Q3 report",
                file_id: null,
                // Code points: after the Chinese heading and its emoji the UTF-16 count differs.
                start_char_index: codePoints(REPORT, "收入增长 12%，云服务 ☁️ 领先。").start,
                end_char_index: codePoints(REPORT, "收入增长 12%，云服务 ☁️ 领先。").end,
            },
        ],
    },
    { type: "text", text: ", and ", citations: null },
    {
        type: "text",
        text: "costs fell by 3% across regions",
        citations: [
            {
                // A citation spanning two lines, offsets in UTF-16 units.
                type: "char_location",
                cited_text: "Costs fell by 3%\nacross all regions.",
                document_index: 0,
                document_title: "Q3 report",
                file_id: null,
                start_char_index: utf16(REPORT, "Costs fell by 3%\nacross all regions.").start,
                end_char_index: utf16(REPORT, "Costs fell by 3%\nacross all regions.").end,
            },
        ],
    },
    { type: "text", text: ". ", citations: null },
    {
        type: "text",
        text: "Storage moves first, then the old API goes",
        citations: [
            {
                type: "content_block_location",
                cited_text: "Phase one migrates storage.Phase two retires the old API.",
                document_index: 1,
                document_title: "plan.md",
                file_id: null,
                start_block_index: 0,
                end_block_index: 2,
            },
        ],
    },
    { type: "text", text: ". ", citations: null },
    {
        type: "text",
        text: "The launch is in May",
        citations: [
            {
                type: "page_location",
                cited_text: "The launch moved to May.",
                document_index: 2,
                document_title: "notes.txt",
                file_id: null,
                start_page_number: 1,
                end_page_number: 2,
            },
        ],
    },
    { type: "text", text: "; ", citations: null },
    {
        type: "text",
        text: "refunds take five days",
        citations: [
            {
                type: "search_result_location",
                cited_text: "Refunds take 5 business days.",
                search_result_index: 0,
                source: "https://kb.example/faq",
                title: "faq.md",
                start_block_index: 0,
                end_block_index: 1,
            },
        ],
    },
    { type: "text", text: ", as the news said", citations: null },
    {
        type: "text",
        text: " (widely reported)",
        citations: [
            {
                type: "web_search_result_location",
                cited_text: "Costs fell",
                url: "https://news.example/costs",
                title: "Costs",
                encrypted_index: "abc",
            },
        ],
    },
    { type: "text", text: ".", citations: null },
];

export const anthropicResponse = {
    id: "msg_01",
    type: "message",
    role: "assistant",
    model: "claude-sonnet-4-5",
    content: anthropicBlocks,
    stop_reason: "end_turn",
    stop_sequence: null,
} satisfies Partial<Anthropic.Message>;

/** The texts Claude was given: the report as plain text, the plan as content blocks, the notes with CRLF. */
export const anthropicRequest = {
    model: "claude-sonnet-4-5",
    max_tokens: 1024,
    messages: [
        {
            role: "user",
            content: [
                {
                    type: "document",
                    title: "Q3 report",
                    source: { type: "text", media_type: "text/plain", data: REPORT },
                    citations: { enabled: true },
                },
                {
                    type: "document",
                    title: "plan.md",
                    source: {
                        type: "content",
                        content: [
                            { type: "text", text: "Phase one migrates storage." },
                            { type: "text", text: "Phase two retires the old API." },
                            { type: "text", text: "Phase three is optional." },
                        ],
                    },
                    citations: { enabled: true },
                },
                {
                    type: "document",
                    title: "notes.txt",
                    source: { type: "text", media_type: "text/plain", data: NOTES_AS_SENT },
                    citations: { enabled: true },
                },
                {
                    type: "search_result",
                    source: "https://kb.example/faq",
                    title: "faq.md",
                    content: [{ type: "text", text: "Refunds take 5 business days." }],
                    citations: { enabled: true },
                },
                { type: "text", text: "Summarise the quarter." },
            ],
        },
    ],
} satisfies Anthropic.MessageCreateParamsNonStreaming;

/** The answer a reader of the Anthropic response sees. */
export const anthropicAnswer = anthropicBlocks.map((b) => b.text).join("");

/** The same message as the stream of events the API sends: text in pieces, each citation in a `citations_delta`. */
export function anthropicStream(): Anthropic.RawMessageStreamEvent[] {
    const events: Anthropic.RawMessageStreamEvent[] = [
        {
            type: "message_start",
            message: {
                ...anthropicResponse,
                content: [],
                stop_reason: null,
                usage: {} as Anthropic.Usage,
            } as unknown as Anthropic.Message,
        },
    ];
    anthropicBlocks.forEach((block, index) => {
        events.push({ type: "content_block_start", index, content_block: { type: "text", text: "", citations: null } });
        for (const citation of block.citations ?? [])
            events.push({ type: "content_block_delta", index, delta: { type: "citations_delta", citation } });
        const cut = Math.ceil(block.text.length / 2);
        for (const piece of [block.text.slice(0, cut), block.text.slice(cut)])
            if (piece) events.push({ type: "content_block_delta", index, delta: { type: "text_delta", text: piece } });
        events.push({ type: "content_block_stop", index });
    });
    events.push({ type: "message_stop" });
    return events;
}

// ------------------------------------------------------------------------------------------- OpenAI

const openAiText = "Refunds take five business days. Free shipping starts at $50 [1]. 退货 🎁 within 30 days is fine.";

const openAiOutput: ResponseOutputItem[] = [
    {
        type: "file_search_call",
        id: "fs_1",
        status: "completed",
        queries: ["refund policy"],
        results: [
            {
                file_id: "file-faq",
                filename: "faq.md",
                score: 0.9,
                text: "Refunds take 5 business days.",
                attributes: {},
            },
            {
                file_id: "file-pol",
                filename: "policy.md",
                score: 0.8,
                text: "Returns are accepted within 30 days of delivery.",
                attributes: {},
            },
        ],
    },
    {
        type: "message",
        id: "msg_1",
        role: "assistant",
        status: "completed",
        content: [
            {
                type: "output_text",
                text: openAiText,
                logprobs: [],
                annotations: [
                    {
                        type: "file_citation",
                        file_id: "file-faq",
                        filename: "faq.md",
                        index: openAiText.indexOf(" Free"),
                    },
                    {
                        type: "url_citation",
                        url: "https://shop.example/shipping",
                        title: "Shipping",
                        ...rename(utf16(openAiText, "Free shipping starts at $50")),
                    },
                    { type: "file_citation", file_id: "file-pol", filename: "policy.md", index: openAiText.length },
                    {
                        type: "container_file_citation",
                        container_id: "cntr_1",
                        file_id: "cfile_1",
                        filename: "table.csv",
                        ...rename(utf16(openAiText, "Refunds take five")),
                    },
                ],
            },
        ],
    },
];

function rename(span: { start: number; end: number }): { start_index: number; end_index: number } {
    return { start_index: span.start, end_index: span.end };
}

export const openAiResponse = {
    id: "resp_1",
    object: "response",
    created_at: 1,
    model: "gpt-5",
    output: openAiOutput,
} satisfies Partial<OpenAiResponse>;

export const openAiAnswer = openAiText;

// ------------------------------------------------------------------------------------------- Gemini

const geminiParts = ["根据常见问题 🚀：退款需要五个工作日。", " Returns within 30 days are accepted; the web agrees."];

const geminiChunks: GroundingChunk[] = [
    { retrievedContext: { uri: "gs://corpus/kb/faq.md", title: "faq.md", text: "Refunds take 5 business days." } },
    {
        retrievedContext: {
            uri: "gs://corpus/kb/policy.md",
            title: "policy",
            text: "Returns are accepted within 30 days of delivery.",
        },
    },
    { web: { uri: "https://news.example/returns", title: "news.example" } },
];

const geminiSupports: GroundingSupport[] = [
    {
        segment: { partIndex: 0, ...bytes(geminiParts[0], "退款需要五个工作日。") },
        groundingChunkIndices: [0],
        confidenceScores: [0.92],
    },
    {
        segment: { partIndex: 1, ...bytes(geminiParts[1], "Returns within 30 days are accepted") },
        groundingChunkIndices: [1],
        confidenceScores: [0.81],
    },
    {
        segment: { partIndex: 1, ...bytes(geminiParts[1], "the web agrees") },
        groundingChunkIndices: [2],
    },
];

function bytes(text: string, needle: string): { startIndex: number; endIndex: number; text: string } {
    const span = utf8(text, needle);
    return { startIndex: span.start, endIndex: span.end, text: needle };
}

const geminiCandidate: Candidate = {
    content: { role: "model", parts: geminiParts.map((text) => ({ text })) },
    finishReason: "STOP" as Candidate["finishReason"],
    groundingMetadata: { groundingChunks: geminiChunks, groundingSupports: geminiSupports },
};

export const geminiResponse = { candidates: [geminiCandidate], modelVersion: "gemini-2.5-flash" };

export const geminiAnswer = geminiParts.join("");

// ------------------------------------------------------------------------------------------- Cohere

const cohereText = "Phase one 🚀 migrates storage, and 云 phase two retires the old API; the tool says 42.";

const cohereCitations: Cohere.Citation[] = [
    {
        ...codePointsOf(cohereText, "Phase one 🚀 migrates storage"),
        sources: [
            {
                type: "document",
                id: "doc_0",
                document: { id: "doc_0", title: "plan.md", snippet: "Phase one migrates storage." },
            },
        ],
        type: "TEXT_CONTENT",
    },
    {
        ...codePointsOf(cohereText, "phase two retires the old API"),
        sources: [
            { type: "document", id: "plan-2", document: { id: "plan-2", text: "Phase two retires the old API." } },
        ],
        type: "TEXT_CONTENT",
    },
    {
        ...codePointsOf(cohereText, "the tool says 42"),
        sources: [{ type: "tool", id: "calc_1", toolOutput: { result: 42 } }],
        type: "TEXT_CONTENT",
    },
];

function codePointsOf(text: string, needle: string): { start: number; end: number; text: string } {
    return { ...codePoints(text, needle), text: needle };
}

export const cohereResponse: Cohere.V2ChatResponse = {
    id: "c_1",
    finishReason: "COMPLETE",
    message: { role: "assistant", content: [{ type: "text", text: cohereText }], citations: cohereCitations },
};

export const cohereAnswer = cohereText;

/** Cohere's v1 chat response, as the HTTP API sends it (snake_case). */
export const cohereV1Response = {
    response_id: "r1",
    generation_id: "g1",
    text: "Refunds take five business days.",
    citations: [{ start: 0, end: 32, text: "Refunds take five business days", document_ids: ["faq"] }],
    documents: [{ id: "faq", title: "faq.md", snippet: "Refunds take 5 business days." }],
};

/** The operation over files in memory, recording which paths it read. */
export function importInMemory(
    request: Omit<ImportRequest, "answerPath"> & { answerPath?: string },
    files: Record<string, string> = FILES,
) {
    const reads: string[] = [];
    const outcome = importResponse(
        { answerPath: "answer.md", ...request },
        {
            document(path) {
                reads.push(path);
                return Object.hasOwn(files, path)
                    ? new SessionDocument(path, files[path].replace(/\r\n?/g, "\n"))
                    : { code: "unreadable-document", message: `no file "${path}" under the document root` };
            },
            files: () => Object.keys(files).sort(),
        },
    );
    return { outcome, reads };
}

/** Every annotation through the real resolver (core/check.ts): [claim text, source texts] each. */
export function resolvedTexts(result: ImportResult, files: Record<string, string> = FILES): [string, string[]][] {
    const documents = Object.entries(files).map(
        ([path, text]) => new SessionDocument(path, text.replace(/\r\n?/g, "\n")),
    );
    documents.push(new SessionDocument("answer.md", result.answerText.replace(/\r\n?/g, "\n")));
    const report = validateAnnotations(new Session(documents), result.annotations);
    assert.equal(report.invalidCount, 0, JSON.stringify(report.entries.filter((e) => !e.valid)));
    return report.entries.map((entry) => [
        entry.claim.valid ? entry.claim.text : "",
        entry.sources.map((s) => (s.valid ? s.text : "")),
    ]);
}
