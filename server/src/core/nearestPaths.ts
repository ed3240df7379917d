/**
 * "Did you mean" for a path that names no file (docs/agents.md): the existing paths closest to it by
 * edit distance, for `docs/release-note.md` -> `docs/release-notes.md`. Bounded: at most
 * MAX_COMPARED candidates, each compared only when its length is near the wanted one. Pure.
 */
import { levenshtein } from "./editDistance";

const MAX_COMPARED = 20_000;
const MAX_SUGGESTED = 3;

/** "; did you mean "a" or "b"?" to end a message with, or nothing when no path is near. */
export function didYouMean(near: readonly string[]): string {
    return near.length === 0 ? "" : `; did you mean ${near.map((p) => JSON.stringify(p)).join(" or ")}?`;
}

/** Up to three existing paths close to `wanted`, closest first; none when nothing is close. */
export function nearestPaths(wanted: string, candidates: Iterable<string>): string[] {
    const limit = Math.max(2, Math.floor(wanted.length / 4));
    const base = (path: string) => path.slice(path.lastIndexOf("/") + 1);
    const scored: { path: string; distance: number }[] = [];
    let compared = 0;
    for (const path of candidates) {
        if (compared++ >= MAX_COMPARED) break;
        if (Math.abs(path.length - wanted.length) > limit && base(path) !== base(wanted)) continue;
        // Same file name in another folder counts as close, whatever the folders.
        const distance = base(path) === base(wanted) ? 1 : levenshtein(path, wanted);
        if (distance <= limit && path !== wanted) scored.push({ path, distance });
    }
    scored.sort((a, b) => a.distance - b.distance || a.path.localeCompare(b.path));
    return scored.slice(0, MAX_SUGGESTED).map((s) => s.path);
}
