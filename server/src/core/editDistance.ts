/**
 * Edit distance for "did you mean" fixes: plain Levenshtein for short strings such as paths, and
 * approximate substring matching (Sellers' algorithm) to find where a boundary string nearly
 * occurs on a line. Both are O(n·m); callers bound the inputs.
 */

export function levenshtein(a: string, b: string): number {
    if (a === b) return 0;
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
 * when that distance is at most `maxDistance`. Several may tie; each is returned once, leftmost first.
 */
export function approximateMatches(text: string, pattern: string, maxDistance: number): ApproximateMatch[] {
    const m = pattern.length;
    if (m === 0 || text.length === 0) return [];
    // Column j holds, for each prefix of the pattern, the best distance of a substring ending at j
    // and where that substring starts. A substring may start anywhere: row 0 costs nothing.
    let cost = Array.from({ length: m + 1 }, (_, i) => i);
    let origin = Array.from({ length: m + 1 }, () => 0);
    const ends: { end: number; start: number; distance: number }[] = [{ end: 0, start: 0, distance: cost[m] }];
    for (let j = 1; j <= text.length; j++) {
        const nextCost = [0];
        const nextOrigin = [j];
        for (let i = 1; i <= m; i++) {
            const substitute = cost[i - 1] + (pattern[i - 1] === text[j - 1] ? 0 : 1);
            const skipText = cost[i] + 1;
            const skipPattern = nextCost[i - 1] + 1;
            // Ties prefer the diagonal, so matches keep the pattern's length where they can.
            if (substitute <= skipText && substitute <= skipPattern) {
                nextCost[i] = substitute;
                nextOrigin[i] = origin[i - 1];
            } else if (skipText <= skipPattern) {
                nextCost[i] = skipText;
                nextOrigin[i] = origin[i];
            } else {
                nextCost[i] = skipPattern;
                nextOrigin[i] = nextOrigin[i - 1];
            }
        }
        cost = nextCost;
        origin = nextOrigin;
        ends.push({ end: j, start: origin[m], distance: cost[m] });
    }
    const best = Math.min(...ends.map((e) => e.distance));
    if (best > maxDistance) return [];
    const seen = new Set<string>();
    const found: ApproximateMatch[] = [];
    for (const e of ends) {
        if (e.distance !== best || e.end <= e.start) continue;
        const key = `${e.start}:${e.end}`;
        if (seen.has(key)) continue;
        seen.add(key);
        found.push({ start: e.start, end: e.end, distance: e.distance });
    }
    return found;
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
