/**
 * The words that changed between a locked text and the text a ref cites now, for people (the
 * editor's hover on a `text-changed` ref). jsdiff's word diff (the `diff` package, already used by
 * cite and repair); pure. Texts longer than MAX_DIFFED are not diffed: the diff would be unreadable
 * and its cost quadratic in the worst case.
 */
import { diffWordsWithSpace } from "diff";

export interface DiffPiece {
    op: "same" | "removed" | "added";
    text: string;
}

export const MAX_DIFFED = 4000;

/** The pieces in reading order (a removal before the addition that replaces it); undefined when too long. */
export function wordDiff(before: string, after: string): DiffPiece[] | undefined {
    if (before.length > MAX_DIFFED || after.length > MAX_DIFFED) return undefined;
    const pieces: DiffPiece[] = [];
    for (const change of diffWordsWithSpace(before, after)) {
        const op = change.added ? "added" : change.removed ? "removed" : "same";
        const last = pieces.at(-1);
        if (last && last.op === op) last.text += change.value;
        else pieces.push({ op, text: change.value });
    }
    return pieces;
}
