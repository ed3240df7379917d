/**
 * The one door (docs/architecture.md, "One door for files"): how an operation, a feature or the
 * language service reaches files. It is `WorkspaceFiles` (read, stat, list, and the "pending" of a
 * host that answers later, workspaceFiles.ts) plus what the rest of SourceCheck needs of a host: the
 * real path of a file, a write that is refused when the file changed since it was read, changes
 * where the host can watch, and the history the host can give (git on Node; none in the browser or
 * in memory). Three implementations: Node (nodeWorkspace.ts: the safe reader and writer, git), the
 * browser client (clientFiles.ts) and memory (memoryWorkspace.ts: for tests and embedders).
 *
 * Paths are absolute in the host's path space (on Node, the disk's; in memory, `/`-separated under
 * `root`). Pure: no fs, no git.
 */
import { normalizeLineEndings } from "../core/lines";
import { type DocumentFailure, type DocumentLookup, noFileMessage, SessionDocument } from "../core/session";
import { isInside, resolveUnderRoot } from "./pathSafety";
import type { TextRead, WorkspaceFiles } from "./workspaceFiles";

export type { FileInfo, FileKind, TextRead } from "./workspaceFiles";

/** Refusal codes of `write`, as the safe writer's (safeWrite.ts). */
export type WorkspaceWriteCode = "changed" | "not-regular" | "symlink" | "outside" | "read-only" | "io-error";

/** A write refused or failed: a stable code and a clause about the file ("changed since it was read"). */
export class WorkspaceWriteError extends Error {
    constructor(
        readonly code: WorkspaceWriteCode,
        message: string,
    ) {
        super(message);
    }
}

export interface WriteOptions {
    /**
     * The text the file had when it was read, as `readText` returned it; `null`: the file must not
     * exist yet. The write is refused (code `changed`) if the file is no longer so.
     */
    ifUnchanged: string | null;
}

/** A file changed between two revisions (git's name-status, renames detected); paths relative to the root, `/`-separated. */
export interface HistoryChange {
    status: "added" | "modified" | "deleted" | "renamed" | "copied" | "type-changed";
    /** Its path at the head (a deleted file: the path it had). */
    path: string;
    /** A renamed or copied file's path at the base. */
    previousPath?: string;
}

/** The change `base...head` (docs/review.md, "Affected refs"): the revisions as commit ids, and the files changed. */
export interface HistoryChanges {
    base: string;
    /** Undefined: the head is the files as they are now (the work tree). */
    head: string | undefined;
    changes: HistoryChange[];
}

/** What a host's history gives (docs/repair.md, "Evidence"; docs/review.md): on Node, git. */
export interface WorkspaceHistory {
    /** The documents under `root` as they were at `rev`; throws an Error (one clear line) when it cannot. */
    at(root: string, rev: string): DocumentLookup;
    /** The last commit that changed `file`, or undefined (no history, never committed). */
    lastCommitOf(file: string): string | undefined;
    /** Renames recorded under `root` since `rev`: old path -> new paths, both relative to `root`. */
    renamesSince(root: string, rev: string): Map<string, string[]>;
    /**
     * The files changed from the merge base of `base` and `head` to `head` (without one: to the files as
     * they are), under the repository `root`. `head` must be the revision the files are at. Throws an
     * Error (one clear line) for an unknown revision, a shallow history, another head.
     */
    changesBetween?(root: string, base: string, head: string | undefined): HistoryChanges;
}

export interface Disposable {
    dispose(): void;
}

export interface Workspace extends WorkspaceFiles {
    /** The folder everything is under: a relative path (a ref, an argument) is relative to it. */
    readonly root: string;
    /** Where a path leads once links are followed; undefined when it leads nowhere (missing, a loop). */
    realPath(path: string): string | undefined;
    /** Replace (or create) a file's text, only while it is as it was read (WriteOptions). */
    write(path: string, text: string, options: WriteOptions): Promise<void>;
    /** Calls `listener` with each path that changes under `folder`, where the host can watch. */
    watch?(folder: string, listener: (path: string) => void): Disposable;
    /** The history the host can give; undefined where there is none (the browser, memory). */
    readonly history?: WorkspaceHistory;
    /**
     * The documents under a document root, read with every safety rule (docs/contract.md, section 3:
     * `path-outside-root`, `unreadable-document`). A host may answer with its own reader (Node: the one
     * safe reader); `workspaceDocuments` below is the same rule over the methods above.
     */
    documents?(root: string, options: DocumentsOptions): DocumentLookup;
}

export interface DocumentsOptions {
    maxBytes?: number;
    /** Documents carry the SHA-256 of their content (a lock's basis). */
    contentSha256?: boolean;
}

export const DEFAULT_MAX_DOCUMENT_BYTES = 64 * 1024 * 1024;

/** The documents under `root` of a workspace, each read at most once. */
export function documentsOf(workspace: Workspace, root: string, options: DocumentsOptions = {}): DocumentLookup {
    return workspace.documents?.(root, options) ?? workspaceDocuments(workspace, root, options);
}

/** The document rule over `readText` and `realPath`, for hosts without their own reader. */
export function workspaceDocuments(
    workspace: Workspace,
    root: string,
    options: DocumentsOptions & { sha256?: (text: string) => string } = {},
): DocumentLookup {
    const cache = new Map<string, SessionDocument | DocumentFailure>();
    return {
        get(path) {
            let entry = cache.get(path);
            if (entry === undefined) {
                entry = readDocument(workspace, root, path, options.maxBytes ?? DEFAULT_MAX_DOCUMENT_BYTES);
                if (options.contentSha256 && options.sha256 && !("code" in entry))
                    entry = new SessionDocument(path, entry.content, options.sha256(entry.content));
                cache.set(path, entry);
            }
            return entry;
        },
    };
}

function readDocument(
    workspace: Workspace,
    root: string,
    documentPath: string,
    maxBytes: number,
): SessionDocument | DocumentFailure {
    const quoted = JSON.stringify(documentPath);
    const verdict = resolveUnderRoot(root, documentPath);
    if (!verdict.ok) return { code: "path-outside-root", message: verdict.message };
    const realRoot = workspace.realPath(root) ?? root;
    const real = workspace.realPath(verdict.absolute);
    if (real === undefined) return { code: "unreadable-document", message: noFileMessage(documentPath) };
    if (!isInside(realRoot, real)) {
        return {
            code: "path-outside-root",
            message: `the path ${quoted} is a symlink leading outside the document root`,
        };
    }
    const read: TextRead = workspace.readText(real, maxBytes);
    if (!read.ok) return { code: "unreadable-document", message: `${quoted} ${read.message}` };
    return new SessionDocument(documentPath, normalizeLineEndings(read.text));
}

/** A path relative to the workspace's root, `/`-separated; the root itself is "". */
export function relativeTo(root: string, path: string): string {
    const base = root.endsWith("/") || root.endsWith("\\") ? root : `${root}/`;
    const slashed = path.replace(/\\/g, "/");
    const slashedBase = base.replace(/\\/g, "/");
    if (slashed === slashedBase.slice(0, -1)) return "";
    return slashed.startsWith(slashedBase) ? slashed.slice(slashedBase.length) : slashed;
}
