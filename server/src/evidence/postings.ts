/**
 * One term's postings: (chunk slot, term frequency) pairs in increasing slot order, varint-encoded with
 * slot deltas. Lists read from an index file are views into it; one is copied only when it grows.
 */
export class PostingList {
    constructor(
        private data: Uint8Array = new Uint8Array(8),
        private used = 0,
        /** Pairs in the list, dead slots included. */
        public count = 0,
        /** The last slot appended, -1 when empty. */
        public last = -1,
        private owned = true,
    ) {}

    append(slot: number, frequency: number): void {
        if (this.used + 10 > this.data.length || !this.owned) {
            const grown = new Uint8Array(Math.max(16, (this.used + 10) * 2));
            grown.set(this.data.subarray(0, this.used));
            this.data = grown;
            this.owned = true;
        }
        this.used = writeVarint(this.data, this.used, slot - this.last);
        this.used = writeVarint(this.data, this.used, frequency);
        this.last = slot;
        this.count++;
    }

    get bytes(): Uint8Array {
        return this.data.subarray(0, this.used);
    }

    static view(bytes: Uint8Array, count: number, last: number): PostingList {
        return new PostingList(bytes, bytes.length, count, last, false);
    }

    forEach(visit: (slot: number, frequency: number) => void): void {
        const data = this.data;
        let at = 0;
        let slot = -1;
        while (at < this.used) {
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

function writeVarint(data: Uint8Array, at: number, value: number): number {
    let rest = value;
    while (rest >= 0x80) {
        data[at++] = (rest & 0x7f) | 0x80;
        rest = Math.floor(rest / 128);
    }
    data[at++] = rest;
    return at;
}
