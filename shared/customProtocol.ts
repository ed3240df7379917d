/**
 * The custom protocol between the language server and the VS Code client (docs/custom-protocol.md, README "Language server
 * protocol extensions"): method names and message shapes, types only, so both sides compile against
 * one definition and cannot drift. Ranges are LSP ranges: 0-based lines, UTF-16 columns, end exclusive.
 */
import type { Polarity, Ref } from "./refModel";

export type { Boundary, Ref } from "./refModel";

export const CITED_SPANS = "sourcecheck/citedSpans";
export const CITED_SPANS_CHANGED = "sourcecheck/citedSpansChanged";
export const REF_FOR_SELECTION = "sourcecheck/refForSelection";
export const FILE_SUMMARY = "sourcecheck/fileSummary";
export const COVERAGE = "sourcecheck/coverage";
export const LINE_INDEX = "sourcecheck/lineIndex";

export interface LspPosition {
    line: number;
    character: number;
}

export interface LspRange {
    start: LspPosition;
    end: LspPosition;
}

export type SpanKind = "claim" | "supports" | "refutes";
export const SPAN_KINDS: readonly SpanKind[] = ["claim", "supports", "refutes"];

export interface Citation {
    /** The annotation file holding the citing annotation. */
    annotationUri: string;
    annotationIndex: number;
    /** "claim", or the index of the source within the annotation. */
    role: "claim" | number;
    polarity?: Polarity;
    confidence?: number;
    /** The resolved claim of that annotation, when it resolves. */
    claimText?: string;
    /** Where the citing ref sits in the annotation file. */
    refRange: LspRange;
}

export interface CitedSpan {
    range: LspRange;
    kind: SpanKind;
    citations: Citation[];
}

export interface CitedSpansParams {
    uri: string;
}

export interface CitedSpansResult {
    uri: string;
    spans: CitedSpan[];
}

export interface CitedSpansChangedParams {
    uris: string[];
}

export interface RefForSelectionParams {
    uri: string;
    range: LspRange;
}

export type RefForSelectionResult = { ok: true; ref: Ref } | { ok: false; message: string };

export interface FileSummary {
    validCount: number;
    invalidCount: number;
    schemaErrorCount: number;
}

export interface CoverageResult {
    coveredChars: number;
    totalChars: number;
    ratio: number;
}

export interface LineIndexResult {
    text: string;
}
