/**
 * The repair engine's data model (docs/repair.md): a broken ref in, candidate refs out, each of which
 * makes the whole ref resolve, with why it was chosen and whether it is certain.
 */
import type { BoundaryStyle } from "../boundaries";
import type { DocumentLookup } from "../session";
import type { Range, Ref } from "../types";

export type RepairReason = "line-shift" | "misquote" | "ambiguous" | "moved-text" | "path";

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
}

/**
 * Where the engine reads documents: any DocumentLookup (a session, the disk, open buffers), plus,
 * optionally, every path it could offer instead of a missing one (typos and moved files).
 */
export interface RepairDocuments extends DocumentLookup {
    candidatePaths?(): Iterable<string>;
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
}
