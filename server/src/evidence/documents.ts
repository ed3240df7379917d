/**
 * The documents of an evidence index file as columns (docs/evidence-internals.md, "Index files"), and their
 * records made one at a time when asked for. A warm query compares twenty thousand files' stats with
 * the columns and builds the records of its hits only: building every record when the file was read
 * was most of loading it, and their garbage most of the rest.
 */
/** A damaged index file or one of another format (it is rebuilt). */
export class IndexFormatError extends Error {}

export interface DocumentRecord {
    path: string;
    size: number;
    mtimeMs: number;
    /** The file's inode when read (0 when not known): a file replaced by another of the same size and time is read again. */
    ino: number;
    hash: string;
    /** Why the document is kept out of every result, if it is. */
    unsafe?: string;
    /** Why the file is not a document at all (binary, not UTF-8, too big): remembered so it is not read again. */
    refused?: string;
    firstSlot: number;
    chunkCount: number;
    /** The path's part of its chunks' ids, computed on first use. */
    idPrefix?: string;
}

const HASH_CHARS = 32;
const REGULAR_HASH = /^[0-9a-f]{32}$/;

/** What is rare, per document: its index and its hash, when the hashes column cannot hold it. */
type OddHash = [number, string];

/** The header's part of the documents: column lengths, the rare hashes, and the reasons' texts. */
export interface DocumentsHeader {
    docCount: number;
    docBytes: number[];
    docHashes: OddHash[];
    noteTexts: string[];
}

/** Columns of the documents, in the order of `docBytes`. */
const COLUMNS = 7;

/**
 * Documents as columns, each padded to 4 bytes: paths (UTF-8, NUL-separated: no path holds a NUL),
 * content hashes (32 hex characters each), sizes, mtimes and inodes (float64), first slots and chunk
 * counts (int32), and why a document is unsafe and why it is refused (int32: the 1-based place of the
 * reason in the header's texts, each text once; 0: it is not). A hash of another form is in the
 * header. (Format 8 kept the reasons as one JSON array per document: on a corpus of 4,947 unsafe
 * copies, parsing and checking them was a third of opening the index.)
 */
export function documentColumns(records: readonly DocumentRecord[]): {
    columns: Uint8Array[];
    header: DocumentsHeader;
} {
    const count = records.length;
    const oddHashes: OddHash[] = [];
    const texts = new Map<string, number>();
    const textOf = (text: string | undefined) => {
        if (text === undefined) return 0;
        let at = texts.get(text);
        if (at === undefined) {
            at = texts.size + 1;
            texts.set(text, at);
        }
        return at;
    };
    const sizes = new Float64Array(count);
    const mtimes = new Float64Array(count);
    const inos = new Float64Array(count);
    const slots = new Int32Array(count * 2);
    const reasons = new Int32Array(count * 2);
    let hashes = "";
    const paths: string[] = [];
    for (let i = 0; i < count; i++) {
        const record = records[i];
        paths.push(record.path);
        sizes[i] = record.size;
        mtimes[i] = record.mtimeMs;
        inos[i] = record.ino;
        slots[i * 2] = record.firstSlot;
        slots[i * 2 + 1] = record.chunkCount;
        const regular = REGULAR_HASH.test(record.hash);
        hashes += regular ? record.hash : "0".repeat(HASH_CHARS);
        if (!regular) oddHashes.push([i, record.hash]);
        reasons[i * 2] = textOf(record.unsafe);
        reasons[i * 2 + 1] = textOf(record.refused);
    }
    const columns = [
        padded(Buffer.from(paths.join("\0"), "utf8")),
        padded(Buffer.from(hashes, "latin1")),
        new Uint8Array(sizes.buffer),
        new Uint8Array(mtimes.buffer),
        new Uint8Array(inos.buffer),
        new Uint8Array(slots.buffer),
        new Uint8Array(reasons.buffer),
    ];
    return {
        columns,
        header: {
            docCount: count,
            docBytes: columns.map((c) => c.length),
            docHashes: oddHashes,
            noteTexts: [...texts.keys()],
        },
    };
}

function padded(bytes: Uint8Array): Uint8Array {
    const out = new Uint8Array((bytes.length + 3) & ~3);
    out.set(bytes);
    return out;
}

/** The bytes the columns of `header` take in the file. */
export function columnBytes(header: DocumentsHeader): number {
    return Array.isArray(header.docBytes) ? header.docBytes.reduce((sum, n) => sum + n, 0) : -1;
}

const unreadable = () => new IndexFormatError("its documents are not readable");

/**
 * The documents of an index file, read from its columns; a record is built when first asked for, and a
 * path cut from the column's text when first asked for: a warm run compares the files it lists with
 * the column in place (pathIs), and twenty thousand path strings and a map of them were most of what
 * opening an index cost.
 */
export class StoredDocuments {
    readonly count: number;
    /**
     * The paths column as text (NUL-separated) and where each path starts in it (count + 1 entries),
     * found as far as asked (`known` of them past the first): a path matched in order tells where the
     * next starts, so a warm walk never searches the text for separators.
     */
    private readonly pathText: string;
    private readonly starts: Int32Array;
    private known = 0;
    /** The hashes column (latin1), each cut out when its record is built. */
    private readonly hashes: Buffer;
    private readonly sizes: Float64Array;
    private readonly mtimes: Float64Array;
    private readonly inos: Float64Array;
    private readonly slots: Int32Array;
    /** Per document, the 1-based places in `texts` of why it is unsafe and why it is refused (0: not). */
    private readonly reasons: Int32Array;
    private readonly texts: string[];
    private readonly oddHashes = new Map<number, string>();

    /** Throws IndexFormatError when the columns and the header do not fit together. */
    constructor(body: Buffer, start: number, header: DocumentsHeader) {
        const { docCount: count, docBytes: lengths, docHashes, noteTexts } = header;
        // Format 8 had six columns and its reasons in the header: rebuilt, as any other version's.
        if (Array.isArray(lengths) && lengths.length !== COLUMNS)
            throw new IndexFormatError("it was built by another version");
        if (
            !Number.isInteger(count) ||
            count < 0 ||
            !Array.isArray(lengths) ||
            !Array.isArray(docHashes) ||
            !Array.isArray(noteTexts) ||
            !noteTexts.every((text) => typeof text === "string")
        ) {
            throw unreadable();
        }
        if (
            lengths[1] < count * HASH_CHARS ||
            lengths[2] !== count * 8 ||
            lengths[3] !== count * 8 ||
            lengths[4] !== count * 8 ||
            lengths[5] !== count * 8 ||
            lengths[6] !== count * 8
        ) {
            throw unreadable();
        }
        const at: number[] = [];
        let offset = start;
        for (const length of lengths) {
            at.push(offset);
            offset += length;
        }
        let pathEnd = at[0] + lengths[0];
        while (pathEnd > at[0] && body[pathEnd - 1] === 0) pathEnd--; // the column's padding
        this.count = count;
        this.pathText = count === 0 ? "" : body.toString("utf8", at[0], pathEnd);
        this.starts = new Int32Array(count + 1);
        this.hashes = body.subarray(at[1], at[1] + count * HASH_CHARS);
        // Copied: the file buffer may be unaligned for float64 and int32 views.
        const copy = (i: number) => body.buffer.slice(body.byteOffset + at[i], body.byteOffset + at[i] + lengths[i]);
        this.sizes = new Float64Array(copy(2));
        this.mtimes = new Float64Array(copy(3));
        this.inos = new Float64Array(copy(4));
        this.slots = new Int32Array(copy(5));
        this.reasons = new Int32Array(copy(6));
        this.texts = noteTexts;
        for (let at = 0; at < this.reasons.length; at++) {
            if (this.reasons[at] < 0 || this.reasons[at] > noteTexts.length) throw unreadable();
        }
        for (const odd of docHashes) {
            if (!Array.isArray(odd) || !Number.isInteger(odd[0]) || odd[0] < 0 || odd[0] >= count) throw unreadable();
            if (typeof odd[1] !== "string") throw unreadable();
            this.oddHashes.set(odd[0], odd[1]);
        }
    }

    /** Each document's chunks lie within the table's `slots` (indexBounds.ts); throws IndexFormatError if not. */
    checkSlotRanges(slots: number): void {
        for (let i = 0; i < this.count; i++) {
            const first = this.slots[i * 2];
            const count = this.slots[i * 2 + 1];
            if (first < 0 || count < 0 || first + count > slots)
                throw new IndexFormatError("its slot range of a document is out of range");
        }
    }

    /** The path of document `i` (a new string each time: the caller keeps what it needs). */
    pathAt(i: number): string {
        this.findStarts(i + 1);
        return this.pathText.slice(this.starts[i], this.starts[i + 1] - 1);
    }

    /** Whether document `i` has this path, compared in place. */
    pathIs(i: number, path: string): boolean {
        if (i >= this.known) {
            this.findStarts(i);
            // The next path's start is learnt from a match: the path, then a separator or the end.
            const from = this.starts[i];
            const end = from + path.length;
            if (!this.pathText.startsWith(path, from)) return false;
            const last = i === this.count - 1;
            if (end === this.pathText.length ? !last : this.pathText.charCodeAt(end) !== 0) return false;
            if (last && end !== this.pathText.length) throw unreadable(); // more paths than documents
            this.starts[i + 1] = end + 1;
            this.known = i + 1;
            return true;
        }
        const from = this.starts[i];
        return this.starts[i + 1] - 1 - from === path.length && this.pathText.startsWith(path, from);
    }

    /** Finds where paths start up to path `i` (at most `count`); throws IndexFormatError when they do not add up. */
    private findStarts(i: number): void {
        while (this.known < i) {
            const at = this.known;
            let end = this.pathText.indexOf("\0", this.starts[at]);
            if (end < 0) {
                if (at !== this.count - 1) throw unreadable(); // fewer paths than documents
                end = this.pathText.length;
            } else if (at === this.count - 1) throw unreadable(); // more paths than documents
            this.starts[at + 1] = end + 1;
            this.known = at + 1;
        }
    }

    /** Document `i` was read from a file of this size, modification time and inode (0: not known). */
    sameFile(i: number, size: number, mtimeMs: number, ino: number): boolean {
        const stored = this.inos[i];
        return this.sizes[i] === size && this.mtimes[i] === mtimeMs && (stored === 0 || stored === ino);
    }

    isRefused(i: number): boolean {
        return this.reasons[i * 2 + 1] !== 0;
    }

    isUnsafe(i: number): boolean {
        return this.reasons[i * 2] !== 0;
    }

    record(i: number): DocumentRecord {
        const record: DocumentRecord = {
            path: this.pathAt(i),
            size: this.sizes[i],
            mtimeMs: this.mtimes[i],
            ino: this.inos[i],
            hash: this.hashes.toString("latin1", i * HASH_CHARS, (i + 1) * HASH_CHARS),
            firstSlot: this.slots[i * 2],
            chunkCount: this.slots[i * 2 + 1],
        };
        const hash = this.oddHashes.get(i);
        if (hash !== undefined) record.hash = hash;
        const unsafe = this.reasons[i * 2];
        const refused = this.reasons[i * 2 + 1];
        if (unsafe !== 0) record.unsafe = this.texts[unsafe - 1];
        if (refused !== 0) record.refused = this.texts[refused - 1];
        return record;
    }
}
