/**
 * When a repair candidate is certain (docs/repair.md, "How candidates are found and judged"): best
 * by a clear margin, and made of evidence that rarely occurs by chance. A wrong certain repair
 * silently re-points a citation, so every doubt leaves the candidates uncertain.
 */

import { fold } from "../nearMatch";
import type { SessionDocument } from "../session";
import type { Ref } from "../types";
import { isUnspaced, wordCharCount, wordRuns } from "../words";
import { marginAbove } from "./cost";
import { type Placement, splitsWord } from "./placements";
import type { LockedSpan, RepairCandidate } from "./types";

export interface Scored<R extends Ref> extends RepairCandidate<R> {
    /** A candidate found in a window too narrow to rule out competitors: never certain. */
    doubtful?: boolean;
    /** Judged already by its own evidence (a lock, history, the only reading): certify keeps `certain`. */
    judged?: boolean;
}

/** Whether `text` is the locked text (its hash decides for a long one). */
export function isLocked(locked: LockedSpan, text: string, sha256?: (text: string) => string): boolean {
    if (locked.text !== undefined) return text === locked.text;
    if (text.length !== locked.length) return false;
    if (locked.head !== undefined && !text.startsWith(locked.head)) return false;
    if (locked.tail !== undefined && !text.endsWith(locked.tail)) return false;
    return sha256 !== undefined && sha256(text) === locked.sha256;
}

/**
 * Mark the first candidate certain when it is best by a clear margin: the next costs at least twice
 * as much and at least 2 more. Candidates must come sorted by cost. Candidates judged by their own
 * evidence keep their verdict.
 */
export function certify<R extends Ref>(candidates: Scored<R>[]): RepairCandidate<R>[] {
    if (candidates[0]?.judged) return candidates.map(({ doubtful: _, judged: __, ...candidate }) => candidate);
    for (const candidate of candidates) candidate.certain = false;
    const [best, next] = candidates;
    if (best && !best.doubtful) {
        // The same text, or the same two strings in the same shape, at another place (a repeated
        // quote, near-duplicate lines): only distance would decide, and that is not enough.
        const shape = (c: Scored<R>) =>
            `${c.ref.start.str}\u0000${c.ref.end.str}\u0000${c.ref.end.line - c.ref.start.line}`;
        const repeated = candidates.some((c) => c !== best && (c.text === best.text || shape(c) === shape(best)));
        const clear = !repeated && (next === undefined || next.cost >= marginAbove(best.cost));
        if (clear) {
            best.certain = true;
            best.evidence ??= searchEvidence(best);
            best.evidenceKind ??= "search";
        }
    }
    return candidates.map(({ doubtful: _, judged: __, ...candidate }) => candidate);
}

/** What a certain search result rests on, for people. */
function searchEvidence(candidate: RepairCandidate): string {
    const where =
        candidate.range.start.line === candidate.range.end.line
            ? `line ${candidate.range.start.line}`
            : `lines ${candidate.range.start.line}-${candidate.range.end.line}`;
    if (candidate.reason === "ambiguous") return `the other boundary decides which occurrence is meant, on ${where}`;
    if (candidate.reason === "misquote")
        return `the one near match of the misquoted boundary, on ${where}, by a clear margin`;
    return `both boundaries found on ${where}, and no other place comes close`;
}

/** The window a pair of placements was found in, for judging the pair. */
export interface PairWindow {
    starts: Placement[];
    ends: Placement[];
    writtenStart: number;
    writtenEnd: number;
    from: number;
    to: number;
}

/** Whether a candidate made of this pair may never be certain, whatever its margin over the next. */
export function pairInDoubt(
    ref: Ref,
    document: SessionDocument,
    pair: { start: Placement; end: Placement },
    window: PairWindow,
): boolean {
    const { starts, ends, writtenStart, writtenEnd, from, to } = window;
    // A string as short as "2." or "a" found on another line proves nothing; nor does a near
    // match whose edge is a guess. A boundary found apart from the other (the span's shape
    // changed) is judged by its own string alone: only a distinctive one can be certain, since
    // its line may have been deleted and the string recur nearby.
    const startMoved = pair.start.line - writtenStart;
    const endMoved = pair.end.line - writtenEnd;
    const shapeChanged = startMoved !== endMoved;
    // A near match competes with the written string found exactly on another line: a misquote
    // is never certain while "it moved" is another explanation.
    const movedAsWritten = (p: Placement, all: Placement[]) =>
        p.quoteCost > 0 && all.some((q) => q.quoteCost === 0 && q.count === 1 && q.line !== p.line);
    if (movedAsWritten(pair.start, starts) || movedAsWritten(pair.end, ends)) return true;
    // A whole span moved is judged by its two strings together ("report" … "report" is one word).
    // The strings as written are the evidence (an extended string adds only what it found).
    const movedEvidence = new Set([ref.start.str, ref.end.str]);
    return (
        ((startMoved !== 0 || endMoved !== 0) && !isDistinctive([...movedEvidence].join(" "))) ||
        !nearIsEvidence(document, pair.start, ref.start.str, asWritten(pair.end, writtenEnd)) ||
        !nearIsEvidence(document, pair.end, ref.end.str, asWritten(pair.start, writtenStart)) ||
        (shapeChanged && startMoved !== 0 && !isDistinctive(ref.start.str)) ||
        (shapeChanged && endMoved !== 0 && !isDistinctive(ref.end.str)) ||
        !pair.start.sure ||
        !pair.end.sure ||
        // A string read at one of its occurrences: only the other boundary, found once as written
        // on the same line, decides which (the line may be another line by now).
        (pair.start.count > 1 && !decidedOnLine(pair.end, writtenEnd, pair.start)) ||
        (pair.end.count > 1 && !decidedOnLine(pair.start, writtenStart, pair.end)) ||
        // A string found inside a longer word ("part" in "party's") away from its line is another word.
        (pair.start.line !== writtenStart && splitsWord(document, pair.start)) ||
        (pair.end.line !== writtenEnd && splitsWord(document, pair.end)) ||
        // A moved string seen on other lines of the window too is common here: its line may be
        // gone and the string found again by chance.
        ((startMoved !== 0 || endMoved !== 0) &&
            (seenElsewhere(starts, pair.start) || seenElsewhere(ends, pair.end))) ||
        // A near match is a guess at a line that may have been replaced: not when what it
        // found is common here.
        nearFoundElsewhere(document, pair.start, from, to) ||
        nearFoundElsewhere(document, pair.end, from, to) ||
        (pair.start.line !== writtenStart && isWeak(ref.start.str)) ||
        (pair.end.line !== writtenEnd && isWeak(ref.end.str))
    );
}

/**
 * A near match is evidence only for a string that would rarely be nearly matched by chance (its
 * line may have been replaced): when only case, spacing, quotes or dashes differ, two words and 10
 * characters (or, beside the other boundary found as written, a word of 6); when letters differ, a
 * distinctive string of its own (and what was found, when it has a word fewer).
 */
function nearIsEvidence(
    document: SessionDocument,
    placement: Placement,
    written: string,
    otherAsWritten: boolean,
): boolean {
    if (placement.quoteCost === 0) return true;
    if (placement.quoteCost <= 0.5) {
        if (isUnspaced(written)) return [...written].length >= 4;
        const words = wordRuns(written).length;
        // With the other boundary exactly where it was written, a case or punctuation variant of a
        // word or two is enough; alone, it takes two words and 10 characters.
        if (otherAsWritten) return words >= 2 || written.trim().length >= 6;
        return words >= 2 && written.trim().length >= 10;
    }
    // Letters differ. With a word fewer than written, what was found must be distinctive by itself
    // ("the end" for "the resolved end" is two common words, whatever was written).
    const found = document.lines.line(placement.line).slice(placement.column, placement.column + placement.length);
    const words = (text: string) => wordRuns(text).length;
    return isDistinctive(written) && (words(found) >= words(written) || isDistinctive(found));
}

/** Whether the placement's string occurs exactly on another line of the window too. */
function seenElsewhere(placements: Placement[], placement: Placement): boolean {
    return placement.quoteCost === 0 && placements.some((p) => p.quoteCost === 0 && p.line !== placement.line);
}

/** Whether a near match's text, folded, also occurs on another line of the window. */
function nearFoundElsewhere(document: SessionDocument, placement: Placement, from: number, to: number): boolean {
    if (placement.quoteCost === 0) return false;
    const found = fold(
        document.lines.line(placement.line).slice(placement.column, placement.column + placement.length),
    ).text;
    if (found.trim().length === 0) return true;
    for (let line = from; line <= to; line++) {
        if (line !== placement.line && fold(document.lines.line(line)).text.includes(found)) return true;
    }
    return false;
}

function decidedOnLine(other: Placement, otherWritten: number, ambiguous: Placement): boolean {
    return asWritten(other, otherWritten) && other.line === ambiguous.line;
}

/** The written string, found once on its written line. */
function asWritten(placement: Placement, written: number): boolean {
    return placement.quoteCost === 0 && placement.count === 1 && placement.line === written;
}

/**
 * Three distinct words (of three letters or more), 20 characters of them, or four digits: rarely
 * found again by chance near a deleted line.
 */
export function isDistinctive(str: string): boolean {
    if (isUnspaced(str)) return new Set(str).size >= 6;
    // Words of three letters or more: "a list of" is one word of evidence, not three.
    const words = new Set(wordRuns(str.toLowerCase()).filter((w) => w.length >= 3));
    // Figures ("2.4.0", "517ms") are rarely repeated by chance: four digits are evidence too.
    return words.size >= 3 || [...words].join(" ").length >= 20 || (str.match(/\p{N}/gu)?.length ?? 0) >= 4;
}

/** Fewer than three letters or digits (and not an unspaced script, where two characters are a word). */
export function isWeak(str: string): boolean {
    return !isUnspaced(str) && wordCharCount(str) < 3;
}
