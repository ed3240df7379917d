/**
 * The custom requests and notifications of the SourceCheck language server, typed from the one
 * contract module the server implements (shared/customProtocol.ts: types and names only).
 */
import { NotificationType, RequestType } from "vscode-languageclient/node";
import {
    ANNOTATION_FILES,
    type AnnotationFilesResult,
    type AnnotationRefSummary,
    type AnnotationSummary,
    CITED_DOCUMENTS,
    CITED_SPANS,
    CITED_SPANS_CHANGED,
    type CitedDocumentsResult,
    type CitedSpansChangedParams,
    type CitedSpansParams,
    type CitedSpansResult,
    COVERAGE,
    type CoverageResult,
    DISMISS_FOLLOW_EDITS,
    FILE_ANNOTATIONS,
    FILE_SUMMARY,
    type FileAnnotationsResult,
    type FileSummary,
    FOLLOW_EDITS,
    type FollowEditsParams,
    LINE_INDEX,
    type LineIndexResult,
    PATHS_FOR_RENAME,
    type PathsForRenameParams,
    REF_FOR_SELECTION,
    REFS_CAN_FOLLOW,
    type RefForSelectionParams,
    type RefForSelectionResult,
    type RefsCanFollowParams,
    type RefUpdate,
} from "../../shared/customProtocol";

export type {
    Boundary,
    BrokenRef,
    Citation,
    CitedSpan,
    CitedSpansResult,
    CoverageResult as Coverage,
    FileSummary,
    LspPosition,
    LspRange,
    Ref,
    RefForSelectionResult,
    RefsCanFollowParams,
    RefUpdate,
    SpanKind,
    Verdict,
} from "../../shared/customProtocol";
export { SPAN_KINDS } from "../../shared/customProtocol";
export type { AnnotationRefSummary, AnnotationSummary };

export const citedSpansRequest = new RequestType<CitedSpansParams, CitedSpansResult, void>(CITED_SPANS);
export const citedSpansChangedNotification = new NotificationType<CitedSpansChangedParams>(CITED_SPANS_CHANGED);
export const refForSelectionRequest = new RequestType<RefForSelectionParams, RefForSelectionResult, void>(
    REF_FOR_SELECTION,
);
export const fileSummaryRequest = new RequestType<{ uri: string }, FileSummary, void>(FILE_SUMMARY);
export const coverageRequest = new RequestType<{ uri: string }, CoverageResult, void>(COVERAGE);
export const lineIndexRequest = new RequestType<{ uri: string }, LineIndexResult, void>(LINE_INDEX);
export const refsCanFollowNotification = new NotificationType<RefsCanFollowParams>(REFS_CAN_FOLLOW);
export const followEditsRequest = new RequestType<FollowEditsParams, RefUpdate, void>(FOLLOW_EDITS);
export const dismissFollowEditsNotification = new NotificationType<FollowEditsParams>(DISMISS_FOLLOW_EDITS);
export const pathsForRenameRequest = new RequestType<PathsForRenameParams, RefUpdate, void>(PATHS_FOR_RENAME);
export const citedDocumentsRequest = new RequestType<void, CitedDocumentsResult, void>(CITED_DOCUMENTS);
export const annotationFilesRequest = new RequestType<void, AnnotationFilesResult, void>(ANNOTATION_FILES);
export const fileAnnotationsRequest = new RequestType<{ uri: string }, FileAnnotationsResult, void>(FILE_ANNOTATIONS);
