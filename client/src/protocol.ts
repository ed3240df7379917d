/**
 * The custom requests and notifications the SourceCheck language server implements for this client
 * (names fixed by the contract in the README). Positions are LSP positions: 0-based lines,
 * UTF-16 columns.
 */
import { NotificationType, RequestType } from "vscode-languageclient/node";

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
    polarity?: "supports" | "refutes";
    confidence?: number;
    claimText?: string;
    /** Where the citing ref sits in the annotation file. */
    refRange: LspRange;
}

export interface CitedSpan {
    range: LspRange;
    kind: SpanKind;
    citations: Citation[];
}

export interface CitedSpansResult {
    uri: string;
    spans: CitedSpan[];
}

export interface Boundary {
    line: number;
    str: string;
}

export interface Ref {
    path: string;
    start: Boundary;
    end: Boundary;
}

export type RefForSelectionResult = { ok: true; ref: Ref } | { ok: false; message: string };

export interface FileSummary {
    validCount: number;
    invalidCount: number;
    schemaErrorCount: number;
}

export interface Coverage {
    coveredChars: number;
    totalChars: number;
    ratio: number;
}

export const citedSpansRequest = new RequestType<{ uri: string }, CitedSpansResult, void>("sourcecheck/citedSpans");
export const citedSpansChangedNotification = new NotificationType<{ uris: string[] }>("sourcecheck/citedSpansChanged");
export const refForSelectionRequest = new RequestType<{ uri: string; range: LspRange }, RefForSelectionResult, void>(
    "sourcecheck/refForSelection",
);
export const fileSummaryRequest = new RequestType<{ uri: string }, FileSummary, void>("sourcecheck/fileSummary");
export const coverageRequest = new RequestType<{ uri: string }, Coverage, void>("sourcecheck/coverage");
export const lineIndexRequest = new RequestType<{ uri: string }, { text: string }, void>("sourcecheck/lineIndex");
