/**
 * The browser's twin of evidence/contentHash.ts (docs/web.md): the same hash (the first 128 bits of the
 * SHA-256 of the UTF-8 text, in hex) by @noble/hashes, since a web worker's `crypto.subtle` is asynchronous.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";

export function contentHash(text: string): string {
    return bytesToHex(sha256(utf8ToBytes(text)).subarray(0, 16));
}
