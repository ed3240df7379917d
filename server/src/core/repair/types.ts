/**
 * The repair engine's data model (docs/repair.md): a broken ref in, candidate refs out, each of which
 * makes the whole ref resolve, with why it was chosen and whether it is certain.
 */
import type { BoundaryStyle } from "../boundaries";
import type { DocumentLookup } from "../session";
import type { Range, Ref } from "../types";

export type RepairReason = "line-shift" | "misquote" | "ambiguous" | "moved-text" | "path";

/**
 * What a candidate rests on (docs/repair.md, "Evidence"), strongest first: the locked text found
 * again (`lock`), the document's history (`history`: a git revision or an edit), the only reading
 * of the ref in the document as it is (`reading`), the refs around it (`neighbours`), or the
 * search's margin over the other candidates (`search`).
 */
export type EvidenceKind = "lock" | "history" | "reading" | "neighbours" | "search";

/**
 * What a lock recorded of the text a ref meant (docs/lock.md): the text itself, or its ends and
 * hash when longer, its context, and where it was. Structurally a lock entry.
 */
export interface LockedSpan {
    text?: string;
    head?: string;
    tail?: string;
    length: number;
    sha256: string;
    /** SHA-256 of the whole document when it was locked: finds it again under another name. */
    documentSha256?: string;
    prefix: string;
    suffix: string;
    range: Range;
}

export interface RepairCandidate<R extends Ref = Ref> {
    /** The whole ref after the repair (extra fields such as polarity kept). It resolves: this was checked. */
    ref: R;
    reason: RepairReason;
    /** The single best candidate by a clear margin, safe to apply without asking. At most one per ref. */
    certain: boolean;
    /** What the repaired ref resolves to. */
    text: string;
    range: Range;
    /** Lower is more plausible; only comparable between candidates of one ref. */
    cost: number;
    /** What it rests on, and a sentence for people naming it ("the locked text was found on line 9"). */
    evidenceKind?: EvidenceKind;
    evidence?: string;
}

/**
 * Where the engine reads documents: any DocumentLookup (a session, the disk, open buffers), plus,
 * optionally, every path it could offer instead of a missing one (typos and moved files).
 */
export interface RepairDocuments extends DocumentLookup {
    candidatePaths?(): Iterable<string>;
    /** Where a document that is gone may have moved (injected: the core reads no files and runs no git). */
    moves?: DocumentMoves;
}

/**
 * Evidence of a renamed or moved document (docs/repair.md, "Renamed documents"), given by the front
 * end: the files under the document root by content hash, and git's record of renames.
 */
export interface DocumentMoves {
    /** Paths under the document root whose text (LF line endings) has this SHA-256 (hex). */
    pathsWithSha256(sha256: string): readonly string[];
    /** Where git records `path` renamed to since the lock's commit (or `--since`); [] when none or without git. */
    renamesOf(path: string): readonly string[];
}

export interface RepairOptions {
    /** How new boundary strings are chosen (docs/boundaries.md); default `words`. */
    style?: BoundaryStyle;
    /**
     * The documents as they were when the refs were written (a git revision, the text before an
     * edit). When a ref resolved there, its span is followed to where it is now.
     */
    previous?: DocumentLookup;
    /** The most candidates returned for one ref (default 5). */
    maxCandidates?: number;
    /**
     * How `previous` is named to people ("commit 1a2b3c4", "the edit"); a function when `previous` is
     * found on first use (the file's last commit: git runs only for a ref that needs it).
     */
    previousLabel?: string | (() => string | undefined);
    /** What the lock recorded for this ref: the strongest evidence of where its text went. */
    locked?: LockedSpan;
    /** Every locked text of the ref's document (the lock's entries for its path): finds a renamed document by its texts. */
    lockedOfDocument?: readonly LockedSpan[];
    /** SHA-256 of a string (hex), to compare a long locked text by its hash. Injected: the core reads no crypto. */
    sha256?: (text: string) => string;
    /**
     * The documents are presumed the very ones the refs were written against (no lock entry for the
     * ref, and no history says its document changed): a ref's only reading near its lines is then
     * certain (docs/repair.md, "Evidence"), as a model's off-by-one line or misquote needs. Off by
     * default: a document that may have changed since could hold a reading that is not the text meant.
     */
    unchanged?: boolean;
}
