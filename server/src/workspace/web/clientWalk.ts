/**
 * The discovery walk's calls over the client's files (docs/web.md), for the web worker: the language
 * server's scan walks the workspace through the client (`vscode.workspace.fs.readDirectory`). The walk
 * is asynchronous; the synchronous calls (whether a created file is excluded, in a folder the walk never
 * entered) answer from what the client already said, a pending read counting as absent for now: its
 * arrival makes the workspace judge the folder again (workspaceIndex.ts). The web entry gives them to
 * the language service (browserHost.ts), as the Node entry gives the disk's (nodeDiscovery.ts).
 */
import type { AsyncDiscoveryFileSystem, DiscoveryFileSystem } from "../discoveryFs";
import type { WorkspaceFiles } from "../workspaceFiles";

const MAX_IGNORE_BYTES = 1024 * 1024;

/** The synchronous calls over given files: answered from what the client already said. */
export function discoveryFsOver(files: WorkspaceFiles): DiscoveryFileSystem {
    const statNow = (path: string) => {
        const info = files.stat(path);
        return info === "pending" ? undefined : info;
    };
    return {
        list: () => undefined,
        readText: (file) => {
            const read = files.readText(file, MAX_IGNORE_BYTES);
            return read.ok ? read.text : undefined;
        },
        exists: (path) => statNow(path) !== undefined,
        isFile: (path) => statNow(path)?.kind === "file",
        realPath: (path) => (statNow(path) !== undefined ? path : undefined),
    };
}

/** A file's text once the client answered (a walk reads `.gitignore` files). */
async function answered(files: WorkspaceFiles, path: string): Promise<string | undefined> {
    let read = files.readText(path, MAX_IGNORE_BYTES);
    while (!read.ok && read.reason === "pending") {
        await files.settle();
        read = files.readText(path, MAX_IGNORE_BYTES);
    }
    return read.ok ? read.text : undefined;
}

async function statOf(files: WorkspaceFiles, path: string) {
    let info = files.stat(path);
    while (info === "pending") {
        await files.settle();
        info = files.stat(path);
    }
    return info;
}

/** The walk's calls over given files (the scan; Find Sources' corpus walk: web/evidenceCorpus.ts), asked when called. */
export function asyncDiscoveryFsOver(files: () => WorkspaceFiles): AsyncDiscoveryFileSystem {
    return {
        list: (directory) => files().list(directory),
        readText: (file) => answered(files(), file),
        exists: async (path) => (await statOf(files(), path)) !== undefined,
        isFile: async (path) => (await statOf(files(), path))?.kind === "file",
        // A virtual file system's paths are already real (no symlinks reach the server).
        realPath: async (path) => ((await statOf(files(), path)) !== undefined ? path : undefined),
    };
}
