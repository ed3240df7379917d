/**
 * Where one boundary of a broken ref may be now: exact occurrences of its string on lines near the
 * line written (each with the number of occurrences on its line), and near matches of a misquoted
 * string on the few lines where the other boundary says it should be. Near matches are scored with
 * Myers' bit-parallel approximate matching (approx-string-match) over case- and punctuation-folded text.
 */
import search from "approx-string-match";
import { spanEdges } from "../boundaries";
import { levenshtein } from "../editDistance";
import { type FoldedText, fold, originalRange, SEARCH_ERROR_RATE } from "../nearMatch";
import type { SessionDocument } from "../session";
import type { BoundaryName } from "../types";
import { isUnspaced, isWordChar, WORD_RUNS as WORD, wordCharCount } from "../words";

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
    /** False for a near match whose edge could not be pinned to the needle's words: never certain. */
    sure: boolean;
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
    // A slice of the window: indexOf on the whole content would run to its end on a miss.
    const window = content.slice(windowStart, lines.lineEnd(to));
    const found: Placement[] = [];
    let line = from;
    let lineEnd = lines.lineEnd(line);
    let first = found.length;
    let scanned = 0;
    for (let hit = window.indexOf(str); hit !== -1; hit = window.indexOf(str, hit + 1)) {
        if (++scanned > MAX_OCCURRENCES) break;
        const at = windowStart + hit;
        while (at > lineEnd) {
            setCounts(found, first);
            line++;
            lineEnd = lines.lineEnd(line);
            first = found.length;
        }
        const column = at - lines.lineStart(line);
        found.push({
            boundary,
            line,
            edge: boundary === "start" ? column : column + str.length,
            column,
            length: str.length,
            count: 0,
            quoteCost: 0,
            sure: true,
        });
    }
    setCounts(found, first);
    return found;
}

function setCounts(found: Placement[], first: number): void {
    for (let i = first; i < found.length; i++) found[i].count = found.length - first;
}

/** A near match is looked for this close to the written string (edits per folded character; core/nearMatch.ts). */
const MAX_ERROR_RATE = SEARCH_ERROR_RATE;
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
    const needle = fold(str).text;
    // Too little to recognise: a lone mark or a two-letter word would be found anywhere.
    if (!isUnspaced(needle) && wordCharCount(needle) < 3) return [];
    // A sure near match keeps one of the needle's two first or two last words: a line holding none
    // of them is not searched (the common case of a line that simply moved away).
    const edgeWords = needle.match(WORD) ?? [];
    if (!isUnspaced(needle) && edgeWords.length > 0) {
        const lower = text.toLowerCase();
        const keys = [...edgeWords.slice(0, 2), ...edgeWords.slice(-2)];
        if (!keys.some((word) => lower.includes(word))) return [];
    }
    const foldedLine = fold(text);
    const exact: number[] = [];
    for (let at = foldedLine.text.indexOf(needle); at !== -1; at = foldedLine.text.indexOf(needle, at + 1))
        exact.push(at);
    if (exact.length > 0) {
        return exact
            .filter((at) =>
                keepsWordEdge(foldedLine.text, needle, boundary === "start" ? at : at + needle.length, boundary),
            )
            .map((at) => placementOf(boundary, line, foldedLine, at, at + needle.length, 0.5, true));
    }
    const maxErrors = Math.floor(needle.length * MAX_ERROR_RATE);
    const matches = maxErrors < 1 ? [] : search(foldedLine.text, needle, maxErrors);
    if (matches.length === 0) return wordVariantPlacements(boundary, line, foldedLine, needle);
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
    const found: Placement[] = [];
    for (const region of regions) {
        // Only the edge that bounds the span matters; it is put where the needle's first (last)
        // word is, so a dropped or added word in the middle does not move it.
        const refined =
            boundary === "start"
                ? refineStart(foldedLine.text, needle, region)
                : refineEnd(foldedLine.text, needle, region);
        const from = boundary === "start" ? refined.edge : Math.min(region.start, refined.edge);
        const to = boundary === "start" ? Math.max(region.end, refined.edge + 1) : refined.edge;
        if (to <= from || wordDistance(needle, foldedLine.text.slice(from, to)) > 1) continue;
        if (!keepsWordEdge(foldedLine.text, needle, refined.edge, boundary)) continue;
        const placement = placementOf(
            boundary,
            line,
            foldedLine,
            from,
            to,
            1.5 + region.errors + (refined.sure ? 0 : 1),
            refined.sure,
        );
        found.push(refined.sure ? placement : snappedToWordEdge(text, placement));
    }
    return found.length > 0 ? found : wordVariantPlacements(boundary, line, foldedLine, needle);
}

/**
 * When no near match is found: a word added inside the string, or dropped from it, costs a whole
 * word of edits, more than a near match allows a short string. So the (folded) string with one word
 * inside it dropped, or with one word more between two of its
 * words, found on the line: the edge words stay, so the edge is sure. Inner words only: a changed
 * first or last word is the approximate search's business.
 */
function wordVariantPlacements(
    boundary: BoundaryName,
    line: number,
    foldedLine: FoldedText,
    needle: string,
): Placement[] {
    const parts = needle.split(" ");
    if (parts.length < 2 || isUnspaced(needle)) return [];
    // Both edge words stay: a line without them is not searched.
    if (!foldedLine.text.includes(parts[0]) || !foldedLine.text.includes(parts[parts.length - 1])) return [];
    const literal = (part: string) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    const patterns: string[] = [];
    // Added in the written string: drop one inner word.
    for (let i = 1; i < parts.length - 1; i++)
        patterns.push([...parts.slice(0, i), ...parts.slice(i + 1)].map(literal).join(" "));
    // Dropped from it: one more word between two of its words.
    for (let i = 1; i < parts.length; i++)
        patterns.push(`${parts.slice(0, i).map(literal).join(" ")} \\S+ ${parts.slice(i).map(literal).join(" ")}`);
    const found = new Map<number, Placement>();
    for (const pattern of patterns) {
        for (const match of foldedLine.text.matchAll(new RegExp(pattern, "g"))) {
            const from = match.index;
            const to = from + match[0].length;
            const edge = boundary === "start" ? from : to;
            if (found.has(edge) || !keepsWordEdge(foldedLine.text, needle, edge, boundary)) continue;
            found.set(edge, placementOf(boundary, line, foldedLine, from, to, 1.5, true));
        }
    }
    return [...found.values()];
}

/**
 * A guessed edge moved out to the nearest word edge, so that an offered (never certain) candidate
 * does not cut a word or a number ("for 2." of "for 2.5."): boundaries people read are whole words.
 */
function snappedToWordEdge(text: string, placement: Placement): Placement {
    const edges = spanEdges(text, placement.boundary);
    if (edges.includes(placement.edge)) return placement;
    if (placement.boundary === "end") {
        const next = edges.find((e) => e > placement.edge);
        return next === undefined ? placement : { ...placement, edge: next, length: next - placement.column };
    }
    const previous = edges.filter((e) => e < placement.edge).at(-1);
    if (previous === undefined) return placement;
    return { ...placement, edge: previous, column: previous, length: placement.column + placement.length - previous };
}

/**
 * A needle that begins (ends) with a whole word must not be found inside a longer word: "It" is not
 * in "positive". Unspaced scripts have no such edges.
 */
function keepsWordEdge(text: string, needle: string, edge: number, boundary: BoundaryName): boolean {
    const isWord = (c: string | undefined) => c !== undefined && isWordChar(c) && !isUnspaced(c);
    if (boundary === "start") return !(isWord(needle[0]) && isWord(text[edge - 1]) && isWord(text[edge]));
    return !(isWord(needle[needle.length - 1]) && isWord(text[edge - 1]) && isWord(text[edge]));
}

interface Refined {
    edge: number;
    /** False when the needle's edge word was not found: the edge is the character-level guess. */
    sure: boolean;
}

/**
 * Where a near match of `needle` starts: at the needle's first word (or its second, when the first
 * was added or changed), preceded by what precedes the first word in the needle if the line has it too.
 */
function refineStart(text: string, needle: string, region: { start: number; end: number }): Refined {
    const words = [...needle.matchAll(WORD)];
    if (words.length === 0) return { edge: region.start, sure: false };
    for (const word of words.slice(0, 2)) {
        let best: number | undefined;
        for (const w of text.matchAll(WORD)) {
            if (w.index < region.start - 3 || w.index >= region.end || w[0] !== word[0]) continue;
            if (best === undefined || Math.abs(w.index - region.start) < Math.abs(best - region.start)) best = w.index;
        }
        if (best === undefined) continue;
        // What the needle has before this word must be on the line before it too, else the edge is a guess.
        const prefix = needle.slice(0, word.index);
        if (prefix.length === 0) return { edge: best, sure: true };
        if (text.slice(best - prefix.length, best) === prefix) return { edge: best - prefix.length, sure: true };
        return { edge: best, sure: false };
    }
    return { edge: region.start, sure: false };
}

/** Where a near match of `needle` ends: after its last word (or the one before), then what follows it in the needle. */
function refineEnd(text: string, needle: string, region: { start: number; end: number }): Refined {
    const words = [...needle.matchAll(WORD)];
    if (words.length === 0) return { edge: region.end, sure: false };
    for (const word of words.slice(-2).reverse()) {
        let best: number | undefined;
        for (const w of text.matchAll(WORD)) {
            const end = w.index + w[0].length;
            if (end <= region.start || end > region.end + needle.length || w[0] !== word[0]) continue;
            if (best === undefined || Math.abs(end - region.end) < Math.abs(best - region.end)) best = end;
        }
        if (best === undefined) continue;
        const suffix = needle.slice(word.index + word[0].length);
        // A trailing mark added in the quote ("line`." for "line`") is the one difference allowed here.
        let k = 0;
        while (k < suffix.length && text[best + k] === suffix[k]) k++;
        const rest = suffix.slice(k);
        return {
            edge: best + k,
            sure: rest.length === 0 || ((k > 0 || suffix.length === 1) && /^[.,;:!?]$/.test(rest)),
        };
    }
    return { edge: region.end, sure: false };
}

/**
 * Misquotes happen a word at a time: the words of a near match may differ from the written ones by
 * one word dropped, added or changed, never more (punctuation and spacing are not words).
 */
function wordDistance(a: string, b: string): number {
    return levenshtein(a.match(WORD) ?? [], b.match(WORD) ?? []);
}

function variantScore(text: string, needle: string, m: { start: number; end: number }): number {
    let score = 0;
    if (text[m.start] !== needle[0]) score += 1;
    if (text[m.end - 1] !== needle[needle.length - 1]) score += 1;
    if (/\s/.test(text[m.start]) || /\s/.test(text[m.end - 1])) score += 0.75;
    if (!atWordEdge(text, m.start, m.end)) score += 0.5;
    return score + 0.01 * Math.abs(m.end - m.start - needle.length);
}

function atWordEdge(text: string, start: number, end: number): boolean {
    const wordChar = (c: string | undefined) => c !== undefined && isWordChar(c);
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
    sure: boolean,
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
        sure,
    };
}

/** A string found inside a longer word ("part" in "party's") is another word. */
export function splitsWord(document: SessionDocument, placement: Placement, lineText?: string): boolean {
    const line = lineText ?? document.lines.line(placement.line);
    const word = (c: string | undefined) => c !== undefined && isWordChar(c) && !isUnspaced(c);
    const first = placement.column;
    const last = placement.column + placement.length - 1;
    return (word(line[first]) && word(line[first - 1])) || (word(line[last]) && word(line[last + 1]));
}
