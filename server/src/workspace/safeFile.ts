/**
 * The one way SourceCheck reads a file it was pointed at (docs/architecture.md): opened without
 * blocking and checked on the open descriptor, so a FIFO, socket or device named like a document
 * (or a file swapped for one after a stat) is refused at once instead of hanging the reader; the
 * size cap is enforced on the descriptor; the bytes must be strict UTF-8 text (decodeText).
 *
 * With `within` (a real folder path), the file that was OPENED must lie under that folder: the path
 * is opened with O_NOFOLLOW (its last component may not be a symlink) and then the descriptor itself
 * is asked where it leads (`/proc/self/fd/N` on Linux; elsewhere the real path is resolved again and
 * its device and inode compared with the descriptor's). A file or folder swapped for a symlink
 * between a check and the open cannot make it read outside (docs/security.md, "Reads").
 */
import { isUtf8 } from "node:buffer";
import * as nodeFs from "node:fs";
import * as nodePath from "node:path";
import { formatBytes } from "../core/bytes";
import { isInside } from "./pathSafety";
import { type FileSnapshot, snapshotOf } from "./safeWrite";
import { sha256OfBytes } from "./sha256";

/** Sizes in messages are worded once, for every host (core/bytes.ts). */
export { formatBytes };

/** The file-system calls made here: small, so tests can spy on every path touched. */
export interface SafeFileSystem {
    openSync(path: string, flags: number): number;
    fstatSync(fd: number): nodeFs.Stats;
    readFileSync(fd: number): Buffer;
    /** Optional for test doubles; without it a capped read falls back to readFileSync. */
    readSync?(fd: number, buffer: Uint8Array, offset: number, length: number, position: null): number;
    closeSync(fd: number): void;
}

export type SafeRead =
    | {
          ok: true;
          text: string;
          /** What was read (identity, size, time, hash, BOM): give it to writeFileSafely for an in-place rewrite. */
          snapshot?: FileSnapshot;
          /** With `textSha256`: SHA-256 (hex) of `text`'s UTF-8 bytes, hashed from the bytes as read. */
          textSha256?: string;
      }
    | {
          ok: false;
          /**
           * missing, directory, not-regular (FIFO, socket, device), too-large, not-text, or error; "pending"
           * only in the browser: asked of the client, not answered yet (web/safeFile.ts).
           */
          reason: "missing" | "directory" | "not-regular" | "too-large" | "not-text" | "outside" | "error" | "pending";
          /** A clause for a sentence about the file: "is a directory", "is not valid UTF-8 text"… */
          message: string;
          size?: number;
      };

export interface SafeReadOptions {
    maxBytes?: number;
    fs?: SafeFileSystem;
    /** A real folder path the opened file must lie under (see above). */
    within?: string;
    /** Return a snapshot of what was read (costs a SHA-256 of the bytes). */
    snapshot?: boolean;
    /**
     * Return the SHA-256 of the text, hashed from the bytes: hashing the decoded string instead costs
     * an encoding back to UTF-8, several times the hash itself for non-ASCII text (a lock's basis).
     */
    textSha256?: boolean;
}

export type SafeBytes = { ok: true; bytes: Buffer; stats: nodeFs.Stats } | Extract<SafeRead, { ok: false }>;

export function readTextFile(path: string, options: SafeReadOptions = {}): SafeRead {
    const read = readFileBytes(path, options);
    if (!read.ok) return read;
    const decoded = decodeText(read.bytes);
    if (!decoded.ok) return { ok: false, reason: "not-text", message: decoded.message };
    const result: SafeRead = { ok: true, text: decoded.text };
    if (options.snapshot) result.snapshot = snapshotOf(read.stats, read.bytes);
    // decodeText drops a byte order mark, and the text's hash is of what is left.
    if (options.textSha256) result.textSha256 = sha256OfBytes(read.bytes.subarray(hasBom(read.bytes) ? 3 : 0));
    return result;
}

function hasBom(bytes: Uint8Array): boolean {
    return bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
}

/**
 * The bytes of a regular file with every check above but the text ones (the evidence index is
 * binary). `noFollow` refuses a symlink as the last component (a cache file is never one).
 */
export function readFileBytes(path: string, options: SafeReadOptions & { noFollow?: boolean } = {}): SafeBytes {
    const maxBytes = options.maxBytes ?? Number.POSITIVE_INFINITY;
    let bytes: Buffer | undefined;
    const opened = withCheckedFile(path, options, (fs, fd, stats) => {
        bytes = Number.isFinite(maxBytes) ? readAtMost(fs, fd, stats.size, maxBytes) : fs.readFileSync(fd);
    });
    if (!opened.ok) return opened;
    const read = bytes as Buffer;
    if (read.length > maxBytes) return grewOverCap(read.length, maxBytes);
    return { ok: true, bytes: read, stats: opened.stats };
}

/**
 * A regular file read through one reused buffer, with readFileBytes' checks, for a large file that
 * is only hashed or searched (a lock's entries: lockFiles.ts). A fresh buffer the size of a 128 MB
 * file cost ten times the reading and hashing themselves here (its pages are faulted in once each).
 * `each` gets a view valid during the call only; returning false stops the read.
 */
export function readFileChunks(
    path: string,
    options: SafeReadOptions & { noFollow?: boolean },
    each: (chunk: Buffer) => boolean | undefined,
): { ok: true; stats: nodeFs.Stats } | Extract<SafeRead, { ok: false }> {
    const maxBytes = options.maxBytes ?? Number.POSITIVE_INFINITY;
    let total = 0;
    const opened = withCheckedFile(path, options, (fs, fd) => {
        if (!fs.readSync) throw Object.assign(new Error("no readSync"), { code: "ENOSYS" });
        for (;;) {
            const n = fs.readSync(fd, chunkBuffer, 0, chunkBuffer.length, null);
            if (n === 0) return;
            total += n;
            if (total > maxBytes || each(chunkBuffer.subarray(0, n)) === false) return;
        }
    });
    if (!opened.ok) return opened;
    return total > maxBytes ? grewOverCap(total, maxBytes) : opened;
}

/** The one buffer readFileChunks reads through (never handed out beyond a call of `each`). */
const chunkBuffer = Buffer.allocUnsafe(1 << 20);

function grewOverCap(size: number, maxBytes: number): Extract<SafeRead, { ok: false }> {
    return {
        ok: false,
        reason: "too-large",
        size,
        message: `grew over the ${formatBytes(maxBytes)} size cap while read`,
    };
}

/**
 * Open `path` without blocking, check what was opened (under `within`, a regular file, under the
 * cap) and run `use` on the descriptor; the file is closed whatever happens.
 */
function withCheckedFile(
    path: string,
    options: SafeReadOptions & { noFollow?: boolean },
    use: (fs: SafeFileSystem, fd: number, stats: nodeFs.Stats) => void,
): { ok: true; stats: nodeFs.Stats } | Extract<SafeRead, { ok: false }> {
    const fs = options.fs ?? nodeFs;
    const maxBytes = options.maxBytes ?? Number.POSITIVE_INFINITY;
    let fd: number | undefined;
    try {
        const noFollow = options.within !== undefined || options.noFollow ? (nodeFs.constants.O_NOFOLLOW ?? 0) : 0;
        fd = fs.openSync(path, nodeFs.constants.O_RDONLY | (nodeFs.constants.O_NONBLOCK ?? 0) | noFollow);
        const stats = fs.fstatSync(fd);
        if (options.within !== undefined && !openedUnder(fd, stats, path, options.within)) {
            return { ok: false, reason: "outside", message: "leads outside the root (it changed while being opened)" };
        }
        if (stats.isDirectory()) return { ok: false, reason: "directory", message: "is a directory, not a text file" };
        if (!stats.isFile())
            return { ok: false, reason: "not-regular", message: "is not a regular file (a FIFO, socket or device)" };
        if (stats.size > maxBytes) {
            return {
                ok: false,
                reason: "too-large",
                size: stats.size,
                message: `is ${formatBytes(stats.size)}, over the ${formatBytes(maxBytes)} size cap`,
            };
        }
        use(fs, fd, stats);
        return { ok: true, stats };
    } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === "ENOENT" || code === "ENOTDIR") return { ok: false, reason: "missing", message: "does not exist" };
        if (code === "EISDIR") return { ok: false, reason: "directory", message: "is a directory, not a text file" };
        if (code === "ELOOP" && options.within !== undefined)
            return { ok: false, reason: "outside", message: "is a symlink (it changed while being opened)" };
        if (code === "ELOOP") return { ok: false, reason: "not-regular", message: "is a symbolic link" };
        return { ok: false, reason: "error", message: `cannot be read: ${code ?? "error"}` };
    } finally {
        if (fd !== undefined) fs.closeSync(fd);
    }
}

/** Read to the end, but never more than maxBytes + 1 bytes (a file growing while read stops there). */
function readAtMost(fs: SafeFileSystem, fd: number, sizeHint: number, maxBytes: number): Buffer {
    if (!fs.readSync) {
        const whole = fs.readFileSync(fd);
        return whole;
    }
    let buffer = Buffer.allocUnsafe(Math.min(maxBytes + 1, Math.max(sizeHint + 1, 4096)));
    let length = 0;
    for (;;) {
        if (length === buffer.length) {
            if (length > maxBytes) break;
            const bigger = Buffer.allocUnsafe(Math.min(maxBytes + 1, buffer.length * 2));
            buffer.copy(bigger, 0, 0, length);
            buffer = bigger;
        }
        const n = fs.readSync(fd, buffer, length, buffer.length - length, null);
        if (n === 0) break;
        length += n;
    }
    return buffer.subarray(0, length);
}

let procFd: boolean | undefined;

/** Where the open descriptor leads lies under `root` (a real path). */
function openedUnder(fd: number, stats: nodeFs.Stats, path: string, root: string): boolean {
    if (procFd !== false) {
        try {
            const opened = nodeFs.readlinkSync(`/proc/self/fd/${fd}`);
            procFd = true;
            return nodePath.isAbsolute(opened) && isInside(root, opened);
        } catch {
            procFd = false;
        }
    }
    // No /proc: the real path now must be under the root and be the very file that was opened.
    try {
        const real = nodeFs.realpathSync(path);
        const now = nodeFs.statSync(real);
        return isInside(root, real) && now.dev === stats.dev && now.ino === stats.ino;
    } catch {
        return false;
    }
}

/** Bytes as text: UTF-8 only, no NUL bytes (binary), a leading BOM dropped. */
export function decodeText(bytes: Uint8Array): { ok: true; text: string } | { ok: false; message: string } {
    if (bytes.indexOf(0) !== -1) return { ok: false, message: "is binary (it contains NUL bytes), not text" };
    // isUtf8 validates natively; decoding after it is the plain (fast) path, never a replacement character.
    if (!isUtf8(bytes)) return { ok: false, message: "is not valid UTF-8 text" };
    const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");
    return { ok: true, text: text.charCodeAt(0) === 0xfeff ? text.slice(1) : text };
}
