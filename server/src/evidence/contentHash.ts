/**
 * The content hash of a document (docs/evidence.md, "Identity"), on its own so the web build can give it
 * a browser twin (web/contentHash.ts, @noble/hashes): node:crypto is the fastest SHA-256 on Node.
 */
import * as crypto from "node:crypto";
import { createHash } from "node:crypto";

const oneShot = (crypto as { hash?: (algorithm: string, data: string) => string }).hash;

/**
 * SHA-256 of a document's LF-normalised text, its first 128 bits in hex: what stale checks compare
 * (half the bytes per document in the index, still no accidental collision).
 */
export function contentHash(text: string): string {
    // crypto.hash (Node 20.12+) skips the Hash object: it matters over twenty thousand files.
    const hex = oneShot ? oneShot("sha256", text) : createHash("sha256").update(text).digest("hex");
    return hex.slice(0, 32);
}
