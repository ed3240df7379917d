/**
 * The index file is data, never trusted code (docs/security.md, "The evidence index"): its CRC-32s
 * find damage, not forgery, since anyone who can write the file can compute them. So every id, slot
 * and length it holds is range-checked once, on opening (the chunk table, the headings, the
 * documents' slot ranges) or when a list of postings is read (its slots): a value out of range throws
 * IndexFormatError, which the store answers by rebuilding the index once, with a warning. Past these
 * checks, every lookup the index makes (a heading by id, a document by number, a score by slot) is in
 * range.
 */
import { DOC, END, FIELDS, HEADING, LENGTH, START } from "./chunkTable";
import { IndexFormatError } from "./documents";

const outOfRange = (what: string) => new IndexFormatError(`its ${what} is out of range`);

/**
 * The chunk table's rows: a live row's document is one of `documents`, its heading one of `headings`,
 * its lines from 1 in order, its length not negative; a dead row's document is -1. Also the headings
 * are strings and the dead slots' count fits.
 */
export function checkTable(
    table: Int32Array,
    slots: number,
    deadSlots: unknown,
    documents: number,
    headings: unknown,
): void {
    if (!Array.isArray(headings) || !headings.every((h) => typeof h === "string")) throw outOfRange("heading list");
    if (!Number.isInteger(deadSlots) || (deadSlots as number) < 0 || (deadSlots as number) > slots)
        throw outOfRange("dead slot count");
    if (table.length < slots * FIELDS) throw outOfRange("chunk table");
    const headingCount = headings.length;
    for (let base = 0; base < slots * FIELDS; base += FIELDS) {
        const doc = table[base + DOC];
        if (doc === -1) continue;
        if (doc < 0 || doc >= documents) throw outOfRange("document number of a chunk");
        const heading = table[base + HEADING];
        if (heading < 0 || heading >= headingCount) throw outOfRange("heading id of a chunk");
        const start = table[base + START];
        if (start < 1 || table[base + END] < start) throw outOfRange("line range of a chunk");
        if (table[base + LENGTH] < 0) throw outOfRange("length of a chunk");
    }
}

/** The live, safe chunks' count and summed length as the header states them: at most the table's. */
export function checkLengths(lengths: { eligible: number; total: number } | undefined, slots: number): void {
    if (lengths && lengths.eligible > slots) throw outOfRange("chunk count");
}

/**
 * One term's list as read: `count` pairs of slots rising strictly below `slots`, the last one `last`,
 * each frequency at least 1. One pass over the bytes, with the decoder PostingList uses.
 */
export function checkPostings(bytes: Uint8Array, count: unknown, last: unknown, slots: number): void {
    if (!Number.isInteger(count) || !Number.isInteger(last)) throw outOfRange("term dictionary");
    let slot = -1;
    let pairs = 0;
    let at = 0;
    const end = bytes.length;
    while (at < end) {
        let delta = 0;
        let shift = 0;
        let byte: number;
        do {
            if (at >= end || shift > 28) throw outOfRange("postings");
            byte = bytes[at++];
            delta += (byte & 0x7f) * 2 ** shift;
            shift += 7;
        } while (byte & 0x80);
        let frequency = 0;
        shift = 0;
        do {
            if (at >= end || shift > 28) throw outOfRange("postings");
            byte = bytes[at++];
            frequency += (byte & 0x7f) * 2 ** shift;
            shift += 7;
        } while (byte & 0x80);
        slot += delta;
        if (delta < 1 || slot >= slots || frequency < 1) throw outOfRange("slot of a posting");
        pairs++;
    }
    if (pairs !== count || slot !== last) throw outOfRange("term dictionary");
}
