/**
 * The browser's twin of workspace/sha256.ts (docs/web.md): locks hash synchronously, and a web worker's
 * `crypto.subtle` only hashes asynchronously, so the hashing is @noble/hashes' SHA-256.
 */
import { sha256 as nobleSha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";
import type { Sha256 } from "../../core/lock/types";

export const sha256: Sha256 = (text) => bytesToHex(nobleSha256(utf8ToBytes(text)));

export function sha256OfBytes(bytes: Uint8Array): string {
    return bytesToHex(nobleSha256(bytes));
}

export function sha256Stream(): { update(bytes: Uint8Array): void; digest(): string } {
    const hash = nobleSha256.create();
    return {
        update: (bytes) => {
            hash.update(bytes);
        },
        digest: () => bytesToHex(hash.digest()),
    };
}
