/**
 * Where cited documents come from in workspace mode (docs/contract.md section 4): the open buffer when the
 * document is open in the editor (unsaved edits count), else the file on disk. Both go through the
 * same path safety (nothing outside the document root, symlinks included) and the same size cap.
 * Contents are LF-normalised; each version is split into lines once and cached.
 */

import { formatBytes } from "../core/bytes";
import { normalizeLineEndings } from "../core/lines";
import { type DocumentFailure, type DocumentLookup, SessionDocument } from "../core/session";
import type { HostReads } from "./hostReads";
import { isInside, type PathVerdict, resolveUnderRoot } from "./pathSafety";

/** An open editor buffer, as the server sees it. */
export interface OpenBuffer {
    version: number;
    getText(): string;
}

/** Open buffers by absolute file-system path. */
export interface BufferStore {
    get(absolutePath: string): OpenBuffer | undefined;
}

type Entry = SessionDocument | DocumentFailure;

interface BufferEntry {
    version: number;
    entry: Entry;
}

/**
 * The document cache shared by every root: disk reads by absolute path (dropped when the file
 * changes) and normalised buffers by path and version.
 */
export class DocumentSource {
    private readonly disk = new Map<string, Entry>();
    private readonly buffers = new Map<string, BufferEntry>();
    private readonly realRoots = new Map<string, string | undefined>();
    /** Pure path arithmetic (no file system), so never invalidated. */
    private readonly verdicts = new Map<string, Map<string, PathVerdict>>();
    private readonly variants = new Map<string, { base: SessionDocument; byPath: Map<string, SessionDocument> }>();

    /** A root's own size cap (its sourcecheck.config.json), over `maxBytes`. */
    maxBytesFor: (root: string) => number | undefined = () => undefined;

    /**
     * @param realPath where a path leads once links are followed, or undefined when it leads nowhere:
     *   the host's (workspace/fileStat.ts on Node; a virtual file system's paths are already real).
     */
    constructor(
        private readonly openBuffers: BufferStore,
        public maxBytes: number,
        private readonly realPath: (path: string) => string | undefined,
        /** A document under a root, with every safety rule: the host's (readDocumentUnderRoot on Node). */
        private readonly readDocument: HostReads["readDocument"],
    ) {}

    /** A lookup for refs of one annotation file, relative to its document root. */
    lookupFor(root: string): RootLookup {
        return new RootLookup(this, root);
    }

    /** The file changed on disk (or its buffer closed): read it again next time. */
    invalidate(absolutePath: string): void {
        this.disk.delete(absolutePath);
        this.buffers.delete(absolutePath);
        this.variants.delete(absolutePath);
    }

    invalidateAll(): void {
        this.disk.clear();
        this.buffers.clear();
        this.realRoots.clear();
        this.variants.clear();
    }

    /**
     * Resolve a ref path under a root to the absolute path it names, or why it may not be opened.
     * Memoised: a large file asks this for every ref, with a handful of distinct paths.
     */
    locate(root: string, documentPath: string): PathVerdict {
        let byPath = this.verdicts.get(root);
        if (!byPath) {
            byPath = new Map();
            this.verdicts.set(root, byPath);
        }
        let verdict = byPath.get(documentPath);
        if (!verdict) {
            verdict = resolveUnderRoot(root, documentPath);
            byPath.set(documentPath, verdict);
        }
        return verdict;
    }

    get(root: string, documentPath: string): Entry {
        const verdict = this.locate(root, documentPath);
        if (!verdict.ok) return { code: "path-outside-root", message: verdict.message };
        const buffer = this.openBuffers.get(verdict.absolute);
        if (buffer) return this.fromBuffer(root, documentPath, verdict.absolute, buffer);
        let entry = this.disk.get(verdict.absolute);
        if (entry === undefined) {
            const read = this.readDocument(root, documentPath, {
                maxBytes: this.maxBytesFor(root) ?? this.maxBytes,
            });
            entry = read.ok ? new SessionDocument(documentPath, read.content) : read.failure;
            this.disk.set(verdict.absolute, entry);
        }
        return this.spelled(verdict.absolute, entry, documentPath);
    }

    /**
     * The same file may be cited under two spellings ("a.md", "./a.md"): each spelling gets its own
     * document (resolutions report the path as written), made once and sharing the content.
     */
    private spelled(absolute: string, entry: Entry, documentPath: string): Entry {
        if (!(entry instanceof SessionDocument) || entry.path === documentPath) return entry;
        let variants = this.variants.get(absolute);
        if (!variants || variants.base !== entry) {
            variants = { base: entry, byPath: new Map() };
            this.variants.set(absolute, variants);
        }
        let variant = variants.byPath.get(documentPath);
        if (!variant) {
            variant = new SessionDocument(documentPath, entry.content);
            variants.byPath.set(documentPath, variant);
        }
        return variant;
    }

    private fromBuffer(root: string, documentPath: string, absolute: string, buffer: OpenBuffer): Entry {
        let cached = this.buffers.get(absolute);
        if (!cached || cached.version !== buffer.version) {
            cached = { version: buffer.version, entry: this.readBuffer(root, documentPath, absolute, buffer) };
            this.buffers.set(absolute, cached);
        }
        return this.spelled(absolute, cached.entry, documentPath);
    }

    private readBuffer(root: string, documentPath: string, absolute: string, buffer: OpenBuffer): Entry {
        const quoted = JSON.stringify(documentPath);
        // A buffer of a symlink that leads out is refused like the file would be; an unsaved new
        // file (nothing on disk yet) is fine.
        const realRoot = this.realRoot(root);
        const real = this.realPath(absolute);
        if (real !== undefined && realRoot !== undefined && !isInside(realRoot, real)) {
            return {
                code: "path-outside-root",
                message: `the path ${quoted} is a symlink leading outside the document root`,
            };
        }
        const text = buffer.getText();
        const bytes = utf8Length(text);
        const cap = this.maxBytesFor(root) ?? this.maxBytes;
        if (bytes > cap) {
            return {
                code: "unreadable-document",
                message: `${quoted} is ${formatBytes(bytes)}, over the ${formatBytes(cap)} size cap (maxDocumentSize)`,
            };
        }
        return new SessionDocument(documentPath, normalizeLineEndings(text));
    }

    private realRoot(root: string): string | undefined {
        if (!this.realRoots.has(root)) {
            this.realRoots.set(root, this.realPath(root));
        }
        return this.realRoots.get(root);
    }
}

/** The DocumentLookup core resolves against, for one document root. */
export class RootLookup implements DocumentLookup {
    constructor(
        private readonly source: DocumentSource,
        readonly root: string,
    ) {}

    get(path: string): Entry {
        return this.source.get(this.root, path);
    }
}

/** UTF-8 bytes of a string, without Node's Buffer (the web worker has none: docs/web.md). */
function utf8Length(text: string): number {
    let bytes = text.length;
    for (let i = 0; i < text.length; i++) {
        const code = text.charCodeAt(i);
        if (code >= 0xd800 && code <= 0xdbff) i++;
        else if (code > 0x7ff) bytes += 2;
        else if (code > 0x7f) bytes += 1;
        if (code >= 0xd800 && code <= 0xdbff) bytes += 2;
    }
    return bytes;
}
