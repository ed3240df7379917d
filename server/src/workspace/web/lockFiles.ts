/**
 * The browser's twin of workspace/lockFiles.ts (docs/web.md): a lock beside an annotation file read from
 * the client's files, so `check` flags drift in the browser as on the desktop. Writing a lock is the
 * desktop's (web/safeWrite.ts says so).
 */
import * as nodePath from "node:path";
import { lockFileNameFor, parseLock } from "../../core/lock";
import type { LockRead } from "../lockFiles";
import { sha256 } from "../sha256";
import { readTextFile } from "./safeFile";
import { type FileSnapshot, writeFileSafely } from "./safeWrite";

export { sha256 };

export const MAX_LOCK_BYTES = 256 * 1024 * 1024;

export type { LockRead } from "../lockFiles";

export function lockPathFor(annotationPath: string): string {
    return nodePath.join(nodePath.dirname(annotationPath), lockFileNameFor(nodePath.basename(annotationPath)));
}

export function readLockBeside(annotationPath: string, _options: { snapshot?: boolean } = {}): LockRead {
    const path = lockPathFor(annotationPath);
    const read = readTextFile(path, { maxBytes: MAX_LOCK_BYTES });
    if (read.ok) {
        const parsed = parseLock(read.text, nodePath.basename(annotationPath));
        return parsed.lock ? { path, lock: parsed.lock } : { path, error: parsed.error };
    }
    // Pending: no lock for now; the check is made again once it arrived (workspaceIndex.ts).
    if (read.reason === "missing" || read.reason === "pending") return { path };
    return { path, error: { code: "lock-unreadable", message: `the lock ${read.message}` } };
}

/** As lockFiles.ts's reader; the client's files are the cache (read again only when they change). */
export class LockReader {
    readBeside(annotationPath: string): LockRead {
        return readLockBeside(annotationPath);
    }
}

export function annotationPathOfLock(lockPath: string): string | undefined {
    return lockPath.endsWith(".lock.json") ? `${lockPath.slice(0, -".lock.json".length)}.json` : undefined;
}

export function writeLockFile(
    lockPath: string,
    content: string,
    _expected: FileSnapshot | undefined,
    _folder: string,
): void {
    writeFileSafely(lockPath, content);
}
