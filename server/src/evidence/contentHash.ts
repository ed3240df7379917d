/**
 * The content hash of a document (docs/evidence-internals.md, "Identity"), on its own so the web build can give it
 * a browser twin (web/contentHash.ts, @noble/hashes). workspace/sha256.ts loads node:crypto, the
 * fastest SHA-256 on Node, once a process hashes more than 2 KB.
 */
import { sha256 } from "../workspace/sha256";

/**
 * SHA-256 of a document's LF-normalised text, its first 128 bits in hex: what stale checks compare
 * (half the bytes per document in the index, still no accidental collision).
 */
export function contentHash(text: string): string {
    return sha256(text).slice(0, 32);
}
