/** The pure SourceCheck core: no file system, no LSP, no vscode. */

export { type RefAttempt, refForSpan } from "./author";
export {
    type CheckedAnnotation,
    type CheckResult,
    checkInput,
    checkParts,
    resolutionProblems,
    type Problem,
    type Report,
    type ReportEntry,
    type SourceEntry,
    type SpanEntry,
    tokenPointer,
    validateAnnotations,
} from "./check";
export { type InputParts, type InputShape, readInput } from "./input";
export { LineIndex, normalizeLineEndings } from "./lines";
export {
    occurrencesOf,
    occursOnce,
    shortestUniqueEndingAt,
    shortestUniqueStartingAt,
    splitsSurrogatePair,
} from "./occurrences";
export {
    LocatedText,
    lineColumnOf,
    type ParsedText,
    parseJsonText,
    pointerSegments,
    type SyntaxProblem,
} from "./parse";
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
export { decodedOffsetInJsonString, rawOffsetInJsonString } from "./jsonString";
export { numberedLines } from "./numberedLines";
export { approximateMatches, closestStrings, levenshtein, type ApproximateMatch } from "./editDistance";
export {
    ambiguityFixes,
    moveFixes,
    nearMatchFixes,
    relocationFixes,
    shortenedRef,
    type BoundaryFix,
} from "./fixes";
