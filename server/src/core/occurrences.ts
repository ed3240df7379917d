/**
 * Counting boundary strings on a line (docs/contract.md section 2): every index counts, overlapping
 * occurrences included, so "aa" occurs twice in "aaa".
 */

/** Every 0-based column where `needle` occurs in `line`, overlapping ones included. */
export function occurrencesOf(line: string, needle: string, limit = Number.POSITIVE_INFINITY): number[] {
    const found: number[] = [];
    if (needle.length === 0) return found;
    let at = line.indexOf(needle);
    while (at !== -1 && found.length < limit) {
        found.push(at);
        at = line.indexOf(needle, at + 1);
    }
    return found;
}

/** How many columns an ambiguity lists (and the editor relates); the count is always given. */
export const MAX_LISTED_OCCURRENCES = 100;

/** An ambiguous boundary string on one line: its first columns (up to MAX_LISTED_OCCURRENCES) and its count. */
export interface Ambiguity {
    columns: number[];
    count: number;
}

/** Past this many remembered strings a document's memo starts again (an editor resolves as one types). */
const MAX_REMEMBERED = 10_000;

/**
 * Ambiguities of one document, remembered per line and string: 150 refs starting with "a" on a
 * 5 MB line count its occurrences once, not 150 times (docs/security.md, "Resource bounds").
 */
export class AmbiguityMemo {
    /** Lines walked whole to count a string (what the memo saves; tests read it). */
    scans = 0;
    private readonly byLine = new Map<number, Map<string, Ambiguity>>();
    private remembered = 0;

    /** `needle` on line `lineNumber` (whose text is `line`), known to occur more than once. */
    of(lineNumber: number, line: string, needle: string): Ambiguity {
        let strings = this.byLine.get(lineNumber);
        const known = strings?.get(needle);
        if (known) return known;
        const columns = occurrencesOf(line, needle, MAX_LISTED_OCCURRENCES);
        let count = columns.length;
        if (columns.length === MAX_LISTED_OCCURRENCES) {
            this.scans++;
            count = countOccurrences(line, needle);
        }
        if (this.remembered >= MAX_REMEMBERED) {
            this.byLine.clear();
            this.remembered = 0;
            strings = undefined;
        }
        if (!strings) {
            strings = new Map();
            this.byLine.set(lineNumber, strings);
        }
        const ambiguity = { columns, count };
        strings.set(needle, ambiguity);
        this.remembered++;
        return ambiguity;
    }
}

/** How many times `needle` occurs in `line`, overlapping ones included, without listing them. */
export function countOccurrences(line: string, needle: string): number {
    if (needle.length === 0) return 0;
    let count = 0;
    for (let at = line.indexOf(needle); at !== -1; at = line.indexOf(needle, at + 1)) count++;
    return count;
}

/** The column of `needle`'s only occurrence in `line`, -1 if absent, -2 if it occurs more than once. */
export function soleOccurrence(line: string, needle: string): number {
    const first = line.indexOf(needle);
    if (first === -1) return -1;
    return line.indexOf(needle, first + 1) === -1 ? first : -2;
}

/** True when `needle` occurs exactly once in `line`. Stops at the second hit. */
export function occursOnce(line: string, needle: string): boolean {
    const first = line.indexOf(needle);
    return first !== -1 && line.indexOf(needle, first + 1) === -1;
}

function isHighSurrogate(code: number): boolean {
    return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
    return code >= 0xdc00 && code <= 0xdfff;
}

/** A cut at `index` would split a surrogate pair. */
export function splitsSurrogatePair(text: string, index: number): boolean {
    return (
        index > 0 &&
        index < text.length &&
        isHighSurrogate(text.charCodeAt(index - 1)) &&
        isLowSurrogate(text.charCodeAt(index))
    );
}

/**
 * The shortest `line.slice(column, column + k)` that occurs once on the line, or undefined when
 * even the whole rest of the line (or its first `maxLength` characters) repeats. Uniqueness is monotonic in k (any occurrence of a longer
 * candidate is an occurrence of the shorter one at the same index), so a binary search finds it.
 */
export function shortestUniqueStartingAt(
    line: string,
    column: number,
    maxLength = Number.POSITIVE_INFINITY,
): string | undefined {
    if (column < 0 || column >= line.length || splitsSurrogatePair(line, column)) return undefined;
    let low = 1;
    let high = Math.min(line.length - column, maxLength);
    if (!occursOnce(line, line.slice(column, column + high))) return undefined;
    while (low < high) {
        const mid = (low + high) >> 1;
        if (occursOnce(line, line.slice(column, column + mid))) high = mid;
        else low = mid + 1;
    }
    let end = column + low;
    if (splitsSurrogatePair(line, end)) end += 1;
    return line.slice(column, end);
}

/** The shortest `line.slice(end - k, end)` (k <= maxLength) that occurs once on the line, or undefined. */
export function shortestUniqueEndingAt(
    line: string,
    end: number,
    maxLength = Number.POSITIVE_INFINITY,
): string | undefined {
    if (end <= 0 || end > line.length || splitsSurrogatePair(line, end)) return undefined;
    let low = 1;
    let high = Math.min(end, maxLength);
    if (!occursOnce(line, line.slice(end - high, end))) return undefined;
    while (low < high) {
        const mid = (low + high) >> 1;
        if (occursOnce(line, line.slice(end - mid, end))) high = mid;
        else low = mid + 1;
    }
    let start = end - low;
    if (splitsSurrogatePair(line, start)) start -= 1;
    return line.slice(start, end);
}
