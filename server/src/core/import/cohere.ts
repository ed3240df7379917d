/**
 * Cohere's Chat API (docs/import.md): v2 (`message.content` text items, `message.citations[]` with
 * `sources[]`) and v1 (`text`, `citations[]` with `document_ids`, `documents[]`). A citation claims
 * `start`..`end` of the answer (verified against its `text`, the unit being unsaid) and cites each
 * document's text (its `text`, else `snippet`); a tool's output is not a document.
 */
import { arrayOr, invalid, isObject, type JsonObject, names, offsetOr, stringOr } from "./json";
import { verifiedSpan } from "./offsets";
import type { CitedClaim, CitedSource, ImportedCitation, ParsedResponse } from "./types";

export function looksLikeCohere(value: unknown): boolean {
    if (!isObject(value)) return false;
    if (isObject(value.message) && Array.isArray(value.message.content)) return true;
    return (
        typeof value.text === "string" && ("generation_id" in value || "response_id" in value || "citations" in value)
    );
}

export function parseCohere(value: unknown): ParsedResponse {
    if (!isObject(value)) throw invalid("cohere", "the response is not an object");
    return isObject(value.message) ? parseV2(value.message) : parseV1(value);
}

function parseV2(message: JsonObject): ParsedResponse {
    const texts: string[] = [];
    const starts: number[] = [];
    let answer = "";
    for (const item of arrayOr(message.content)) {
        const text = isObject(item) && item.type === "text" ? stringOr(item.text) : undefined;
        starts.push(answer.length);
        texts.push(text ?? "");
        answer += text ?? "";
    }
    const citations: ImportedCitation[] = [];
    for (const citation of arrayOr(message.citations)) {
        if (!isObject(citation)) throw invalid("cohere", "a citation is not an object");
        const index = offsetOr(citation.content_index ?? citation.contentIndex) ?? 0;
        const claim =
            citation.type === "PLAN"
                ? { problem: "it cites the tool plan, not the answer" }
                : index < texts.length
                  ? claimOf(citation, texts[index], starts[index])
                  : { problem: `its content_index (${index}) names no text of the message` };
        const sources = arrayOr(citation.sources).map(sourceV2);
        citations.push({ type: "citation", claim, sources });
    }
    return { provider: "cohere", answer, citations };
}

function sourceV2(source: unknown): CitedSource {
    if (!isObject(source)) return { kind: "opaque", what: "a source that is not an object" };
    if (source.type === "tool") return { kind: "opaque", what: `the output of tool call ${JSON.stringify(source.id)}` };
    const document = isObject(source.document) ? source.document : {};
    return documentSource(document, source.id);
}

function parseV1(value: JsonObject): ParsedResponse {
    const answer = stringOr(value.text) ?? "";
    const documents = new Map<string, JsonObject>();
    for (const document of arrayOr(value.documents)) {
        if (isObject(document) && typeof document.id === "string") documents.set(document.id, document);
    }
    const citations: ImportedCitation[] = [];
    for (const citation of arrayOr(value.citations)) {
        if (!isObject(citation)) throw invalid("cohere", "a citation is not an object");
        const ids = arrayOr(citation.document_ids ?? citation.documentIds);
        const sources = ids.map((id): CitedSource => {
            const document = typeof id === "string" ? documents.get(id) : undefined;
            return document
                ? documentSource(document, id)
                : { kind: "opaque", what: `document ${JSON.stringify(id)}, which the response does not hold` };
        });
        citations.push({ type: "citation", claim: claimOf(citation, answer, 0), sources });
    }
    return { provider: "cohere", answer, citations };
}

function documentSource(document: JsonObject, id: unknown): CitedSource {
    const text = stringOr(document.text) ?? stringOr(document.snippet) ?? stringOr(document.content);
    const cited = { names: names(id, document.id, document.title, document.url) };
    if (text === undefined) {
        const fields = Object.keys(document).join(", ") || "none";
        return {
            kind: "document",
            document: cited,
            problem: {
                reason: "no-source-text",
                message: `the document has no text or snippet field (fields: ${fields})`,
            },
        };
    }
    return { kind: "document", document: cited, text };
}

function claimOf(citation: JsonObject, text: string, base: number): CitedClaim {
    const start = offsetOr(citation.start);
    const end = offsetOr(citation.end);
    const said = stringOr(citation.text);
    if (start !== undefined && end !== undefined) {
        const span =
            said === undefined
                ? start < end && end <= text.length
                    ? { start, end }
                    : undefined
                : verifiedSpan(text, start, end, said);
        if (span) return { start: base + span.start, end: base + span.end };
    }
    if (said !== undefined && said !== "") {
        const at = text.indexOf(said);
        if (at !== -1 && text.indexOf(said, at + 1) === -1) return { start: base + at, end: base + at + said.length };
    }
    return { problem: `its start..end (${citation.start}..${citation.end}) does not hold its text` };
}
