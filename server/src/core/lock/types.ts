/**
 * The lock of an annotation file (docs/lock.md): for every ref that resolved when it was locked,
 * what it meant. Pure data; `lockVersion` names this shape.
 */
import type { Range, Ref } from "../types";

export const LOCK_VERSION = 1;

/** A SHA-256 of a string's UTF-8 bytes, as 64 lowercase hex digits. Injected: the core reads no crypto. */
export type Sha256 = (text: string) => string;

/** Texts up to this many UTF-16 code units are stored whole; longer ones as `head` and `tail`. */
export const TEXT_CAP = 256;
/** How much of each end of a longer text is stored (enough to find it again; the hash proves it). */
export const END_LENGTH = 64;
/** Context stored before and after the text, as a W3C TextQuoteSelector's `prefix` and `suffix`. */
export const CONTEXT_LENGTH = 32;
/**
 * The longest `text`, `head`, `tail`, `prefix` or `suffix` a lock may hold when read (docs/security.md,
 * "Resource bounds"): what `lock` writes is shorter (TEXT_CAP, END_LENGTH, CONTEXT_LENGTH); a longer
 * one was written by hand, and would only cost repair's searches and edit distances.
 */
export const MAX_LOCK_FIELD = 256;

export interface LockEntry {
    /** The ref that cites this text now: what `check` matches first. */
    ref: Ref;
    /** Where the text was when locked (lines 1-based, columns 0-based UTF-16, end exclusive). */
    range: Range;
    /** SHA-256 of the text (UTF-8). */
    sha256: string;
    /** Length of the text in UTF-16 code units. */
    length: number;
    /** The whole text, when `length <= TEXT_CAP`. */
    text?: string;
    /** The first END_LENGTH code units, when the text is longer than TEXT_CAP. */
    head?: string;
    /** The last END_LENGTH code units, when the text is longer than TEXT_CAP. */
    tail?: string;
    /** Up to CONTEXT_LENGTH code units before the text (fewer at the document's start). */
    prefix: string;
    /** Up to CONTEXT_LENGTH code units after the text (fewer at the document's end). */
    suffix: string;
    /** SHA-256 of the whole document (LF-normalised) when this entry was locked. */
    documentSha256: string;
}

/**
 * What a lock was taken over (basis.ts, docs/lock.md "Basis"): while all three are unchanged, every
 * ref resolves to its locked text.
 */
export interface LockBasis {
    /** SHA-256 of the annotation file's text (UTF-8, as read: BOM dropped). */
    annotationFileSha256: string;
    /** SHA-256 of the lock's bytes from its `"entries"` line to its end, as written. */
    entriesSha256: string;
    /** Every path the refs looked up -> SHA-256 of its text (LF-normalised), or null when unreadable. */
    documents: Record<string, string | null>;
}

export interface LockFile {
    lockVersion: typeof LOCK_VERSION;
    /** File name (no folder) of the annotation file this lock belongs to: a copied lock is foreign. */
    annotationFile: string;
    /** What the lock was taken over (basis.ts); absent when some ref's text changed and was not accepted. */
    basis?: LockBasis;
    /** Key -> entry, in the order of `sortEntries` (docs/lock.md, "Keying"). */
    entries: Record<string, LockEntry>;
}

export type LockErrorCode = "lock-invalid-json" | "lock-schema" | "lock-foreign" | "lock-unreadable";

export interface LockError {
    code: LockErrorCode;
    message: string;
    /** JSON pointer into the lock file, for schema errors. */
    pointer?: string;
}
