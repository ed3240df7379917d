/**
 * Readable boundaries (docs/boundaries.md): the one function that chooses every boundary string the
 * tool writes or proposes. A boundary stays the shortest string that is unique on its line, but at
 * word granularity: a start string ends at a word edge, an end string begins at one. In scripts
 * written without spaces every whole character is an edge, and at least two characters are taken
 * where the span allows. Only when no word-aligned string is unique does it fall back to the
 * character-level shortest unique string, and says so.
 */

import { occursOnce, shortestUniqueEndingAt, shortestUniqueStartingAt, splitsSurrogatePair } from "./occurrences";
import { hasMeaningfulWord, isUnspaced, isWordChar, WORD_CHAR_CLASS } from "./words";

/** `words`: word-aligned (the default); `shortest`: the character-level shortest unique string. */
export type BoundaryStyle = "words" | "shortest";

export interface BoundaryChoice {
    str: string;
    /** `characters` when the string is not word-aligned (no word-aligned string was unique). */
    granularity: "words" | "characters";
}

export interface BoundaryOptions {
    style?: BoundaryStyle;
    /**
     * For a start string, the column it must not end after; for an end string, the column it must
     * not begin before (the other edge of the span when both lie on one line).
     */
    limit?: number;
    /** The longest string considered. */
    maxLength?: number;
    /**
     * Lengthen a word-aligned string to reach a meaningful word (default true; docs/boundaries.md,
     * "Readable"). Completion asks again without it where the longer string would pass the ref's other edge.
     */
    readable?: boolean;
}

/**
 * Made on first use, and only for a text that is not all ASCII: the first Intl.Segmenter of a process
 * loads ICU's break rules (about a quarter of a bare `node -e 0` start-up), which a command choosing
 * boundaries in English text should not pay (asciiWordSpans finds the same words).
 */
let segmenter: Intl.Segmenter | undefined;
function wordSegmenter(): Intl.Segmenter {
    segmenter ??= new Intl.Segmenter(undefined, { granularity: "word" });
    return segmenter;
}

/** A word-like segment: [start, end) offsets; `unspaced` when it is of a script written without spaces. */
export interface WordSpan {
    start: number;
    end: number;
    wordLike: boolean;
    unspaced: boolean;
}

/** Any character outside ASCII: then Intl.Segmenter decides. */
const NOT_ASCII = /[^\p{ASCII}]/u;

/** The segments of `text` that bear on word edges: word-like ones, and those of unspaced scripts. */
function wordSpans(text: string): WordSpan[] {
    if (!NOT_ASCII.test(text)) return asciiWordSpans(text);
    const spans: WordSpan[] = [];
    for (const segment of wordSegmenter().segment(text)) {
        const unspaced = isUnspaced(segment.segment);
        if (!segment.isWordLike && !unspaced) continue;
        const start = segment.index;
        spans.push({ start, end: start + segment.segment.length, wordLike: segment.isWordLike === true, unspaced });
    }
    return spans;
}

const isLetter = (c: number) => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const isAsciiWordChar = (c: number) => isLetter(c) || isDigit(c) || c === 0x5f;
/** `:` `.` `'` join letters (UAX #29 MidLetter, MidNumLet): `a:b`, `e.g`, `can't`. */
const joinsLetters = (c: number) => c === 0x3a || c === 0x2e || c === 0x27;
/** `,` `;` `.` `'` join digits (MidNum, MidNumLet): `1,000`, `3.14`. */
const joinsDigits = (c: number) => c === 0x2c || c === 0x3b || c === 0x2e || c === 0x27;

/**
 * The word-like segments of an ASCII text, as Intl.Segmenter's word granularity (UAX #29, ICU's
 * rules) finds them: runs of letters, digits and `_` (a lone `_` is none), joined across one `:` `.`
 * `'` between letters and one `,` `;` `.` `'` between digits. test/unit/asciiWords.test.ts holds it
 * to Intl.Segmenter.
 */
export function asciiWordSpans(text: string): WordSpan[] {
    const spans: WordSpan[] = [];
    const at = (i: number) => (i < text.length ? text.charCodeAt(i) : -1);
    let i = 0;
    while (i < text.length) {
        if (!isAsciiWordChar(at(i))) {
            i++;
            continue;
        }
        const start = i++;
        for (;;) {
            const c = at(i);
            if (isAsciiWordChar(c)) i++;
            else if (joinsLetters(c) && isLetter(at(i - 1)) && isLetter(at(i + 1))) i += 2;
            else if (joinsDigits(c) && isDigit(at(i - 1)) && isDigit(at(i + 1))) i += 2;
            else break;
        }
        // A lone `_` is a segment of its own that ICU does not call word-like (`__` it does).
        if (i - start > 1 || at(start) !== 0x5f) spans.push({ start, end: i, wordLike: true, unspaced: false });
    }
    return spans;
}
/** Punctuation that closes a word before a space or the line's end (`37%`, `end.`): a readable end. */
const CLOSING_PUNCTUATION = new RegExp(`(?<=[${WORD_CHAR_CLASS}])[^\\s${WORD_CHAR_CLASS}]+(?=\\s|$)`, "gu");
/** Word-aligned candidates are searched in a window this much longer than maxLength at most. */
const DEFAULT_MAX = 1000;

/** Code points in a string (a surrogate pair is one character for a person). */
function characterCount(text: string): number {
    let count = 0;
    for (const _ of text) count++;
    return count;
}

/**
 * Word edges in `text` (offsets relative to it): the ends (or starts) of word-like segments, and every
 * character boundary inside a run of an unspaced script.
 */
function wordEdges(text: string, side: "end" | "start"): number[] {
    // Repair asks again for the same stretch of a line for every pair of placements it tries.
    const key = `${side}\u0000${text}`;
    const known = recentEdges.get(key);
    if (known) return known;
    const edges = computeWordEdges(text, side);
    if (recentEdges.size >= RECENT_EDGES) recentEdges.clear();
    recentEdges.set(key, edges);
    return edges;
}

/** Segmented stretches remembered (callers never change the arrays they get). */
const RECENT_EDGES = 256;
const recentEdges = new Map<string, number[]>();

function computeWordEdges(text: string, side: "end" | "start"): number[] {
    const edges = new Set<number>();
    for (const { start: from, end: to, wordLike, unspaced } of wordSpans(text)) {
        if (wordLike) edges.add(side === "end" ? to : from);
        if (unspaced) {
            let at = from;
            for (const ch of text.slice(from, to)) {
                at += ch.length;
                if (side === "end") edges.add(at);
                else edges.add(at - ch.length);
            }
        }
    }
    return [...edges].sort((a, b) => a - b);
}

/**
 * Columns of a line where a readable span may start (`start`: the first character of each word) or
 * end (`end`: after each word, and after the punctuation that closes it, as in `37%` or `end.`).
 * Only the first `maxColumns` code units are looked at, so a huge line costs a bounded amount.
 */
export function spanEdges(line: string, side: "start" | "end", maxColumns = 100_000): number[] {
    const text = line.length > maxColumns ? line.slice(0, maxColumns) : line;
    const edges = new Set(wordEdges(text, side));
    if (side === "end") {
        for (const match of text.matchAll(CLOSING_PUNCTUATION)) {
            edges.add((match.index ?? 0) + match[0].length);
        }
    }
    return [...edges].filter((e) => (side === "start" ? e < text.length : e > 0)).sort((a, b) => a - b);
}

/**
 * A selection edge moved out to the word it cuts (docs/boundaries.md, "Selections snap to words"):
 * a start inside a word moves back to the word's first character, an end inside a word forward past
 * its last. An edge already at a word edge, between words, or in a script written without spaces
 * (where every character is an edge) stays. Only the segment around `column` is looked at.
 */
export function snapToWord(line: string, column: number, side: "start" | "end"): number {
    if (column <= 0 || column >= line.length) return column;
    const before = line.codePointAt(column - 1) ?? 0;
    const after = line.codePointAt(column) ?? 0;
    const wordy = (cp: number) => isWordChar(String.fromCodePoint(cp));
    if (!wordy(before) || !wordy(after)) return column;
    // The segment holding the cut: segment a bounded window around it rather than the whole line.
    const from = Math.max(0, column - 200);
    const window = line.slice(from, Math.min(line.length, column + 200));
    for (const span of wordSpans(window)) {
        const start = from + span.start;
        const end = from + span.end;
        if (start >= column || end <= column) continue;
        if (!span.wordLike || span.unspaced) return column;
        return side === "start" ? start : end;
    }
    return column;
}

/** A readable unique string starting at `column` of `line`, or undefined when none exists within the limit. */
export function startBoundary(line: string, column: number, options: BoundaryOptions = {}): BoundaryChoice | undefined {
    const limit = Math.min(options.limit ?? line.length, line.length);
    const maxLength = options.maxLength ?? DEFAULT_MAX;
    if (column < 0 || column >= limit || splitsSurrogatePair(line, column)) return undefined;
    let ends: number[] = [];
    if (options.style !== "shortest") {
        const windowEnd = Math.min(line.length, column + maxLength);
        const window = line.slice(column, windowEnd);
        // An edge at the window's end is real only when the window reaches the line's end.
        ends = wordEdges(window, "end")
            .filter((e) => e > 0 && (e < window.length || windowEnd === line.length))
            .map((e) => column + e);
    }
    return pickStart(line, column, ends, limit, maxLength, options);
}

/** A readable unique string ending at column `end` of `line`, or undefined when none exists within the limit. */
export function endBoundary(line: string, end: number, options: BoundaryOptions = {}): BoundaryChoice | undefined {
    const limit = Math.max(options.limit ?? 0, 0);
    const maxLength = options.maxLength ?? DEFAULT_MAX;
    if (end <= limit || end > line.length || splitsSurrogatePair(line, end)) return undefined;
    let starts: number[] = [];
    if (options.style !== "shortest") {
        const windowStart = Math.max(0, end - maxLength);
        const window = line.slice(windowStart, end);
        starts = wordEdges(window, "start")
            .filter((s) => s < window.length && (s > 0 || windowStart === 0))
            .map((s) => windowStart + s);
    }
    return pickEnd(line, end, starts, limit, maxLength, options);
}

/**
 * `startBoundary` (side `start`) or `endBoundary` (side `end`) at many columns of one line, with the
 * line segmented into words once instead of once per column: what completion asks for every word
 * of a line. Same answers as the single-column functions.
 */
export function boundariesAt(
    line: string,
    side: "start" | "end",
    columns: readonly number[],
    options: BoundaryOptions = {},
): (BoundaryChoice | undefined)[] {
    const maxLength = options.maxLength ?? DEFAULT_MAX;
    if (options.style === "shortest" || options.limit !== undefined) {
        return columns.map((c) => (side === "start" ? startBoundary(line, c, options) : endBoundary(line, c, options)));
    }
    if (columns.length === 0) return [];
    // Segment only the stretch the columns can reach, not the whole line: a line can be megabytes.
    const first = Math.min(...columns);
    const last = Math.max(...columns);
    if (side === "start") {
        const from = Math.max(0, first);
        const to = Math.min(line.length, last + maxLength);
        const ends = wordEdges(line.slice(from, to), "end")
            .filter((e) => e > 0 && (from + e < to || to === line.length))
            .map((e) => from + e);
        return columns.map((column) => {
            if (column < 0 || column >= line.length || splitsSurrogatePair(line, column)) return undefined;
            const near = ends.filter((e) => e > column && e - column <= maxLength);
            return pickStart(line, column, near, line.length, maxLength, options);
        });
    }
    const from = Math.max(0, first - maxLength);
    const to = Math.min(line.length, Math.max(0, last));
    const starts = wordEdges(line.slice(from, to), "start")
        .filter((s) => from + s < to && (s > 0 || from === 0))
        .map((s) => from + s);
    return columns.map((end) => {
        if (end <= 0 || end > line.length || splitsSurrogatePair(line, end)) return undefined;
        const near = starts.filter((s) => s < end && (end - s <= maxLength || s === 0));
        return pickEnd(line, end, near, 0, maxLength, options);
    });
}

/** The shortest unique word-aligned start string among word ends `ends` (absolute, ascending), else character level. */
function pickStart(
    line: string,
    column: number,
    ends: number[],
    limit: number,
    maxLength: number,
    { style, readable = true }: BoundaryOptions,
): BoundaryChoice | undefined {
    if (style !== "shortest") {
        const candidates = ends.filter((e) => e <= limit);
        if (line.length <= limit && line.length - column <= maxLength && !candidates.includes(line.length))
            candidates.push(line.length);
        const chosen = firstUnique(
            line,
            candidates.map((e) => line.slice(column, e)),
            readable,
        );
        if (chosen !== undefined) return { str: chosen, granularity: "words" };
    }
    const str = shortestUniqueStartingAt(line, column, maxLength);
    if (str === undefined || column + str.length > limit) return undefined;
    return { str, granularity: "characters" };
}

/** The end-side twin of pickStart: word starts `starts` (absolute, ascending), nearest first. */
function pickEnd(
    line: string,
    end: number,
    starts: number[],
    limit: number,
    maxLength: number,
    { style, readable = true }: BoundaryOptions,
): BoundaryChoice | undefined {
    if (style !== "shortest") {
        const candidates = starts.filter((s) => s >= limit);
        if (limit === 0 && end <= maxLength && !candidates.includes(0)) candidates.unshift(0);
        const chosen = firstUnique(
            line,
            candidates.reverse().map((s) => line.slice(s, end)),
            readable,
        );
        if (chosen !== undefined) return { str: chosen, granularity: "words" };
    }
    const str = shortestUniqueEndingAt(line, end, maxLength);
    if (str === undefined || end - str.length < limit) return undefined;
    return { str, granularity: "characters" };
}

/**
 * The first candidate (they come shortest first, each extending the one before at the same edge)
 * that is unique on the line, skipping lone characters of unspaced scripts while a longer candidate
 * is unique. Uniqueness is monotonic along such a list (an occurrence of a longer candidate is an
 * occurrence of every shorter one), so a binary search finds it in a few scans of the line: a
 * megabyte line of repeated words must not cost one scan per word.
 */
function firstUnique(line: string, candidates: string[], readable: boolean): string | undefined {
    // Whitespace-only candidates can only form a prefix of the list (a longer one holds a shorter one).
    const usable = candidates.filter((candidate) => candidate.trim().length > 0);
    // Galloping first (1, 2, 4, ... candidates in), since the answer is usually one of the first few
    // words; then a binary search inside the last step.
    let low = 0;
    let step = 1;
    while (low + step - 1 < usable.length && !occursOnce(line, usable[low + step - 1])) {
        low += step;
        step *= 2;
    }
    let high = Math.min(usable.length, low + step - 1);
    while (low < high) {
        const mid = (low + high) >> 1;
        if (occursOnce(line, usable[mid])) high = mid;
        else low = mid + 1;
    }
    if (low === usable.length) return undefined;
    // Readable: a unique string that holds a word a reader can anchor on, where one within reach does.
    const meaningful = readable ? firstMeaningfulFrom(usable, low) : undefined;
    if (meaningful !== undefined) return meaningful;
    const chosen = usable[low];
    if (characterCount(chosen) < 2 && isUnspaced(chosen) && low + 1 < usable.length) return usable[low + 1];
    return chosen;
}

/**
 * A boundary is lengthened to reach a meaningful word (core/words.ts hasMeaningfulWord) only up to
 * this many characters: `"The release"` rather than `"The"`, but never half a line for it.
 */
const MAX_MEANINGFUL_REACH = 60;

/**
 * The first candidate from `low` on (each unique, as uniqueness only grows along the list) that
 * holds a meaningful word, within MAX_MEANINGFUL_REACH characters; undefined when none does. A
 * plain scan: the reach bounds it to a few words, however long the line.
 */
function firstMeaningfulFrom(candidates: readonly string[], low: number): string | undefined {
    for (let at = low; at < candidates.length; at++) {
        const candidate = candidates[at];
        if (at > low && candidate.length > MAX_MEANINGFUL_REACH) return undefined;
        if (hasMeaningfulWord(candidate)) return candidate;
    }
    return undefined;
}
