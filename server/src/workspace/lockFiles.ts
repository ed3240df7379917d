/**
 * Lock files on disk (docs/lock.md): the sidecar beside an annotation file, read through the one safe
 * reader, and the SHA-256 the pure lock module is given.
 */

import * as fs from "node:fs";
import * as nodePath from "node:path";
import { type LockError, type LockFile, lockFileNameFor, parseLock } from "../core/lock";
import { fileStamp } from "./fileStamp";
import { readTextFile } from "./safeFile";
import { type FileSnapshot, writeFileSafely } from "./safeWrite";

export { sha256 } from "./sha256";

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
    if (read.ok) {
        const parsed = parseLock(read.text, nodePath.basename(annotationPath));
        return parsed.lock ? { path, lock: parsed.lock, snapshot: read.snapshot } : { path, error: parsed.error };
    }
    if (read.reason === "missing") return { path };
    return {
        path,
        error: { code: "lock-unreadable", message: `the lock ${read.message}` },
    };
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
