/**
 * The evidence index (docs/evidence.md, "Index"): documents, a table of chunk slots and BM25 postings,
 * in memory and as one compact binary file. Pure: the caller reads files and hands over their text.
 * Updates are incremental: a changed document's slots die and its new chunks are appended, so
 * unchanged postings are copied as bytes; dead slots are squeezed out once they pass a quarter.
 */

import { type Candidate, type ChunkLengths, lengthsOf, type Scored, scoreBm25 } from "./bm25";
import { type Chunk, chunkMarkdown, DEFAULT_MAX_CHARS } from "./chunker";
import { DOC, END, FIELDS, FLAG_UNSAFE, FLAGS, FP_HI, FP_LO, HEADING, LENGTH, START } from "./chunkTable";
import { type IndexFile, type ReadImage, readIndex, readIndexFile, type StoredPostings, writeIndex } from "./codec";
import { type DocumentRecord, IndexFormatError, type StoredDocuments } from "./documents";
import { chunkId, chunkIdPrefix, contentHash, fingerprint } from "./fingerprint";
import { PostingList } from "./postings";
import { scriptsOfTerms } from "./scripts";
import type { IndexSettings } from "./settings";
import { type TermVisitor, termVariants, termVisitor, tokenize } from "./tokenizer";
import { unsafePatterns, unsafeReason } from "./unsafe";

/** Bumped whenever chunking, tokenizing or the file layout change: an older index is rebuilt. */
export const INDEX_FORMAT = 9;

export { type Candidate, type DocumentRecord, type IndexFile, IndexFormatError, type IndexSettings };

/** A chunk as stored: where it is and what identifies it; its text is read from the file when shown. */
export interface ChunkRecord {
    slot: number;
    document: DocumentRecord;
    startLine: number;
    endLine: number;
    headingPath: string[];
    fingerprint: [number, number];
    occurrence: number;
    id: string;
}

export type UpsertOutcome = "added" | "updated" | "unchanged";

/** A chunk as indexed: everything a copy of the same document needs, without chunking or tokenizing again. */
interface IndexedChunk {
    startLine: number;
    endLine: number;
    headingId: number;
    print: [number, number];
    occurrence: number;
    length: number;
    terms: string[];
    frequencies: number[];
    /** The postings of `terms` while `this.terms` is the map they came from (a copy skips the lookups). */
    lists?: PostingList[];
    listsOf?: Map<string, PostingList>;
}

interface IndexedDocument {
    unsafe: string | undefined;
    chunks: IndexedChunk[];
    /** Postings entries held, for the memo's bound. */
    size: number;
}

/**
 * Documents indexed in this process, by content hash, so an identical copy (vendored docs, a file
 * copied under another name) is not chunked and tokenized again. Bounded by postings entries held;
 * the oldest entries go first.
 */
const MEMO_ENTRIES = 200_000;

/** Binary searches locate makes before it weighs them against the paths found in order (locate). */
const MAX_SEARCHES = 64;

export class EvidenceIndex {
    private table: Int32Array;
    private slots = 0;
    private deadSlots = 0;
    /**
     * Documents by number (null once removed; undefined while only in `stored`, the columns of the file
     * read).
     */
    private docs: (DocumentRecord | null | undefined)[] = [];
    private stored: StoredDocuments | undefined;
    /**
     * Live documents' numbers by path, made when first needed (byPath): a warm walk finds its files in
     * the order the file stores them and needs none (locate).
     */
    private pathMap: Map<string, number> | undefined = new Map();
    /** How many documents are live. */
    private live = 0;
    /** Where locate looks first: the number after the document it found last. */
    private cursor = 0;
    /**
     * Paths locate found at the cursor, and those it searched for: once the searches are past a few
     * and an eighth of those found in order, it makes the map.
     */
    private inOrder = 0;
    private searches = 0;
    private headings: string[] = [];
    private headingIds = new Map<string, number>();
    private terms = new Map<string, PostingList>();
    /** The lists of an index file not read yet (a query reads its own terms' only). */
    private postings: StoredPostings | undefined;
    private memo = new Map<string, IndexedDocument>();
    private memoSize = 0;
    /**
     * Ids of slots asked for (a slot's id holds while it lives; compaction renumbers): a kept index's
     * queries name the same unsafe and duplicate chunks in `rejected` each time (docs/evidence-internals.md, "In a server").
     */
    private ids: (string | undefined)[] = [];
    /** What queries read of the documents, kept until a document is added, changed or removed. */
    private derived: {
        unsafe?: { id: string; reason: string }[];
        /** Each live document's rank in path order (ties of score go by path). */
        pathRanks?: Int32Array;
        /** The live documents' numbers in path order. */
        pathOrder?: number[];
        /** The live, safe chunks' count and summed length (BM25's average length). */
        lengths?: ChunkLengths;
    } = {};
    /**
     * Documents are numbered in path order (as an index file stores them), so a document's number is its
     * rank: true from reading a file until a document is added (appended after the others).
     */
    private numberedInPathOrder = false;
    private readonly patterns: string[];
    private readonly visit: TermVisitor;

    constructor(
        readonly root: string,
        readonly settings: IndexSettings = { maxChars: DEFAULT_MAX_CHARS, unsafePatterns: [] },
        capacity = 1024,
    ) {
        this.table = new Int32Array(capacity * FIELDS);
        this.patterns = unsafePatterns(settings.unsafePatterns);
        this.visit = termVisitor(settings.tokenizer);
    }

    /** The terms of a text as this index counts them (queries, best sentences). */
    termsOf(text: string): string[] {
        return tokenize(text, this.settings.tokenizer);
    }

    /** What must match for a stored index to be reused as is. */
    static settingsKey(settings: IndexSettings): string {
        return JSON.stringify({
            format: INDEX_FORMAT,
            maxChars: settings.maxChars,
            unsafe: unsafePatterns(settings.unsafePatterns),
        });
    }

    document(path: string): DocumentRecord | undefined {
        const at = this.locate(path);
        return at === undefined ? undefined : (this.recordAt(at) ?? undefined);
    }

    /**
     * The number of the live document at `path`. A walk lists a folder's files in path order, as an
     * index file numbers its documents, so the document after the last one found is tried first, then,
     * while the numbers are in path order, a binary search (a new folder, a new file); the map by path
     * once the searches are many (files listed in another order) or documents were added. On 19,788
     * files, making the map and looking every file up in it took about 20 ms of a 330 ms warm query;
     * comparing in place, 3 ms.
     */
    private locate(path: string): number | undefined {
        const next = this.cursor;
        let at: number | undefined;
        if (next < this.docs.length && this.pathIs(next, path)) {
            at = next;
            this.inOrder++;
        } else if (
            this.pathMap === undefined &&
            this.numberedInPathOrder &&
            (this.searches < MAX_SEARCHES || this.searches * 8 < this.inOrder)
        ) {
            this.searches++;
            at = this.searchPathOrder(path);
        } else at = this.byPath().get(path);
        if (at !== undefined) this.cursor = at + 1;
        return at;
    }

    /** Whether live document `at` has this path (compared in the file's column while its record is not built). */
    private pathIs(at: number, path: string): boolean {
        const record = this.docs[at];
        if (record === undefined) return this.stored!.pathIs(at, path);
        return record !== null && record.path === path;
    }

    /** Binary search of documents numbered in path order, every one of them from the file read. */
    private searchPathOrder(path: string): number | undefined {
        let low = 0;
        let high = this.docs.length - 1;
        while (low <= high) {
            const middle = (low + high) >>> 1;
            const there = this.stored!.pathAt(middle);
            if (there === path) return this.docs[middle] === null ? undefined : middle;
            if (there < path) low = middle + 1;
            else high = middle - 1;
        }
        return undefined;
    }

    /** Live documents' numbers by path, made on first use from the documents (so every change so far is in it). */
    private byPath(): Map<string, number> {
        if (this.pathMap === undefined) {
            const map = new Map<string, number>();
            for (let at = 0; at < this.docs.length; at++) if (this.docs[at] !== null) map.set(this.pathAt(at), at);
            this.pathMap = map;
        }
        return this.pathMap;
    }

    /** The record of live document `at` (numberOf), if it is live. */
    documentAt(at: number): DocumentRecord | undefined {
        return at >= 0 && at < this.docs.length ? (this.recordAt(at) ?? undefined) : undefined;
    }

    /** The record of document `at`, built from the file's columns on first use. */
    private recordAt(at: number): DocumentRecord | null {
        const known = this.docs[at];
        if (known !== undefined) return known;
        const made = this.stored!.record(at);
        this.docs[at] = made;
        return made;
    }

    /** The path of live document `at`, without building its record. */
    private pathAt(at: number): string {
        const record = this.docs[at];
        return record === undefined ? this.stored!.pathAt(at) : record!.path;
    }

    /**
     * Whether the path's document was indexed from a file of this size, modification time and inode
     * (undefined: no such document). Compared without building its record.
     */
    sameFile(path: string, size: number, mtimeMs: number, ino: number): boolean | undefined {
        const at = this.locate(path);
        if (at === undefined) return undefined;
        return this.sameFileAt(at, size, mtimeMs, ino);
    }

    private sameFileAt(at: number, size: number, mtimeMs: number, ino: number): boolean {
        const record = this.docs[at];
        if (record === undefined) return this.stored!.sameFile(at, size, mtimeMs, ino);
        return (
            record !== null &&
            record.size === size &&
            record.mtimeMs === mtimeMs &&
            (record.ino === 0 || record.ino === ino)
        );
    }

    /**
     * The number of the path's document when it was indexed from this very file (as sameFile), else
     * undefined: a walk marks the documents it met by number (removeUnseen), keeping no paths.
     */
    unchangedAt(path: string, size: number, mtimeMs: number, ino: number): number | undefined {
        const at = this.locate(path);
        return at !== undefined && this.sameFileAt(at, size, mtimeMs, ino) ? at : undefined;
    }

    /** The number of the path's live document, if any (a walk marks documents by number). */
    numberOf(path: string): number | undefined {
        return this.locate(path);
    }

    /** One past the highest document number (documents added later are numbered from here). */
    get numbered(): number {
        return this.docs.length;
    }

    /** Removes every live document numbered below `seen.length` that `seen` does not mark; how many. */
    removeUnseen(seen: Uint8Array): number {
        let removed = 0;
        for (let at = 0; at < seen.length; at++) {
            if (seen[at] === 0 && this.docs[at] !== null) {
                this.removeAt(at, this.pathAt(at));
                removed++;
            }
        }
        return removed;
    }

    get paths(): string[] {
        const paths: string[] = [];
        for (let at = 0; at < this.docs.length; at++) if (this.docs[at] !== null) paths.push(this.pathAt(at));
        return paths;
    }

    get documentCount(): number {
        return this.live;
    }

    /** Files remembered as refused (not text), and the documents indexed. */
    counts(): { documents: number; refused: number } {
        let refused = 0;
        for (let at = 0; at < this.docs.length; at++) {
            const record = this.docs[at];
            if (record === undefined ? this.stored!.isRefused(at) : record?.refused !== undefined) refused++;
        }
        return { documents: this.live - refused, refused };
    }

    /** Remember a file that is not a document (binary, not UTF-8, too big), so an unchanged one is not read again. */
    refuse(path: string, size: number, mtimeMs: number, reason: string, ino = 0): void {
        const existing = this.document(path);
        if (existing?.refused !== undefined) {
            this.touch(path, size, mtimeMs, ino);
            return;
        }
        if (existing) this.remove(path);
        this.derived = {};
        const record: DocumentRecord = {
            path,
            size,
            mtimeMs,
            ino,
            hash: "",
            refused: reason,
            firstSlot: this.slots,
            chunkCount: 0,
        };
        this.pathMap?.set(path, this.docs.length);
        this.docs.push(record);
        this.live++;
        this.numberedInPathOrder = false;
    }

    get liveChunkCount(): number {
        return this.slots - this.deadSlots;
    }

    /** The unsafe-source patterns in force (defaults and extras, normalised). */
    get unsafePatterns(): readonly string[] {
        return this.patterns;
    }

    /** The file's stat changed without its text: remember the new stat so the next sync skips it. */
    touch(path: string, size: number, mtimeMs: number, ino = 0): void {
        const record = this.document(path);
        if (record) {
            record.size = size;
            record.mtimeMs = mtimeMs;
            record.ino = ino;
        }
    }

    /** Index a document's current text (LF-normalised), replacing what was indexed for its path. */
    upsert(path: string, size: number, mtimeMs: number, text: string, ino = 0): UpsertOutcome {
        const hash = contentHash(text);
        const existing = this.document(path);
        if (existing && existing.hash === hash) {
            this.touch(path, size, mtimeMs, ino);
            return "unchanged";
        }
        if (existing) this.remove(path);
        this.derived = {};
        const indexed = this.memo.get(hash) ?? this.indexDocument(hash, text);
        const record: DocumentRecord = {
            path,
            size,
            mtimeMs,
            ino,
            hash,
            firstSlot: this.slots,
            chunkCount: indexed.chunks.length,
        };
        if (indexed.unsafe !== undefined) record.unsafe = indexed.unsafe;
        const docIndex = this.docs.length;
        this.docs.push(record);
        this.pathMap?.set(path, docIndex);
        this.live++;
        this.numberedInPathOrder = false;
        if (this.postings && indexed.unsafe === undefined) this.readPostings(indexed.chunks.flatMap((c) => c.terms));
        for (const chunk of indexed.chunks) this.addChunk(docIndex, chunk, indexed.unsafe !== undefined);
        return existing ? "updated" : "added";
    }

    /** Chunks and tokenizes a document's text (kept in the memo while it has room). */
    private indexDocument(hash: string, text: string): IndexedDocument {
        const unsafe = unsafeReason(text, this.patterns);
        const chunks = chunkMarkdown(text.split("\n"), this.settings.maxChars);
        const seen = new Map<string, number>();
        const indexed: IndexedDocument = { unsafe, chunks: [], size: 0 };
        for (const chunk of chunks) {
            const one = this.indexChunk(chunk, seen);
            indexed.chunks.push(one);
            indexed.size += one.terms.length;
        }
        this.memo.set(hash, indexed);
        this.memoSize += indexed.size;
        for (const [key, old] of this.memo) {
            if (this.memoSize <= MEMO_ENTRIES) break;
            this.memo.delete(key);
            this.memoSize -= old.size;
        }
        return indexed;
    }

    remove(path: string): boolean {
        const at = this.locate(path);
        if (at === undefined) return false;
        this.removeAt(at, path);
        return true;
    }

    private removeAt(at: number, path: string): void {
        const record = this.recordAt(at)!;
        for (let slot = record.firstSlot; slot < record.firstSlot + record.chunkCount; slot++) {
            this.table[slot * FIELDS + DOC] = -1;
        }
        this.deadSlots += record.chunkCount;
        this.derived = {};
        this.docs[at] = null;
        this.pathMap?.delete(path);
        this.live--;
    }

    private indexChunk(chunk: Chunk, seen: Map<string, number>): IndexedChunk {
        const headingKey = chunk.headingPath.join("\u001f");
        let headingId = this.headingIds.get(headingKey);
        if (headingId === undefined) {
            headingId = this.headings.length;
            this.headings.push(headingKey);
            this.headingIds.set(headingKey, headingId);
        }
        const print = fingerprint(chunk.text);
        const printKey = `${print[0]}:${print[1]}`;
        const occurrence = seen.get(printKey) ?? 0;
        seen.set(printKey, occurrence + 1);
        // The searchable text is the heading path and the chunk, as the seed does.
        // A fresh map and closure per chunk measured faster and smaller than one reused map.
        const counts = new Map<string, number>();
        let length = 0;
        const count = (term: string) => {
            counts.set(term, (counts.get(term) ?? 0) + 1);
            length++;
        };
        const visit = this.visit;
        for (const title of chunk.headingPath) visit(title, count);
        visit(chunk.text, count);
        return {
            startLine: chunk.startLine,
            endLine: chunk.endLine,
            headingId,
            print,
            occurrence,
            length,
            terms: [...counts.keys()],
            frequencies: [...counts.values()],
        };
    }

    private addChunk(docIndex: number, chunk: IndexedChunk, unsafe: boolean): void {
        const slot = this.slots++;
        if (slot * FIELDS + FIELDS > this.table.length) {
            const grown = new Int32Array(this.table.length * 2);
            grown.set(this.table);
            this.table = grown;
        }
        const base = slot * FIELDS;
        this.table[base + DOC] = docIndex;
        this.table[base + START] = chunk.startLine;
        this.table[base + END] = chunk.endLine;
        this.table[base + LENGTH] = chunk.length;
        this.table[base + HEADING] = chunk.headingId;
        this.table[base + FP_HI] = chunk.print[0];
        this.table[base + FP_LO] = chunk.print[1];
        this.table[base + FLAGS] = (unsafe ? FLAG_UNSAFE : 0) | (chunk.occurrence << 8);
        if (unsafe) return; // kept out before scoring: no postings, no weight in the statistics
        const { terms, frequencies } = chunk;
        if (chunk.listsOf !== this.terms) {
            chunk.lists = terms.map((term) => {
                let list = this.listOf(term);
                if (!list) {
                    list = new PostingList();
                    this.terms.set(term, list);
                }
                return list;
            });
            chunk.listsOf = this.terms;
        }
        const lists = chunk.lists!;
        for (let i = 0; i < terms.length; i++) lists[i].append(slot, frequencies[i]);
    }

    /** A term's postings, read from the index file when first needed. */
    private listOf(term: string): PostingList | undefined {
        const list = this.terms.get(term);
        if (list !== undefined || this.postings === undefined || !this.postings.has(term)) return list;
        this.readPostings([term]);
        return this.terms.get(term);
    }

    /** Reads the lists of those of `terms` the index file has and were not read yet, in one opening of it. */
    private readPostings(terms: Iterable<string>): void {
        const stored = this.postings;
        if (stored === undefined) return;
        const missing: string[] = [];
        for (const term of terms) if (!this.terms.has(term) && stored.has(term)) missing.push(term);
        if (missing.length === 0) return;
        for (const [term, list] of stored.load(missing)) this.terms.set(term, list);
    }

    /** Reads every list not read yet (before compaction or writing the index, or for many queries). */
    readAllPostings(): void {
        const stored = this.postings;
        if (stored === undefined) return;
        for (const [term, list] of stored.loadAll()) if (!this.terms.has(term)) this.terms.set(term, list);
        this.postings = undefined;
    }

    /** The stored chunk of a slot, or undefined when the slot is dead. */
    chunk(slot: number): ChunkRecord | undefined {
        if (!Number.isInteger(slot) || slot < 0 || slot >= this.slots) return undefined;
        const base = slot * FIELDS;
        const docIndex = this.table[base + DOC];
        if (docIndex < 0) return undefined;
        const document = this.recordAt(docIndex)!;
        const print: [number, number] = [this.table[base + FP_HI], this.table[base + FP_LO]];
        const occurrence = this.table[base + FLAGS] >>> 8;
        const heading = this.headings[this.table[base + HEADING]];
        return {
            slot,
            document,
            startLine: this.table[base + START],
            endLine: this.table[base + END],
            headingPath: heading === "" ? [] : heading.split("\u001f"),
            fingerprint: print,
            occurrence,
            id: this.chunkIdAt(slot)!,
        };
    }

    /** The stable id of a live slot, without building its record (rejections name thousands). */
    chunkIdAt(slot: number): string | undefined {
        const base = slot * FIELDS;
        const docIndex = this.table[base + DOC];
        if (docIndex < 0) return undefined;
        let id = this.ids[slot];
        if (id === undefined) {
            const print: [number, number] = [this.table[base + FP_HI], this.table[base + FP_LO]];
            id = this.idOf(this.recordAt(docIndex)!, print, this.table[base + FLAGS] >>> 8);
            if (slot >= this.ids.length) this.ids = grownTo(this.ids, this.slots);
            this.ids[slot] = id;
        }
        return id;
    }

    /** Whether two slots' texts have the same fingerprint (duplicate evidence). */
    sameText(a: number, b: number): boolean {
        const x = a * FIELDS;
        const y = b * FIELDS;
        return this.table[x + FP_HI] === this.table[y + FP_HI] && this.table[x + FP_LO] === this.table[y + FP_LO];
    }

    private idOf(document: DocumentRecord, print: [number, number], occurrence: number): string {
        document.idPrefix ??= chunkIdPrefix(document.path);
        return chunkId(document.idPrefix, print, occurrence);
    }

    /**
     * Ids and reasons of the live chunks of unsafe documents, in path order: what the gate turns away
     * before scoring. The list is kept until a document changes and handed out as it is (read-only), not
     * copied per query.
     */
    unsafeChunks(): readonly { readonly id: string; readonly reason: string }[] {
        if (this.derived.unsafe) return this.derived.unsafe;
        const found: { id: string; reason: string }[] = [];
        for (const at of this.liveInPathOrder()) {
            if (this.docs[at] === undefined && !this.stored!.isUnsafe(at)) continue;
            const record = this.recordAt(at);
            if (!record?.unsafe) continue;
            for (let slot = record.firstSlot; slot < record.firstSlot + record.chunkCount; slot++) {
                const id = this.chunkIdAt(slot);
                if (id) found.push({ id, reason: record.unsafe });
            }
        }
        this.derived.unsafe = found;
        return found;
    }

    /** BM25 over the live, safe chunks (bm25.ts): candidates with a positive score, best first. */
    search(queryTerms: readonly string[]): Scored {
        this.readPostings(queryTerms);
        queryTerms = this.withVariants(queryTerms);
        return scoreBm25(
            {
                table: this.table,
                slots: this.slots,
                allLive: this.deadSlots === 0,
                lengths: () => this.lengths(),
                postings: (term) => this.terms.get(term),
                pathRanks: () => this.pathRanks(),
            },
            queryTerms,
        );
    }

    /** The live, safe chunks' count and summed length: from the file read, else by a pass over the table. */
    private lengths(): ChunkLengths {
        this.derived.lengths ??= lengthsOf(this.table, this.slots);
        return this.derived.lengths;
    }

    /**
     * Each live document's rank in path order, made on first use after a change by a sort; undefined
     * while documents are numbered in path order (an index just read): a number is then its rank.
     */
    private pathRanks(): Int32Array | undefined {
        if (this.numberedInPathOrder) return undefined;
        let ranks = this.derived.pathRanks;
        if (ranks === undefined) {
            ranks = new Int32Array(this.docs.length);
            const live = this.liveInPathOrder();
            for (let rank = 0; rank < live.length; rank++) ranks[live[rank]] = rank;
            this.derived.pathRanks = ranks;
        }
        return ranks;
    }

    /** The numbers of the live documents in path order (documents come mostly sorted: the sort's runs find them). */
    private liveInPathOrder(): number[] {
        let order = this.derived.pathOrder;
        if (order === undefined) {
            order = [];
            for (let at = 0; at < this.docs.length; at++) if (this.docs[at] !== null) order.push(at);
            if (!this.numberedInPathOrder) {
                const paths = order.map((at) => this.pathAt(at));
                const ranked = order.map((_, i) => i);
                ranked.sort((a, b) => (paths[a] < paths[b] ? -1 : paths[a] > paths[b] ? 1 : 0));
                order = ranked.map((i) => order![i]);
            }
            this.derived.pathOrder = order;
        }
        return order;
    }

    /** The writing systems of the indexed terms (scripts.ts), for saying what a query cannot find. */
    scripts(): string[] {
        const names = function* (this: EvidenceIndex) {
            yield* this.terms.keys();
            if (this.postings) yield* this.postings.terms();
        }.call(this);
        return scriptsOfTerms(names);
    }

    /** The query's terms, each that no chunk holds replaced by a form of it that one does (tokenizer.ts termVariants). */
    private withVariants(queryTerms: readonly string[]): readonly string[] {
        const absent = queryTerms.filter((term) => !this.terms.has(term));
        if (absent.length === 0) return queryTerms;
        const variants = absent.flatMap(termVariants);
        this.readPostings(variants);
        return queryTerms.map((term) => {
            if (this.terms.has(term)) return term;
            return termVariants(term).find((variant) => this.terms.has(variant)) ?? term;
        });
    }

    /** Squeeze dead slots out once they are a quarter of the table (renumbers slots; ids do not change). */
    compactIfWorthIt(): void {
        if (this.deadSlots === 0 || this.deadSlots * 4 < this.slots) return;
        this.readAllPostings();
        const renumber = new Int32Array(this.slots).fill(-1);
        let next = 0;
        const docRenumber = new Map<number, number>();
        const docs: DocumentRecord[] = [];
        for (let slot = 0; slot < this.slots; slot++) {
            const base = slot * FIELDS;
            const docIndex = this.table[base + DOC];
            if (docIndex < 0) continue;
            renumber[slot] = next;
            this.table.copyWithin(next * FIELDS, base, base + FIELDS);
            let newDoc = docRenumber.get(docIndex);
            if (newDoc === undefined) {
                newDoc = docs.length;
                docRenumber.set(docIndex, newDoc);
                const record = this.recordAt(docIndex)!;
                record.firstSlot = next;
                docs.push(record);
            }
            this.table[next * FIELDS + DOC] = newDoc;
            next++;
        }
        // Documents without chunks keep their place too.
        for (let index = 0; index < this.docs.length; index++) {
            const record = this.recordAt(index);
            if (record && !docRenumber.has(index)) {
                docRenumber.set(index, docs.length);
                record.firstSlot = next;
                docs.push(record);
            }
        }
        const terms = new Map<string, PostingList>();
        for (const [term, list] of this.terms) {
            const kept = new PostingList();
            list.forEach((slot, frequency) => {
                if (renumber[slot] >= 0) kept.append(renumber[slot], frequency);
            });
            if (kept.count > 0) terms.set(term, kept);
        }
        this.terms = terms;
        // The memo's chunks point at the old postings: let them go with it.
        this.memo.clear();
        this.memoSize = 0;
        this.docs = docs;
        this.numberedInPathOrder = false; // numbered by their slots now
        this.stored = undefined; // every record was built above
        this.pathMap = new Map(docs.map((record, index) => [record.path, index]));
        this.cursor = 0;
        this.ids = [];
        this.derived = {};
        this.slots = next;
        this.deadSlots = 0;
    }

    /** The index as one file (codec.ts). */
    serialize(): Uint8Array {
        const parts: Uint8Array[] = [];
        this.serializeTo((bytes) => parts.push(Buffer.from(bytes))); // a copy: the writer reuses its buffer
        return Buffer.concat(parts);
    }

    /**
     * The bytes of `serialize()`, handed to `write` in pieces of about a megabyte (the buffer passed is
     * reused after `write` returns), so a large index is never copied whole into one buffer.
     */
    serializeTo(write: (bytes: Uint8Array) => void): void {
        this.readAllPostings();
        // Removed documents leave holes in `docs`: number the live ones densely for the file, in path
        // order, so that a reader ranks them by path without sorting (pathRanks).
        const docIndex = new Int32Array(this.docs.length).fill(-1);
        const live: DocumentRecord[] = [];
        for (const index of this.liveInPathOrder()) {
            docIndex[index] = live.length;
            live.push(this.recordAt(index)!);
        }
        const table = this.table.slice(0, this.slots * FIELDS);
        for (let slot = 0; slot < this.slots; slot++) {
            const at = slot * FIELDS + DOC;
            if (table[at] >= 0) table[at] = docIndex[table[at]];
        }
        writeIndex(
            {
                key: EvidenceIndex.settingsKey(this.settings),
                settings: this.settings,
                root: this.root,
                slots: this.slots,
                deadSlots: this.deadSlots,
                documents: live,
                inPathOrder: true,
                lengths: lengthsOf(table, this.slots),
                table,
                headings: this.headings,
                terms: this.terms,
            },
            write,
        );
    }

    /** Reads a serialized index, every list checked; throws IndexFormatError when it is damaged or foreign. */
    static deserialize(bytes: Uint8Array): { index: EvidenceIndex; key: string; root: string } {
        const image = readIndex(bytes);
        const index = EvidenceIndex.restore(image);
        index.readAllPostings();
        return { index, key: image.key, root: image.root };
    }

    /**
     * Reads an index file's front (documents, chunk table) and checks it; the postings are read when
     * a search, an update or a write needs them (a warm query: its own terms' lists only), unless they
     * take at most `readWholeUpTo` bytes. Throws
     * IndexFormatError when the file is damaged or foreign, then or on a later read.
     */
    static open(file: IndexFile, readWholeUpTo = 0): { index: EvidenceIndex; key: string; root: string } {
        // A file whose postings are read whole is read whole: about its front's size more, in one read.
        const image = readIndexFile(file, readWholeUpTo);
        const index = EvidenceIndex.restore(image);
        // Small postings are read (and checked) at once: one read, and damage is found on opening.
        if (image.postings.size <= readWholeUpTo) index.readAllPostings();
        return { index, key: image.key, root: image.root };
    }

    private static restore(image: ReadImage): EvidenceIndex {
        const index = new EvidenceIndex(image.root, image.settings, 0);
        // The table read is the index's own (grown by copying when full); a small one gets room first.
        if (image.table.length >= 1024 * FIELDS) index.table = image.table;
        else {
            index.table = new Int32Array(1024 * FIELDS);
            index.table.set(image.table);
        }
        index.slots = image.slots;
        index.deadSlots = image.deadSlots;
        index.numberedInPathOrder = image.inPathOrder;
        if (image.lengths) index.derived.lengths = image.lengths;
        index.stored = image.documents;
        index.docs = new Array(image.documents.count).fill(undefined);
        index.live = image.documents.count;
        index.pathMap = undefined; // made if a lookup needs it (locate)
        index.headings = image.headings;
        for (const [id, heading] of image.headings.entries()) index.headingIds.set(heading, id);
        index.postings = image.postings;
        return index;
    }
}

/**
 * `list` in an array of `length` made at once (8 bytes a slot, no strings): filling an array far past
 * its end turns it into a slow dictionary, and a Map's lookups cost three times as much.
 */
function grownTo(list: (string | undefined)[], length: number): (string | undefined)[] {
    const grown = new Array<string | undefined>(length);
    for (let i = 0; i < list.length; i++) grown[i] = list[i];
    return grown;
}
