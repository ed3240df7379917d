/**
 * The file-system adapters of the discovery walk (discovery.ts) over Node's fs: synchronous for the CLI,
 * asynchronous for the language server (nodeDiscovery.ts gives them). The web worker's walk lists
 * through the client instead (web/clientWalk.ts, docs/web.md); the types here serve both.
 */
import * as fs from "node:fs";
import { readIgnoreFile } from "./ignoreFile";
import type { IgnoreFileText } from "./ignoreLines";

export type EntryKind = "file" | "directory" | "symlink" | "other";

export interface DirectoryEntry {
    name: string;
    kind: EntryKind;
}

/** The file-system calls discovery makes, synchronously. */
export interface DiscoveryFileSystem {
    /** The entries of a folder, or undefined when it cannot be read. */
    list(directory: string): DirectoryEntry[] | undefined;
    /** An ignore file's text or bounded lines (ignoreFile.ts), or undefined when there is none. */
    readText(file: string): string | IgnoreFileText | undefined;
    exists(path: string): boolean;
    /** True when the path (symlinks followed) is a regular file. */
    isFile(path: string): boolean;
    /** The path with every symlink resolved, or undefined when it does not resolve. */
    realPath(path: string): string | undefined;
}

/** What a stat walk needs of an entry's stat (Node's fs.Stats has it). */
export interface EntryStats {
    isFile(): boolean;
    isDirectory(): boolean;
    isSymbolicLink(): boolean;
}

/** The calls of a stat walk (walkStatsSync), synchronous; `S` is what the caller gets of each file. */
export interface StatWalkFileSystem<S extends EntryStats> {
    /** The names of a folder's entries, or undefined when it cannot be read. */
    names(directory: string): string[] | undefined;
    /** An entry's own stat (a symlink's, not its target's), or undefined when it is gone. */
    lstat(path: string): S | undefined;
    /** The stat of what a path leads to (symlinks followed), or undefined. */
    stat(path: string): S | undefined;
}

/** The same calls, asynchronously. */
export type AsyncDiscoveryFileSystem = {
    [K in keyof DiscoveryFileSystem]: (
        ...args: Parameters<DiscoveryFileSystem[K]>
    ) => Promise<ReturnType<DiscoveryFileSystem[K]>>;
};

function kindOf(entry: fs.Dirent): EntryKind {
    if (entry.isFile()) return "file";
    if (entry.isDirectory()) return "directory";
    if (entry.isSymbolicLink()) return "symlink";
    return "other";
}

export const nodeDiscoveryFs: DiscoveryFileSystem = {
    list(directory) {
        try {
            return fs.readdirSync(directory, { withFileTypes: true }).map((e) => ({ name: e.name, kind: kindOf(e) }));
        } catch {
            return undefined;
        }
    },
    readText: (file) => readIgnoreFile(file),
    exists: (path) => fs.existsSync(path),
    isFile(path) {
        try {
            return fs.statSync(path).isFile();
        } catch {
            return false;
        }
    },
    realPath(path) {
        try {
            return fs.realpathSync(path);
        } catch {
            return undefined;
        }
    },
};

export const nodeAsyncDiscoveryFs: AsyncDiscoveryFileSystem = {
    async list(directory) {
        try {
            const entries = await fs.promises.readdir(directory, { withFileTypes: true });
            return entries.map((e) => ({ name: e.name, kind: kindOf(e) }));
        } catch {
            return undefined;
        }
    },
    // Synchronous on purpose: the open never blocks and the read is capped (ignoreFile.ts).
    readText: async (file) => readIgnoreFile(file),
    async exists(path) {
        try {
            await fs.promises.lstat(path);
            return true;
        } catch {
            return false;
        }
    },
    async isFile(path) {
        try {
            return (await fs.promises.stat(path)).isFile();
        } catch {
            return false;
        }
    },
    async realPath(path) {
        try {
            return await fs.promises.realpath(path);
        } catch {
            return undefined;
        }
    },
};

const NO_THROW = { throwIfNoEntry: false } as const;

/** The stat walk's calls (discovery.ts walkStatsSync) on Node's fs; an entry that cannot be stat'ed counts as gone. */
export const nodeStatWalkFs: StatWalkFileSystem<fs.Stats> = {
    names(directory) {
        try {
            return fs.readdirSync(directory);
        } catch {
            return undefined;
        }
    },
    lstat(path) {
        try {
            return fs.lstatSync(path, NO_THROW);
        } catch {
            return undefined;
        }
    },
    stat(path) {
        try {
            return fs.statSync(path, NO_THROW);
        } catch {
            return undefined; // a loop of symlinks
        }
    },
};
