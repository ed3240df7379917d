/**
 * The typed request and notification objects of the custom protocol (docs/custom-protocol.md): the
 * client sends and the server registers by these same objects, so a method name, its parameters
 * and its result are written once. Names and shapes live in the *Protocol.ts modules beside this
 * one; this module is kept apart so code that needs only the shapes (the CLI) does not load
 * vscode-languageserver-protocol.
 */
import { NotificationType, RequestType } from "vscode-languageserver-protocol";
import { AGENT_TOOL, type AgentToolParams, type AgentToolResult } from "./agentToolProtocol";
import {
    ANNOTATION_EDIT,
    ANNOTATION_FILES,
    type AnnotationEditParams,
    type AnnotationEditResult,
    type AnnotationFilesResult,
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
    LOCK_REFS,
    type LockRefsParams,
    type LockRefsResult,
    PATHS_FOR_RENAME,
    type PathsForRenameParams,
    REF_FOR_SELECTION,
    REFS_CAN_FOLLOW,
    REPAIR_WORKSPACE,
    type RefForSelectionParams,
    type RefForSelectionResult,
    type RefsCanFollowParams,
    type RefUpdate,
    type RepairWorkspaceResult,
} from "./customProtocol";
import { FIND_EVIDENCE, type FindEvidenceParams, type FindEvidenceResult } from "./evidenceProtocol";
import {
    CONVERT_QUOTES,
    type ConvertQuotesParams,
    type ConvertQuotesResult,
    REFETCH_QUOTES,
    type RefetchQuotesParams,
    type RefetchQuotesResult,
} from "./quoteProtocol";

/** Parameters naming one document. */
export interface UriParams {
    uri: string;
}

export const citedSpansRequest = new RequestType<CitedSpansParams, CitedSpansResult, void>(CITED_SPANS);
export const citedSpansChangedNotification = new NotificationType<CitedSpansChangedParams>(CITED_SPANS_CHANGED);
export const refForSelectionRequest = new RequestType<RefForSelectionParams, RefForSelectionResult, void>(
    REF_FOR_SELECTION,
);
export const fileSummaryRequest = new RequestType<UriParams, FileSummary, void>(FILE_SUMMARY);
export const coverageRequest = new RequestType<UriParams, CoverageResult, void>(COVERAGE);
export const lineIndexRequest = new RequestType<UriParams, LineIndexResult, void>(LINE_INDEX);
export const refsCanFollowNotification = new NotificationType<RefsCanFollowParams>(REFS_CAN_FOLLOW);
export const followEditsRequest = new RequestType<FollowEditsParams, RefUpdate, void>(FOLLOW_EDITS);
export const dismissFollowEditsNotification = new NotificationType<FollowEditsParams>(DISMISS_FOLLOW_EDITS);
export const pathsForRenameRequest = new RequestType<PathsForRenameParams, RefUpdate, void>(PATHS_FOR_RENAME);
export const citedDocumentsRequest = new RequestType<void, CitedDocumentsResult, void>(CITED_DOCUMENTS);
export const annotationFilesRequest = new RequestType<void, AnnotationFilesResult, void>(ANNOTATION_FILES);
export const fileAnnotationsRequest = new RequestType<UriParams, FileAnnotationsResult, void>(FILE_ANNOTATIONS);
export const findEvidenceRequest = new RequestType<FindEvidenceParams, FindEvidenceResult, void>(FIND_EVIDENCE);
export const agentToolRequest = new RequestType<AgentToolParams, AgentToolResult, void>(AGENT_TOOL);
export const refetchQuotesRequest = new RequestType<RefetchQuotesParams, RefetchQuotesResult, void>(REFETCH_QUOTES);
export const convertQuotesRequest = new RequestType<ConvertQuotesParams, ConvertQuotesResult, void>(CONVERT_QUOTES);
export const lockRefsRequest = new RequestType<LockRefsParams, LockRefsResult, void>(LOCK_REFS);
export const annotationEditRequest = new RequestType<AnnotationEditParams, AnnotationEditResult, void>(ANNOTATION_EDIT);
export const repairWorkspaceRequest = new RequestType<void, RepairWorkspaceResult, void>(REPAIR_WORKSPACE);
