/**
 * Edit distance for "did you mean" fixes: plain Levenshtein for short strings such as paths (O(n·m);
 * callers bound the inputs), and approximate substring matching (approx-string-match, Myers'
 * bit-parallel algorithm) to find where a boundary string nearly occurs on a line.
 */
import search from "approx-string-match";

/**
 * The most cells one distance may fill (a 2,000 × 2,000 table). Past it the distance is not computed
 * and the larger length is returned: an upper bound, so a caller asking "within k edits?" hears "no",
 * never a false "yes" (docs/security.md, "Resource bounds": a hand-edited lock's 64k-character context
 * cost 29 s).
 */
export const MAX_EDIT_CELLS = 4_000_000;

let cells = 0;
/** Table cells filled by `levenshtein` so far in this process: tests count work with it, never time. */
export function editDistanceCells(): number {
    return cells;
}

/** Insertions, deletions and substitutions from `a` to `b`: of characters (UTF-16 code units) for strings, of items for lists such as words. */
export function levenshtein(a: string | readonly string[], b: string | readonly string[]): number {
    if (a === b) return 0;
    if (a.length * b.length > MAX_EDIT_CELLS) return Math.max(a.length, b.length);
    cells += a.length * b.length;
    let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
    for (let i = 1; i <= a.length; i++) {
        const current = [i];
        for (let j = 1; j <= b.length; j++) {
            current[j] = Math.min(
                previous[j] + 1,
                current[j - 1] + 1,
                previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1),
            );
        }
        previous = current;
    }
    return previous[b.length];
}

export interface ApproximateMatch {
    start: number;
    end: number;
    distance: number;
}

/**
 * The substrings of `text` closest to `pattern` (fewest insertions, deletions, substitutions),
 * when that distance is at most `maxDistance`. Several may tie; each is returned once, leftmost
 * first. Myers' bit-parallel algorithm (approx-string-match).
 */
export function approximateMatches(text: string, pattern: string, maxDistance: number): ApproximateMatch[] {
    if (pattern.length === 0 || text.length === 0) return [];
    const seen = new Set<string>();
    const found: ApproximateMatch[] = [];
    for (const match of search(text, pattern, maxDistance)) {
        if (match.end <= match.start) continue;
        const key = `${match.start}:${match.end}`;
        if (seen.has(key)) continue;
        seen.add(key);
        found.push({ start: match.start, end: match.end, distance: match.errors });
    }
    return found.sort((a, b) => a.start - b.start || a.end - b.end);
}

/** The candidates within `maxDistance` of `target`, closest first. */
export function closestStrings(target: string, candidates: Iterable<string>, maxDistance: number): string[] {
    const scored: { value: string; distance: number }[] = [];
    for (const value of candidates) {
        if (Math.abs(value.length - target.length) > maxDistance) continue;
        const distance = levenshtein(target, value);
        if (distance <= maxDistance) scored.push({ value, distance });
    }
    return scored.sort((a, b) => a.distance - b.distance || a.value.localeCompare(b.value)).map((s) => s.value);
}
