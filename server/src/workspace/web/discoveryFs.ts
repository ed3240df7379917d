/**
 * The browser's twin of workspace/discoveryFs.ts (docs/web.md): the language server's scan walks the
 * workspace through the client (`vscode.workspace.fs.readDirectory`). Only the asynchronous adapter
 * exists: the synchronous one serves the CLI, which a browser does not run.
 */
import { clientFiles } from "../clientFiles";
import type { AsyncDiscoveryFileSystem, DiscoveryFileSystem } from "../discoveryFs";

export type {
    AsyncDiscoveryFileSystem,
    DirectoryEntry,
    DiscoveryFileSystem,
    EntryKind,
} from "../discoveryFs";

const unavailable = (): never => {
    throw new Error("sourcecheck: a synchronous walk is not available in VS Code for the Web (docs/web.md)");
};

export const nodeDiscoveryFs: DiscoveryFileSystem = {
    list: unavailable,
    readText: unavailable,
    exists: unavailable,
    isFile: unavailable,
    realPath: unavailable,
};

/** A file's text once the client answered (a walk reads `.gitignore` files). */
async function answered(path: string): Promise<string | undefined> {
    const files = clientFiles();
    let read = files.readText(path, 1024 * 1024);
    while (!read.ok && read.reason === "pending") {
        await files.settle();
        read = files.readText(path, 1024 * 1024);
    }
    return read.ok ? read.text : undefined;
}

async function statOf(path: string) {
    const files = clientFiles();
    let info = files.stat(path);
    while (info === "pending") {
        await files.settle();
        info = files.stat(path);
    }
    return info;
}

export const nodeAsyncDiscoveryFs: AsyncDiscoveryFileSystem = {
    list: (directory) => clientFiles().list(directory),
    readText: (file) => answered(file),
    exists: async (path) => (await statOf(path)) !== undefined,
    isFile: async (path) => (await statOf(path))?.kind === "file",
    // A virtual file system's paths are already real (no symlinks reach the server).
    realPath: async (path) => ((await statOf(path)) !== undefined ? path : undefined),
};
