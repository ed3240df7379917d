/**
 * Documents read from disk under a root, for workspace mode (docs/contract.md section 4). Every refusal carries
 * a stable code: `path-outside-root` (absolute, `..`, a symlink leading out) or `unreadable-document`
 * (missing, a directory, a FIFO or device, binary, not UTF-8, over the size cap). Nothing outside the
 * root is ever opened: the real path is checked before the file is.
 */
import * as nodeFs from "node:fs";
import { normalizeLineEndings } from "../core/lines";
import { type DocumentFailure, type DocumentLookup, noFileMessage, SessionDocument } from "../core/session";
import { isInside, resolveUnderRoot } from "./pathSafety";
import { readTextFile, type SafeFileSystem } from "./safeFile";
import type { FileSnapshot } from "./safeWrite";

export { decodeText, formatBytes } from "./safeFile";

/** The file-system calls this module makes: small, so tests can spy on every path touched. */
export interface FileSystem extends SafeFileSystem {
    realpathSync(path: string): string;
    statSync(path: string): nodeFs.Stats;
}

export const DEFAULT_MAX_DOCUMENT_BYTES = 64 * 1024 * 1024;

export interface DiskDocumentsOptions {
    maxBytes?: number;
    fs?: FileSystem;
    /** Also return the real path and a snapshot, for an in-place rewrite through writeFileSafely. */
    snapshot?: boolean;
    /** Also return the content's SHA-256, hashed from the bytes as read (a lock's basis: safeFile.ts). */
    contentSha256?: boolean;
}

export type DiskRead =
    | {
          ok: true;
          content: string;
          /** The text as stored, line endings untouched (for writers that keep a file's formatting). */
          raw: string;
          /** With `contentSha256`: the SHA-256 of `content`. */
          contentSha256?: string;
          /** With `snapshot`: the real path read, and what was read (workspace/safeWrite.ts). */
          real?: string;
          snapshot?: FileSnapshot;
      }
    | { ok: false; failure: DocumentFailure };

/** Read one document path under a root, with every safety check. Content comes back LF-normalised. */
export function readDocumentUnderRoot(
    root: string,
    documentPath: string,
    options: DiskDocumentsOptions = {},
): DiskRead {
    const fs = options.fs ?? nodeFs;
    const maxBytes = options.maxBytes ?? DEFAULT_MAX_DOCUMENT_BYTES;
    const quoted = JSON.stringify(documentPath);
    const unreadable = (message: string): DiskRead => ({
        ok: false,
        failure: { code: "unreadable-document", message },
    });
    const verdict = resolveUnderRoot(root, documentPath);
    if (!verdict.ok) return { ok: false, failure: { code: "path-outside-root", message: verdict.message } };

    let real: string;
    let realRoot: string;
    try {
        realRoot = fs.realpathSync(root);
        real = fs.realpathSync(verdict.absolute);
    } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === "ENOENT" || code === "ENOTDIR") return unreadable(noFileMessage(documentPath));
        if (code === "ELOOP") return unreadable(`the path ${quoted} is a symlink loop`);
        return unreadable(`cannot open ${quoted}: ${code ?? "error"}`);
    }
    if (!isInside(realRoot, real)) {
        return {
            ok: false,
            failure: {
                code: "path-outside-root",
                message: `the path ${quoted} is a symlink leading outside the document root`,
            },
        };
    }
    // Read through the one safe reader (safeFile.ts): non-blocking open, checks on the descriptor
    // (a FIFO, device or directory is refused without blocking), size cap, strict UTF-8, and the
    // OPENED file must lie under the root: a path component swapped for a symlink after the check
    // above cannot make it read outside.
    const read = readTextFile(real, {
        maxBytes,
        fs,
        within: realRoot,
        snapshot: options.snapshot,
        textSha256: options.contentSha256,
    });
    if (!read.ok) {
        if (read.reason === "outside") {
            return {
                ok: false,
                failure: { code: "path-outside-root", message: `the path ${quoted} ${read.message}` },
            };
        }
        return unreadable(`${quoted} ${read.message}`);
    }
    const content = normalizeLineEndings(read.text);
    // The hash of the bytes is the content's only where normalising changed nothing.
    const contentSha256 = content === read.text ? read.textSha256 : undefined;
    if (options.snapshot) return { ok: true, content, raw: read.text, contentSha256, real, snapshot: read.snapshot };
    return { ok: true, content, raw: read.text, contentSha256 };
}

/** A DocumentLookup over files under a root; each path is read at most once. */
export class DiskDocuments implements DocumentLookup {
    private readonly cache = new Map<string, SessionDocument | DocumentFailure>();

    constructor(
        readonly root: string,
        private readonly options: DiskDocumentsOptions = {},
    ) {}

    get(path: string): SessionDocument | DocumentFailure {
        let entry = this.cache.get(path);
        if (entry === undefined) {
            const read = readDocumentUnderRoot(this.root, path, this.options);
            entry = read.ok ? new SessionDocument(path, read.content, read.contentSha256) : read.failure;
            this.cache.set(path, entry);
        }
        return entry;
    }

    /** Forget a path so it is read again (the file changed). */
    invalidate(path?: string): void {
        if (path === undefined) this.cache.clear();
        else this.cache.delete(path);
    }
}
