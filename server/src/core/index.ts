/** The pure SourceCheck core: no file system, no LSP, no vscode. */

export { type RefAttempt, refForSpan } from "./author";
export {
    type BoundaryChoice,
    type BoundaryOptions,
    type BoundaryStyle,
    endBoundary,
    startBoundary,
} from "./boundaries";
export {
    type CheckedAnnotation,
    type CheckOptions,
    type CheckResult,
    checkInput,
    checkParts,
    type Problem,
    type Report,
    type ReportEntry,
    resolutionProblems,
    type SourceEntry,
    type SpanEntry,
    tokenPointer,
    validateAnnotations,
} from "./check";
export {
    type CiteCandidate,
    type CiteError,
    type CiteErrorCode,
    type CiteOptions,
    type CiteResult,
    citeQuote,
    MAX_REPORTED_LINES,
    normalizeQuote,
} from "./cite";
export { type ApproximateMatch, approximateMatches, closestStrings, levenshtein } from "./editDistance";
export {
    ambiguityFixes,
    type BoundaryFix,
    moveFixes,
    nearMatchFixes,
    relocationFixes,
    shortenedRef,
} from "./fixes";
export { type InputParts, type InputShape, readInput } from "./input";
export { decodedOffsetInJsonString, rawOffsetInJsonString } from "./jsonString";
export { LineIndex, normalizeLineEndings } from "./lines";
export { locatePointers, type Span } from "./locate";
export { numberedLines } from "./numberedLines";
export {
    occurrencesOf,
    occursOnce,
    shortestUniqueEndingAt,
    shortestUniqueStartingAt,
    splitsSurrogatePair,
} from "./occurrences";
export {
    LocatedText,
    type ParsedText,
    parseJsonText,
    pointerSegments,
    type SyntaxProblem,
} from "./parse";
export type { RefWarningSource } from "./refWarnings";
export {
    type AnnotationRepairs,
    Corroboration,
    computeLineMap,
    type DocumentMoves,
    type EvidenceKind,
    explainRepair,
    findLockedText,
    followRef,
    isLocked,
    type LineMap,
    LOCK_MARGIN,
    type LockedSpan,
    lineMap,
    onlyReading,
    READING_UNIQUE,
    READING_WINDOW,
    type RemainingEntry,
    type RepairCandidate,
    type RepairDocuments,
    type RepairEntry,
    type RepairExplanation,
    type RepairOptions,
    type RepairReason,
    type RepairRole,
    type RepairSite,
    repairChecked,
    repairCheckedSteps,
    repairRef,
    repairSite,
} from "./repair";
export { type FailedSpan, type RefResolution, type ResolvedSpan, resolveInDocument, resolveRef } from "./resolve";
export { SchemaChecker } from "./schema";
export {
    buildNormalizedSession,
    buildSession,
    type DocumentFailure,
    type DocumentLookup,
    isDocumentFailure,
    Session,
    SessionDocument,
    SourceCheckError,
} from "./session";
export * from "./types";
export {
    ENTRY_VERDICTS,
    type EntryVerdict,
    entryVerdict,
    VERDICTS,
    type Verdict,
    verdictOf,
    verdictOfPolarities,
} from "./verdict";
