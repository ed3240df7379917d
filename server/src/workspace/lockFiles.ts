/**
 * Lock files on disk (docs/lock.md): the sidecar beside an annotation file, read through the one safe
 * reader, and the SHA-256 the pure lock module is given.
 */

import * as fs from "node:fs";
import * as nodePath from "node:path";
import {
    basisAgreesWithEntries,
    basisOfHeader,
    conformsToLockEntry,
    ENTRIES_LINE,
    LOCK_VERSION,
    type LockBasis,
    type LockEntry,
    type LockFile,
} from "../core/lock";
import { fileStamp } from "./fileStamp";
import {
    failedRead,
    type HostLocks,
    type LockAccess,
    type LockRead,
    lockFromText,
    lockPathFor,
    MAX_LOCK_BYTES,
} from "./lockPaths";
import { resolveUnderRoot } from "./pathSafety";
import { readFileBytes, readFileChunks, readTextFile } from "./safeFile";
import {
    describeWriteError,
    type FileSnapshot,
    SafeWriteError,
    writeFileSafely,
    writeFileWithinRoot,
} from "./safeWrite";

import { sha256, sha256OfBytes, sha256Stream } from "./sha256";

export { annotationPathOfLock, type LockAccess, type LockRead, lockPathFor, MAX_LOCK_BYTES } from "./lockPaths";
export { sha256 };

/**
 * How a lock is read: through the safe reader, never through a symlink, and only when the opened file
 * lies under `within` (the root, for the MCP server and the editor) or else under the annotation
 * file's own real folder. A lock symlinked to a file outside is refused, never read (docs/security.md,
 * "Reads": the MCP `lock` tool once replied with the start of the outside file in a JSON error).
 */
function lockReadOptions(annotationPath: string, within?: string): { maxBytes: number; within?: string } {
    if (within !== undefined) return { maxBytes: MAX_LOCK_BYTES, within };
    try {
        return { maxBytes: MAX_LOCK_BYTES, within: fs.realpathSync(nodePath.dirname(annotationPath)) };
    } catch {
        // No folder to read from: the read itself then says the lock is missing.
        return { maxBytes: MAX_LOCK_BYTES };
    }
}

/** The lock beside an annotation file: none (no `lock`, no `error`), valid, or a clear error. */
export function readLockBeside(
    annotationPath: string,
    options: { snapshot?: boolean; within?: string } = {},
): LockRead {
    const path = lockPathFor(annotationPath);
    const read = readTextFile(path, { ...lockReadOptions(annotationPath, options.within), snapshot: options.snapshot });
    if (read.ok) return lockFromText(path, read.text, annotationPath, read.snapshot);
    return failedRead(path, read);
}

/**
 * The lock beside `file` (a path relative to `root`) for the agent tools on disk, the editor's
 * (node/agentTools.ts) and the MCP server's (mcp/diskContext.ts); a path outside the root is refused
 * with its code, before anything is read. Read and written contained in the root, whoever calls
 * (docs/security.md, "Agents"): the opened lock must lie under the root, and the write goes through
 * `writeFileWithinRoot`, only while the lock is as it was read.
 */
export function lockUnderRoot(root: string, file: string): LockAccess | { code: "path-outside-root"; message: string } {
    const verdict = resolveUnderRoot(root, file);
    if (!verdict.ok) return { code: "path-outside-root", message: verdict.message };
    const read = readLockBeside(verdict.absolute, { within: realRootOf(root), snapshot: true });
    return {
        path: nodePath.relative(root, lockPathFor(verdict.absolute)).replace(/\\/g, "/"),
        lock: read.lock,
        error: read.error,
        write: async (text) => {
            try {
                writeFileWithinRoot(root, read.path, text, { expected: read.snapshot });
            } catch (error) {
                throw new Error(error instanceof SafeWriteError ? `it ${error.message}` : String(error));
            }
        },
    };
}

function realRootOf(root: string): string | undefined {
    try {
        return fs.realpathSync(root);
    } catch {
        return undefined;
    }
}

/** A lock whose basis holds for the annotation file as read (basis.ts): its entries are read only if needed. */
export interface LockOnBasis {
    path: string;
    basis: LockBasis;
    /** Where its entries begin in the file (the `"entries"` line), and their SHA-256 as read. */
    entriesAt: number;
    /** How it is read again (lockReadOptions). */
    readOptions: { maxBytes: number; within?: string };
    /** The whole lock, read again. */
    load(): LockRead;
    /** The lock's bytes (as streamed when small, else read again); undefined if its entries are no longer the ones the basis vouches for. */
    bytes(): Buffer | undefined;
}

/** A header (the text before the entries) longer than this is not one `serializeLock` writes. */
const MAX_HEADER_BYTES = 16 * 1024 * 1024;
const ENTRIES_NEEDLE = Buffer.from(`\n${ENTRIES_LINE}`);
/** A lock up to this size is kept as it was streamed, so writing it again reads and hashes it once. */
const KEPT_LOCK_BYTES = 1024 * 1024;

/**
 * A read of the lock for `check` and `lock`: when the lock's header has a basis, its entries are exactly as that
 * basis was written, and `annotationSha256` gives the hash of the text it was taken over, the entries are not parsed
 * (the caller compares the documents, then loads them only if one changed). The lock is streamed
 * through one reused buffer and only hashed (safeFile.ts, readFileChunks: a 128 MB lock read into
 * a buffer of its own cost ten times more). Anything else: as `readLockBeside`.
 */
export function readLockOnBasis(annotationPath: string, annotationSha256: () => string): LockRead | LockOnBasis {
    const path = lockPathFor(annotationPath);
    const load = () => readLockBeside(annotationPath);
    const readOptions = lockReadOptions(annotationPath);
    const headerParts: Buffer[] = [];
    let headerLength = 0;
    let entriesAt = -1;
    let basis: LockBasis | undefined;
    let hash: ReturnType<typeof sha256Stream> | undefined;
    const scan = new EntryDocumentsScan();
    // The bytes after the header, kept while the lock is small: `lock` writes them again (below).
    const rest: Buffer[] = [];
    let restLength = 0;
    const streamed = readFileChunks(path, readOptions, (chunk) => {
        if (hash) {
            hash.update(chunk);
            restLength += chunk.length;
            if (headerLength + restLength <= KEPT_LOCK_BYTES) rest.push(Buffer.from(chunk));
            return scan.push(chunk);
        }
        headerParts.push(Buffer.from(chunk));
        headerLength += chunk.length;
        const header = Buffer.concat(headerParts, headerLength);
        const at = header.indexOf(ENTRIES_NEEDLE);
        if (at < 0) return headerLength <= MAX_HEADER_BYTES;
        basis = basisOfHeader(header.subarray(0, at + 1).toString("utf8"), nodePath.basename(annotationPath));
        if (!basis || basis.annotationFileSha256 !== annotationSha256()) return false;
        entriesAt = at + 1;
        hash = sha256Stream();
        hash.update(header.subarray(entriesAt));
        return scan.push(header.subarray(entriesAt));
    });
    if (!streamed.ok) return failedRead(path, streamed);
    if (!basis || !hash || hash.digest() !== basis.entriesSha256) return load();
    // The basis is a cache of the entries, never an authority over them (docs/security.md).
    if (!basisAgreesWithEntries(basis, scan.end())) return load();
    const vouched = basis;
    return {
        path,
        basis: vouched,
        entriesAt,
        readOptions,
        load,
        bytes: () => {
            // A small lock was kept as read and hashed: the very bytes the basis vouched for.
            if (headerLength + restLength <= KEPT_LOCK_BYTES) return Buffer.concat([...headerParts, ...rest]);
            const read = readFileBytes(path, readOptions);
            if (!read.ok || read.bytes.indexOf(ENTRIES_NEEDLE) + 1 !== entriesAt) return undefined;
            return sha256OfBytes(read.bytes.subarray(entriesAt)) === vouched.entriesSha256 ? read.bytes : undefined;
        },
    };
}

const REF_PATH_NEEDLE = Buffer.from(': {"ref":{"path":"');
const DOCUMENT_HASH_NEEDLE = Buffer.from('"documentSha256":"');

/**
 * Each document the entries cite and the `documentSha256` values its entries hold, read from the
 * entry lines as they stream past (one line per entry, `ref.path` first and `documentSha256` last:
 * serializeLock), without parsing them. `end()` is undefined when a line is not one serializeLock
 * writes: the lock is then not on its basis and is read whole.
 */
export class EntryDocumentsScan {
    private readonly documents = new Map<string, Set<string>>();
    private carry: Buffer = Buffer.alloc(0);
    private lines = 0;
    private malformed = false;

    /** Bytes from the `"entries"` line on; false once a line is malformed (the stream may stop). */
    push(chunk: Buffer): boolean {
        if (this.malformed) return false;
        let start = 0;
        for (let at = chunk.indexOf(10); at >= 0; at = chunk.indexOf(10, start)) {
            const piece = chunk.subarray(start, at);
            this.line(this.carry.length > 0 ? Buffer.concat([this.carry, piece]) : piece);
            this.carry = Buffer.alloc(0);
            start = at + 1;
            if (this.malformed) return false;
        }
        // Copied: the chunk is a reused buffer (readFileChunks).
        if (start < chunk.length) this.carry = Buffer.concat([this.carry, chunk.subarray(start)]);
        return true;
    }

    end(): ReadonlyMap<string, ReadonlySet<string>> | undefined {
        if (this.carry.length > 0) this.line(this.carry);
        return this.malformed ? undefined : this.documents;
    }

    private line(line: Buffer): void {
        this.lines++;
        const text = line.length <= 16 ? line.toString("latin1") : "";
        if (
            this.lines === 1
                ? text === `${ENTRIES_LINE}{` || text === `${ENTRIES_LINE}{}`
                : text === "  }" || text === "}"
        )
            return;
        const entry = entryDocumentOf(line);
        if (!entry) {
            this.malformed = true;
            return;
        }
        const hashes = this.documents.get(entry.path);
        if (hashes) hashes.add(entry.documentSha256);
        else this.documents.set(entry.path, new Set([entry.documentSha256]));
    }
}

/** `ref.path` and `documentSha256` of one entry line (`    "key": {"ref":{"path":"…",…,"documentSha256":"…"},`). */
function entryDocumentOf(line: Buffer): { path: string; documentSha256: string } | undefined {
    if (line.length < 8 || line.toString("latin1", 0, 5) !== '    "') return undefined;
    const pathAt = line.indexOf(REF_PATH_NEEDLE);
    if (pathAt < 0) return undefined;
    const open = pathAt + REF_PATH_NEEDLE.length - 1;
    let close = open + 1;
    while (close < line.length && line[close] !== 34) close += line[close] === 92 ? 2 : 1;
    let end = line.length;
    if (line[end - 1] === 44) end--; // the comma between entries
    const hashAt = end - 2 - 64 - DOCUMENT_HASH_NEEDLE.length;
    if (close >= line.length || hashAt <= close || line.toString("latin1", end - 2, end) !== '"}') return undefined;
    if (line.indexOf(DOCUMENT_HASH_NEEDLE, hashAt) !== hashAt) return undefined;
    const documentSha256 = line.toString("latin1", end - 2 - 64, end - 2);
    if (!/^[0-9a-f]{64}$/.test(documentSha256)) return undefined;
    try {
        const path = JSON.parse(line.toString("utf8", open, close + 1)) as unknown;
        return typeof path === "string" ? { path, documentSha256 } : undefined;
    } catch {
        return undefined;
    }
}

/**
 * The lock with only the entries of refs into `paths` (the documents its basis no longer vouches for),
 * parsed line by line as the lock is streamed again: one line per entry, `ref.path` first
 * (serializeLock), so a byte search finds the candidates and only those are parsed. Undefined when a
 * line is not what `serializeLock` writes, or when the entries are no longer the ones the basis
 * vouches for (changed since): the caller then reads the lock whole.
 */
export function entriesFor(
    read: LockOnBasis,
    paths: ReadonlySet<string>,
    annotationFile: string,
): LockFile | undefined {
    const needles = [...paths].map((path) => Buffer.from(`: {"ref":{"path":${JSON.stringify(path)},`));
    const entries: Record<string, LockEntry> = {};
    const hash = sha256Stream();
    let offset = 0;
    let carry: Buffer = Buffer.alloc(0);
    let malformed = false;
    const take = (line: Buffer) => {
        if (!needles.some((needle) => line.includes(needle))) return;
        const entry = entryOfLine(line, paths);
        if (!entry) malformed = true;
        else entries[entry.key] = entry.entry;
    };
    const streamed = readFileChunks(read.path, read.readOptions, (whole) => {
        const skip = Math.max(0, Math.min(whole.length, read.entriesAt - offset));
        offset += whole.length;
        const chunk = whole.subarray(skip);
        if (chunk.length === 0) return true;
        hash.update(chunk);
        const lastNewline = chunk.lastIndexOf(10);
        if (lastNewline < 0) {
            carry = Buffer.concat([carry, chunk]);
            return true;
        }
        const firstNewline = chunk.indexOf(10);
        take(Buffer.concat([carry, chunk.subarray(0, firstNewline)]));
        const region = chunk.subarray(firstNewline + 1, lastNewline + 1);
        const found = new Set<number>();
        for (const needle of needles) {
            for (let at = region.indexOf(needle); at >= 0; at = region.indexOf(needle, at + needle.length))
                found.add(region.lastIndexOf(10, at) + 1);
        }
        for (const start of [...found].sort((a, b) => a - b)) take(region.subarray(start, region.indexOf(10, start)));
        carry = Buffer.from(chunk.subarray(lastNewline + 1));
        return !malformed;
    });
    take(carry);
    if (!streamed.ok || malformed || hash.digest() !== read.basis.entriesSha256) return undefined;
    return { lockVersion: LOCK_VERSION, annotationFile, entries };
}

/** One entry line as serializeLock writes it (`    "key": {...},`), if it is one for a path of `paths`. */
function entryOfLine(line: Buffer, paths: ReadonlySet<string>): { key: string; entry: LockEntry } | undefined {
    let end = line.length;
    if (line[end - 1] === 44) end--; // the comma between entries
    let parsed: unknown;
    try {
        parsed = JSON.parse(`{${line.subarray(0, end).toString("utf8")}}`);
    } catch {
        return undefined;
    }
    const keys = Object.keys(parsed as object);
    if (keys.length !== 1) return undefined;
    const entry = (parsed as Record<string, unknown>)[keys[0]];
    if (!conformsToLockEntry(entry) || !paths.has((entry as LockEntry).ref.path)) return undefined;
    return { key: keys[0], entry: entry as LockEntry };
}

/** Whether a lock file (or anything under its name) is beside an annotation file: one stat, no read. */
export function hasLockBeside(annotationPath: string): boolean {
    return fs.existsSync(lockPathFor(annotationPath));
}

export function isLockOnBasis(read: LockRead | LockOnBasis): read is LockOnBasis {
    return (read as LockOnBasis).basis !== undefined;
}

/**
 * Locks read again only when they change: the language server checks an annotation file on every
 * edit, and a large lock (100 MB for 100,000 annotations) must not be parsed on every keystroke.
 * A lock is known unchanged by its stamp (fileStamp.ts), once settled; the read itself is the safe one.
 */
export class LockReader {
    private readonly cache = new Map<string, { stamp: string; read: LockRead }>();

    readBeside(annotationPath: string): LockRead {
        const stamped = fileStamp(lockPathFor(annotationPath));
        const cached = this.cache.get(annotationPath);
        if (stamped?.settled && cached?.stamp === stamped.stamp) return cached.read;
        const read = readLockBeside(annotationPath);
        // Kept only once settled: a lock written moments ago may be written again with the same stamp.
        if (stamped?.settled) this.cache.set(annotationPath, { stamp: stamped.stamp, read });
        else this.cache.delete(annotationPath);
        return read;
    }
}

/**
 * Write a lock beside its annotation file through the one safe writer: refused if the lock changed
 * since it was read (`expected`), or if the folder is not under `folder` (the workspace folder).
 */
export function writeLockFile(
    lockPath: string,
    content: string | Uint8Array,
    expected: FileSnapshot | undefined,
    folder: string,
): void {
    writeFileSafely(lockPath, content, { expected, within: fs.realpathSync(folder) });
}

/** Locks on the disk, as the Node language server's host gives them (nodeHost.ts). */
export const NODE_LOCKS: HostLocks = {
    reader: () => new LockReader(),
    readForWrite: (annotationPath) => readLockBeside(annotationPath, { snapshot: true }),
    write: writeLockFile,
    describeWriteError,
};
