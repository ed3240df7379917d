/**
 * WorkspaceFiles answered by the client (docs/web.md): the language server in a web worker has no file
 * system, so it asks the client, which reads through `vscode.workspace.fs` (any scheme: a GitHub
 * repository in github.dev, a test's in-memory provider). Answers are kept until the client says the
 * file changed; a read asked for and not yet answered is "pending" (workspaceFiles.ts), never "missing".
 * Every answer kept has an invalidation path: `changed` (the client forwards file changes) drops it, and
 * each arrival is told to `onArrived` listeners, which drop what was decided without it.
 */
import type { RequestType } from "vscode-languageserver-protocol";
import { webListRequest, webReadRequest, webStatRequest } from "../../../shared/webProtocol";
import type { UriSpace } from "./uris";
import type { FileInfo, FileKind, TextRead, WorkspaceFiles } from "./workspaceFiles";

/** What the client answers to a read (shared/webProtocol.ts carries it). */
export type ClientRead =
    | { kind: "text"; text: string }
    | { kind: "missing" | "directory" | "binary" | "not-utf8" | "error"; message?: string }
    | { kind: "too-large"; size: number };

/** The three questions the server asks the client (`connectionAsker` sends them). */
export interface FileAsker {
    read(path: string, maxBytes: number): Promise<ClientRead>;
    stat(path: string): Promise<FileInfo | undefined>;
    list(directory: string): Promise<{ name: string; kind: FileKind | "symlink" }[] | undefined>;
}

/** What sends a request to the client: the worker's connection (browserServer.ts). */
export interface RequestSender {
    sendRequest<P, R>(type: RequestType<P, R, void>, params: P): Promise<R>;
}

/**
 * The questions of a `FileAsker` sent to the client as shared/webProtocol.ts's requests (docs/web.md),
 * each path as a URI of the workspace's space (`uris`: known once the workspace folders are).
 */
export function connectionAsker(connection: RequestSender, uris: () => UriSpace): FileAsker {
    const pathToUri = (path: string) => uris().pathToUri(path);
    return {
        read: (path, maxBytes) => connection.sendRequest(webReadRequest, { uri: pathToUri(path), maxBytes }),
        stat: async (path) => {
            const { stat } = await connection.sendRequest(webStatRequest, { uri: pathToUri(path) });
            if (!stat) return undefined;
            return { kind: stat.kind === "symlink" ? "other" : stat.kind, size: stat.size, mtime: stat.mtime };
        },
        list: async (directory) =>
            (await connection.sendRequest(webListRequest, { uri: pathToUri(directory) })).entries,
    };
}

function textReadOf(read: ClientRead): TextRead {
    switch (read.kind) {
        case "text":
            return { ok: true, text: read.text.charCodeAt(0) === 0xfeff ? read.text.slice(1) : read.text };
        case "missing":
            return { ok: false, reason: "missing", message: "does not exist" };
        case "directory":
            return { ok: false, reason: "directory", message: "is a directory" };
        case "binary":
            return { ok: false, reason: "not-text", message: "is binary (it contains NUL bytes), not text" };
        case "not-utf8":
            return { ok: false, reason: "not-text", message: "is not valid UTF-8 text" };
        case "too-large":
            return { ok: false, reason: "too-large", message: "is over the size cap", size: read.size };
        default:
            return { ok: false, reason: "error", message: `cannot be read: ${read.message ?? "error"}` };
    }
}

interface Kept<T> {
    value?: T;
    /** Set while the question is on its way. */
    asking?: Promise<void>;
}

export class ClientFiles implements WorkspaceFiles {
    /** Reads by path and size cap: a larger cap may find a file the smaller one refused. */
    private readonly reads = new Map<string, Kept<TextRead> & { maxBytes: number }>();
    private readonly stats = new Map<string, Kept<FileInfo | undefined>>();
    private readonly inFlight = new Set<Promise<void>>();
    private readonly arrivalListeners: ((path: string) => void)[] = [];
    private readonly changeListeners: ((path: string) => void)[] = [];

    constructor(private readonly asker: FileAsker) {}

    readText(path: string, maxBytes: number): TextRead {
        const kept = this.reads.get(path);
        if (kept && kept.maxBytes === maxBytes) {
            if (kept.value) return kept.value;
            return { ok: false, reason: "pending", message: "is being read" };
        }
        const entry: Kept<TextRead> & { maxBytes: number } = { maxBytes };
        this.reads.set(path, entry);
        entry.asking = this.track(
            this.asker.read(path, maxBytes).then(
                (read) => {
                    if (this.reads.get(path) === entry) entry.value = textReadOf(read);
                },
                (error: unknown) => {
                    if (this.reads.get(path) === entry)
                        entry.value = { ok: false, reason: "error", message: `cannot be read: ${String(error)}` };
                },
            ),
            path,
        );
        return { ok: false, reason: "pending", message: "is being read" };
    }

    stat(path: string): FileInfo | undefined | "pending" {
        const kept = this.stats.get(path);
        if (kept && !kept.asking) return kept.value;
        if (kept) return "pending";
        const entry: Kept<FileInfo | undefined> = {};
        this.stats.set(path, entry);
        entry.asking = this.track(
            this.asker.stat(path).then(
                (info) => {
                    entry.value = info;
                    entry.asking = undefined;
                },
                () => {
                    entry.value = undefined;
                    entry.asking = undefined;
                },
            ),
            path,
        );
        return "pending";
    }

    list(directory: string): Promise<{ name: string; kind: FileKind | "symlink" }[] | undefined> {
        return this.asker.list(directory).catch(() => undefined);
    }

    changed(path: string): void {
        this.reads.delete(path);
        this.stats.delete(path);
        for (const listener of this.changeListeners) listener(path);
    }

    /** Calls `listener` with each path the client said changed (Find Sources' corpus follows them). */
    onChanged(listener: (path: string) => void): void {
        this.changeListeners.push(listener);
    }

    onArrived(listener: (path: string) => void): void {
        this.arrivalListeners.push(listener);
    }

    hasPending(): boolean {
        return this.inFlight.size > 0;
    }

    async settle(): Promise<void> {
        while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
    }

    private track(asking: Promise<void>, path: string): Promise<void> {
        const done = asking.finally(() => {
            this.inFlight.delete(done);
            for (const listener of this.arrivalListeners) listener(path);
        });
        this.inFlight.add(done);
        return done;
    }
}
