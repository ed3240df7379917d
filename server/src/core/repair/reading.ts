/**
 * The only reading of a ref in its document as it is (docs/repair.md, "Evidence"). Without a lock or
 * history the ref is presumed written against this very document, and a model's usual slips are a
 * line number one to three off or a boundary misquoted (case, spacing, a dash or quote form, a
 * letter). Such a ref is certain when one reading of it exists, and only then:
 *   - both boundary strings, as written, occur as a pair in the ref's shape (the same number of
 *     lines apart, in order) at exactly one place within READING_UNIQUE lines of the ref, and that
 *     place is within READING_WINDOW lines of it; or
 *   - one boundary occurs once on its written line and the other has exactly one near match on its
 *     own written line, in order;
 * and no other reading of either kind exists. Two readings are never certain.
 */

import { memoize } from "../memo";
import { nearSpans } from "../nearMatch";
import type { SessionDocument } from "../session";
import type { Ref } from "../types";
import { exactPlacements, type Placement, splitsWord } from "./placements";

/**
 * Lines either side of the ref's lines where its only reading may be: a model's line number is one to
 * three off. Wider windows bought no restored refs in the measurement (docs/repair.md, "Measured")
 * and more wrong ones where the document had changed after all.
 */
export const READING_WINDOW = 5;
/**
 * Lines either side searched for a second reading. A pair of short boundaries that occurs again a
 * little further away is as likely to be the text meant (lines deleted or moved above it), so the
 * reading is not the only one: on drifted documents without a lock this cut the wrong certain
 * repairs by a third at no cost to a model's slips.
 */
export const READING_UNIQUE = 30;

export interface Reading {
    start: Placement;
    end: Placement;
    /** A sentence for people naming the evidence. */
    evidence: string;
}

/** The only reading of the ref near its lines, or undefined when there is none or more than one. */
export function onlyReading(ref: Ref, document: SessionDocument): Reading | undefined {
    return readingsNear(ref, document).only;
}

/**
 * The readings of the ref near its lines: `only` when there is exactly one within READING_WINDOW,
 * and `several` when two or more exist, which no other evidence of the same document may then
 * overrule (two copies of the meant text: nothing decides between them; docs/repair.md).
 */
export function readingsNear(ref: Ref, document: SessionDocument): { only?: Reading; several: boolean } {
    const lines = document.lines;
    const shape = ref.end.line - ref.start.line;
    if (!Number.isInteger(ref.start.line) || !Number.isInteger(ref.end.line) || shape < 0) return { several: false };
    if (ref.start.str.length === 0 || ref.end.str.length === 0) return { several: false };
    const from = Math.max(1, ref.start.line - READING_UNIQUE);
    const to = Math.min(lines.lineCount, ref.end.line + READING_UNIQUE);
    if (from > to) return { several: false };
    const readings = new Map<string, Reading>();
    const add = (start: Placement, end: Placement, evidence: string) => {
        if (!inOrder(start, end)) return;
        const key = `${start.line}:${start.edge}:${end.line}:${end.edge}`;
        if (!readings.has(key)) readings.set(key, { start, end, evidence });
    };

    // Line texts read once: a long line holds thousands of placements.
    const textOf = memoize((line: number) => lines.line(line));
    const starts = exactPlacements(document, "start", ref.start.str, from, to).filter(
        (p) => p.line === ref.start.line || !splitsWord(document, p, textOf(p.line)),
    );
    const ends = exactPlacements(document, "end", ref.end.str, from, to).filter(
        (p) => p.line === ref.end.line || !splitsWord(document, p, textOf(p.line)),
    );
    const endsByLine = new Map<number, Placement[]>();
    for (const end of ends) {
        const list = endsByLine.get(end.line);
        if (list) list.push(end);
        else endsByLine.set(end.line, [end]);
    }
    for (const start of starts) {
        for (const end of endsByLine.get(start.line + shape) ?? []) {
            add(start, end, pairEvidence(ref, start.line, end.line));
            if (readings.size > 1) return { several: true };
        }
    }

    // One boundary pinned on its written line, the other nearly there: exactly one near match in
    // order within the limits.
    const pinnedStart = starts.filter((p) => p.line === ref.start.line);
    const pinnedEnd = ends.filter((p) => p.line === ref.end.line);
    if (pinnedStart.length === 1 && pinnedEnd.length === 0 && lines.hasLine(ref.end.line)) {
        const near = withinLimits(lineNearMatches(document, "end", ref.end.str, ref.end.line, ends.length > 0), (p) =>
            inOrder(pinnedStart[0], p),
        );
        for (const end of near) add(pinnedStart[0], end, nearEvidence(document, ref, "end", end));
    }
    if (pinnedEnd.length === 1 && pinnedStart.length === 0 && lines.hasLine(ref.start.line)) {
        const near = withinLimits(
            lineNearMatches(document, "start", ref.start.str, ref.start.line, starts.length > 0),
            (p) => inOrder(p, pinnedEnd[0]),
        );
        for (const start of near) add(start, pinnedEnd[0], nearEvidence(document, ref, "start", start));
    }
    if (readings.size !== 1) return { several: readings.size > 1 };
    const [only] = readings.values();
    const near = only.start.line >= ref.start.line - READING_WINDOW && only.end.line <= ref.end.line + READING_WINDOW;
    return near ? { only, several: false } : { several: false };
}

/** The span from `start` to `end` holds both strings, as the resolver requires. */
function inOrder(start: Placement, end: Placement): boolean {
    if (start.line !== end.line) return start.line < end.line;
    return start.column <= end.column && start.edge <= end.edge && start.column + start.length <= end.edge;
}

function pairEvidence(ref: Ref, startLine: number, endLine: number): string {
    const where = startLine === endLine ? `line ${startLine}` : `lines ${startLine}-${endLine}`;
    const what = ref.start.line === ref.end.line ? "line" : "pair of lines";
    return `the only ${what} within ${READING_UNIQUE} where both boundaries occur: ${where}`;
}

function nearEvidence(document: SessionDocument, ref: Ref, near: "start" | "end", placement: Placement): string {
    const pinned = near === "start" ? ref.end : ref.start;
    const found = document.lines.line(placement.line).slice(placement.column, placement.column + placement.length);
    return `${JSON.stringify(pinned.str)} is on line ${pinned.line} as written, and ${JSON.stringify(ref[near].str)} has exactly one near match there: ${JSON.stringify(found)}`;
}

/**
 * Near matches of a misquoted boundary on its written line (core/nearMatch.ts): one per place, the
 * span fewest edits from the written string, in tier 0 (equal once folded: case, whitespace runs,
 * compatibility forms, dash and quote forms) or tier 1 (within the limits).
 */
function lineNearMatches(
    document: SessionDocument,
    boundary: "start" | "end",
    str: string,
    line: number,
    exactElsewhere: boolean,
): { placement: Placement; tier: number; cutsWord: boolean }[] {
    const text = document.lines.line(line);
    // A string with a figure found as written elsewhere in the window may simply have moved there
    // ("Sentence 19 says" two lines below): it is no number misquote of "Sentence 17 says".
    const spans = nearSpans(text, str, boundary).filter((span) => !(span.number && exactElsewhere));
    return spans.map((span) => ({
        tier: span.tier,
        cutsWord: span.cutsWord === true,
        placement: {
            boundary,
            line,
            edge: boundary === "start" ? span.from : span.to,
            column: span.from,
            length: span.to - span.from,
            count: 0,
            quoteCost: span.tier === 0 ? 0.5 : 1 + span.edits,
            sure: true,
        },
    }));
}

/**
 * Every near match within the limits, in order with the pinned boundary: a misquote is read only
 * when exactly one place fits (docs/repair.md, "The minimal edit"), whatever its tier. A case-folded
 * "rag." in "rag.svg" beside "RAG" for "RAG." is two readings, not one.
 */
function withinLimits(
    matches: { placement: Placement; tier: number; cutsWord: boolean }[],
    ordered: (placement: Placement) => boolean,
): Placement[] {
    const usable = matches.filter((m) => ordered(m.placement));
    // A near match inside a word is never the reading, and its presence leaves none.
    return usable.some((m) => m.cutsWord) ? [] : usable.map((m) => m.placement);
}
