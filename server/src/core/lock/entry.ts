/** One lock entry from one resolved ref, its key, and whether a text is still the locked one (docs/lock.md). */
import type { ResolvedSpan } from "../resolve";
import type { SessionDocument } from "../session";
import type { Ref } from "../types";
import { CONTEXT_LENGTH, END_LENGTH, type LockEntry, type Sha256, TEXT_CAP } from "./types";

/**
 * The entry of a resolved ref. `documentSha256` is passed in because many refs share a document and
 * hashing it once per document is the caller's to arrange (`DocumentHashes`).
 */
export function lockEntry(
    ref: Ref,
    resolved: ResolvedSpan,
    document: SessionDocument,
    sha256: Sha256,
    documentSha256: string,
): LockEntry {
    const { text, startOffset, endOffset } = resolved;
    const content = document.content;
    const entry: LockEntry = {
        ref: copyRef(ref),
        range: {
            start: { ...resolved.range.start },
            end: { ...resolved.range.end },
        },
        sha256: sha256(text),
        length: text.length,
        prefix: content.slice(safeStart(content, startOffset - CONTEXT_LENGTH), startOffset),
        suffix: content.slice(endOffset, safeEnd(content, endOffset + CONTEXT_LENGTH)),
        documentSha256,
    };
    if (text.length <= TEXT_CAP) entry.text = text;
    else {
        entry.head = text.slice(0, safeEnd(text, END_LENGTH));
        entry.tail = text.slice(safeStart(text, text.length - END_LENGTH));
    }
    return ordered(entry);
}

/**
 * The key of an entry: its path and the first 12 hex digits of its text's hash, `~2`, `~3`... for
 * further distinct spans of the same text in the same document. It names what the ref meant, not
 * where the ref is: moving a ref, reordering or adding annotations leaves it alone.
 */
export function entryKey(path: string, sha256: string, occurrence = 1): string {
    const base = `${path}#${sha256.slice(0, 12)}`;
    return occurrence === 1 ? base : `${base}~${occurrence}`;
}

/** The key without its occurrence suffix. */
export function baseKey(key: string): string {
    const tilde = key.lastIndexOf("~");
    const hash = key.lastIndexOf("#");
    return tilde > hash ? key.slice(0, tilde) : key;
}

/** True when `text` is the text the entry locked. Hashes only texts longer than the cap, and only when their ends agree. */
export function isLockedText(entry: LockEntry, text: string, sha256: Sha256): boolean {
    if (entry.text !== undefined) return text === entry.text;
    if (text.length !== entry.length) return false;
    if (entry.head !== undefined && !text.startsWith(entry.head)) return false;
    if (entry.tail !== undefined && !text.endsWith(entry.tail)) return false;
    return sha256(text) === entry.sha256;
}

/** The locked text as far as it is known: whole, or its two ends around an ellipsis. */
export function lockedTextOf(entry: LockEntry): { text: string; whole: boolean } {
    if (entry.text !== undefined) return { text: entry.text, whole: true };
    return { text: `${entry.head ?? ""}…${entry.tail ?? ""}`, whole: false };
}

/** One string for "same ref": path, lines and boundary strings. */
export function refIdentity(ref: Ref): string {
    return JSON.stringify([ref.path, ref.start.line, ref.start.str, ref.end.line, ref.end.str]);
}

export function copyRef(ref: Ref): Ref {
    return {
        path: ref.path,
        start: { line: ref.start.line, str: ref.start.str },
        end: { line: ref.end.line, str: ref.end.str },
    };
}

/** Fields in the documented order, so serialisation is stable whoever built the entry. */
export function ordered(entry: LockEntry): LockEntry {
    const out: LockEntry = {
        ref: copyRef(entry.ref),
        range: { start: { ...entry.range.start }, end: { ...entry.range.end } },
        sha256: entry.sha256,
        length: entry.length,
    } as LockEntry;
    if (entry.text !== undefined) out.text = entry.text;
    if (entry.head !== undefined) out.head = entry.head;
    if (entry.tail !== undefined) out.tail = entry.tail;
    out.prefix = entry.prefix;
    out.suffix = entry.suffix;
    out.documentSha256 = entry.documentSha256;
    return out;
}

/** Never start inside a surrogate pair: step forward past a low surrogate. */
function safeStart(text: string, at: number): number {
    if (at <= 0) return 0;
    const code = text.charCodeAt(at);
    return code >= 0xdc00 && code <= 0xdfff ? at + 1 : at;
}

/** Never end inside a surrogate pair: step back before a cut pair. */
function safeEnd(text: string, at: number): number {
    if (at >= text.length) return text.length;
    const code = text.charCodeAt(at - 1);
    return code >= 0xd800 && code <= 0xdbff ? at - 1 : at;
}
