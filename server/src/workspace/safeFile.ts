/**
 * The one way SourceCheck reads a file it was pointed at (docs/architecture.md): opened without
 * blocking and checked on the open descriptor, so a FIFO, socket or device named like a document
 * (or a file swapped for one after a stat) is refused at once instead of hanging the reader; the
 * size cap is enforced on the descriptor; the bytes must be strict UTF-8 text (decodeText).
 * Path safety (staying under a root) is the caller's, before this is called.
 */
import { isUtf8 } from "node:buffer";
import * as nodeFs from "node:fs";

/** The file-system calls made here: small, so tests can spy on every path touched. */
export interface SafeFileSystem {
    openSync(path: string, flags: number): number;
    fstatSync(fd: number): nodeFs.Stats;
    readFileSync(fd: number): Buffer;
    closeSync(fd: number): void;
}

export type SafeRead =
    | { ok: true; text: string }
    | {
          ok: false;
          /** missing, directory, not-regular (FIFO, socket, device), too-large, not-text, or error. */
          reason: "missing" | "directory" | "not-regular" | "too-large" | "not-text" | "error";
          /** A clause for a sentence about the file: "is a directory", "is not valid UTF-8 text"… */
          message: string;
          size?: number;
      };

export interface SafeReadOptions {
    maxBytes?: number;
    fs?: SafeFileSystem;
}

export function readTextFile(path: string, options: SafeReadOptions = {}): SafeRead {
    const fs = options.fs ?? nodeFs;
    const maxBytes = options.maxBytes ?? Number.POSITIVE_INFINITY;
    let fd: number | undefined;
    let bytes: Buffer;
    try {
        fd = fs.openSync(path, nodeFs.constants.O_RDONLY | (nodeFs.constants.O_NONBLOCK ?? 0));
        const stats = fs.fstatSync(fd);
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
        bytes = fs.readFileSync(fd);
    } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === "ENOENT" || code === "ENOTDIR") return { ok: false, reason: "missing", message: "does not exist" };
        if (code === "EISDIR") return { ok: false, reason: "directory", message: "is a directory, not a text file" };
        return { ok: false, reason: "error", message: `cannot be read: ${code ?? "error"}` };
    } finally {
        if (fd !== undefined) fs.closeSync(fd);
    }
    if (bytes.length > maxBytes) {
        return {
            ok: false,
            reason: "too-large",
            size: bytes.length,
            message: `grew over the ${formatBytes(maxBytes)} size cap while read`,
        };
    }
    const decoded = decodeText(bytes);
    return decoded.ok ? { ok: true, text: decoded.text } : { ok: false, reason: "not-text", message: decoded.message };
}

/** Bytes as text: UTF-8 only, no NUL bytes (binary), a leading BOM dropped. */
export function decodeText(bytes: Uint8Array): { ok: true; text: string } | { ok: false; message: string } {
    if (bytes.indexOf(0) !== -1) return { ok: false, message: "is binary (it contains NUL bytes), not text" };
    // isUtf8 validates natively; decoding after it is the plain (fast) path, never a replacement character.
    if (!isUtf8(bytes)) return { ok: false, message: "is not valid UTF-8 text" };
    const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");
    return { ok: true, text: text.charCodeAt(0) === 0xfeff ? text.slice(1) : text };
}

export function formatBytes(bytes: number): string {
    if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
    if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
    return `${bytes} B`;
}
