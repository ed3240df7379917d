/** The SourceCheck data model (spec "Core model") and the report shapes of docs/contract.md section 5. */

export interface SourceDocument {
    path: string;
    content: string;
}

import type { Polarity, Ref } from "../../../shared/refModel";

export type { Boundary, Polarity, Ref } from "../../../shared/refModel";

export interface SourceRef extends Ref {
    polarity: Polarity;
    confidence: number;
}

export interface Annotation {
    claim: Ref;
    sources: SourceRef[];
}

export type SchemaErrorCode = "invalid-json" | "schema" | "duplicate-path" | "cr-in-content";

export type ResolutionErrorCode =
    | "unknown-path"
    | "line-out-of-range"
    | "boundary-not-found"
    | "boundary-ambiguous"
    | "inverted-lines"
    | "inverted-boundaries"
    | "path-outside-root"
    | "unreadable-document";

export type ErrorCode = SchemaErrorCode | ResolutionErrorCode;

export const SCHEMA_ERROR_CODES: readonly SchemaErrorCode[] = [
    "invalid-json",
    "schema",
    "duplicate-path",
    "cr-in-content",
];
export const RESOLUTION_ERROR_CODES: readonly ResolutionErrorCode[] = [
    "unknown-path",
    "line-out-of-range",
    "boundary-not-found",
    "boundary-ambiguous",
    "inverted-lines",
    "inverted-boundaries",
    "path-outside-root",
    "unreadable-document",
];

export function isSchemaErrorCode(code: string): code is SchemaErrorCode {
    return (SCHEMA_ERROR_CODES as readonly string[]).includes(code);
}

/** 1-based line, 0-based UTF-16 column. */
export interface Position {
    line: number;
    column: number;
}

/** End exclusive. */
export interface Range {
    start: Position;
    end: Position;
}

export interface SchemaError {
    code: SchemaErrorCode;
    /** JSON pointer (RFC 6901) into the checked input, e.g. `/annotations/2/sources/0/confidence`. */
    pointer: string;
    message: string;
}

export type BoundaryName = "start" | "end";

export interface RefError {
    code: ErrorCode;
    message: string;
    /** Which boundary the error is about, when it is about one. */
    boundary?: BoundaryName;
    /** For boundary-ambiguous: the 0-based UTF-16 column of each occurrence on the line (the first 100). */
    occurrences?: number[];
    /** For boundary-ambiguous with more than 100 occurrences: how many there are. */
    occurrenceCount?: number;
    /** For schema errors inside a ref: where in the input. */
    pointer?: string;
}

/**
 * Codes of findings on refs that resolve (docs/contract.md, "Warnings"): `text-changed` and
 * `unlocked` come from a lock (docs/lock.md); others may be added by their own checks.
 */
export type WarningCode = "text-changed" | "unlocked" | "self-citation" | "mid-word-boundary";

/**
 * Something true of a ref that resolves but a reader should know. Generic on purpose: each producer
 * adds its own data fields beside `code` and `message`. A warning unless `severity` says otherwise;
 * `error` (e.g. `check --locked`) makes the ref, its annotation and the exit status invalid.
 */
export interface RefWarning {
    code: WarningCode | (string & {});
    message: string;
    severity?: "error" | "warning" | "information";
    [data: string]: unknown;
}
