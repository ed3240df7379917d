/**
 * The basis of a lock (docs/lock.md, "Basis"): what a lock was taken over. The SHA-256 of the
 * annotation file, of every document its refs looked up (null when it could not be read) and of the
 * entries as written. Resolution is a pure function of the annotation file and those documents, so
 * when all three are unchanged every ref resolves to exactly its locked text: `check` then knows each
 * ref's verdict against the lock without reading a single entry, which is what keeps `check` of a
 * locked 100,000-annotation file close to `check` without a lock. Anything different, and the
 * entries are read and compared one by one, as without a basis.
 */
import { type DocumentFailure, type DocumentLookup, isDocumentFailure, type SessionDocument } from "../session";
import type { LockBasis, Sha256 } from "./types";

/** A lookup that remembers every path asked for and what it gave (what the basis records). */
export class RecordingLookup implements DocumentLookup {
    readonly seen = new Map<string, SessionDocument | DocumentFailure | undefined>();

    constructor(private readonly inner: DocumentLookup) {}

    get(path: string): SessionDocument | DocumentFailure | undefined {
        if (this.seen.has(path)) return this.seen.get(path);
        const found = this.inner.get(path);
        this.seen.set(path, found);
        return found;
    }

    /** The `documents` of a basis: sorted by path, so the lock's text is deterministic. */
    documentHashes(sha256: Sha256): Record<string, string | null> {
        const out: Record<string, string | null> = {};
        for (const path of [...this.seen.keys()].sort(comparePaths)) out[path] = hashOf(this.seen.get(path), sha256);
        return out;
    }
}

/**
 * The documents of the basis that do not read now as they did (the annotation file's hash and the
 * entries' hash are compared where the bytes are: workspace/lockFiles.ts). None: every ref resolves
 * to its locked text; some: only refs into those can differ from their entries.
 */
export function changedDocuments(basis: LockBasis, lookup: DocumentLookup, sha256: Sha256): Set<string> {
    const changed = new Set<string>();
    for (const path in basis.documents) {
        if (!Object.hasOwn(basis.documents, path)) continue;
        if (hashOf(lookup.get(path), sha256) !== basis.documents[path]) changed.add(path);
    }
    return changed;
}

/**
 * Whether a basis may be used at all (docs/security.md, "The lock's trust model"): the basis is a
 * cache of the entries, never an authority over them. Its readable documents must be exactly the
 * documents the entries cite, and every entry's own `documentSha256` must be the basis's hash of its
 * document. A basis edited by hand (a hash set to the new text's, a document's line deleted, its key
 * renamed to `./doc.md`) then disagrees with the entries it sits over and the whole lock is read.
 * `entryDocuments`: each cited path -> the `documentSha256` values of its entries; undefined when the
 * entries could not be read as `serializeLock` writes them.
 */
export function basisAgreesWithEntries(
    basis: LockBasis,
    entryDocuments: ReadonlyMap<string, ReadonlySet<string>> | undefined,
): boolean {
    if (!entryDocuments) return false;
    let readable = 0;
    for (const path in basis.documents) {
        if (!Object.hasOwn(basis.documents, path)) continue;
        const hash = basis.documents[path];
        // A document that could not be read vouches for nothing; an entry into it is not on this basis.
        if (hash === null) {
            if (entryDocuments.has(path)) return false;
            continue;
        }
        readable++;
        const hashes = entryDocuments.get(path);
        if (hashes?.size !== 1 || !hashes.has(hash)) return false;
    }
    return readable === entryDocuments.size;
}

function hashOf(document: SessionDocument | DocumentFailure | undefined, sha256: Sha256): string | null {
    return document === undefined || isDocumentFailure(document) ? null : contentSha256(document, sha256);
}

/** A document's SHA-256: the one its reader hashed from the bytes when it did (cheaper), else of its text. */
export function contentSha256(document: SessionDocument, sha256: Sha256): string {
    return document.contentSha256 ?? sha256(document.content);
}

function comparePaths(a: string, b: string): number {
    return a < b ? -1 : a > b ? 1 : 0;
}
