/**
 * A workspace in memory (docs/library.md): files given as text by path relative to the root, for
 * tests and for embedders that check a model's annotations without a disk. Nothing is pending, there
 * is no history, and every read is recorded (`reads`), as vscode-markdown-languageservice's in-memory
 * workspace does, so a test can say which files an operation opened.
 */
import { formatBytes } from "../core/bytes";
import { normalizeLineEndings } from "../core/lines";
import { type DocumentLookup, SessionDocument } from "../core/session";
import {
    type Disposable,
    type FileInfo,
    type HistoryChange,
    type TextRead,
    type Workspace,
    type WorkspaceHistory,
    WorkspaceWriteError,
    type WriteOptions,
} from "./workspace";
import { SYNCHRONOUS_READS } from "./workspaceFiles";

export interface MemoryWorkspace extends Workspace {
    /** Every path read, stat'ed, listed or resolved (realPath), in order (absolute, as asked). */
    readonly reads: string[];
    /** The files now, by path relative to the root (what writes left). */
    files(): Record<string, string>;
}

export interface MemoryWorkspaceOptions {
    /** The root's absolute path (default `/workspace`). */
    root?: string;
    /** Documents by revision, for a test of history: `{ rev: { path: text } }`, renames by revision. */
    history?: {
        revisions: Record<string, Record<string, string>>;
        lastCommit?: Record<string, string>;
        renames?: Record<string, Record<string, string[]>>;
        /** The changes of `base...head` by that key (`base...` for the files as they are), the revisions as given. */
        changes?: Record<string, HistoryChange[]>;
    };
}

/** A workspace holding `files` (paths relative to the root, `/`-separated). */
export function createMemoryWorkspace(
    files: Record<string, string>,
    options: MemoryWorkspaceOptions = {},
): MemoryWorkspace {
    const root = trimSlash(options.root ?? "/workspace");
    const texts = new Map<string, string>();
    for (const [path, text] of Object.entries(files)) texts.set(absoluteOf(root, path), text);
    const reads: string[] = [];
    const listeners = new Set<{ folder: string; listener: (path: string) => void }>();
    const isFolder = (path: string) => {
        const prefix = `${trimSlash(path)}/`;
        for (const key of texts.keys()) if (key.startsWith(prefix)) return true;
        return path === root;
    };
    const workspace: MemoryWorkspace = {
        ...SYNCHRONOUS_READS,
        root,
        reads,
        readText(path, maxBytes): TextRead {
            reads.push(path);
            const text = texts.get(normal(path));
            if (text === undefined) {
                return isFolder(normal(path))
                    ? { ok: false, reason: "directory", message: "is a directory, not a text file" }
                    : { ok: false, reason: "missing", message: "does not exist" };
            }
            const size = utf8Length(text);
            if (size > maxBytes) {
                const message = `is ${formatBytes(size)}, over the ${formatBytes(maxBytes)} size cap`;
                return { ok: false, reason: "too-large", message, size };
            }
            if (text.includes("\0"))
                return { ok: false, reason: "not-text", message: "is binary (it contains NUL bytes), not text" };
            return { ok: true, text: text.charCodeAt(0) === 0xfeff ? text.slice(1) : text };
        },
        stat(path): FileInfo | undefined {
            reads.push(path);
            const text = texts.get(normal(path));
            if (text !== undefined) return { kind: "file", size: utf8Length(text), mtime: 0 };
            return isFolder(normal(path)) ? { kind: "directory", size: 0, mtime: 0 } : undefined;
        },
        async list(directory) {
            reads.push(directory);
            const folder = normal(directory);
            if (!isFolder(folder)) return undefined;
            const prefix = folder === "/" ? "/" : `${folder}/`;
            const entries = new Map<string, "file" | "directory">();
            for (const key of texts.keys()) {
                if (!key.startsWith(prefix)) continue;
                const rest = key.slice(prefix.length);
                const slash = rest.indexOf("/");
                entries.set(slash < 0 ? rest : rest.slice(0, slash), slash < 0 ? "file" : "directory");
            }
            return [...entries]
                .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
                .map(([name, kind]) => ({ name, kind }));
        },
        realPath(path) {
            reads.push(path);
            const key = normal(path);
            return texts.has(key) || isFolder(key) ? key : undefined;
        },
        async write(path, text, { ifUnchanged }: WriteOptions) {
            const key = normal(path);
            const now = texts.get(key);
            if ((now ?? null) !== ifUnchanged) {
                throw new WorkspaceWriteError("changed", "changed since it was read; nothing was written");
            }
            texts.set(key, text);
            for (const { folder, listener } of listeners) if (key.startsWith(`${folder}/`)) listener(key);
        },
        watch(folder, listener): Disposable {
            const entry = { folder: trimSlash(normal(folder)), listener };
            listeners.add(entry);
            return { dispose: () => listeners.delete(entry) };
        },
        history: options.history && memoryHistory(root, options.history),
        files() {
            const out: Record<string, string> = {};
            for (const [key, text] of texts) out[key.slice(root.length + 1)] = text;
            return out;
        },
    };
    return workspace;
}

function memoryHistory(root: string, given: NonNullable<MemoryWorkspaceOptions["history"]>): WorkspaceHistory {
    return {
        at(_root, rev): DocumentLookup {
            const files = given.revisions[rev];
            if (!files) throw new Error(`unknown revision ${JSON.stringify(rev)}`);
            return { get: (path) => (files[path] === undefined ? undefined : sessionDocument(path, files[path])) };
        },
        lastCommitOf: (file) => given.lastCommit?.[file.startsWith(`${root}/`) ? file.slice(root.length + 1) : file],
        renamesSince: (_root, rev) => new Map(Object.entries(given.renames?.[rev] ?? {})),
        changesBetween(_root, base, head) {
            const changes = given.changes?.[`${base}...${head ?? ""}`];
            if (!changes) throw new Error(`unknown revisions ${JSON.stringify(`${base}...${head ?? ""}`)}`);
            return { base, head, changes };
        },
    };
}

function sessionDocument(path: string, text: string): SessionDocument {
    return new SessionDocument(path, normalizeLineEndings(text));
}

function trimSlash(path: string): string {
    return path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path;
}

function absoluteOf(root: string, relative: string): string {
    return normal(`${root}/${relative}`);
}

/** `/`-separated, `.` and `..` segments resolved, no trailing slash. */
function normal(path: string): string {
    const parts: string[] = [];
    for (const part of path.replace(/\\/g, "/").split("/")) {
        if (part === "" || part === ".") continue;
        if (part === "..") parts.pop();
        else parts.push(part);
    }
    return `/${parts.join("/")}`;
}

/** The UTF-8 length of a text without encoding it (the memory workspace runs in a browser too). */
function utf8Length(text: string): number {
    let bytes = 0;
    for (let i = 0; i < text.length; i++) {
        const code = text.charCodeAt(i);
        if (code < 0x80) bytes += 1;
        else if (code < 0x800) bytes += 2;
        else if (code >= 0xd800 && code < 0xdc00 && i + 1 < text.length) {
            bytes += 4;
            i++;
        } else bytes += 3;
    }
    return bytes;
}
