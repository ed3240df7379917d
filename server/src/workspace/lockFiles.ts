/**
 * Lock files on disk (docs/lock.md): the sidecar beside an annotation file, read through the one safe
 * reader, and the SHA-256 the pure lock module is given.
 */
import * as crypto from "node:crypto";
import * as nodePath from "node:path";
import { type LockError, type LockFile, lockFileNameFor, parseLock, type Sha256 } from "../core/lock";
import { readTextFile } from "./safeFile";

const oneShot = (crypto as { hash?: (algorithm: string, data: string) => string }).hash;

/** SHA-256 of a string's UTF-8 bytes in hex (crypto.hash where Node has it: no Hash object per call). */
export const sha256: Sha256 = (text) =>
    oneShot ? oneShot("sha256", text) : crypto.createHash("sha256").update(text, "utf8").digest("hex");

/** A lock is far smaller than what it locks; past this it is not one. */
export const MAX_LOCK_BYTES = 64 * 1024 * 1024;

export interface LockRead {
    /** Absolute path of the sidecar. */
    path: string;
    /** Present when the lock was read and is valid. */
    lock?: LockFile;
    /** Present when a lock file exists but cannot be used. */
    error?: LockError;
}

export function lockPathFor(annotationPath: string): string {
    return nodePath.join(nodePath.dirname(annotationPath), lockFileNameFor(nodePath.basename(annotationPath)));
}

/** The lock beside an annotation file: none (no `lock`, no `error`), valid, or a clear error. */
export function readLockBeside(annotationPath: string): LockRead {
    const path = lockPathFor(annotationPath);
    const read = readTextFile(path, { maxBytes: MAX_LOCK_BYTES });
    if (read.ok) {
        const parsed = parseLock(read.text, nodePath.basename(annotationPath));
        return parsed.lock ? { path, lock: parsed.lock } : { path, error: parsed.error };
    }
    if (read.reason === "missing") return { path };
    return {
        path,
        error: { code: "lock-unreadable", message: `the lock ${read.message}` },
    };
}
