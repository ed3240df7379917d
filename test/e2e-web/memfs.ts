/**
 * The web leg's in-memory file system (docs/web.md, "Tested"): the scheme `sourcecheck-mem`, registered by
 * the tests before SourceCheck starts, so the suite runs it on a workspace that is not `file:`. The
 * workbench opens `sourcecheck-mem:/demo`; the files come from the driver (path -> text).
 */
import * as vscode from "vscode";

export const MEM_SCHEME = "sourcecheck-mem";

type Entry = { type: vscode.FileType.File; data: Uint8Array; mtime: number } | { type: vscode.FileType.Directory };

class MemoryFileSystem implements vscode.FileSystemProvider {
    private readonly entries = new Map<string, Entry>([["/", { type: vscode.FileType.Directory }]]);
    private readonly emitter = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
    readonly onDidChangeFile = this.emitter.event;

    watch(): vscode.Disposable {
        return new vscode.Disposable(() => undefined);
    }

    stat(uri: vscode.Uri): vscode.FileStat {
        const entry = this.entry(uri);
        const size = entry.type === vscode.FileType.File ? entry.data.length : 0;
        const mtime = entry.type === vscode.FileType.File ? entry.mtime : 0;
        return { type: entry.type, ctime: 0, mtime, size };
    }

    readDirectory(uri: vscode.Uri): [string, vscode.FileType][] {
        const prefix = uri.path === "/" ? "/" : `${uri.path}/`;
        this.entry(uri);
        const children: [string, vscode.FileType][] = [];
        for (const [path, entry] of this.entries) {
            if (path !== prefix && path.startsWith(prefix) && !path.slice(prefix.length).includes("/"))
                children.push([path.slice(prefix.length), entry.type]);
        }
        return children;
    }

    readFile(uri: vscode.Uri): Uint8Array {
        const entry = this.entry(uri);
        if (entry.type !== vscode.FileType.File) throw vscode.FileSystemError.FileIsADirectory(uri);
        return entry.data;
    }

    writeFile(uri: vscode.Uri, content: Uint8Array, options: { create: boolean; overwrite: boolean }): void {
        const existing = this.entries.get(uri.path);
        if (!existing && !options.create) throw vscode.FileSystemError.FileNotFound(uri);
        if (existing && !options.overwrite) throw vscode.FileSystemError.FileExists(uri);
        this.put(uri.path, content);
        this.emitter.fire([{ type: existing ? vscode.FileChangeType.Changed : vscode.FileChangeType.Created, uri }]);
    }

    createDirectory(uri: vscode.Uri): void {
        this.entries.set(uri.path, { type: vscode.FileType.Directory });
        this.emitter.fire([{ type: vscode.FileChangeType.Created, uri }]);
    }

    delete(uri: vscode.Uri): void {
        this.entry(uri);
        for (const path of [...this.entries.keys()])
            if (path === uri.path || path.startsWith(`${uri.path}/`)) this.entries.delete(path);
        this.emitter.fire([{ type: vscode.FileChangeType.Deleted, uri }]);
    }

    rename(from: vscode.Uri, to: vscode.Uri): void {
        const entry = this.entry(from);
        this.entries.delete(from.path);
        this.entries.set(to.path, entry);
        this.emitter.fire([
            { type: vscode.FileChangeType.Deleted, uri: from },
            { type: vscode.FileChangeType.Created, uri: to },
        ]);
    }

    /** A file and every folder above it. */
    put(path: string, data: Uint8Array): void {
        const parts = path.split("/").filter(Boolean);
        for (let i = 1; i < parts.length; i++)
            this.entries.set(`/${parts.slice(0, i).join("/")}`, { type: vscode.FileType.Directory });
        this.entries.set(path, { type: vscode.FileType.File, data, mtime: Date.now() });
    }

    private entry(uri: vscode.Uri): Entry {
        const entry = this.entries.get(uri.path);
        if (!entry) throw vscode.FileSystemError.FileNotFound(uri);
        return entry;
    }
}

/** Registers the scheme with the demo's files under /demo. */
export function registerMemoryFileSystem(demo: Record<string, string>): vscode.Disposable {
    const files = new MemoryFileSystem();
    for (const [path, text] of Object.entries(demo)) files.put(`/demo/${path}`, new TextEncoder().encode(text));
    return vscode.workspace.registerFileSystemProvider(MEM_SCHEME, files, { isCaseSensitive: true });
}
