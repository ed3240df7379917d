/**
 * One term's postings: (chunk slot, term frequency) pairs in increasing slot order, varint-encoded with
 * slot deltas, in pieces: a list read from an index file starts as a view into it (never copied), and
 * a list grows by blocks carved from shared slabs, each about half the list's size so far. Nothing is
 * copied or freed as a list grows: a gigabyte build that regrew arrays by doubling held about its
 * corpus's size in freed-but-unreturned buffers at its peak.
 */
export class PostingList {
    /** The full pieces, then the one being filled (`data`, `used` bytes of it). */
    private readonly full: Uint8Array[] = [];
    private fullBytes = 0;
    private data: Uint8Array;
    private used: number;
    private owned: boolean;

    constructor(
        /** Pairs in the list, dead slots included. */
        public count = 0,
        /** The last slot appended, -1 when empty. */
        public last = -1,
        first?: Uint8Array,
    ) {
        this.data = first ?? EMPTY;
        this.used = first?.length ?? 0;
        this.owned = first === undefined;
    }

    append(slot: number, frequency: number): void {
        // Two varints take at most 10 bytes; a piece never splits one.
        if (this.used + 10 > this.data.length || !this.owned) this.grow();
        this.used = writeVarint(this.data, this.used, slot - this.last);
        this.used = writeVarint(this.data, this.used, frequency);
        this.last = slot;
        this.count++;
    }

    private grow(): void {
        if (this.used > 0) {
            this.full.push(this.data.subarray(0, this.used));
            this.fullBytes += this.used;
        }
        this.data = carve(Math.min(MAX_BLOCK, Math.max(MIN_BLOCK, this.fullBytes >>> 1)));
        this.used = 0;
        this.owned = true;
    }

    /** The encoded bytes, in order, as pieces (written one after the other, they are the list). */
    pieces(): Uint8Array[] {
        return this.used > 0 ? [...this.full, this.data.subarray(0, this.used)] : [...this.full];
    }

    get byteLength(): number {
        return this.fullBytes + this.used;
    }

    static view(bytes: Uint8Array, count: number, last: number): PostingList {
        return new PostingList(count, last, bytes);
    }

    forEach(visit: (slot: number, frequency: number) => void): void {
        let slot = -1;
        for (const data of this.pieces()) {
            let at = 0;
            const end = data.length;
            while (at < end) {
                let delta = 0;
                let shift = 0;
                let byte: number;
                do {
                    byte = data[at++];
                    delta += (byte & 0x7f) * 2 ** shift;
                    shift += 7;
                } while (byte & 0x80);
                let frequency = 0;
                shift = 0;
                do {
                    byte = data[at++];
                    frequency += (byte & 0x7f) * 2 ** shift;
                    shift += 7;
                } while (byte & 0x80);
                slot += delta;
                visit(slot, frequency);
            }
        }
    }
}

const EMPTY = new Uint8Array(0);
const MIN_BLOCK = 16;
const MAX_BLOCK = 64 * 1024;
const SLAB = 1 << 20;
let slab = new Uint8Array(0);
let slabUsed = 0;

/** `size` fresh bytes from the current slab (a new slab when it has no room: its rest is left unused). */
function carve(size: number): Uint8Array {
    if (slabUsed + size > slab.length) {
        slab = new Uint8Array(SLAB);
        slabUsed = 0;
    }
    const block = slab.subarray(slabUsed, slabUsed + size);
    slabUsed += size;
    return block;
}

function writeVarint(data: Uint8Array, at: number, value: number): number {
    let rest = value;
    while (rest >= 0x80) {
        data[at++] = (rest & 0x7f) | 0x80;
        rest = Math.floor(rest / 128);
    }
    data[at++] = rest;
    return at;
}
