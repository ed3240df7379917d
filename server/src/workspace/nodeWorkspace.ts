/**
 * The workspace on a disk (docs/architecture.md, "One door for files"): every read through the one
 * safe reader (safeFile.ts: no FIFO, size cap, strict UTF-8), documents through readDocumentUnderRoot
 * (no escape from the root), every write through the one safe writer (safeWrite.ts: atomic, only
 * while unchanged, never outside the root), history from git (gitRevision.ts). Nothing is pending.
 */
import * as fs from "node:fs";
import * as nodePath from "node:path";
import { nodeDiscoveryFs } from "./discoveryFs";
import { DiskDocuments } from "./diskDocuments";
import { realPathOrUndefined, statOrUndefined } from "./fileStat";
import { gitChangesBetween } from "./gitChanges";
import { GitRevisionDocuments, lastCommitOf, renamesSince } from "./gitRevision";
import { isInside } from "./pathSafety";
import { readTextFile } from "./safeFile";
import { SafeWriteError, writeFileSafely } from "./safeWrite";
import {
    type Disposable,
    type FileInfo,
    type TextRead,
    type Workspace,
    type WorkspaceHistory,
    WorkspaceWriteError,
    type WriteOptions,
} from "./workspace";
import { SYNCHRONOUS_READS } from "./workspaceFiles";

/** Git's history of the work tree the files are in (none outside one: every answer says so). */
export const GIT_HISTORY: WorkspaceHistory = {
    at: (root, rev) => GitRevisionDocuments.open(root, rev),
    lastCommitOf,
    renamesSince,
    changesBetween: gitChangesBetween,
};

/** The workspace of the folder `root` (made absolute against the current folder). */
export function createNodeWorkspace(root: string): Workspace {
    const absoluteRoot = nodePath.resolve(root);
    return {
        ...SYNCHRONOUS_READS,
        root: absoluteRoot,
        readText(path, maxBytes): TextRead {
            const read = readTextFile(path, { maxBytes });
            if (read.ok) return { ok: true, text: read.text };
            return {
                ok: false,
                reason: read.reason === "outside" ? "error" : read.reason,
                message: read.message,
                size: read.size,
            };
        },
        stat(path): FileInfo | undefined {
            const stats = statOrUndefined(path);
            if (!stats) return undefined;
            const kind = stats.isFile() ? "file" : stats.isDirectory() ? "directory" : "other";
            return { kind, size: stats.size, mtime: stats.mtimeMs };
        },
        async list(directory) {
            return nodeDiscoveryFs.list(directory);
        },
        realPath: realPathOrUndefined,
        async write(path, text, options: WriteOptions) {
            writeUnchanged(absoluteRoot, path, text, options);
        },
        watch(folder, listener): Disposable {
            try {
                const watcher = fs.watch(folder, { recursive: true }, (_event, name) => {
                    if (name) listener(nodePath.join(folder, name.toString()));
                });
                return { dispose: () => watcher.close() };
            } catch {
                return { dispose: () => undefined }; // a host that cannot watch: nothing is told
            }
        },
        history: GIT_HISTORY,
        documents: (documentRoot, options) => new DiskDocuments(documentRoot, options),
    };
}

function writeUnchanged(root: string, path: string, text: string, { ifUnchanged }: WriteOptions): void {
    const realRoot = realPathOrUndefined(root);
    if (realRoot === undefined || !isInside(root, nodePath.resolve(path))) {
        throw new WorkspaceWriteError("outside", "is not under the workspace root; nothing was written");
    }
    const read = readTextFile(path, { snapshot: true });
    const now = read.ok ? read.text : read.reason === "missing" ? null : undefined;
    if (now === undefined || now !== ifUnchanged) {
        throw new WorkspaceWriteError("changed", "changed since it was read; nothing was written");
    }
    try {
        writeFileSafely(path, text, { expected: read.ok ? read.snapshot : undefined, within: realRoot });
    } catch (error) {
        if (!(error instanceof SafeWriteError)) throw error;
        const code = error.code === "changed" || error.code === "directory-changed" ? "changed" : error.code;
        throw new WorkspaceWriteError(
            code === "not-regular" || code === "symlink" || code === "read-only" || code === "changed"
                ? code
                : "io-error",
            error.message,
        );
    }
}
