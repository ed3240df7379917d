/** SHA-256 for the pure lock module (docs/lock.md), which is given its hash function rather than importing crypto. */
import type { Sha256 } from "../core/lock/types";

/** node:crypto, required on first use: a check without locks never pays for loading it (start-up). */
let crypto: typeof import("node:crypto") | undefined;
let oneShot: ((algorithm: string, data: string) => string) | undefined;

function nodeCrypto(): typeof import("node:crypto") {
    if (!crypto) {
        crypto = require("node:crypto") as typeof import("node:crypto");
        oneShot = (crypto as { hash?: (algorithm: string, data: string) => string }).hash;
    }
    return crypto;
}

/** SHA-256 of a string's UTF-8 bytes in hex (crypto.hash where Node has it: no Hash object per call). */
export const sha256: Sha256 = (text) => {
    const loaded = nodeCrypto();
    return oneShot ? oneShot("sha256", text) : loaded.createHash("sha256").update(text, "utf8").digest("hex");
};

/** SHA-256 of bytes in hex (a lock's entries, compared where they were read: lockFiles.ts). */
export function sha256OfBytes(bytes: Uint8Array): string {
    return nodeCrypto().createHash("sha256").update(bytes).digest("hex");
}

/** SHA-256 fed piece by piece (a lock streamed through one buffer: lockFiles.ts), in hex. */
export function sha256Stream(): { update(bytes: Uint8Array): void; digest(): string } {
    const hash = nodeCrypto().createHash("sha256");
    return {
        update: (bytes) => {
            hash.update(bytes);
        },
        digest: () => hash.digest("hex"),
    };
}
