/** Content identities (docs/evidence-internals.md, "Identity"): document hashes, chunk fingerprints, stable chunk ids. */
import { sha256 } from "../workspace/sha256";

/**
 * SHA-256 of a document's LF-normalised text, its first 128 bits in hex: what stale checks compare
 * (half the bytes per document in the index, still no accidental collision). The one SHA-256 of
 * workspace/sha256.ts, in the browser's build too (in JS there: docs/web.md).
 */
export function contentHash(text: string): string {
    return sha256(text).slice(0, 32);
}

/**
 * A 53-bit fingerprint of a chunk's text as two 32-bit halves (cyrb53): cheap enough for every chunk of
 * a large corpus, used to drop duplicate evidence without reading the duplicate's file.
 */
export function fingerprint(text: string): [number, number] {
    let h1 = 0xdeadbeef;
    let h2 = 0x41c6ce57;
    for (let i = 0; i < text.length; i++) {
        const ch = text.charCodeAt(i);
        h1 = Math.imul(h1 ^ ch, 2654435761);
        h2 = Math.imul(h2 ^ ch, 1597334677);
    }
    h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
    h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
    return [h1 | 0, (h2 & 0x1fffff) | 0];
}

/**
 * The stable id of a chunk: the same path, text and rank among identical chunks of the document give
 * the same id in every index, whatever else changed in the corpus. Built from fingerprints, not
 * SHA-256, because a search may name thousands of rejected duplicates.
 */
export function chunkId(prefix: string, print: readonly [number, number], occurrence: number): string {
    const id = `${prefix}${hex53(print[0], print[1])}`;
    return occurrence === 0 ? id : `${id}_${occurrence}`;
}

/** The part of a chunk id that names its document (`chunkId`'s first argument). */
export function chunkIdPrefix(path: string): string {
    const [p1, p2] = fingerprint(path);
    return `chk_${hex53(p1, p2)}`;
}

const HEX = "0123456789abcdef";

/** 8 + 6 hex digits (bit arithmetic: Number#toString(16) is slow on numbers past 2^31). */
function hex53(high: number, low21: number): string {
    let text = "";
    for (let shift = 28; shift >= 0; shift -= 4) text += HEX[(high >>> shift) & 15];
    for (let shift = 20; shift >= 0; shift -= 4) text += HEX[(low21 >>> shift) & 15];
    return text;
}
