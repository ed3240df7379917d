/**
 * Where one boundary of a broken ref may be now: exact occurrences of its string on lines near the
 * line written (each with the number of occurrences on its line), and near matches of a misquoted
 * string on the few lines where the other boundary says it should be. Near matches are scored with
 * Myers' bit-parallel approximate matching (approx-string-match) over case- and punctuation-folded text.
 */
import search from "approx-string-match";
import type { SessionDocument } from "../session";
import type { BoundaryName } from "../types";
import { type FoldedText, fold, originalRange } from "./normalize";

export interface Placement {
    boundary: BoundaryName;
    line: number;
    /** Where the span starts (start boundary) or ends, exclusive (end boundary): a column of `line`. */
    edge: number;
    /** Column of the matched text and its length (the written string, or the near match). */
    column: number;
    length: number;
    /** Occurrences of the written string on this line (1: usable as written; >1: ambiguous). 0 for near matches. */
    count: number;
    /** 0 for the written string itself; otherwise how far the near match is from it. */
    quoteCost: number;
}

/** Occurrences scanned in a window before giving up on a very common string. */
const MAX_OCCURRENCES = 4000;

/**
 * Exact placements of `str` on lines [from, to]: one per occurrence, grouped by line. The window is
 * scanned with indexOf over the content (no per-line slices).
 */
export function exactPlacements(
    document: SessionDocument,
    boundary: BoundaryName,
    str: string,
    from: number,
    to: number,
): Placement[] {
    const lines = document.lines;
    const content = document.content;
    if (str.length === 0 || str.includes("\n")) return [];
    const windowStart = lines.lineStart(from);
    const windowEnd = lines.lineEnd(to);
    const found: Placement[] = [];
    let line = from;
    let lineEnd = lines.lineEnd(line);
    let first = found.length;
    let scanned = 0;
    for (let at = content.indexOf(str, windowStart); at !== -1 && at + str.length <= windowEnd; ) {
        if (++scanned > MAX_OCCURRENCES) break;
        while (at > lineEnd) {
            setCounts(found, first);
            line++;
            lineEnd = lines.lineEnd(line);
            first = found.length;
        }
        if (at + str.length <= lineEnd) {
            const column = at - lines.lineStart(line);
            found.push({
                boundary,
                line,
                edge: boundary === "start" ? column : column + str.length,
                column,
                length: str.length,
                count: 0,
                quoteCost: 0,
            });
        }
        at = content.indexOf(str, at + 1);
    }
    setCounts(found, first);
    return found;
}

function setCounts(found: Placement[], first: number): void {
    for (let i = first; i < found.length; i++) found[i].count = found.length - first;
}

/** A near match is accepted only this close to the written string (edits per folded character). */
const MAX_ERROR_RATE = 0.34;
/** Longer strings and lines are not searched approximately (the cost grows with both). */
const MAX_NEAR_STR = 300;
const MAX_NEAR_LINE = 20_000;

/**
 * Near matches of a misquoted `str` on one line: the folded string found exactly (cost 0.5), else the
 * best approximate matches (cost 1 + edits). Several equally good, separate matches each give a placement.
 */
export function nearPlacements(
    document: SessionDocument,
    boundary: BoundaryName,
    str: string,
    line: number,
): Placement[] {
    if (!document.lines.hasLine(line) || str.length > MAX_NEAR_STR) return [];
    const text = document.lines.line(line);
    if (text.length === 0 || text.length > MAX_NEAR_LINE) return [];
    const foldedLine = fold(text);
    const needle = fold(str).text;
    if (needle.trim().length === 0) return [];
    const exact: number[] = [];
    for (let at = foldedLine.text.indexOf(needle); at !== -1; at = foldedLine.text.indexOf(needle, at + 1))
        exact.push(at);
    if (exact.length > 0) {
        return exact.map((at) => placementOf(boundary, line, foldedLine, at, at + needle.length, 0.5));
    }
    const maxErrors = Math.floor(needle.length * MAX_ERROR_RATE);
    if (maxErrors < 1) return [];
    const matches = search(foldedLine.text, needle, maxErrors);
    if (matches.length === 0) return [];
    // Matches of one region come in variants (a character more or less at an edge): keep one per
    // region, the one whose edge characters agree with the needle's, at word edges, not on spaces.
    const regions: { start: number; end: number; errors: number }[] = [];
    for (const match of [...matches].sort((a, b) => a.start - b.start || a.end - b.end)) {
        const last = regions.at(-1);
        if (last && match.start < last.end) {
            if (variantScore(foldedLine.text, needle, match) < variantScore(foldedLine.text, needle, last))
                regions[regions.length - 1] = match;
        } else regions.push(match);
    }
    return regions
        .filter((r) => wordDistance(needle, foldedLine.text.slice(r.start, r.end)) <= 1)
        .map((r) => placementOf(boundary, line, foldedLine, r.start, r.end, 1 + r.errors));
}

/**
 * Misquotes happen a word at a time: the words of a near match may differ from the written ones by
 * one word dropped, added or changed, never more (punctuation and spacing are not words).
 */
function wordDistance(a: string, b: string): number {
    const wa = a.match(WORD) ?? [];
    const wb = b.match(WORD) ?? [];
    let previous = Array.from({ length: wb.length + 1 }, (_, j) => j);
    for (let i = 1; i <= wa.length; i++) {
        const current = [i];
        for (let j = 1; j <= wb.length; j++) {
            current[j] = Math.min(
                previous[j] + 1,
                current[j - 1] + 1,
                previous[j - 1] + (wa[i - 1] === wb[j - 1] ? 0 : 1),
            );
        }
        previous = current;
    }
    return previous[wb.length];
}

const WORD = /[\p{L}\p{N}]+/gu;

function variantScore(text: string, needle: string, m: { start: number; end: number }): number {
    let score = 0;
    if (text[m.start] !== needle[0]) score += 1;
    if (text[m.end - 1] !== needle[needle.length - 1]) score += 1;
    if (/\s/.test(text[m.start]) || /\s/.test(text[m.end - 1])) score += 0.75;
    if (!atWordEdge(text, m.start, m.end)) score += 0.5;
    return score + 0.01 * Math.abs(m.end - m.start - needle.length);
}

function atWordEdge(text: string, start: number, end: number): boolean {
    const wordChar = (c: string | undefined) => c !== undefined && /[\p{L}\p{N}]/u.test(c);
    const startOk = !(wordChar(text[start - 1]) && wordChar(text[start]));
    const endOk = !(wordChar(text[end - 1]) && wordChar(text[end]));
    return startOk && endOk;
}

function placementOf(
    boundary: BoundaryName,
    line: number,
    folded: FoldedText,
    from: number,
    to: number,
    quoteCost: number,
): Placement {
    const { start, end } = originalRange(folded, from, to);
    return {
        boundary,
        line,
        edge: boundary === "start" ? start : end,
        column: start,
        length: end - start,
        count: 0,
        quoteCost,
    };
}
