/**
 * The documents of an evidence index file as columns (docs/evidence.md, "Index files"), and their
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

/**
 * What is rare, per document: its index, its hash when the column cannot hold it (else 0), and the
 * 1-based places in `texts` of why it is unsafe and why it is refused (0: it is not).
 */
type Note = [number, string | 0, number, number];

/** The header's part of the documents: column lengths and the rare notes with their texts. */
export interface DocumentsHeader {
    docCount: number;
    docBytes: number[];
    docNotes: Note[];
    noteTexts: string[];
}

/**
 * Documents as columns, each padded to 4 bytes: paths (UTF-8, NUL-separated: no path holds a NUL),
 * content hashes (32 hex characters each), sizes, mtimes and inodes (float64), first slots and chunk
 * counts (int32). Unsafe and refused documents, and hashes of another form, are noted in the header,
 * each reason's text once.
 */
export function documentColumns(records: readonly DocumentRecord[]): {
    columns: Uint8Array[];
    header: DocumentsHeader;
} {
    const count = records.length;
    const notes: Note[] = [];
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
        if (!regular || record.unsafe !== undefined || record.refused !== undefined) {
            notes.push([i, regular ? 0 : record.hash, textOf(record.unsafe), textOf(record.refused)]);
        }
    }
    const columns = [
        padded(Buffer.from(paths.join("\0"), "utf8")),
        padded(Buffer.from(hashes, "latin1")),
        new Uint8Array(sizes.buffer),
        new Uint8Array(mtimes.buffer),
        new Uint8Array(inos.buffer),
        new Uint8Array(slots.buffer),
    ];
    return {
        columns,
        header: {
            docCount: count,
            docBytes: columns.map((c) => c.length),
            docNotes: notes,
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
    /** The paths column as text (NUL-separated) and where each path starts in it (count + 1 entries). */
    private readonly pathText: string;
    private readonly starts: Int32Array;
    /** The hashes column (latin1), each cut out when its record is built. */
    private readonly hashes: Buffer;
    private readonly sizes: Float64Array;
    private readonly mtimes: Float64Array;
    private readonly inos: Float64Array;
    private readonly slots: Int32Array;
    /** The notes of the header, and for each document the place of its own in them, plus one (0: none). */
    private readonly notes: Note[];
    private readonly noteOf: Int32Array;
    private readonly texts: string[];

    /** Throws IndexFormatError when the columns and the header do not fit together. */
    constructor(body: Buffer, start: number, header: DocumentsHeader) {
        const { docCount: count, docBytes: lengths, docNotes, noteTexts } = header;
        if (
            !Number.isInteger(count) ||
            count < 0 ||
            !Array.isArray(lengths) ||
            lengths.length !== 6 ||
            !Array.isArray(docNotes) ||
            !Array.isArray(noteTexts)
        ) {
            throw unreadable();
        }
        if (
            lengths[1] < count * HASH_CHARS ||
            lengths[2] !== count * 8 ||
            lengths[3] !== count * 8 ||
            lengths[4] !== count * 8 ||
            lengths[5] !== count * 8
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
        let end = -1;
        for (let i = 0; i < count; i++) {
            this.starts[i] = end + 1;
            end = this.pathText.indexOf("\0", end + 1);
            if (end < 0) {
                if (i !== count - 1) throw unreadable();
                end = this.pathText.length;
            }
        }
        if (count > 0 && end !== this.pathText.length) throw unreadable(); // more paths than documents
        this.starts[count] = end + 1;
        this.hashes = body.subarray(at[1], at[1] + count * HASH_CHARS);
        // Copied: the file buffer may be unaligned for float64 and int32 views.
        const copy = (i: number) => body.buffer.slice(body.byteOffset + at[i], body.byteOffset + at[i] + lengths[i]);
        this.sizes = new Float64Array(copy(2));
        this.mtimes = new Float64Array(copy(3));
        this.inos = new Float64Array(copy(4));
        this.slots = new Int32Array(copy(5));
        this.texts = noteTexts;
        this.notes = docNotes;
        this.noteOf = new Int32Array(count);
        for (let n = 0; n < docNotes.length; n++) {
            const note = docNotes[n];
            if (!Array.isArray(note)) throw unreadable();
            const [i, hash, unsafe, refused] = note;
            if (
                !Number.isInteger(i) ||
                i < 0 ||
                i >= count ||
                (hash !== 0 && typeof hash !== "string") ||
                !this.isText(unsafe) ||
                !this.isText(refused)
            ) {
                throw unreadable();
            }
            this.noteOf[i] = n + 1;
        }
    }

    private isText(at: number): boolean {
        return (
            at === 0 ||
            (Number.isInteger(at) && at > 0 && at <= this.texts.length && typeof this.texts[at - 1] === "string")
        );
    }

    /** The path of document `i` (a new string each time: the caller keeps what it needs). */
    pathAt(i: number): string {
        return this.pathText.slice(this.starts[i], this.starts[i + 1] - 1);
    }

    /** Whether document `i` has this path, compared in place. */
    pathIs(i: number, path: string): boolean {
        const from = this.starts[i];
        return this.starts[i + 1] - 1 - from === path.length && this.pathText.startsWith(path, from);
    }

    /** Document `i` was read from a file of this size, modification time and inode (0: not known). */
    sameFile(i: number, size: number, mtimeMs: number, ino: number): boolean {
        const stored = this.inos[i];
        return this.sizes[i] === size && this.mtimes[i] === mtimeMs && (stored === 0 || stored === ino);
    }

    private noteAt(i: number): Note | undefined {
        const n = this.noteOf[i];
        return n === 0 ? undefined : this.notes[n - 1];
    }

    isRefused(i: number): boolean {
        return (this.noteAt(i)?.[3] ?? 0) !== 0;
    }

    isUnsafe(i: number): boolean {
        return (this.noteAt(i)?.[2] ?? 0) !== 0;
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
        const note = this.noteAt(i);
        if (note) {
            const [, hash, unsafe, refused] = note;
            if (hash !== 0) record.hash = hash;
            if (unsafe) record.unsafe = this.texts[unsafe - 1];
            if (refused) record.refused = this.texts[refused - 1];
        }
        return record;
    }
}
