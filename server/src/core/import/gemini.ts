/**
 * Gemini's `generateContent` (docs/import.md): the answer is the first candidate's text parts (thought
 * parts left out); each `groundingSupports[]` entry claims its `segment`, whose offsets count UTF-8
 * bytes from the start of its part (`partIndex`, 0 when absent), and cites the `groundingChunks[]` its
 * `groundingChunkIndices` name: a `retrievedContext` with its `text`, or a `web` page.
 */
import { arrayOr, invalid, isObject, type JsonObject, names, numberOr, offsetOr, stringOr } from "./json";
import { utf8ByteOffset, verifiedSpan } from "./offsets";
import type { CitedClaim, CitedSource, ImportedCitation, ParsedResponse } from "./types";

export function looksLikeGemini(value: unknown): boolean {
    return isObject(value) && Array.isArray(value.candidates);
}

export function parseGemini(value: unknown): ParsedResponse {
    if (!isObject(value) || !Array.isArray(value.candidates))
        throw invalid("gemini", "the response has no `candidates` array");
    const candidate = value.candidates[0];
    if (!isObject(candidate)) throw invalid("gemini", "the response has no candidate");
    const parts = isObject(candidate.content) ? arrayOr(candidate.content.parts) : [];
    const partStarts: (number | undefined)[] = [];
    const partTexts: string[] = [];
    let answer = "";
    for (const part of parts) {
        const text = isObject(part) && part.thought !== true ? stringOr(part.text) : undefined;
        partStarts.push(text === undefined ? undefined : answer.length);
        partTexts.push(text ?? "");
        answer += text ?? "";
    }
    const metadata = isObject(candidate.groundingMetadata) ? candidate.groundingMetadata : {};
    const chunks = arrayOr(metadata.groundingChunks);
    const citations: ImportedCitation[] = [];
    for (const support of arrayOr(metadata.groundingSupports)) {
        if (!isObject(support)) throw invalid("gemini", "a grounding support is not an object");
        const claim = segmentClaim(support.segment, partStarts, partTexts);
        const scores = arrayOr(support.confidenceScores);
        const sources = arrayOr(support.groundingChunkIndices).map((index, i) =>
            chunkSource(chunks, index, numberOr(scores[i])),
        );
        citations.push({ type: "groundingSupport", claim, sources });
    }
    return { provider: "gemini", answer, citations };
}

function segmentClaim(segment: unknown, partStarts: (number | undefined)[], partTexts: string[]): CitedClaim {
    if (!isObject(segment)) return { problem: "the grounding support has no segment" };
    const part = offsetOr(segment.partIndex) ?? 0;
    const base = partStarts[part];
    if (base === undefined) return { problem: `its segment names part ${part + 1}, which holds no text` };
    const text = partTexts[part];
    // Proto3 JSON leaves out a zero: a segment at the part's start has no startIndex.
    const startBytes = segment.startIndex === undefined ? 0 : offsetOr(segment.startIndex);
    const endBytes = offsetOr(segment.endIndex);
    const start = startBytes === undefined ? undefined : utf8ByteOffset(text, startBytes);
    const end = endBytes === undefined ? undefined : utf8ByteOffset(text, endBytes);
    const said = stringOr(segment.text);
    if (
        start !== undefined &&
        end !== undefined &&
        start < end &&
        (said === undefined || text.slice(start, end) === said)
    )
        return { start: base + start, end: base + end };
    // The offsets disagree with the segment's own text: counted in another unit, or found by its text.
    if (said !== undefined && startBytes !== undefined && endBytes !== undefined) {
        const other = verifiedSpan(text, startBytes, endBytes, said);
        if (other) return { start: base + other.start, end: base + other.end };
    }
    if (said !== undefined && said !== "") {
        const at = text.indexOf(said);
        if (at !== -1 && text.indexOf(said, at + 1) === -1) return { start: base + at, end: base + at + said.length };
    }
    return { problem: `its segment (bytes ${segment.startIndex ?? 0}..${segment.endIndex}) is not a span of its part` };
}

function chunkSource(chunks: unknown[], index: unknown, confidence: number | undefined): CitedSource {
    const n = offsetOr(index);
    const chunk = n === undefined ? undefined : chunks[n];
    if (!isObject(chunk))
        return { kind: "opaque", what: `grounding chunk ${JSON.stringify(index)}, which the response does not hold` };
    if (isObject(chunk.web))
        return { kind: "web", url: stringOr(chunk.web.uri) ?? "", title: stringOr(chunk.web.title) };
    const context = isObject(chunk.retrievedContext) ? chunk.retrievedContext : undefined;
    if (!context) return { kind: "opaque", what: `grounding chunk ${n} (neither retrievedContext nor web)` };
    const rag = isObject(context.ragChunk) ? (context.ragChunk as JsonObject) : {};
    const text = stringOr(context.text) ?? stringOr(rag.text);
    const document = { index: n, names: names(context.title, context.uri, context.documentName) };
    const cited: CitedSource = { kind: "document", document, text };
    if (confidence !== undefined && confidence >= 0 && confidence <= 1) cited.confidence = confidence;
    return cited;
}
