/**
 * Pairing placements into candidates (docs/repair.md): a placement of the start boundary with one of
 * the end boundary (placements.ts), searched in a window around the written lines that widens until
 * nothing outside it could come close; each pair's ref is checked with the resolver.
 */
import { endBoundary, startBoundary } from "../boundaries";
import { resolveInDocument } from "../resolve";
import type { SessionDocument } from "../session";
import type { Ref } from "../types";
import { type PairWindow, pairInDoubt, type Scored } from "./certainty";
import { leaveCost, lineShiftCost, marginAbove, SHAPE_EVENT, SHAPE_MAX, shiftCost } from "./cost";
import { exactPlacements, nearPlacements, type Placement } from "./placements";
import type { RepairOptions, RepairReason } from "./types";

/** Lines searched either side of the written lines before the window grows. */
const FIRST_RADIUS = 32;
/** Placements of one boundary paired, nearest first. */
const MAX_PLACEMENTS = 48;
/** Lines (nearest to where the other boundary says) searched for a misquoted string. */
const NEAR_LINES = 3;

export function searchWindows<R extends Ref>(ref: R, document: SessionDocument, options: RepairOptions): Scored<R>[] {
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
    // Equal costs: the pair a reader would pick first, the one ending where its sentence ends (issue 34.9).
    const endsSentence = (p: Placement) =>
        sentenceEndAfter(document.lines.line(p.line), p.edge) === undefined ? 1 : 0;
    pairs.sort((a, b) => a.cost - b.cost || endsSentence(a.end) - endsSentence(b.end));

    const window: PairWindow = { starts, ends, writtenStart, writtenEnd, from, to };
    const max = (options.maxCandidates ?? 5) + 1;
    const candidates: Scored<R>[] = [];
    const seen = new Set<string>();
    // New boundary strings, once per placement and limit: pairs share placements.
    const stringFor = boundaryStrings(document, options);
    for (const pair of pairs) {
        if (candidates.length >= max) break;
        // A candidate resolves to exactly its pair's edges: a span already found is not tried again.
        const key = `${pair.start.line}:${pair.start.edge}:${pair.end.line}:${pair.end.edge}`;
        if (seen.has(key)) continue;
        const candidate = candidateFor(ref, document, pair.start, pair.end, pair.cost, stringFor);
        if (!candidate) continue;
        if (pairInDoubt(ref, document, pair, window)) candidate.doubtful = true;
        seen.add(key);
        candidates.push(candidate);
    }
    return { candidates, droppedFloor };
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
export function candidateFor<R extends Ref>(
    ref: R,
    document: SessionDocument,
    start: Placement,
    end: Placement,
    cost: number,
    stringFor: (placement: Placement, limit: number | undefined, written: string) => string | undefined,
): Scored<R> | undefined {
    end = withSentenceEnd(document, end, ref.end.str);
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

/**
 * The boundary strings of placements (boundaryString), each computed once per placement and limit:
 * pairs share placements.
 */
export function boundaryStrings(
    document: SessionDocument,
    options: RepairOptions,
): (placement: Placement, limit: number | undefined, written: string) => string | undefined {
    const strings = new Map<Placement, Map<number | undefined, string | undefined>>();
    return (placement, limit, written) => {
        let byLimit = strings.get(placement);
        if (!byLimit) {
            byLimit = new Map();
            strings.set(placement, byLimit);
        }
        if (!byLimit.has(limit)) byLimit.set(limit, boundaryString(document, placement, limit, written, options));
        return byLimit.get(limit);
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

/** Sentence-final punctuation, and the closing quotes or brackets that may follow it. */
const SENTENCE_END = /^[.!?。！？…]+[”’"')\]」』]*(?=\s|$)/u;
/** A written end string that itself ends a sentence. */
const WRITTEN_SENTENCE_END = /[.!?。！？…]+[”’"')\]」』]*$/u;

/**
 * Where the sentence ends when only its final punctuation follows `edge` on `line` (and then a space
 * or the line's end): the column after it; undefined otherwise.
 */
function sentenceEndAfter(line: string, edge: number): number | undefined {
    const match = SENTENCE_END.exec(line.slice(edge));
    return match ? edge + match[0].length : undefined;
}

/**
 * A near match of a misquoted end never drops the final punctuation of the sentence it ends, when
 * the author's string ended with such punctuation (docs/repair.md, "Candidates"): the edge moves
 * past it. Punctuation the author did not write is never added (issue 32: the minimal edit of the
 * author's string), and a string found as written keeps its edge: its span is what the author cited.
 */
function withSentenceEnd(document: SessionDocument, end: Placement, written: string): Placement {
    if (end.quoteCost === 0 || !WRITTEN_SENTENCE_END.test(written.trimEnd())) return end;
    const after = sentenceEndAfter(document.lines.line(end.line), end.edge);
    return after === undefined ? end : { ...end, edge: after };
}

function reasonFor(start: Placement, end: Placement): RepairReason {
    if (start.quoteCost > 0 || end.quoteCost > 0) return "misquote";
    if (start.count > 1 || end.count > 1) return "ambiguous";
    return "line-shift";
}
