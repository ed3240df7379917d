/**
 * The evidence index as one binary file (docs/evidence-internals.md, "Index files"): magic, header JSON, the
 * documents as columns (no JSON to parse per document), the chunk table, a CRC-32 of all that, then
 * the postings, each term's list with a CRC-32 of its own in the header's term dictionary. A warm
 * query reads the front (everything before the postings) and the lists of its own terms only
 * (`StoredPostings`); a full read checks every list. Written in pieces of about a megabyte, so a
 * large index is never one buffer. Pure: the caller opens the file (`IndexFile`).
 */

import type { ChunkLengths } from "./bm25";
import { FIELDS } from "./chunkTable";
import { crc32 } from "./crc32";
import {
    columnBytes,
    type DocumentRecord,
    type DocumentsHeader,
    documentColumns,
    IndexFormatError,
    StoredDocuments,
} from "./documents";
import { checkLengths, checkPostings, checkTable } from "./indexBounds";
import { PostingList } from "./postings";
import type { IndexSettings } from "./settings";

const MAGIC = "SCEVIDX2";
const LEAD = MAGIC.length + 4;
const CHECKSUM_BYTES = 4;
/** Fields of a term in the header's dictionary: term, offset, length, count, last slot, CRC-32. */
const TERM_FIELDS = 6;
/** The first read of a file: the lead and, usually, all of the header. */
const FIRST_READ = 256 * 1024;

/** What an index file holds, as the writer is given it. */
export interface IndexImage {
    /** What must match for the file to be reused as is (EvidenceIndex.settingsKey). */
    key: string;
    settings: IndexSettings;
    root: string;
    slots: number;
    deadSlots: number;
    /** The live documents, numbered densely as the table's document fields count them. */
    documents: readonly DocumentRecord[];
    /** The documents come in path order (their numbers are their ranks: ties of score need no sort). */
    inPathOrder: boolean;
    /** The live, safe chunks' count and summed length (so a query need not sum them over the table). */
    lengths: ChunkLengths;
    /** `slots` rows of the chunk table. */
    table: Int32Array;
    headings: readonly string[];
    terms: ReadonlyMap<string, PostingList>;
}

/** What an index file holds, as read: the documents stay columns until a record is asked for. */
export interface ReadImage extends Omit<IndexImage, "documents" | "terms" | "headings" | "lengths"> {
    /** Absent in files of older writers. */
    lengths: ChunkLengths | undefined;
    documents: StoredDocuments;
    headings: string[];
    /** The postings, read when asked for. */
    postings: StoredPostings;
}

/** An opened index file: positioned reads, until closed. */
export interface OpenedFile {
    size: number;
    /** `length` bytes at `position`; throws IndexFormatError if the file is shorter. */
    read(position: number, length: number): Uint8Array;
    close(): void;
}

/**
 * Opens the index file, again for each later read of postings; throws IndexFormatError when the file
 * opened is no longer the one first read (replaced by another writer).
 */
export type IndexFile = () => OpenedFile;

interface Header extends DocumentsHeader {
    key: string;
    /** Absent in files of older writers: their documents' order is not known. */
    pathOrdered?: boolean;
    lengths?: ChunkLengths;
    settings: IndexSettings;
    root: string;
    slots: number;
    deadSlots: number;
    headings: string[];
    terms: (string | number)[];
    postingsBytes: number;
}

/** Hands the file's bytes to `write` in pieces (the buffer passed is reused after `write` returns). */
export function writeIndex(image: IndexImage, write: (bytes: Uint8Array) => void): void {
    const docs = documentColumns(image.documents);
    const termEntries: (string | number)[] = [];
    let offset = 0;
    for (const [term, list] of image.terms) {
        let crc = 0;
        for (const piece of list.pieces()) crc = crc32(piece, crc);
        termEntries.push(term, offset, list.byteLength, list.count, list.last, crc);
        offset += list.byteLength;
    }
    const header = Buffer.from(
        JSON.stringify({
            key: image.key,
            settings: image.settings,
            root: image.root,
            slots: image.slots,
            deadSlots: image.deadSlots,
            pathOrdered: image.inPathOrder,
            lengths: image.lengths,
            ...docs.header,
            headings: image.headings,
            terms: termEntries,
            postingsBytes: offset,
        }),
    );
    const sink = new PieceSink(write);
    const lead = Buffer.alloc(align4(LEAD + header.length) - header.length);
    lead.write(MAGIC, 0, "latin1");
    lead.writeUInt32LE(header.length, MAGIC.length);
    sink.push(lead.subarray(0, LEAD));
    sink.push(header);
    sink.push(lead.subarray(LEAD));
    for (const column of docs.columns) sink.push(column);
    const table = image.table;
    sink.push(new Uint8Array(table.buffer, table.byteOffset, image.slots * FIELDS * 4));
    const front = Buffer.alloc(CHECKSUM_BYTES);
    front.writeUInt32LE(sink.checksum());
    sink.push(front);
    for (const list of image.terms.values()) for (const piece of list.pieces()) sink.push(piece);
    sink.end();
}

/** Reads an index file's bytes (its lists are checked as they are read); throws IndexFormatError when damaged or foreign. */
export function readIndex(bytes: Uint8Array): ReadImage {
    const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const file: OpenedFile = {
        size: buffer.length,
        // Copies: the index read owns its table (it changes it in place), not the caller's bytes.
        read: (position, length) => {
            if (position + length > buffer.length) throw truncated();
            return Buffer.from(buffer.subarray(position, position + length));
        },
        close: () => {},
    };
    return readIndexFile(() => file);
}

/**
 * Reads the front of an index file (header, documents, chunk table) and checks it; the postings are
 * read when asked for. A file of at most `wholeUpTo` bytes is read whole at once, its postings kept
 * from that read (one read instead of three, and no copy of the front). Throws IndexFormatError when
 * the file is damaged or of another format.
 */
export function readIndexFile(open: IndexFile, wholeUpTo = 0): ReadImage {
    const file = open();
    try {
        const size = file.size;
        if (size < LEAD + CHECKSUM_BYTES) throw foreign();
        const whole = size <= wholeUpTo;
        const first = asBuffer(file.read(0, whole ? size : Math.min(size, FIRST_READ)));
        if (first.toString("latin1", 0, MAGIC.length) !== MAGIC) throw foreign();
        const headerLength = first.readUInt32LE(MAGIC.length);
        if (LEAD + headerLength > size) throw truncated();
        const headerBytes =
            LEAD + headerLength <= first.length
                ? first.subarray(LEAD, LEAD + headerLength)
                : asBuffer(file.read(LEAD, headerLength));
        let header: Header;
        try {
            header = JSON.parse(headerBytes.toString("utf8"));
        } catch {
            throw new IndexFormatError("its header is not readable");
        }
        const docsStart = align4(LEAD + headerLength);
        const docsBytes = columnBytes(header);
        if (!Number.isInteger(docsBytes) || docsBytes < 0 || !Number.isInteger(header.slots) || header.slots < 0)
            throw new IndexFormatError("its documents are not readable");
        const tableStart = docsStart + docsBytes;
        const frontEnd = tableStart + header.slots * FIELDS * 4;
        const postingsStart = frontEnd + CHECKSUM_BYTES;
        if (!Number.isInteger(header.postingsBytes) || postingsStart + header.postingsBytes !== size) throw truncated();
        // The front in one buffer (the first read reused when it holds it all), its checksum after it.
        const front =
            postingsStart <= first.length
                ? first.subarray(0, postingsStart)
                : Buffer.concat([first, asBuffer(file.read(first.length, postingsStart - first.length))]);
        if (crc32(front.subarray(0, frontEnd)) !== front.readUInt32LE(frontEnd)) {
            throw new IndexFormatError("its checksum does not match (a damaged or truncated file)");
        }
        // A view of the read when it is aligned for int32 (the index's own memory: it grows by copying).
        const tableAt = front.byteOffset + tableStart;
        const table =
            tableAt % 4 === 0
                ? new Int32Array(front.buffer, tableAt, header.slots * FIELDS)
                : new Int32Array(front.buffer.slice(tableAt, front.byteOffset + frontEnd));
        const documents = new StoredDocuments(front, docsStart, header);
        if (!Array.isArray(header.terms) || header.terms.length % TERM_FIELDS !== 0) {
            throw new IndexFormatError("its term dictionary is not readable");
        }
        // Every id, slot and length range-checked: the checksums find damage, not forgery (indexBounds.ts).
        checkTable(table, header.slots, header.deadSlots, documents.count, header.headings);
        documents.checkSlotRanges(header.slots);
        const lengths = chunkLengths(header.lengths);
        checkLengths(lengths, header.slots);
        return {
            key: header.key,
            settings: header.settings,
            root: header.root,
            slots: header.slots,
            deadSlots: header.deadSlots,
            inPathOrder: header.pathOrdered === true,
            lengths,
            documents,
            table,
            headings: header.headings,
            postings: new StoredPostings(
                open,
                postingsStart,
                header.postingsBytes,
                header.terms,
                header.slots,
                whole ? first.subarray(postingsStart) : undefined,
            ),
        };
    } finally {
        file.close();
    }
}

/** The postings of an index file, each list read (and checked) when first asked for. */
export class StoredPostings {
    private readonly at = new Map<string, number>();

    constructor(
        private readonly open: IndexFile,
        private readonly start: number,
        private readonly bytes: number,
        private readonly entries: (string | number)[],
        /** The chunk table's slots: every slot of a list is below it. */
        private readonly slots: number,
        /** The postings as read with the front (the file read whole), if they were. */
        private readonly held?: Uint8Array,
    ) {
        for (let i = 0; i < entries.length; i += TERM_FIELDS) this.at.set(entries[i] as string, i);
    }

    /** The bytes of all the lists. */
    get size(): number {
        return this.bytes;
    }

    has(term: string): boolean {
        return this.at.has(term);
    }

    /** Every term of the file. */
    terms(): IterableIterator<string> {
        return this.at.keys();
    }

    /** The lists of those of `terms` the file has, read through one opening of the file. */
    load(terms: Iterable<string>): Map<string, PostingList> {
        const found = new Map<string, PostingList>();
        let file: OpenedFile | undefined;
        try {
            for (const term of terms) {
                const i = this.at.get(term);
                if (i === undefined || found.has(term)) continue;
                const [offset, length] = this.place(i);
                if (this.held) {
                    found.set(term, this.list(i, this.held.subarray(offset, offset + length)));
                    continue;
                }
                file ??= this.open();
                found.set(term, this.list(i, file.read(this.start + offset, length)));
            }
        } finally {
            file?.close();
        }
        return found;
    }

    /** Every list, read at once. */
    loadAll(): Map<string, PostingList> {
        const found = new Map<string, PostingList>();
        if (this.at.size === 0) return found;
        let all = this.held;
        if (all === undefined) {
            const file = this.open();
            try {
                all = file.read(this.start, this.bytes);
            } finally {
                file.close();
            }
        }
        for (const [term, i] of this.at) {
            const [offset, length] = this.place(i);
            found.set(term, this.list(i, all.subarray(offset, offset + length)));
        }
        return found;
    }

    private place(i: number): [number, number] {
        const offset = this.entries[i + 1];
        const length = this.entries[i + 2];
        if (
            !Number.isInteger(offset) ||
            !Number.isInteger(length) ||
            (offset as number) < 0 ||
            (length as number) < 0 ||
            (offset as number) + (length as number) > this.bytes
        ) {
            throw new IndexFormatError("its term dictionary is not readable");
        }
        return [offset as number, length as number];
    }

    private list(i: number, bytes: Uint8Array): PostingList {
        if (crc32(bytes) !== this.entries[i + 5]) {
            throw new IndexFormatError("its postings do not match their checksum (a damaged file)");
        }
        checkPostings(bytes, this.entries[i + 3], this.entries[i + 4], this.slots);
        return PostingList.view(bytes, this.entries[i + 3] as number, this.entries[i + 4] as number);
    }
}

function chunkLengths(value: unknown): ChunkLengths | undefined {
    const { eligible, total } = (value ?? {}) as Partial<ChunkLengths>;
    const count = (n: unknown) => Number.isSafeInteger(n) && (n as number) >= 0;
    return count(eligible) && count(total) ? { eligible: eligible!, total: total! } : undefined;
}

const foreign = () => new IndexFormatError("not an evidence index of this version");
const truncated = () => new IndexFormatError("it is truncated");

function asBuffer(bytes: Uint8Array): Buffer {
    return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Coalesces pieces into about a megabyte before writing; keeps a running CRC-32 of the front. */
class PieceSink {
    private readonly buffer = Buffer.alloc(1 << 20);
    private used = 0;
    private crc = 0;

    constructor(private readonly write: (bytes: Uint8Array) => void) {}

    push(bytes: Uint8Array): void {
        if (this.used + bytes.length > this.buffer.length) this.flush();
        if (bytes.length >= this.buffer.length) {
            this.crc = crc32(bytes, this.crc);
            this.write(bytes);
            return;
        }
        this.buffer.set(bytes, this.used);
        this.used += bytes.length;
    }

    /** The CRC-32 of everything pushed so far. */
    checksum(): number {
        this.flush();
        return this.crc;
    }

    end(): void {
        this.flush();
    }

    private flush(): void {
        if (this.used === 0) return;
        const piece = this.buffer.subarray(0, this.used);
        this.crc = crc32(piece, this.crc);
        this.write(piece);
        this.used = 0;
    }
}

function align4(offset: number): number {
    return (offset + 3) & ~3;
}
