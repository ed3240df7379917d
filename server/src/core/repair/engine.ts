/**
 * The repair engine (docs/repair.md). For a broken ref, candidate refs that make the *whole* ref
 * resolve, cheapest first, at most one of them certain. A candidate pairs a placement of the start
 * boundary with one of the end boundary (placements.ts); its cost adds how far each string is from
 * the written one and how far the lines moved, a change of the span's shape costing more than a
 * move of the whole span. Certain means: best by a clear margin, over a search window wide enough
 * that nothing outside it could have come close. A wrong certain repair silently re-points a
 * citation, so every doubt leaves the candidates uncertain.
 */
import { endBoundary, startBoundary } from "../boundaries";
import { resolveInDocument, resolveRef } from "../resolve";
import { isDocumentFailure, type SessionDocument } from "../session";
import type { Ref } from "../types";
import { isUnspaced, wordCharCount, wordRuns } from "../words";
import { followRef } from "./follow";
import { lockCandidates } from "./locked";
import { fold } from "./normalize";
import { pathCandidates } from "./paths";
import { exactPlacements, nearPlacements, type Placement, splitsWord } from "./placements";
import { onlyReading } from "./reading";
import type { LockedSpan, RepairCandidate, RepairDocuments, RepairOptions, RepairReason } from "./types";

/** Lines searched either side of the written lines before the window grows. */
const FIRST_RADIUS = 32;
/** Placements of one boundary paired, nearest first. */
const MAX_PLACEMENTS = 48;
/**
 * A whole span moved costs the logarithm of its distance: both strings found together at one offset
 * is strong evidence, nearer is likelier, and a paste of 1,000 lines is one edit like a paste of 10.
 * A change of the span's shape (one boundary found apart from the other) is weak evidence, and 1 or
 * 5 lines inserted inside a span are about equally likely: a fixed cost and little per line, so that
 * two such candidates are never far enough apart to be certain. Shapes change by SHAPE_MAX lines at most.
 */
const SHIFT_COST = 2;
const SHAPE_EVENT = 4;
const SHAPE_COST = 0.05;
const SHAPE_MAX = 20;
/**
 * Moving a boundary away from its written line, where its string still occurs, needs more evidence:
 * after lines are inserted above, the written line rarely still holds the string (less so for a
 * string common in the window).
 */
const LEAVE_WRITTEN_LINE = 3;
/** Lines (nearest to where the other boundary says) searched for a misquoted string. */
const NEAR_LINES = 3;

/**
 * Candidates for a broken ref, most plausible first; [] when the ref resolves (to its locked text,
 * when a lock is given) or nothing fits. Each candidate's ref resolves (checked with the resolver);
 * at most one is certain, and each names its evidence.
 */
export function repairRef<R extends Ref>(
    ref: R,
    documents: RepairDocuments,
    options: RepairOptions = {},
): RepairCandidate<R>[] {
    return explainRepair(ref, documents, options).candidates;
}

export interface RepairExplanation<R extends Ref = Ref> {
    candidates: RepairCandidate<R>[];
    /** Why nothing is certain, when the evidence says so ("the cited text is no longer in …"). */
    note?: string;
}

/** repairRef, with a note on why nothing is certain when the evidence itself says why. */
export function explainRepair<R extends Ref>(
    ref: R,
    documents: RepairDocuments,
    options: RepairOptions = {},
): RepairExplanation<R> {
    const resolution = resolveRef(documents, ref);
    if (resolution.valid && (!options.locked || isLocked(options.locked, resolution.text, options.sha256)))
        return { candidates: [] };
    const max = options.maxCandidates ?? 5;
    const entry = documents.get(ref.path);
    if (entry !== undefined && !isDocumentFailure(entry)) {
        const found = repairInDocument(ref, entry, options);
        return { candidates: certify(found.candidates).slice(0, max), note: found.note };
    }
    // The path names no readable document: try the paths that could be meant, each in full. A path
    // is certain only as the clear best path, and then only with a certain repair inside it.
    const paths = pathCandidates(ref.path, documents);
    const clearPath = paths.length > 0 && (paths.length === 1 || paths[1].cost >= marginAbove(paths[0].cost));
    const candidates: Scored<R>[] = [];
    for (const [index, { path, cost }] of paths.entries()) {
        const document = documents.get(path);
        if (document === undefined || isDocumentFailure(document)) continue;
        const moved = { ...ref, path } as R;
        const resolution = resolveInDocument(document, moved);
        const doubtful = !(clearPath && index === 0);
        const named = `${JSON.stringify(path)} is the only document that fits the path`;
        if (resolution.valid && (!options.locked || isLocked(options.locked, resolution.text, options.sha256))) {
            candidates.push({
                ref: moved,
                reason: "path",
                certain: false,
                text: resolution.text,
                range: resolution.range,
                cost,
                doubtful,
                evidenceKind: "search",
                evidence: `${named}, and the ref resolves there as written`,
            });
            continue;
        }
        for (const inner of certify(repairInDocument(moved, document, options).candidates)) {
            candidates.push({
                ...inner,
                reason: "path",
                cost: inner.cost + cost,
                doubtful: doubtful || !inner.certain,
                evidence: `${named}; ${inner.evidence ?? "a repair there"}`,
            });
        }
    }
    candidates.sort((a, b) => a.cost - b.cost);
    return { candidates: certify(candidates).slice(0, max) };
}

interface Scored<R extends Ref> extends RepairCandidate<R> {
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
function certify<R extends Ref>(candidates: Scored<R>[]): RepairCandidate<R>[] {
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

/** The cost a competitor must reach for the best candidate to be certain. */
export function marginAbove(cost: number): number {
    return Math.max(cost + 2, cost * 1.5);
}

/** Candidates inside one document, sorted by cost, not yet certified; the strongest evidence first. */
function repairInDocument<R extends Ref>(
    ref: R,
    document: SessionDocument,
    options: RepairOptions,
): { candidates: Scored<R>[]; note?: string } {
    if (options.locked) {
        const found = lockCandidates(ref, document, options.locked, options);
        const last = options.locked.range.start.line;
        if (found.gone)
            return {
                candidates: [],
                note: `the cited text is no longer in ${JSON.stringify(ref.path)}; it was last seen on line ${last}`,
            };
        // A place that is the ref itself: its text changed where it is, nothing to move.
        const same = (c: RepairCandidate<R>) =>
            c.ref.path === ref.path &&
            c.ref.start.line === ref.start.line &&
            c.ref.end.line === ref.end.line &&
            c.ref.start.str === ref.start.str &&
            c.ref.end.str === ref.end.str;
        const moved = found.candidates.filter((c) => !same(c));
        const note =
            moved.length < found.candidates.length && found.candidates[0] && same(found.candidates[0])
                ? `the cited text changed where it is (locked on line ${last}): read it, then lock it again or cite other text`
                : undefined;
        if (note) for (const c of moved) c.certain = false;
        return { candidates: moved.map((c) => ({ ...c, judged: true })), note };
    }
    const previous = options.previous?.get(ref.path);
    if (previous !== undefined && !isDocumentFailure(previous) && previous.content !== document.content) {
        const label = options.previousLabel ?? "the earlier version";
        const followed = followRef(ref, previous, document, options);
        // The old text tells where the span went; if it is gone, a search could only guess.
        if (followed !== undefined)
            return {
                candidates: followed.map((c) => ({
                    ...c,
                    judged: true,
                    evidenceKind: "history",
                    evidence: historyEvidence(ref, c, label),
                })),
            };
        if (resolveInDocument(previous, ref).valid)
            return {
                candidates: searchDocument(ref, document, { ...options, unchanged: false }).map((c) => ({
                    ...c,
                    doubtful: true,
                })),
                note: `the cited text (as of ${label}) is no longer in ${JSON.stringify(ref.path)}`,
            };
        // Broken already then: the document changed since, so it is not the one the ref was written against.
        return { candidates: searchDocument(ref, document, { ...options, unchanged: false }) };
    }
    return { candidates: searchDocument(ref, document, options) };
}

function historyEvidence(ref: Ref, candidate: RepairCandidate, label: string): string {
    const to =
        candidate.range.start.line === candidate.range.end.line
            ? `line ${candidate.range.start.line}`
            : `lines ${candidate.range.start.line}-${candidate.range.end.line}`;
    if (candidate.reason === "line-shift") {
        const from =
            ref.start.line === ref.end.line ? `line ${ref.start.line}` : `lines ${ref.start.line}-${ref.end.line}`;
        return `the document's changes since ${label} moved ${from} to ${to}`;
    }
    return candidate.certain
        ? `the text cited as of ${label} was found once, on ${to}`
        : `the text cited as of ${label} was found on ${to}, one of several places`;
}

/**
 * The only reading of the ref, when the document is presumed unchanged (reading.ts); then the
 * search for the span near the written lines, widening the window until the verdict is safe.
 */
function searchDocument<R extends Ref>(ref: R, document: SessionDocument, options: RepairOptions): Scored<R>[] {
    const found = searchWindows(ref, document, options);
    if (!options.unchanged) return found;
    const reading = onlyReading(ref, document);
    if (!reading) return found;
    const cache = new Map<Placement, Map<number | undefined, string | undefined>>();
    const stringFor = (placement: Placement, limit: number | undefined, written: string) => {
        let byLimit = cache.get(placement);
        if (!byLimit) {
            byLimit = new Map();
            cache.set(placement, byLimit);
        }
        if (!byLimit.has(limit)) byLimit.set(limit, boundaryString(document, placement, limit, written, options));
        return byLimit.get(limit);
    };
    const candidate = candidateFor(ref, document, reading.start, reading.end, 0, stringFor);
    if (!candidate) return found;
    const others = found.filter(
        (c) =>
            c.range.start.line !== candidate.range.start.line ||
            c.range.start.column !== candidate.range.start.column ||
            c.range.end.line !== candidate.range.end.line ||
            c.range.end.column !== candidate.range.end.column,
    );
    for (const c of others) c.certain = false;
    return [
        { ...candidate, certain: true, judged: true, evidenceKind: "reading", evidence: reading.evidence },
        ...others.map((c) => ({ ...c, judged: true })),
    ];
}

function searchWindows<R extends Ref>(ref: R, document: SessionDocument, options: RepairOptions): Scored<R>[] {
    const lineCount = document.lines.lineCount;
    const clamp = (line: number) => Math.min(Math.max(line, 1), lineCount);
    const writtenStart = Number.isInteger(ref.start.line) ? ref.start.line : 1;
    const writtenEnd = Number.isInteger(ref.end.line) ? ref.end.line : writtenStart;
    let radius = FIRST_RADIUS;
    for (;;) {
        const from = Math.max(1, clamp(Math.min(writtenStart, writtenEnd)) - radius);
        const to = Math.min(lineCount, clamp(Math.max(writtenStart, writtenEnd)) + radius);
        const whole = from === 1 && to === lineCount;
        const found = candidatesInWindow(ref, document, options, from, to, writtenStart, writtenEnd);
        const needed = found.candidates.length === 0 ? Number.POSITIVE_INFINITY : marginAbove(found.candidates[0].cost);
        // Anything outside the window moves a boundary at least `radius` lines: it costs at least this.
        const outside =
            radius > SHAPE_MAX ? SHAPE_EVENT + lineShiftCost(radius - SHAPE_MAX) : SHAPE_EVENT + lineShiftCost(0);
        if (whole || needed <= outside) {
            // Placements left out (a common string) make pairs that cost at least `droppedFloor`:
            // only one that could come within the margin leaves the verdict in doubt.
            if (found.candidates.length > 0 && found.droppedFloor < needed)
                for (const c of found.candidates) c.doubtful = true;
            return found.candidates;
        }
        radius = Math.max(radius * 8, Math.ceil(needed) + 1);
    }
}

function candidatesInWindow<R extends Ref>(
    ref: R,
    document: SessionDocument,
    options: RepairOptions,
    from: number,
    to: number,
    writtenStart: number,
    writtenEnd: number,
): { candidates: Scored<R>[]; droppedFloor: number } {
    let starts = exactPlacements(document, "start", ref.start.str, from, to);
    let ends = exactPlacements(document, "end", ref.end.str, from, to);
    const nearest = (written: number) => (a: Placement, b: Placement) =>
        Math.abs(a.line - written) + a.quoteCost - (Math.abs(b.line - written) + b.quoteCost);
    // Misquoted strings are looked for where the other boundary, found as written, puts them.
    starts = starts.concat(nearCandidates(document, "start", ref.start.str, writtenStart, ends, writtenEnd, starts));
    ends = ends.concat(nearCandidates(document, "end", ref.end.str, writtenEnd, starts, writtenStart, ends));
    starts = starts.sort(nearest(writtenStart));
    ends = ends.sort(nearest(writtenEnd));
    // A pair with a placement left out moves that boundary at least as far as the nearest one left
    // out: a change of shape, or a whole move of that distance.
    const dropped = (all: Placement[], written: number) =>
        all.length > MAX_PLACEMENTS ? Math.abs(all[MAX_PLACEMENTS].line - written) : Number.POSITIVE_INFINITY;
    const droppedDistance = Math.min(dropped(starts, writtenStart), dropped(ends, writtenEnd));
    const droppedFloor =
        droppedDistance === Number.POSITIVE_INFINITY
            ? droppedDistance
            : Math.min(SHAPE_EVENT, lineShiftCost(droppedDistance));
    starts = starts.slice(0, MAX_PLACEMENTS);
    ends = ends.slice(0, MAX_PLACEMENTS);

    // Leaving a line where the string occurs once costs less when the string is common in the window.
    const leaveStart = leaveCost(starts, writtenStart);
    const leaveEnd = leaveCost(ends, writtenEnd);
    const pairs: { start: Placement; end: Placement; cost: number }[] = [];
    for (const start of starts) {
        for (const end of ends) {
            if (start.line > end.line || (start.line === end.line && start.edge >= end.edge)) continue;
            if (Math.abs(end.line - writtenEnd - (start.line - writtenStart)) > SHAPE_MAX) continue;
            const cost =
                start.quoteCost +
                end.quoteCost +
                shiftCost(start.line - writtenStart, end.line - writtenEnd) +
                (start.line !== writtenStart ? leaveStart : 0) +
                (end.line !== writtenEnd ? leaveEnd : 0);
            pairs.push({ start, end, cost });
        }
    }
    pairs.sort((a, b) => a.cost - b.cost);

    const max = (options.maxCandidates ?? 5) + 1;
    const candidates: Scored<R>[] = [];
    const seen = new Set<string>();
    // New boundary strings, once per placement and limit: pairs share placements.
    const strings = new Map<Placement, Map<number | undefined, string | undefined>>();
    const stringFor = (placement: Placement, limit: number | undefined, written: string) => {
        let byLimit = strings.get(placement);
        if (!byLimit) {
            byLimit = new Map();
            strings.set(placement, byLimit);
        }
        if (!byLimit.has(limit)) byLimit.set(limit, boundaryString(document, placement, limit, written, options));
        return byLimit.get(limit);
    };
    for (const pair of pairs) {
        if (candidates.length >= max) break;
        // A candidate resolves to exactly its pair's edges: a span already found is not tried again.
        const key = `${pair.start.line}:${pair.start.edge}:${pair.end.line}:${pair.end.edge}`;
        if (seen.has(key)) continue;
        const candidate = candidateFor(ref, document, pair.start, pair.end, pair.cost, stringFor);
        if (!candidate) continue;
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
        if (movedAsWritten(pair.start, starts) || movedAsWritten(pair.end, ends)) candidate.doubtful = true;
        // A whole span moved is judged by its two strings together ("report" … "report" is one word).
        // The strings as written are the evidence (an extended string adds only what it found).
        const movedEvidence = new Set([ref.start.str, ref.end.str]);
        if (
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
        )
            candidate.doubtful = true;
        seen.add(key);
        candidates.push(candidate);
    }
    return { candidates, droppedFloor };
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

function leaveCost(placements: Placement[], written: number): number {
    const exact = placements.filter((p) => p.quoteCost === 0);
    if (!exact.some((p) => p.line === written)) return 0;
    return LEAVE_WRITTEN_LINE / Math.sqrt(new Set(exact.map((p) => p.line)).size);
}

function lineShiftCost(lines: number): number {
    return SHIFT_COST * Math.log2(1 + Math.abs(lines));
}

/** Whole-span moves cost their distance; a change of the span's shape costs more. */
export function shiftCost(startShift: number, endShift: number): number {
    const change = Math.abs(endShift - startShift);
    if (change > SHAPE_MAX) return Number.POSITIVE_INFINITY;
    const shape = change === 0 ? 0 : SHAPE_EVENT + SHAPE_COST * change;
    return lineShiftCost(Math.min(Math.abs(startShift), Math.abs(endShift))) + shape;
}

/**
 * Near matches of a string that is not found as written: on its own line, and on the lines where the
 * other boundary's exact placements (nearest first) say it moved to. Lines where it does occur exactly are skipped.
 */
function nearCandidates(
    document: SessionDocument,
    boundary: "start" | "end",
    str: string,
    written: number,
    others: Placement[],
    otherWritten: number,
    exact: Placement[],
): Placement[] {
    const lines = new Set<number>([written]);
    const moves = others
        .filter((p) => p.count === 1 && p.quoteCost === 0)
        .map((p) => p.line - otherWritten)
        .sort((a, b) => Math.abs(a) - Math.abs(b));
    for (const move of moves) {
        if (lines.size > NEAR_LINES) break;
        lines.add(written + move);
    }
    const exactLines = new Set(exact.map((p) => p.line));
    const found: Placement[] = [];
    for (const line of lines) {
        if (exactLines.has(line)) continue;
        found.push(...nearPlacements(document, boundary, str, line));
    }
    return found;
}

/** The whole ref for a pair of placements, if it resolves to exactly that span. */
function candidateFor<R extends Ref>(
    ref: R,
    document: SessionDocument,
    start: Placement,
    end: Placement,
    cost: number,
    stringFor: (placement: Placement, limit: number | undefined, written: string) => string | undefined,
): Scored<R> | undefined {
    const sameLine = start.line === end.line;
    const startStr = stringFor(start, sameLine ? end.edge : undefined, ref.start.str);
    const endStr = stringFor(end, sameLine ? start.edge : undefined, ref.end.str);
    if (startStr === undefined || endStr === undefined) return undefined;
    const repaired = {
        ...ref,
        start: { line: start.line, str: startStr },
        end: { line: end.line, str: endStr },
    } as R;
    const resolution = resolveInDocument(document, repaired);
    if (!resolution.valid) return undefined;
    if (resolution.range.start.column !== start.edge || resolution.range.end.column !== end.edge) return undefined;
    return {
        ref: repaired,
        reason: reasonFor(start, end),
        certain: false,
        text: resolution.text,
        range: resolution.range,
        cost,
    };
}

/** The written string where it is usable as written; otherwise a readable unique one at the same edge. */
function boundaryString(
    document: SessionDocument,
    placement: Placement,
    limit: number | undefined,
    written: string,
    options: RepairOptions,
): string | undefined {
    if (placement.quoteCost === 0 && placement.count === 1) return written;
    const line = document.lines.line(placement.line);
    const choice =
        placement.boundary === "start"
            ? startBoundary(line, placement.edge, { style: options.style, limit })
            : endBoundary(line, placement.edge, { style: options.style, limit: limit ?? 0 });
    return choice?.str;
}

function reasonFor(start: Placement, end: Placement): RepairReason {
    if (start.quoteCost > 0 || end.quoteCost > 0) return "misquote";
    if (start.count > 1 || end.count > 1) return "ambiguous";
    return "line-shift";
}
