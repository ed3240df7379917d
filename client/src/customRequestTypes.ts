/**
 * The custom requests and notifications of the SourceCheck language server: the typed objects the
 * server registers by (shared/requestTypes.ts) and the shapes they carry (shared/customProtocol.ts).
 */
export type {
    AnnotationChange,
    AnnotationEditResult,
    AnnotationRefSummary,
    AnnotationSummary,
    Boundary,
    BrokenRef,
    ChangedCitation,
    Citation,
    CitationSource,
    CitedSpan,
    CitedSpansResult,
    CoverageResult as Coverage,
    FileSummary,
    LockRefsResult,
    LspPosition,
    LspRange,
    Ref,
    RefForSelectionResult,
    RefProblem,
    RefsCanFollowParams,
    RefUpdate,
    SpanKind,
    Verdict,
} from "../../shared/customProtocol";
export { ACCEPT_CHANGED_TEXT_COMMAND, SPAN_KINDS } from "../../shared/customProtocol";

export * from "../../shared/requestTypes";
