/**
 * Anthropic's Messages API (docs/import.md): the answer is the text blocks joined, each citation's
 * claim is the text block that carries it, and its source the document its `document_index` names in
 * the request (documents counted in order over the messages), with `cited_text` and, for
 * `char_location`, the offsets to verify. A streamed response is accepted as its events (a JSON array,
 * or the raw `data:` lines), assembled as the SDK assembles them: `text_delta`s joined,
 * `citations_delta`s appended to their block.
 */
import { ordinal } from "../../../../shared/numbering";
import { arrayOr, invalid, isObject, type JsonObject, names, numberOr, offsetOr, stringOr } from "./json";
import type { CitedDocument, CitedSource, ImportedCitation, ParsedResponse } from "./types";

/** Whether a response looks like a Messages API message (or its stream of events). */
export function looksLikeAnthropic(value: unknown): boolean {
    if (Array.isArray(value)) return isObject(value[0]) && value[0].type === "message_start";
    return isObject(value) && value.type === "message" && Array.isArray(value.content);
}

export function parseAnthropic(value: unknown, request?: unknown): ParsedResponse {
    const message = Array.isArray(value) ? assembleStream(value) : value;
    if (!isObject(message) || !Array.isArray(message.content))
        throw invalid("anthropic", "the response has no `content` array of blocks");
    const documents = requestDocuments(request);
    const searchResults = requestSearchResults(request);
    let answer = "";
    const citations: ImportedCitation[] = [];
    for (const [i, block] of message.content.entries()) {
        if (!isObject(block) || block.type !== "text") continue;
        const text = stringOr(block.text);
        if (text === undefined)
            throw invalid("anthropic", `content block ${ordinal(i)} is text without a string \`text\``);
        const claim = { start: answer.length, end: answer.length + text.length };
        answer += text;
        for (const citation of arrayOr(block.citations)) {
            if (!isObject(citation))
                throw invalid("anthropic", `a citation of content block ${ordinal(i)} is not an object`);
            citations.push({
                type: stringOr(citation.type) ?? "unknown",
                claim,
                sources: [source(citation, documents, searchResults)],
            });
        }
    }
    return { provider: "anthropic", answer, citations };
}

function source(citation: JsonObject, documents: CitedDocument[], searchResults: CitedDocument[]): CitedSource {
    const text = stringOr(citation.cited_text);
    const blocks = blockRange(citation);
    switch (citation.type) {
        case "web_search_result_location":
            return { kind: "web", url: stringOr(citation.url) ?? "", title: stringOr(citation.title) };
        case "search_result_location": {
            const index = offsetOr(citation.search_result_index);
            const known = index !== undefined ? searchResults[index] : undefined;
            // Search results are numbered apart from documents: `--document N=` names documents only.
            const document: CitedDocument = {
                names: names(citation.source, citation.title, ...(known?.names ?? [])),
                blocks: known?.blocks,
            };
            return { kind: "document", document, text, blocks };
        }
        case "char_location":
        case "page_location":
        case "content_block_location": {
            const index = offsetOr(citation.document_index);
            const known = index !== undefined ? documents[index] : undefined;
            const document: CitedDocument = {
                index,
                names: names(citation.document_title, ...(known?.names ?? [])),
                text: known?.text,
                blocks: known?.blocks,
            };
            const start = offsetOr(citation.start_char_index);
            const end = offsetOr(citation.end_char_index);
            const offsets =
                citation.type === "char_location" && start !== undefined && end !== undefined
                    ? { start, end }
                    : undefined;
            return { kind: "document", document, text, offsets, blocks };
        }
        default:
            return { kind: "opaque", what: `a citation of type ${JSON.stringify(citation.type)}` };
    }
}

function blockRange(citation: JsonObject): { start: number; end: number } | undefined {
    const start = offsetOr(citation.start_block_index);
    const end = offsetOr(citation.end_block_index);
    return start !== undefined && end !== undefined ? { start, end } : undefined;
}

/** Every content block of the request's messages, tool results' contents included, in order. */
function* requestBlocks(request: unknown): Generator<JsonObject> {
    if (!isObject(request)) return;
    for (const message of arrayOr(request.messages)) {
        if (!isObject(message)) continue;
        for (const block of arrayOr(message.content)) {
            if (!isObject(block)) continue;
            yield block;
            if (block.type === "tool_result")
                for (const inner of arrayOr(block.content)) if (isObject(inner)) yield inner;
        }
    }
}

/** The request's document blocks, in the order `document_index` counts them. */
function requestDocuments(request: unknown): CitedDocument[] {
    const documents: CitedDocument[] = [];
    for (const block of requestBlocks(request)) {
        if (block.type !== "document") continue;
        const index = documents.length;
        const source = isObject(block.source) ? block.source : {};
        const document: CitedDocument = { index, names: names(block.title) };
        if (source.type === "text") document.text = stringOr(source.data);
        if (source.type === "content") {
            document.blocks =
                typeof source.content === "string"
                    ? [source.content]
                    : arrayOr(source.content).map((b) => (isObject(b) ? (stringOr(b.text) ?? "") : ""));
        }
        documents.push(document);
    }
    return documents;
}

/** The request's search results, in the order `search_result_index` counts them. */
function requestSearchResults(request: unknown): CitedDocument[] {
    const results: CitedDocument[] = [];
    for (const block of requestBlocks(request)) {
        if (block.type !== "search_result") continue;
        results.push({
            names: names(block.source, block.title),
            blocks: arrayOr(block.content).map((b) => (isObject(b) ? (stringOr(b.text) ?? "") : "")),
        });
    }
    return results;
}

/** A message from its stream of events, as the SDK's `finalMessage()` builds it. */
export function assembleStream(events: unknown[]): JsonObject {
    const start = events.find((e) => isObject(e) && e.type === "message_start") as JsonObject | undefined;
    if (!start || !isObject(start.message)) throw invalid("anthropic", "the stream has no `message_start` event");
    const message: JsonObject = { ...start.message, content: [] };
    const content = message.content as JsonObject[];
    for (const [n, event] of events.entries()) {
        if (!isObject(event)) throw invalid("anthropic", `stream event ${n + 1} is not an object`);
        const index = numberOr(event.index);
        if (event.type === "content_block_start" && index !== undefined && isObject(event.content_block)) {
            const block = { ...event.content_block };
            if (block.type === "text") block.citations = arrayOr(block.citations).slice();
            content[index] = block;
        } else if (event.type === "content_block_delta" && index !== undefined && isObject(event.delta)) {
            const block = content[index];
            if (!block) throw invalid("anthropic", `stream event ${n + 1} changes block ${index} before it starts`);
            const delta = event.delta;
            if (delta.type === "text_delta") block.text = `${stringOr(block.text) ?? ""}${stringOr(delta.text) ?? ""}`;
            if (delta.type === "citations_delta") (block.citations as unknown[]).push(delta.citation);
        }
    }
    return message;
}

/** The events of a raw server-sent event stream (`event: ...` / `data: {...}` lines), or undefined. */
export function sseEvents(text: string): unknown[] | undefined {
    if (!/^(event|data):/m.test(text)) return undefined;
    const events: unknown[] = [];
    for (const line of text.split(/\r?\n/)) {
        if (!line.startsWith("data:")) continue;
        try {
            events.push(JSON.parse(line.slice(5)));
        } catch {
            return undefined;
        }
    }
    return events.length > 0 ? events : undefined;
}
