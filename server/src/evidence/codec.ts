/**
 * The evidence index as one binary file (docs/evidence.md, "Index files"): magic, header JSON, the
 * documents as columns (no JSON to parse per document), the chunk table, the postings, and the SHA-1
 * of all before it. Written in pieces of about a megabyte, so a large index is never one buffer.
 */
import { createHash } from "node:crypto";
import { FIELDS } from "./chunkTable";
import {
    columnBytes,
    type DocumentRecord,
    type DocumentsHeader,
    documentColumns,
    IndexFormatError,
    StoredDocuments,
} from "./documents";
import { PostingList } from "./postings";
import type { IndexSettings } from "./settings";

const MAGIC = "SCEVIDX1";
const CHECKSUM_BYTES = 20;

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
    /** `slots` rows of the chunk table. */
    table: Int32Array;
    headings: readonly string[];
    terms: ReadonlyMap<string, PostingList>;
}

/** What an index file holds, as read: the documents stay columns until a record is asked for. */
export interface ReadImage extends Omit<IndexImage, "documents" | "terms" | "headings"> {
    headings: string[];
    documents: StoredDocuments;
    terms: Map<string, PostingList>;
}

/** Hands the file's bytes to `write` in pieces (the buffer passed is reused after `write` returns). */
export function writeIndex(image: IndexImage, write: (bytes: Uint8Array) => void): void {
    const docs = documentColumns(image.documents);
    const termEntries: (string | number)[] = [];
    let offset = 0;
    for (const [term, list] of image.terms) {
        const length = list.bytes.length;
        termEntries.push(term, offset, length, list.count, list.last);
        offset += length;
    }
    const header = Buffer.from(
        JSON.stringify({
            key: image.key,
            settings: image.settings,
            root: image.root,
            slots: image.slots,
            deadSlots: image.deadSlots,
            ...docs.header,
            headings: image.headings,
            terms: termEntries,
        }),
    );
    const sink = new ChecksummedSink(write);
    const lead = Buffer.alloc(align4(MAGIC.length + 4 + header.length) - header.length);
    lead.write(MAGIC, 0, "latin1");
    lead.writeUInt32LE(header.length, MAGIC.length);
    sink.push(lead.subarray(0, MAGIC.length + 4));
    sink.push(header);
    sink.push(lead.subarray(MAGIC.length + 4));
    for (const column of docs.columns) sink.push(column);
    const table = image.table;
    sink.push(new Uint8Array(table.buffer, table.byteOffset, image.slots * FIELDS * 4));
    for (const list of image.terms.values()) sink.push(list.bytes);
    sink.end();
}

/** Reads an index file's bytes; throws IndexFormatError when they are damaged or of another format. */
export function readIndex(bytes: Uint8Array): ReadImage {
    const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (buffer.length < MAGIC.length + 4 + CHECKSUM_BYTES || buffer.toString("latin1", 0, MAGIC.length) !== MAGIC) {
        throw new IndexFormatError("not an evidence index of this version");
    }
    const body = buffer.subarray(0, buffer.length - CHECKSUM_BYTES);
    if (!createHash("sha1").update(body).digest().equals(buffer.subarray(body.length))) {
        throw new IndexFormatError("its checksum does not match (a damaged or truncated file)");
    }
    const headerLength = buffer.readUInt32LE(MAGIC.length);
    let header: DocumentsHeader & {
        key: string;
        settings: IndexSettings;
        root: string;
        slots: number;
        deadSlots: number;
        headings: string[];
        terms: (string | number)[];
    };
    try {
        header = JSON.parse(buffer.toString("utf8", MAGIC.length + 4, MAGIC.length + 4 + headerLength));
    } catch {
        throw new IndexFormatError("its header is not readable");
    }
    const docsStart = align4(MAGIC.length + 4 + headerLength);
    const docsBytes = columnBytes(header);
    if (!Number.isInteger(docsBytes) || docsBytes < 0 || docsStart + docsBytes > body.length) {
        throw new IndexFormatError("its documents are truncated");
    }
    const tableStart = docsStart + docsBytes;
    const tableBytes = header.slots * FIELDS * 4;
    const postingsStart = tableStart + tableBytes;
    if (!Number.isInteger(header.slots) || postingsStart > body.length) {
        throw new IndexFormatError("its chunk table is truncated");
    }
    // Copied: the table grows in place on updates, and the file buffer may be unaligned.
    const table = new Int32Array(body.buffer.slice(body.byteOffset + tableStart, body.byteOffset + postingsStart));
    const documents = new StoredDocuments(body, docsStart, header);
    const terms = new Map<string, PostingList>();
    const entries = header.terms;
    for (let i = 0; i < entries.length; i += 5) {
        const start = postingsStart + (entries[i + 1] as number);
        const end = start + (entries[i + 2] as number);
        if (end > body.length) throw new IndexFormatError("its postings are truncated");
        terms.set(
            entries[i] as string,
            PostingList.view(body.subarray(start, end), entries[i + 3] as number, entries[i + 4] as number),
        );
    }
    return {
        key: header.key,
        settings: header.settings,
        root: header.root,
        slots: header.slots,
        deadSlots: header.deadSlots,
        documents,
        table,
        headings: header.headings,
        terms,
    };
}

/** Coalesces pieces into about a megabyte before writing, and appends the SHA-1 of everything written. */
class ChecksummedSink {
    private readonly buffer = Buffer.alloc(1 << 20);
    private used = 0;
    private readonly hash = createHash("sha1");

    constructor(private readonly write: (bytes: Uint8Array) => void) {}

    push(bytes: Uint8Array): void {
        if (this.used + bytes.length > this.buffer.length) this.flush();
        if (bytes.length >= this.buffer.length) {
            this.hash.update(bytes);
            this.write(bytes);
            return;
        }
        this.buffer.set(bytes, this.used);
        this.used += bytes.length;
    }

    end(): void {
        this.flush();
        this.write(this.hash.digest());
    }

    private flush(): void {
        if (this.used === 0) return;
        const piece = this.buffer.subarray(0, this.used);
        this.hash.update(piece);
        this.write(piece);
        this.used = 0;
    }
}

function align4(offset: number): number {
    return (offset + 3) & ~3;
}
