/**
 * Documents under a root read afresh on every call of a long-lived server (the MCP server): a file's
 * content is kept while its identity and stamps (device, inode, size, modification and change times
 * in nanoseconds) stay the same, so an unchanged file costs one stat instead of a read, and a changed
 * one is read again. Every read still goes through readDocumentUnderRoot (path
 * safety, symlinks, size cap, UTF-8), and every refusal comes from it, with its message.
 */
import * as fs from "node:fs";
import * as nodePath from "node:path";
import { type DocumentFailure, type DocumentLookup, SessionDocument } from "../core/session";
import { type DiskRead, readDocumentUnderRoot } from "./diskDocuments";
import { SETTLED_MS, stampOf } from "./fileStamp";
import { resolveUnderRoot } from "./pathSafety";

interface Kept {
    stamp: string;
    content: string;
    raw: string;
    /** Documents made from it, by path spelling, each splitting its lines once. */
    documents: Map<string, SessionDocument>;
}

/** Kept contents, in UTF-16 code units, before the oldest are dropped. */
const MAX_KEPT_CHARS = 64 * 1024 * 1024;
const MAX_MISSING = 10_000;

function sizeOf(kept: Kept): number {
    return kept.content.length + (kept.raw === kept.content ? 0 : kept.raw.length);
}

export class FreshDocuments {
    private readonly kept = new Map<string, Kept>();
    /** Paths with no file, with the stamp of the folder that would hold one (adding a file changes it). */
    private readonly missing = new Map<string, { folderStamp: string; failure: DocumentFailure }>();
    private keptChars = 0;

    constructor(
        readonly root: string,
        private readonly maxBytes?: number,
    ) {}

    read(path: string): DiskRead {
        const entry = this.entry(path);
        if ("failure" in entry) return { ok: false, failure: entry.failure };
        return { ok: true, content: entry.content, raw: entry.raw };
    }

    /** The document at a path (kept with its line index while the file is unchanged), or why not. */
    document(path: string): SessionDocument | DocumentFailure {
        const entry = this.entry(path);
        if ("failure" in entry) return entry.failure;
        let document = entry.documents.get(path);
        if (!document) {
            document = new SessionDocument(path, entry.content);
            entry.documents.set(path, document);
        }
        return document;
    }

    /** A lookup for one call: each path looked up at most once within it. */
    lookup(): DocumentLookup {
        const seen = new Map<string, SessionDocument | DocumentFailure>();
        return {
            get: (path) => {
                let entry = seen.get(path);
                if (entry === undefined) {
                    entry = this.document(path);
                    seen.set(path, entry);
                }
                return entry;
            },
        };
    }

    private entry(path: string): Kept | { failure: DocumentFailure } {
        const stamped = this.stamp(path);
        if (stamped !== undefined && "real" in stamped) {
            const hit = this.kept.get(stamped.real);
            if (hit && hit.stamp === stamped.stamp) return hit;
        }
        const folderStamp = stamped !== undefined && "folderStamp" in stamped ? stamped.folderStamp : undefined;
        if (folderStamp !== undefined) {
            const known = this.missing.get(path);
            if (known && known.folderStamp === folderStamp) return { failure: known.failure };
        }
        const read = readDocumentUnderRoot(this.root, path, { maxBytes: this.maxBytes });
        if (!read.ok) {
            if (folderStamp !== undefined && this.missing.size < MAX_MISSING) {
                this.missing.set(path, { folderStamp, failure: read.failure });
            }
            return { failure: read.failure };
        }
        const kept: Kept = { stamp: "", content: read.content, raw: read.raw, documents: new Map() };
        if (stamped !== undefined && "real" in stamped && stamped.settled) {
            kept.stamp = stamped.stamp;
            this.keep(stamped.real, kept);
        }
        return kept;
    }

    /**
     * The identity and stamps of the file a path names now (through any symlinks), keyed by its
     * absolute path; for a missing file, the stamp of the folder that would hold it; otherwise
     * undefined (the full read decides). One stat: a kept file was checked to lie inside the root when
     * it was read, and a path that now leads elsewhere names another file (device and inode differ).
     */
    private stamp(
        path: string,
    ): { real: string; stamp: string; settled: boolean } | { folderStamp: string } | undefined {
        const verdict = resolveUnderRoot(this.root, path);
        if (!verdict.ok) return undefined;
        try {
            const stats = fs.statSync(verdict.absolute, { bigint: true, throwIfNoEntry: false });
            if (!stats) {
                const folder = fs.statSync(nodePath.dirname(verdict.absolute), { bigint: true, throwIfNoEntry: false });
                if (!folder || Date.now() - Number(folder.mtimeMs) <= SETTLED_MS) return undefined;
                return { folderStamp: `${folder.dev}:${folder.ino}:${folder.mtimeNs}:${folder.ctimeNs}` };
            }
            if (!stats.isFile()) return undefined;
            // A file written moments ago is not kept until it has settled (fileStamp.ts).
            return { real: verdict.absolute, ...stampOf(stats) };
        } catch {
            return undefined;
        }
    }

    private keep(real: string, entry: Kept): void {
        const before = this.kept.get(real);
        if (before) {
            this.keptChars -= sizeOf(before);
            this.kept.delete(real);
        }
        this.kept.set(real, entry);
        this.keptChars += sizeOf(entry);
        for (const [oldest, value] of this.kept) {
            if (this.keptChars <= MAX_KEPT_CHARS) break;
            this.kept.delete(oldest);
            this.keptChars -= sizeOf(value);
        }
    }
}
