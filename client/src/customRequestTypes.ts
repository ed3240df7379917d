/**
 * The custom requests and notifications of the SourceCheck language server, typed from the one
 * contract module the server implements (shared/customProtocol.ts: types and names only).
 */
import { NotificationType, RequestType } from "vscode-languageclient/node";
import {
    CITED_SPANS,
    CITED_SPANS_CHANGED,
    type CitedSpansChangedParams,
    type CitedSpansParams,
    type CitedSpansResult,
    COVERAGE,
    type CoverageResult,
    FILE_SUMMARY,
    type FileSummary,
    LINE_INDEX,
    type LineIndexResult,
    REF_FOR_SELECTION,
    type RefForSelectionParams,
    type RefForSelectionResult,
} from "../../shared/customProtocol";

export type {
    Boundary,
    Citation,
    CitedSpan,
    CitedSpansResult,
    CoverageResult as Coverage,
    FileSummary,
    LspPosition,
    LspRange,
    Ref,
    RefForSelectionResult,
    SpanKind,
} from "../../shared/customProtocol";
export { SPAN_KINDS } from "../../shared/customProtocol";

export const citedSpansRequest = new RequestType<CitedSpansParams, CitedSpansResult, void>(CITED_SPANS);
export const citedSpansChangedNotification = new NotificationType<CitedSpansChangedParams>(CITED_SPANS_CHANGED);
export const refForSelectionRequest = new RequestType<RefForSelectionParams, RefForSelectionResult, void>(
    REF_FOR_SELECTION,
);
export const fileSummaryRequest = new RequestType<{ uri: string }, FileSummary, void>(FILE_SUMMARY);
export const coverageRequest = new RequestType<{ uri: string }, CoverageResult, void>(COVERAGE);
export const lineIndexRequest = new RequestType<{ uri: string }, LineIndexResult, void>(LINE_INDEX);
