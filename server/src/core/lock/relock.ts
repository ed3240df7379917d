/**
 * Locking a file's refs again over its previous lock (docs/lock.md, "Merging"):
 * - a ref that resolves gets a fresh entry (where it is now, its context, its document's hash); the
 *   entry keeps its key while the text is the locked one;
 * - a ref whose text changed: `acceptChangedText` (the `lock` command, the editor's "Accept") locks
 *   the new text under a new key; otherwise (saving in the editor, repair) the entry keeps its
 *   locked text and only follows the ref;
 * - a ref that no longer resolves keeps its last known entry (repair looks for that text);
 * - entries no ref of the file matches are dropped.
 */
import { type DocumentLookup, isDocumentFailure } from "../session";
import { contentSha256 } from "./basis";
import { baseKey, copyRef, entryKey, isLockedText, lockEntry } from "./entry";
import { type LockSite, matchLock } from "./match";
import { LOCK_VERSION, type LockEntry, type LockFile, type Sha256 } from "./types";

/** What became of one ref. `locked`: entry written; `kept`: unresolved, last known entry kept;
 * `unresolved`: unresolved and never locked; `changed`: text changed and not accepted. */
export type RefLockStatus = "locked" | "kept" | "unresolved" | "changed";

export interface RelockOptions {
    /**
     * Lock a changed text as the new meaning (the `lock` command: true; saving in the editor: false),
     * or for some sites only (the editor's "Accept the new text" on one ref): a predicate on the site's index.
     */
    acceptChangedText: boolean | ((site: number) => boolean);
}

export interface RelockResult {
    lock: LockFile;
    /** One per site, in order. */
    statuses: RefLockStatus[];
    /** The key each site's entry has in the new lock (undefined when it has none). */
    keys: (string | undefined)[];
    /** Sites whose entry held other text and were locked to their text now (accepted). */
    accepted: number;
}

export function relock(
    previous: LockFile | undefined,
    annotationFile: string,
    sites: readonly LockSite[],
    lookup: DocumentLookup,
    sha256: Sha256,
    { acceptChangedText }: RelockOptions,
): RelockResult {
    const matches = previous ? matchLock(previous, sites, sha256) : [];
    const entries = new Map<string, LockEntry>();
    const statuses: RefLockStatus[] = [];
    const keys: (string | undefined)[] = new Array(sites.length);
    const documentHashes = new Map<string, string>();
    const fresh: { site: number; entry: LockEntry }[] = [];
    let accepted = 0;

    sites.forEach((site, i) => {
        const match = matches[i];
        const resolution = site.resolution;
        if (!resolution.valid) {
            statuses.push(match ? "kept" : "unresolved");
            if (match && !entries.has(match.key)) entries.set(match.key, { ...match.entry, ref: copyRef(site.ref) });
            keys[i] = match?.key;
            return;
        }
        const accepting = typeof acceptChangedText === "function" ? acceptChangedText(i) : acceptChangedText;
        const changed = match !== undefined && !isLockedText(match.entry, resolution.text, sha256);
        if (changed && !accepting) {
            statuses.push("changed");
            if (!entries.has(match.key)) entries.set(match.key, { ...match.entry, ref: copyRef(site.ref) });
            keys[i] = match.key;
            return;
        }
        if (changed) accepted++;
        const document = lookup.get(resolution.path);
        if (document === undefined || isDocumentFailure(document)) {
            // Cannot happen for a ref that resolved; recorded rather than thrown.
            statuses.push(match ? "kept" : "unresolved");
            return;
        }
        let documentHash = documentHashes.get(document.path);
        if (documentHash === undefined) {
            documentHash = contentSha256(document, sha256);
            documentHashes.set(document.path, documentHash);
        }
        const entry = lockEntry(site.ref, resolution, document, sha256, documentHash);
        statuses.push("locked");
        // Same text under a key that still names its document: the key stays. A document moved to
        // another path gets a key naming the new path (the old one is dropped with nothing left on it).
        if (
            match &&
            match.entry.sha256 === entry.sha256 &&
            baseKey(match.key) === entryKey(entry.ref.path, entry.sha256)
        ) {
            if (!entries.has(match.key)) entries.set(match.key, entry);
            keys[i] = match.key;
        } else fresh.push({ site: i, entry });
    });

    // New keys after every kept one is placed, so a new entry never takes an existing entry's key;
    // in document order, so `~2` goes to the later span whatever the order of the annotations.
    fresh.sort((a, b) => compareEntries(a.entry, b.entry));
    for (const { site, entry } of fresh) {
        let occurrence = 1;
        for (;;) {
            const key = entryKey(entry.ref.path, entry.sha256, occurrence);
            const taken = entries.get(key);
            if (taken === undefined) {
                entries.set(key, entry);
                keys[site] = key;
                break;
            }
            if (taken.sha256 === entry.sha256 && sameRange(taken, entry)) {
                keys[site] = key; // another ref on the very same span: one entry
                break;
            }
            occurrence++;
        }
    }
    return {
        lock: { lockVersion: LOCK_VERSION, annotationFile, entries: sortEntries(entries) },
        statuses,
        keys,
        accepted,
    };
}

/** Entries by document path, then where their text was, then key: a stable order for small diffs. */
export function sortEntries(entries: Map<string, LockEntry> | Record<string, LockEntry>): Record<string, LockEntry> {
    const list = entries instanceof Map ? [...entries] : Object.entries(entries);
    list.sort(([ka, a], [kb, b]) => compareEntries(a, b) || compareStrings(ka, kb));
    const out: Record<string, LockEntry> = {};
    // Not copied: an entry's field order is fixed where it is written (serializeLock).
    for (const [key, entry] of list) out[key] = entry;
    return out;
}

function compareEntries(a: LockEntry, b: LockEntry): number {
    return (
        compareStrings(a.ref.path, b.ref.path) ||
        a.range.start.line - b.range.start.line ||
        a.range.start.column - b.range.start.column ||
        a.range.end.line - b.range.end.line ||
        a.range.end.column - b.range.end.column
    );
}

function sameRange(a: LockEntry, b: LockEntry): boolean {
    return (
        a.range.start.line === b.range.start.line &&
        a.range.start.column === b.range.start.column &&
        a.range.end.line === b.range.end.line &&
        a.range.end.column === b.range.end.column
    );
}

/** Code-unit order, the same on every machine and locale. */
function compareStrings(a: string, b: string): number {
    return a < b ? -1 : a > b ? 1 : 0;
}
