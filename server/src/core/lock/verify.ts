/**
 * A lock entry is a record, never an authority (docs/security.md, "The lock's trust model"): before
 * `check` or `repair` trusts what an entry says a ref meant, the entry must agree with itself and,
 * where the document it names is at hand, with that document. An entry edited by hand to hold another
 * sentence's text (with that text's hash and length) keeps its old key, range or document hash, and
 * one of those then disagrees with the text.
 */

import { type DocumentLookup, isDocumentFailure, type SessionDocument } from "../session";
import { contentSha256 } from "./basis";
import type { LockEntry, Sha256 } from "./types";

/** Why an entry is not trusted; undefined when it is. */
export type EntryDoubt = "key" | "length" | "hash" | "range" | "document";

/**
 * The document an entry names, as it was when locked: the one of `candidates` whose SHA-256 is the
 * entry's `documentSha256` (the document now, or as history holds it). Undefined: none is at hand,
 * and only the entry's own fields are compared.
 */
export type DocumentAtBasis = (path: string, documentSha256: string) => SessionDocument | undefined;

/**
 * Whether an entry agrees with itself and with the document it claims:
 *   - its key is its path and its text's hash (what `lock` writes; `~N` suffixes aside);
 *   - its text has its `length` and its `sha256`; its ends fit in its length;
 *   - its range spans as many lines as its text does, and ends at the column its text's last line ends;
 *     a one-line range is exactly `length` wide;
 *   - in the document as it was (when that version is at hand), its range holds exactly its text.
 */
export function entryDoubt(
    key: string,
    entry: LockEntry,
    sha256: Sha256,
    documentAt?: DocumentAtBasis,
): EntryDoubt | undefined {
    const hash = key.lastIndexOf("#");
    if (hash === -1 || key.slice(0, hash) !== entry.ref.path || !entry.sha256.startsWith(keyHash(key, hash)))
        return "key";
    if (entry.text !== undefined) {
        if (entry.text.length !== entry.length) return "length";
        if (sha256(entry.text) !== entry.sha256) return "hash";
    } else if ((entry.head?.length ?? 0) > entry.length || (entry.tail?.length ?? 0) > entry.length) return "length";
    if (!rangeFits(entry)) return "range";
    const document = documentAt?.(entry.ref.path, entry.documentSha256);
    if (document && !holdsText(document, entry, sha256)) return "document";
    return undefined;
}

/** A lock keeping only the entries that pass `entryDoubt` (the rest are as if never locked). */
export function trustedEntries<T extends { entries: Record<string, LockEntry> }>(
    lock: T,
    sha256: Sha256,
    documentAt?: DocumentAtBasis,
): T {
    let entries: Record<string, LockEntry> | undefined;
    for (const key of Object.keys(lock.entries)) {
        if (entryDoubt(key, lock.entries[key], sha256, documentAt) === undefined) continue;
        entries ??= { ...lock.entries };
        delete entries[key];
    }
    return entries ? { ...lock, entries } : lock;
}

/** The hex digits of a key after its `#`, without an occurrence suffix (`~2`). */
function keyHash(key: string, hash: number): string {
    const tilde = key.indexOf("~", hash);
    const digits = key.slice(hash + 1, tilde === -1 ? undefined : tilde);
    // An empty hash part would match every text.
    return digits.length === 0 ? "-" : digits;
}

/** The range's shape agrees with the text's (lines split on `\n`, columns in UTF-16 units). */
function rangeFits(entry: LockEntry): boolean {
    const { start, end } = entry.range;
    const lines = end.line - start.line;
    if (lines < 0) return false;
    if (entry.text !== undefined) {
        const breaks = entry.text.split("\n").length - 1;
        if (lines === 0) return breaks === 0 && end.column - start.column === entry.length;
        return breaks === lines && entry.text.length - entry.text.lastIndexOf("\n") - 1 === end.column;
    }
    const head = entry.head ?? "";
    const tail = entry.tail ?? "";
    if (lines === 0) return end.column - start.column === entry.length && !head.includes("\n") && !tail.includes("\n");
    const tailBreak = tail.lastIndexOf("\n");
    const lastLine = tailBreak === -1 ? end.column >= tail.length : tail.length - tailBreak - 1 === end.column;
    // Head and tail do not overlap (the text is longer than both): their breaks are some of the text's.
    const known = head.split("\n").length - 1 + (tail.split("\n").length - 1);
    return lastLine && known <= lines && entry.length >= lines;
}

/** The entry's range, in the document as it was, holds exactly the entry's text. */
function holdsText(document: SessionDocument, entry: LockEntry, sha256: Sha256): boolean {
    const lines = document.lines;
    const { start, end } = entry.range;
    if (!lines.hasLine(start.line) || !lines.hasLine(end.line)) return false;
    if (start.column > lines.lineEnd(start.line) - lines.lineStart(start.line)) return false;
    if (end.column > lines.lineEnd(end.line) - lines.lineStart(end.line)) return false;
    const text = document.content.slice(lines.offsetAt(start.line, start.column), lines.offsetAt(end.line, end.column));
    return text.length === entry.length && sha256(text) === entry.sha256;
}

/**
 * The document an entry names, from the first lookup that has it with that hash: the documents now,
 * then as history holds them (a lookup asked only when the ones before did not match). Each version
 * is hashed once.
 */
export function documentsAtBasis(lookups: readonly (DocumentLookup | undefined)[], sha256: Sha256): DocumentAtBasis {
    const hashes = new Map<SessionDocument, string>();
    return (path, documentSha256) => {
        for (const lookup of lookups) {
            const document = lookup?.get(path);
            if (document === undefined || isDocumentFailure(document)) continue;
            let hash = hashes.get(document);
            if (hash === undefined) {
                hash = contentSha256(document, sha256);
                hashes.set(document, hash);
            }
            if (hash === documentSha256) return document;
        }
        return undefined;
    };
}
