/**
 * Which lock entry belongs to which ref of the file (docs/lock.md, "Keying"). In order, each pass
 * only for the refs the earlier ones left:
 *   1. `ref`: the entry's ref is this ref (same path, lines and strings): the usual case, and the
 *      one that reports drift when the document changed under an untouched ref;
 *   2. `text`: the ref resolves to an entry's text in the same document (a ref moved by repair, by
 *      following edits or by hand, still on what it meant); `moved`: failing that, the only entry with
 *      that text in a document no ref of the file cites any more (the document was moved or renamed
 *      and its refs followed it);
 *   3. `strings`: the only unclaimed entry with the same path and boundary strings (lines moved and
 *      the text changed);
 *   4. `lines`: the only unclaimed entry with the same path and lines (strings rewritten).
 * Identical refs share an entry; passes 3 and 4 never hand one entry to two refs.
 */
import type { RefResolution } from "../resolve";
import type { Ref } from "../types";
import { baseKey, entryKey, refIdentity } from "./entry";
import type { LockEntry, LockFile, Sha256 } from "./types";

export interface LockSite {
    ref: Ref;
    resolution: RefResolution;
}

export type MatchKind = "ref" | "text" | "moved" | "strings" | "lines";

export interface LockMatch {
    key: string;
    entry: LockEntry;
    how: MatchKind;
}

export function matchLock(lock: LockFile, sites: readonly LockSite[], sha256: Sha256): (LockMatch | undefined)[] {
    return matchRefs(
        lock,
        sites.map((site) => site.ref),
        (i) => sites[i].resolution,
        sha256,
    );
}

/**
 * `matchLock` over refs whose resolutions are asked for only when pass 1 leaves them: `check`
 * resolves the refs it streams once, and only the few refs edited since locking twice.
 */
export function matchRefs(
    lock: LockFile,
    refs: readonly Ref[],
    resolutionOf: (index: number) => RefResolution,
    sha256: Sha256,
): (LockMatch | undefined)[] {
    const keys = Object.keys(lock.entries);
    const byRef = new Map<string, string>();
    for (const key of keys) {
        const identity = refIdentity(lock.entries[key].ref);
        if (!byRef.has(identity)) byRef.set(identity, key);
    }
    const matches: (LockMatch | undefined)[] = new Array(refs.length);
    const claimed = new Set<string>();
    const pending: number[] = [];
    refs.forEach((ref, i) => {
        const key = byRef.get(refIdentity(ref));
        if (key === undefined) pending.push(i);
        else {
            matches[i] = { key, entry: lock.entries[key], how: "ref" };
            claimed.add(key);
        }
    });
    if (pending.length === 0) return matches;

    const byBase = new Map<string, string[]>();
    for (const key of keys) {
        const base = baseKey(key);
        const list = byBase.get(base);
        if (list) list.push(key);
        else byBase.set(base, [key]);
    }
    let left: number[] = [];
    let byHash: Map<string, string[]> | undefined;
    let cited: Set<string> | undefined;
    const movedTo = new Map<string, string>();
    for (const i of pending) {
        const resolution = resolutionOf(i);
        if (!resolution.valid) {
            left.push(i);
            continue;
        }
        const hash = sha256(resolution.text);
        const candidates = (byBase.get(entryKey(resolution.path, hash)) ?? []).filter(
            (key) => lock.entries[key].sha256 === hash,
        );
        if (candidates.length === 0) {
            // A moved document: built only when some ref's text is not under its own path.
            if (!byHash) {
                byHash = new Map();
                for (const key of keys) {
                    const list = byHash.get(lock.entries[key].sha256);
                    if (list) list.push(key);
                    else byHash.set(lock.entries[key].sha256, [key]);
                }
                cited = new Set(refs.map((ref) => ref.path));
            }
            const moved = (byHash.get(hash) ?? []).filter((key) => !cited?.has(lock.entries[key].ref.path));
            // Identical refs share their entry, as in pass 1; another ref's entry is never taken.
            const owner = moved.length === 1 ? movedTo.get(moved[0]) : undefined;
            if (moved.length === 1 && (claimed.has(moved[0]) ? owner === refIdentity(refs[i]) : true)) {
                matches[i] = { key: moved[0], entry: lock.entries[moved[0]], how: "moved" };
                claimed.add(moved[0]);
                movedTo.set(moved[0], refIdentity(refs[i]));
            } else left.push(i);
            continue;
        }
        const line = resolution.range.start.line;
        let best = candidates[0];
        for (const key of candidates) {
            const distance = Math.abs(lock.entries[key].range.start.line - line);
            if (distance < Math.abs(lock.entries[best].range.start.line - line)) best = key;
        }
        matches[i] = { key: best, entry: lock.entries[best], how: "text" };
        claimed.add(best);
    }

    for (const how of ["strings", "lines"] as const) {
        if (left.length === 0) break;
        const index = new Map<string, string[]>();
        for (const key of keys) {
            if (claimed.has(key)) continue;
            const id = looseIdentity(lock.entries[key].ref, how);
            const list = index.get(id);
            if (list) list.push(key);
            else index.set(id, [key]);
        }
        const wanted = new Map<string, number[]>();
        for (const i of left) {
            const id = looseIdentity(refs[i], how);
            const list = wanted.get(id);
            if (list) list.push(i);
            else wanted.set(id, [i]);
        }
        const next: number[] = [];
        for (const i of left) {
            const id = looseIdentity(refs[i], how);
            const found = index.get(id);
            // Only a one-to-one pairing is a match: two refs or two entries alike leave it undecided.
            if (found?.length === 1 && wanted.get(id)?.length === 1) {
                matches[i] = { key: found[0], entry: lock.entries[found[0]], how };
                claimed.add(found[0]);
            } else next.push(i);
        }
        left = next;
    }
    return matches;
}

function looseIdentity(ref: Ref, how: "strings" | "lines"): string {
    return how === "strings"
        ? JSON.stringify([ref.path, ref.start.str, ref.end.str])
        : JSON.stringify([ref.path, ref.start.line, ref.end.line]);
}
