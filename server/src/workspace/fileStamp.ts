/**
 * Whether a file is known unchanged since it was last read, without reading it: its device, inode,
 * size and change times as one string. Timestamps advance in clock ticks, so a file written moments
 * ago may be written again with the same stamp: it is not `settled`, and a cache must not trust it
 * (git's "racily clean" entries).
 */
import * as fs from "node:fs";

/** A file modified longer ago than this is settled. */
export const SETTLED_MS = 2000;

export interface FileStamp {
    stamp: string;
    settled: boolean;
}

/** The stamp of a file from its (bigint) stats. */
export function stampOf(stats: fs.BigIntStats): FileStamp {
    return {
        stamp: `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeNs}:${stats.ctimeNs}`,
        settled: Date.now() - Number(stats.mtimeMs) > SETTLED_MS,
    };
}

/** The stamp of the regular file at `path` (symlinks followed), or undefined when there is none. */
export function fileStamp(path: string): FileStamp | undefined {
    const stats = fs.statSync(path, { bigint: true, throwIfNoEntry: false });
    return stats?.isFile() ? stampOf(stats) : undefined;
}
