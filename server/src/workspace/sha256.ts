/**
 * SHA-256 for the pure lock module (docs/lock.md), which is given its hash function rather than
 * importing crypto, and for the workspace's other hashes (a write's snapshot, the evidence index's
 * name and content hashes).
 *
 * The first 2 KB a process hashes go through @noble/hashes (the same SHA-256, in JS): loading
 * node:crypto costs a command about 5 ms of CPU at start-up, while hashing a tiny workspace's few
 * hundred bytes in JS, cold, costs about 2 ms (in process, measured: docs/benchmarks-cases.md, "CLI
 * start-up"). Past SCRIPT_BUDGET bytes in all, or for any one larger input, node:crypto is loaded
 * and used from then on: it is many times faster on more, and JS cold costs as much near 3 KB.
 * test/unit/sha256.test.ts holds both to node:crypto.
 */
import { sha256 as scriptSha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import type { Sha256 } from "../core/lock/types";

/** Bytes hashed in JS at most, in all, before node:crypto is loaded (below it JS is the faster, cold). */
export const SCRIPT_BUDGET = 2048;
let scriptBytes = 0;

/** How many bytes this process has hashed in JS so far (the tests see which way a hash went). */
export function bytesHashedInScript(): number {
    return scriptBytes;
}

/** node:crypto, required on first use of a large input. */
let crypto: typeof import("node:crypto") | undefined;
let oneShot: ((algorithm: string, data: string) => string) | undefined;

function nodeCrypto(): typeof import("node:crypto") {
    if (!crypto) {
        crypto = require("node:crypto") as typeof import("node:crypto");
        oneShot = (crypto as { hash?: (algorithm: string, data: string) => string }).hash;
    }
    return crypto;
}

/** Whether `size` more bytes are hashed in JS (counting them if so). */
function inScript(size: number): boolean {
    if (crypto || scriptBytes + size > SCRIPT_BUDGET) return false;
    scriptBytes += size;
    return true;
}

/** SHA-256 of a string's UTF-8 bytes in hex (crypto.hash where Node has it: no Hash object per call). */
export const sha256: Sha256 = (text) => {
    // A string's UTF-8 takes at least one byte per UTF-16 unit: a long one is not encoded to be measured.
    if (!crypto && scriptBytes + text.length <= SCRIPT_BUDGET) {
        const bytes = Buffer.from(text, "utf8");
        if (inScript(bytes.length)) return bytesToHex(scriptSha256(bytes));
    }
    const loaded = nodeCrypto();
    return oneShot ? oneShot("sha256", text) : loaded.createHash("sha256").update(text, "utf8").digest("hex");
};

/** SHA-256 of bytes in hex (a lock's entries, compared where they were read: lockFiles.ts). */
export function sha256OfBytes(bytes: Uint8Array): string {
    if (inScript(bytes.length)) return bytesToHex(scriptSha256(bytes));
    return nodeCrypto().createHash("sha256").update(bytes).digest("hex");
}

/**
 * SHA-256 fed piece by piece (a lock streamed through one buffer: lockFiles.ts), in hex. The pieces
 * are kept (copied: the caller reuses its buffer) while they fit the JS budget, and handed to
 * node:crypto as soon as they do not.
 */
export function sha256Stream(): { update(bytes: Uint8Array): void; digest(): string } {
    const held: Uint8Array[] = [];
    let heldBytes = 0;
    let native: import("node:crypto").Hash | undefined = crypto?.createHash("sha256");
    return {
        update: (bytes) => {
            if (!native && heldBytes + bytes.length <= SCRIPT_BUDGET - scriptBytes) {
                held.push(Uint8Array.from(bytes));
                heldBytes += bytes.length;
                return;
            }
            if (!native) {
                native = nodeCrypto().createHash("sha256");
                for (const piece of held) native.update(piece);
                held.length = 0;
            }
            native.update(bytes);
        },
        digest: () => {
            if (native) return native.digest("hex");
            const whole = Buffer.concat(held);
            return inScript(whole.length)
                ? bytesToHex(scriptSha256(whole))
                : nodeCrypto().createHash("sha256").update(whole).digest("hex");
        },
    };
}
