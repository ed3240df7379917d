/**
 * OpenAI's Responses API (docs/import.md): the answer is the `output_text` parts joined (as the SDK's
 * `response.output_text`); a `url_citation` claims `start_index`..`end_index` of a web page; a
 * `file_citation` claims the sentence that ends at its `index` and cites the file whose chunk the
 * `file_search_call` returned (its `results`, present when the request included
 * `file_search_call.results`).
 */
import { sentenceSpans } from "../sentences";
import { arrayOr, invalid, isObject, type JsonObject, names, offsetOr, stringOr } from "./json";
import type { CitedClaim, CitedSource, ImportedCitation, ParsedResponse } from "./types";

export function looksLikeOpenAi(value: unknown): boolean {
    return isObject(value) && value.object === "response" && Array.isArray(value.output);
}

export function parseOpenAi(value: unknown): ParsedResponse {
    if (!isObject(value) || !Array.isArray(value.output))
        throw invalid("openai", "the response has no `output` array of items");
    const chunks = fileChunks(value.output);
    let answer = "";
    const citations: ImportedCitation[] = [];
    for (const item of value.output) {
        if (!isObject(item) || item.type !== "message") continue;
        for (const part of arrayOr(item.content)) {
            if (!isObject(part) || part.type !== "output_text") continue;
            const text = stringOr(part.text);
            if (text === undefined) throw invalid("openai", "an `output_text` part has no string `text`");
            const base = answer.length;
            answer += text;
            for (const annotation of arrayOr(part.annotations)) {
                if (!isObject(annotation)) throw invalid("openai", "an annotation is not an object");
                citations.push(citation(annotation, text, base, chunks));
            }
        }
    }
    return { provider: "openai", answer, citations };
}

function citation(
    annotation: JsonObject,
    text: string,
    base: number,
    chunks: Map<string, Set<string>>,
): ImportedCitation {
    const type = stringOr(annotation.type) ?? "unknown";
    const start = offsetOr(annotation.start_index);
    const end = offsetOr(annotation.end_index);
    const ranged: CitedClaim =
        start !== undefined && end !== undefined && start < end && end <= text.length
            ? { start: base + start, end: base + end }
            : {
                  problem: `its start_index..end_index (${annotation.start_index}..${annotation.end_index}) is not a span of its text`,
              };
    switch (type) {
        case "url_citation":
            return {
                type,
                claim: ranged,
                sources: [{ kind: "web", url: stringOr(annotation.url) ?? "", title: stringOr(annotation.title) }],
            };
        case "file_citation": {
            const fileId = stringOr(annotation.file_id) ?? "";
            return {
                type,
                claim: sentenceEndingAt(text, offsetOr(annotation.index), base),
                sources: [fileSource(annotation, chunks.get(fileId))],
            };
        }
        case "container_file_citation":
            return {
                type,
                claim: ranged,
                sources: [
                    {
                        kind: "opaque",
                        what: `a file of code interpreter container ${JSON.stringify(annotation.container_id)}`,
                    },
                ],
            };
        default:
            return {
                type,
                claim: { problem: `a ${type} annotation claims no text` },
                sources: [{ kind: "opaque", what: `a ${type} annotation` }],
            };
    }
}

function fileSource(annotation: JsonObject, texts: Set<string> | undefined): CitedSource {
    const document = { names: names(annotation.filename, annotation.file_id) };
    const shown = JSON.stringify(stringOr(annotation.filename) ?? stringOr(annotation.file_id));
    if (!texts || texts.size === 0) {
        const message = `the response carries no file_search_call result of ${shown}: request it with include: ["file_search_call.results"]`;
        return { kind: "document", document, problem: { reason: "no-source-text", message } };
    }
    if (texts.size > 1) {
        const message = `the file_search_call returned ${texts.size} chunks of ${shown}, and the citation does not say which one it cites`;
        return { kind: "document", document, problem: { reason: "text-ambiguous", message } };
    }
    return { kind: "document", document, text: [...texts][0] };
}

/** The chunk texts each file's search results returned, by file id. */
function fileChunks(output: unknown[]): Map<string, Set<string>> {
    const chunks = new Map<string, Set<string>>();
    for (const item of output) {
        if (!isObject(item) || item.type !== "file_search_call") continue;
        for (const result of arrayOr(item.results)) {
            if (!isObject(result)) continue;
            const id = stringOr(result.file_id);
            const text = stringOr(result.text);
            if (id === undefined || text === undefined) continue;
            if (!chunks.has(id)) chunks.set(id, new Set());
            chunks.get(id)?.add(text);
        }
    }
    return chunks;
}

/** The sentence of `text` that ends at `index` (OpenAI puts a file citation's marker there). */
export function sentenceEndingAt(text: string, index: number | undefined, base: number): CitedClaim {
    if (index === undefined || index === 0 || index > text.length)
        return { problem: `its index (${index}) is not a place after text in the answer` };
    let sentence: { start: number; end: number } | undefined;
    for (const span of sentenceSpans(text)) {
        if (span.start >= index) break;
        sentence = span;
    }
    if (!sentence) return { problem: `no sentence ends at its index (${index})` };
    return { start: base + sentence.start, end: base + Math.min(sentence.end, index) };
}
