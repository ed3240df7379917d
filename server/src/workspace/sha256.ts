/** SHA-256 for the pure lock module (docs/lock.md), which is given its hash function rather than importing crypto. */
import * as crypto from "node:crypto";
import type { Sha256 } from "../core/lock/types";

const oneShot = (crypto as { hash?: (algorithm: string, data: string) => string }).hash;

/** SHA-256 of a string's UTF-8 bytes in hex (crypto.hash where Node has it: no Hash object per call). */
export const sha256: Sha256 = (text) =>
    oneShot ? oneShot("sha256", text) : crypto.createHash("sha256").update(text, "utf8").digest("hex");

/** SHA-256 of bytes in hex (a lock's entries, compared where they were read: lockFiles.ts). */
export function sha256OfBytes(bytes: Uint8Array): string {
    return crypto.createHash("sha256").update(bytes).digest("hex");
}
