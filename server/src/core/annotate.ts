/**
 * Quotes -> one annotation (docs/annotate.md): the claim's quote and each source's quote become refs
 * exactly as `cite` makes them, and the annotation is appended to an annotation file's text with its
 * formatting kept. All or nothing: the first quote that cannot be cited, or a source that cites its
 * own claim, is the answer, and no text is produced. Pure: documents come from a lookup, text in and
 * text out; the callers (CLI, MCP server, language server) read and write files.
 */

import { sourceLabel } from "../../../shared/numbering";
import {
    appendAnnotation,
    appendUnsourced,
    applyOffsetEdits,
    detectFormatting,
    type NewSource,
    removeAnnotation,
    removeUnsourced,
    replaceAnnotation,
} from "./annotationEdits";
import { type CiteCandidate, citeQuote } from "./cite";
import { normalizeRefPath } from "./refPath";
import { type SpanWarning, selfCitationWarning } from "./refWarnings";
import { resolveInDocument } from "./resolve";
import { type DocumentLookup, isDocumentFailure } from "./session";
import type { Annotation, Polarity, Ref } from "./types";

export interface QuoteRequest {
    path: string;
    quote: string;
}

export interface SourceQuoteRequest extends QuoteRequest {
    polarity: Polarity;
    confidence: number;
}

export interface AnnotateRequest {
    claim: QuoteRequest;
    sources: readonly SourceQuoteRequest[];
}

export type AnnotateErrorCode =
    | "quote-not-found"
    | "quote-ambiguous"
    | "self-citation"
    | "invalid-path"
    | "path-outside-root"
    | "unreadable-document"
    | "unknown-path";

export interface AnnotateError {
    code: AnnotateErrorCode;
    /** Names the quote (`claim`, `source 2`), what went wrong and what to do. */
    message: string;
    /** Which quote: `claim` or the 0-based source index. */
    role: "claim" | number;
    /** JSON pointer into the request: `/claim`, `/sources/1`. */
    pointer: string;
    /** For `quote-ambiguous`: the 1-based lines of every occurrence. */
    lines?: number[];
    /** For `quote-not-found`: the near match `cite` offers, never certain. */
    candidates?: CiteCandidate[];
}

/** A warning about one ref of the new annotation (`mid-word-boundary`). */
export interface AnnotateWarning extends SpanWarning {
    role: "claim" | number;
}

export type AnnotateResult =
    | { ok: true; annotation: Annotation; warnings: AnnotateWarning[] }
    | { ok: false; error: AnnotateError };

/** `claim` or `source 2` (1-based, as people count). */
export function roleName(role: "claim" | number): string {
    return role === "claim" ? "claim" : sourceLabel(role);
}

/** Every quote cited, or the first that cannot be. */
export function annotateQuotes(request: AnnotateRequest, lookup: DocumentLookup): AnnotateResult {
    const warnings: AnnotateWarning[] = [];
    const cite = (quote: QuoteRequest, role: "claim" | number): { ref: Ref } | { error: AnnotateError } => {
        const pointer = role === "claim" ? "/claim" : `/sources/${role}`;
        const fail = (code: AnnotateErrorCode, message: string, extra: Partial<AnnotateError> = {}) => ({
            error: { code, message: `${roleName(role)}: ${message}`, role, pointer, ...extra },
        });
        const path = normalizeRefPath(quote.path);
        if (!path.ok) return fail(path.code, path.message);
        const document = lookup.get(path.path);
        if (document === undefined)
            return fail("unknown-path", `no document has the path ${JSON.stringify(path.path)}`);
        if (isDocumentFailure(document)) return fail(document.code, document.message);
        const cited = citeQuote(document, quote.quote);
        if (!cited.ok) {
            const next = cited.candidates ? "; if the near match is what you meant, quote its text" : "";
            return fail(cited.error.code, `${cited.error.message}${next}`, {
                lines: cited.error.lines,
                ...(cited.candidates ? { candidates: cited.candidates } : {}),
            });
        }
        for (const warning of cited.warnings ?? []) warnings.push({ ...warning, role });
        return { ref: cited.ref };
    };

    const claim = cite(request.claim, "claim");
    if ("error" in claim) return { ok: false, error: claim.error };
    const sources: Annotation["sources"] = [];
    for (const [index, source] of request.sources.entries()) {
        const cited = cite(source, index);
        if ("error" in cited) return { ok: false, error: cited.error };
        sources.push({ ...cited.ref, polarity: source.polarity, confidence: source.confidence });
    }
    const selfCited = firstSelfCitation(claim.ref, sources, lookup);
    if (selfCited) return { ok: false, error: selfCited };
    return { ok: true, annotation: { claim: claim.ref, sources }, warnings };
}

function firstSelfCitation(claim: Ref, sources: readonly Ref[], lookup: DocumentLookup): AnnotateError | undefined {
    const claimDocument = lookup.get(claim.path);
    if (claimDocument === undefined || isDocumentFailure(claimDocument)) return undefined;
    const claimSpan = resolveInDocument(claimDocument, claim);
    if (!claimSpan.valid) return undefined;
    for (const [index, source] of sources.entries()) {
        const document = lookup.get(source.path);
        if (document === undefined || isDocumentFailure(document)) continue;
        const span = resolveInDocument(document, source);
        if (!span.valid) continue;
        const warning = selfCitationWarning(claimSpan, span);
        if (warning) {
            return {
                code: "self-citation",
                message: `${roleName(index)}: ${warning.message}`,
                role: index,
                pointer: `/sources/${index}`,
            };
        }
    }
    return undefined;
}

export type AppendResult = { ok: true; text: string; index: number } | { ok: false; message: string };

/** What `annotate` does with the annotation file (docs/annotate.md): append, or replace or remove by index. */
export type FileEdit = { kind: "append" } | { kind: "replace"; index: number } | { kind: "remove"; index: number };

/**
 * The annotation file's text after `edit`, with the index it concerns; the same refusals as
 * appendToAnnotationFile. A replace or remove of an index the file does not hold is refused with how
 * many it has (`count`), so each caller can say it counting as its readers count.
 */
export function editAnnotationFile(
    text: string | undefined,
    fileName: string,
    edit: FileEdit,
    annotation?: Annotation,
): AppendResult | { ok: false; message: string; count: number } {
    if (edit.kind === "append") return appendToAnnotationFile(text, fileName, annotation!);
    const refused = refusedFile(text ?? "", fileName);
    if (refused) return { ok: false, message: refused };
    const current = text ?? "";
    const edited =
        edit.kind === "remove"
            ? removeAnnotation(current, fileName, edit.index)
            : replaceAnnotation(
                  current,
                  fileName,
                  edit.index,
                  annotation!.claim,
                  annotation!.sources.map((source) => ({ ...source })),
                  detectFormatting(current, { tabSize: 2, insertSpaces: true }),
              );
    if (!edited.ok) {
        const count = (edited as { count?: number }).count;
        return count === undefined
            ? { ok: false, message: edited.message }
            : { ok: false, message: edited.message, count };
    }
    return { ok: true, text: applyOffsetEdits(current, edited.edits), index: edit.index };
}

/** Why a file cannot take an annotation, or undefined when it can. */
function refusedFile(current: string, fileName: string): string | undefined {
    if (!ANNOTATION_FILE_NAME.test(fileName) && !holdsAnnotationList(current)) {
        return `${fileName} is not an annotation file: name it *.sourcecheck.json (or *.annotations.json), or give a file that already holds "annotations"`;
    }
    if (embedsDocuments(current)) {
        return `${fileName} embeds its own documents (a session): annotate writes files whose refs cite the files under the root`;
    }
    return undefined;
}

/**
 * The annotation file's text with `annotation` appended (formatting, comments and key order kept; a
 * missing or empty file becomes `{ "annotations": [ ... ] }`), and the new annotation's 0-based index.
 * Refused for a file that is not an annotation list, or that embeds its own documents (its refs cite
 * those, not the files the quotes were found in).
 */
export function appendToAnnotationFile(
    text: string | undefined,
    fileName: string,
    annotation: Annotation,
): AppendResult {
    const current = text ?? "";
    const refused = refusedFile(current, fileName);
    if (refused) return { ok: false, message: refused };
    const formatting = detectFormatting(current, { tabSize: 2, insertSpaces: true });
    const sources: NewSource[] = annotation.sources.map((source) => ({ ...source }));
    const edit = appendAnnotation(current, fileName, annotation.claim, sources, formatting);
    if (!edit.ok) return { ok: false, message: edit.message };
    let next = applyOffsetEdits(current, edit.edits);
    if (current === "" && !next.endsWith("\n")) next += "\n";
    return { ok: true, text: next, index: edit.annotationIndex };
}

/**
 * The file's text with `claim` appended to its `unsourced` list (or, with `remove`, entry `remove` of
 * that list removed), and the entry's 0-based place; the same refusals as appendToAnnotationFile.
 */
export function editUnsourced(
    text: string | undefined,
    fileName: string,
    edit: { claim: Ref } | { remove: number },
): AppendResult | { ok: false; message: string; count?: number } {
    const current = text ?? "";
    const refused = refusedFile(current, fileName);
    if (refused) return { ok: false, message: refused };
    const edited =
        "claim" in edit
            ? appendUnsourced(
                  current,
                  fileName,
                  edit.claim,
                  detectFormatting(current, { tabSize: 2, insertSpaces: true }),
              )
            : removeUnsourced(current, fileName, edit.remove);
    if (!edited.ok) return edited;
    return { ok: true, text: applyOffsetEdits(current, edited.edits), index: edited.annotationIndex };
}

const ANNOTATION_FILE_NAME = /\.(sourcecheck|annotations)\.json$/i;

/** An existing file of any name that is already an annotation list (a bare array, or an object with `annotations`). */
function holdsAnnotationList(text: string): boolean {
    const trimmed = text.trimStart();
    if (trimmed.startsWith("[")) return true;
    return trimmed.startsWith("{") && /"annotations"\s*:/.test(text);
}

/** True for the embedded-session shapes (`{ session }` or `{ documents }`). */
function embedsDocuments(text: string): boolean {
    if (text.trim() === "") return false;
    try {
        const value = JSON.parse(text) as unknown;
        return (
            typeof value === "object" &&
            value !== null &&
            !Array.isArray(value) &&
            ("session" in value || "documents" in value)
        );
    } catch {
        // Comments or trailing commas: the layout-keeping parser below decides; a session key is rare there.
        return /"(session|documents)"\s*:/.test(text);
    }
}
