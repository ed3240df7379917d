/** The pure SourceCheck core: no file system, no LSP, no vscode. */
export * from "./types";
export { LineIndex, normalizeLineEndings } from "./lines";
export { occurrencesOf, occursOnce, shortestUniqueStartingAt, shortestUniqueEndingAt, splitsSurrogatePair } from "./occurrences";
export {
    Session,
    SessionDocument,
    SourceCheckError,
    buildSession,
    buildNormalizedSession,
    isDocumentFailure,
    type DocumentFailure,
    type DocumentLookup,
} from "./session";
export { resolveRef, resolveInDocument, type RefResolution, type ResolvedSpan, type FailedSpan } from "./resolve";
export { SchemaChecker } from "./schema";
export { readInput, type InputParts, type InputShape } from "./input";
export {
    checkInput,
    checkParts,
    tokenPointer,
    validateAnnotations,
    type CheckResult,
    type CheckedAnnotation,
    type Problem,
    type Report,
    type ReportEntry,
    type SpanEntry,
    type SourceEntry,
} from "./check";
export { parseJsonText, pointerSegments, LocatedText, lineColumnOf, type ParsedText, type SyntaxProblem } from "./parse";
export { refForSpan, type RefAttempt } from "./author";
