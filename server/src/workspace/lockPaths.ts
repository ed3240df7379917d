/**
 * Locks beside annotation files, as every host names and reads them (docs/lock.md): where a lock lies,
 * what a read of one gives, and `HostLocks`, how the language service reads and writes locks through
 * its host (lockFiles.ts's NODE_LOCKS over the disk; web/clientLocks.ts over the client's files, which
 * writes none). Pure: no fs.
 */
import * as nodePath from "node:path";
import { type LockError, type LockFile, lockFileNameFor, parseLock } from "../core/lock";
import type { FileSnapshot } from "./safeWrite";

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

/** The annotation file a lock file belongs to (`X.sourcecheck.lock.json` -> `X.sourcecheck.json`). */
export function annotationPathOfLock(lockPath: string): string | undefined {
    return lockPath.endsWith(".lock.json") ? `${lockPath.slice(0, -".lock.json".length)}.json` : undefined;
}

/** A lock's text as read: valid, or why it cannot be used. */
export function lockFromText(path: string, text: string, annotationPath: string, snapshot?: FileSnapshot): LockRead {
    const parsed = parseLock(text, nodePath.basename(annotationPath));
    return parsed.lock ? { path, lock: parsed.lock, snapshot } : { path, error: parsed.error };
}

/** A lock that could not be read: none when missing, else `lock-unreadable` with the reader's clause. */
export function failedRead(path: string, read: { reason: string; message: string }): LockRead {
    if (read.reason === "missing") return { path };
    return { path, error: { code: "lock-unreadable", message: `the lock ${read.message}` } };
}

/**
 * The lock beside an annotation file as the agent tools are given it (ToolContext.lockFor, docs/lock.md):
 * none, valid, or why it cannot be used; and how to write it. On disk: lockFiles.ts `lockUnderRoot`.
 */
export interface LockAccess {
    /** The lock file, relative to the root. */
    path: string;
    lock?: LockFile;
    error?: LockError;
    /** Replace (or create) the lock file atomically. */
    write(content: string | Uint8Array): Promise<void>;
}

/** How the language service reads and writes locks: given by its host (service/core.ts). */
export interface HostLocks {
    /** A reader of the lock beside each annotation file, caching as the host can (one per workspace index). */
    reader(): { readBeside(annotationPath: string): LockRead };
    /** The lock beside an annotation file, with the snapshot a rewrite is checked against. */
    readForWrite(annotationPath: string): LockRead;
    /** Replace a lock only while it is as it was read, never outside `folder`; throws when refused. */
    write(lockPath: string, content: string | Uint8Array, expected: FileSnapshot | undefined, folder: string): void;
    /** A refused or failed write as one sentence about the file (`shown`). */
    describeWriteError(shown: string, error: unknown): string;
}
