/**
 * Every place a text occurs in a document, as an `indexOf` loop finds them (overlapping ones too, in
 * order), without reading the whole document again for each text. Repair from a lock looks up the
 * locked text of every moved ref: 10,000 refs into 20 documents were 10,000 scans of a whole
 * document; here each document is read once into an index of the Q characters starting at each
 * place, and a lookup visits only the places that start like the text (docs/repair.md, "Evidence").
 */

/** Characters hashed per place: shorter texts are found by indexOf. */
const Q = 12;
/** Documents past this many characters are searched by indexOf (the index costs 8 bytes a character). */
const MAX_INDEXED = 1 << 23;
/** Documents shorter than this are scanned faster than indexed. */
const MIN_INDEXED = 4096;
const BASE = 0x01000193;

interface Index {
    /** The first place (lowest offset) whose Q characters hash to each bucket; -1 for none. */
    head: Int32Array;
    /** The next place in the same bucket, ascending; -1 at the end. */
    next: Int32Array;
    mask: number;
}

/** Indexes by the object that owns a content (a document): dropped with it. */
const indexes = new WeakMap<object, Index>();

/**
 * The offsets where `text` occurs in `content`, ascending, at most `limit` of them: what
 * `for (at = content.indexOf(text); at !== -1; at = content.indexOf(text, at + 1))` gives. `owner`
 * is the object the content belongs to and never changes in (a document): the index is kept with it.
 */
export function placesOf(content: string, text: string, limit: number, owner?: object): number[] {
    const found: number[] = [];
    if (text.length === 0 || limit <= 0) return found;
    const index =
        owner !== undefined && text.length >= Q && content.length >= MIN_INDEXED && content.length <= MAX_INDEXED
            ? indexOf(owner, content)
            : undefined;
    if (!index) {
        for (let at = content.indexOf(text); at !== -1 && found.length < limit; at = content.indexOf(text, at + 1))
            found.push(at);
        return found;
    }
    for (let at = index.head[hashAt(text, 0) & index.mask]; at !== -1 && found.length < limit; at = index.next[at]) {
        if (content.startsWith(text, at)) found.push(at);
    }
    return found;
}

function indexOf(owner: object, content: string): Index {
    let index = indexes.get(owner);
    if (!index) {
        index = build(content);
        indexes.set(owner, index);
    }
    return index;
}

/** The hash of the Q characters of `text` from `from`. */
function hashAt(text: string, from: number): number {
    let hash = 0;
    for (let i = from; i < from + Q; i++) hash = (Math.imul(hash, BASE) + text.charCodeAt(i)) | 0;
    return hash;
}

function build(content: string): Index {
    const places = content.length - Q + 1;
    let size = 1;
    while (size < places) size <<= 1;
    const head = new Int32Array(size).fill(-1);
    const next = new Int32Array(places).fill(-1);
    const mask = size - 1;
    // BASE^(Q-1), to take the character leaving the window out of the rolling hash.
    let outgoing = 1;
    for (let i = 1; i < Q; i++) outgoing = Math.imul(outgoing, BASE);
    // Rolled from the end, so that each bucket's chain runs from the lowest offset up.
    let hash = hashAt(content, places - 1);
    for (let at = places - 1; ; at--) {
        const bucket = hash & mask;
        next[at] = head[bucket];
        head[bucket] = at;
        if (at === 0) break;
        // Drop content[at + Q - 1] (weight BASE^0 after the shift below) and add content[at - 1] in front.
        hash = (hash - content.charCodeAt(at + Q - 1)) | 0;
        hash = hashOfShiftedRight(hash);
        hash = (hash + Math.imul(content.charCodeAt(at - 1), outgoing)) | 0;
    }
    return { head, next, mask };
}

/** Multiplying by BASE's inverse modulo 2^32 (BASE is odd, so it has one): undoes one step of hashAt. */
const BASE_INVERSE = inverseModulo32(BASE);

function hashOfShiftedRight(hash: number): number {
    return Math.imul(hash, BASE_INVERSE);
}

function inverseModulo32(odd: number): number {
    // Newton's iteration: each step doubles the correct low bits (3 -> 6 -> 12 -> 24 -> 48).
    let inverse = odd;
    for (let i = 0; i < 4; i++) inverse = Math.imul(inverse, 2 - Math.imul(odd, inverse));
    return inverse | 0;
}
