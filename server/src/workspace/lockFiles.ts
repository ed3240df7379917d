/**
 * Lock files on disk (docs/lock.md): the sidecar beside an annotation file, read through the one safe
 * reader, and the SHA-256 the pure lock module is given.
 */

import * as fs from "node:fs";
import * as nodePath from "node:path";
import {
    basisOfHeader,
    conformsToLockEntry,
    ENTRIES_LINE,
    LOCK_VERSION,
    type LockBasis,
    type LockEntry,
    type LockError,
    type LockFile,
    lockFileNameFor,
    parseLock,
} from "../core/lock";
import { fileStamp } from "./fileStamp";
import { decodeText, readFileBytes, readTextFile } from "./safeFile";
import { type FileSnapshot, writeFileSafely } from "./safeWrite";

import { sha256, sha256OfBytes } from "./sha256";

export { sha256 };

/** A lock of 100,000 annotations is about 130 MB (docs/lock.md, "Deterministic text"); past this it is not one. */
export const MAX_LOCK_BYTES = 256 * 1024 * 1024;

export interface LockRead {
    /** Absolute path of the sidecar. */
    path: string;
    /** What was read, when asked for: a rewrite is refused if the file changed since (safeWrite.ts). */
    snapshot?: FileSnapshot;
    /** Present when the lock was read and is valid. */
    lock?: LockFile;
    /** Present when a lock file exists but cannot be used. */
    error?: LockError;
}

export function lockPathFor(annotationPath: string): string {
    return nodePath.join(nodePath.dirname(annotationPath), lockFileNameFor(nodePath.basename(annotationPath)));
}

/** The lock beside an annotation file: none (no `lock`, no `error`), valid, or a clear error. */
export function readLockBeside(annotationPath: string, options: { snapshot?: boolean } = {}): LockRead {
    const path = lockPathFor(annotationPath);
    const read = readTextFile(path, { maxBytes: MAX_LOCK_BYTES, snapshot: options.snapshot });
    if (read.ok) return lockFromText(path, read.text, annotationPath, read.snapshot);
    return failedRead(path, read);
}

/** A lock whose basis holds for the annotation file as read (basis.ts): its entries are read only if needed. */
export interface LockOnBasis {
    path: string;
    basis: LockBasis;
    /** The lock as read. */
    bytes: Buffer;
    /** Where its entries begin in `bytes` (the `"entries"` line). */
    entriesAt: number;
    /** The whole lock, decoded from the bytes already read. */
    load(): LockRead;
}

/**
 * A read of the lock for `check` and `lock`: when the lock's header has a basis, its entries are exactly as that
 * basis was written, and `annotationSha256` gives the hash of the text it was taken over, the entries are not parsed
 * (the caller compares the documents, then loads them only if one changed). Anything else: as
 * `readLockBeside`.
 */
export function readLockOnBasis(annotationPath: string, annotationSha256: () => string): LockRead | LockOnBasis {
    const path = lockPathFor(annotationPath);
    const read = readFileBytes(path, { maxBytes: MAX_LOCK_BYTES });
    if (!read.ok) return failedRead(path, read);
    const bytes = read.bytes;
    const load = () => {
        const decoded = decodeText(bytes);
        return decoded.ok
            ? lockFromText(path, decoded.text, annotationPath)
            : { path, error: { code: "lock-unreadable" as const, message: `the lock ${decoded.message}` } };
    };
    const at = bytes.indexOf(`\n${ENTRIES_LINE}`);
    if (at < 0) return load();
    const basis = basisOfHeader(bytes.subarray(0, at + 1).toString("utf8"), nodePath.basename(annotationPath));
    if (
        !basis ||
        basis.annotationFileSha256 !== annotationSha256() ||
        basis.entriesSha256 !== sha256OfBytes(bytes.subarray(at + 1))
    )
        return load();
    return { path, basis, bytes, entriesAt: at + 1, load };
}

/**
 * The lock with only the entries of refs into `paths` (the documents its basis no longer vouches for),
 * parsed line by line from the bytes: one line per entry, `ref.path` first (serializeLock), so a byte
 * search finds the candidates and only those are parsed. Undefined when a line is not what
 * `serializeLock` writes: the caller then reads the lock whole.
 */
export function entriesFor(
    read: LockOnBasis,
    paths: ReadonlySet<string>,
    annotationFile: string,
): LockFile | undefined {
    const { bytes } = read;
    const entries: Record<string, LockEntry> = {};
    for (const path of paths) {
        const needle = Buffer.from(`: {"ref":{"path":${JSON.stringify(path)},`);
        for (let at = bytes.indexOf(needle, read.entriesAt); at >= 0; at = bytes.indexOf(needle, at + needle.length)) {
            const start = bytes.lastIndexOf(10, at) + 1;
            const newline = bytes.indexOf(10, at);
            let end = newline < 0 ? bytes.length : newline;
            if (bytes[end - 1] === 44) end--; // the comma between entries
            let parsed: unknown;
            try {
                parsed = JSON.parse(`{${bytes.subarray(start, end).toString("utf8")}}`);
            } catch {
                return undefined;
            }
            const keys = Object.keys(parsed as object);
            if (keys.length !== 1) return undefined;
            const entry = (parsed as Record<string, unknown>)[keys[0]];
            if (!conformsToLockEntry(entry) || (entry as LockEntry).ref.path !== path) return undefined;
            entries[keys[0]] = entry as LockEntry;
        }
    }
    return { lockVersion: LOCK_VERSION, annotationFile, entries };
}

/** Whether a lock file (or anything under its name) is beside an annotation file: one stat, no read. */
export function hasLockBeside(annotationPath: string): boolean {
    return fs.existsSync(lockPathFor(annotationPath));
}

export function isLockOnBasis(read: LockRead | LockOnBasis): read is LockOnBasis {
    return (read as LockOnBasis).basis !== undefined;
}

function lockFromText(path: string, text: string, annotationPath: string, snapshot?: FileSnapshot): LockRead {
    const parsed = parseLock(text, nodePath.basename(annotationPath));
    return parsed.lock ? { path, lock: parsed.lock, snapshot } : { path, error: parsed.error };
}

function failedRead(path: string, read: { reason: string; message: string }): LockRead {
    if (read.reason === "missing") return { path };
    return { path, error: { code: "lock-unreadable", message: `the lock ${read.message}` } };
}

/**
 * Locks read again only when they change: the language server checks an annotation file on every
 * edit, and a large lock (100 MB for 100,000 annotations) must not be parsed on every keystroke.
 * A lock is known unchanged by its stamp (fileStamp.ts), once settled; the read itself is the safe one.
 */
export class LockReader {
    private readonly cache = new Map<string, { stamp: string; read: LockRead }>();

    readBeside(annotationPath: string): LockRead {
        const stamped = fileStamp(lockPathFor(annotationPath));
        const cached = this.cache.get(annotationPath);
        if (stamped?.settled && cached?.stamp === stamped.stamp) return cached.read;
        const read = readLockBeside(annotationPath);
        // Kept only once settled: a lock written moments ago may be written again with the same stamp.
        if (stamped?.settled) this.cache.set(annotationPath, { stamp: stamped.stamp, read });
        else this.cache.delete(annotationPath);
        return read;
    }
}

/** The annotation file a lock file belongs to (`X.sourcecheck.lock.json` -> `X.sourcecheck.json`). */
export function annotationPathOfLock(lockPath: string): string | undefined {
    return lockPath.endsWith(".lock.json") ? `${lockPath.slice(0, -".lock.json".length)}.json` : undefined;
}

/**
 * Write a lock beside its annotation file through the one safe writer: refused if the lock changed
 * since it was read (`expected`), or if the folder is not under `folder` (the workspace folder).
 */
export function writeLockFile(
    lockPath: string,
    content: string,
    expected: FileSnapshot | undefined,
    folder: string,
): void {
    writeFileSafely(lockPath, content, { expected, within: fs.realpathSync(folder) });
}
