/**
 * Locks over the client's files (docs/web.md), as the web entry gives them to the language service
 * (browserHost.ts): a lock beside an annotation file is read from the client's files, so `check` flags
 * drift in the browser as on the desktop. Writing a lock is the desktop's: a write is refused with a
 * sentence saying so (docs/web.md, "What works and what does not").
 */
import { formatBytes } from "../../core/bytes";
import { failedRead, type HostLocks, type LockRead, lockFromText, lockPathFor, MAX_LOCK_BYTES } from "../lockPaths";
import type { WorkspaceFiles } from "../workspaceFiles";

const NOT_HERE = "cannot be written from VS Code for the Web (docs/web.md)";

/** The lock beside an annotation file, from the client's files; a read still on its way is no lock for now. */
function readLockOver(files: WorkspaceFiles, annotationPath: string): LockRead {
    const path = lockPathFor(annotationPath);
    const read = files.readText(path, MAX_LOCK_BYTES);
    if (read.ok) return lockFromText(path, read.text, annotationPath);
    // Pending: no lock for now; the check is made again once it arrived (workspaceIndex.ts).
    if (read.reason === "pending") return { path };
    if (read.reason === "too-large")
        return failedRead(path, { ...read, message: `is over the ${formatBytes(MAX_LOCK_BYTES)} size cap` });
    return failedRead(path, read);
}

/** `refusal`: why a lock cannot be written here (the browser's by default), said as "it …". */
export function clientLocks(files: WorkspaceFiles, refusal = NOT_HERE): HostLocks {
    // The client's files are the cache: an answer is kept until the client says the file changed.
    const reader = { readBeside: (annotationPath: string) => readLockOver(files, annotationPath) };
    return {
        reader: () => reader,
        readForWrite: (annotationPath) => readLockOver(files, annotationPath),
        write: () => {
            throw new Error(refusal);
        },
        describeWriteError: (shown, error) =>
            error instanceof Error && error.message === refusal
                ? `cannot write ${shown}: it ${refusal}`
                : `cannot write ${shown}: ${String(error)}`,
    };
}
