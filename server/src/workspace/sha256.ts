/**
 * SHA-256 for the pure lock module (docs/lock.md), which is given its hash function rather than
 * importing crypto, and for the workspace's other hashes (a write's snapshot, the evidence index's
 * name and content hashes). One module for both builds: node:crypto where the host has it, asked of
 * the host (`process.getBuiltinModule`) rather than imported, and @noble/hashes (the same SHA-256, in
 * JS) where it has none (a web worker, whose `crypto.subtle` only hashes asynchronously: docs/web.md).
 *
 * On Node the first 2 KB a process hashes go through @noble/hashes too: loading node:crypto costs a
 * command about 5 ms of CPU at start-up, while hashing a tiny workspace's few hundred bytes in JS,
 * cold, costs about 2 ms (in process, measured: docs/benchmarks-cases.md, "CLI start-up"). Past
 * SCRIPT_BUDGET bytes in all, or for any one larger input, node:crypto is loaded and used from then
 * on: it is many times faster on more, and JS cold costs as much near 3 KB. test/unit/sha256.test.ts
 * holds both ways, and the host without node:crypto, to node:crypto.
 */
import { sha256 as scriptSha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, concatBytes, utf8ToBytes } from "@noble/hashes/utils.js";
import type { Sha256 } from "../core/lock/types";

/** Bytes hashed in JS at most, in all, before node:crypto is loaded (below it JS is the faster, cold). */
export const SCRIPT_BUDGET = 2048;
let scriptBytes = 0;

/** How many bytes this process has hashed in JS so far (the tests see which way a hash went). */
export function bytesHashedInScript(): number {
    return scriptBytes;
}

type NodeCrypto = typeof import("node:crypto");
type OneShot = (algorithm: string, data: string) => string;

/** node:crypto once loaded; null once the host was found to have none (a browser); undefined: not asked yet. */
let crypto: NodeCrypto | null | undefined;

/** The host's node:crypto, asked for once; null where there is none. */
function loadCrypto(): NodeCrypto | null {
    const host = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
    return (host?.getBuiltinModule?.("node:crypto") as NodeCrypto | undefined) ?? null;
}

/**
 * node:crypto for `size` more bytes, or undefined when they are hashed in JS (counted if so): within
 * the budget before node:crypto is loaded, and always on a host without it.
 */
function native(size: number): NodeCrypto | undefined {
    if (crypto === undefined && scriptBytes + size > SCRIPT_BUDGET) crypto = loadCrypto();
    if (crypto) return crypto;
    scriptBytes += size;
    return undefined;
}

/** A string's UTF-8 in hex by node:crypto (crypto.hash where Node has it: no Hash object per call). */
function nativeText(loaded: NodeCrypto, text: string): string {
    const oneShot = (loaded as { hash?: OneShot }).hash;
    return oneShot ? oneShot("sha256", text) : loaded.createHash("sha256").update(text, "utf8").digest("hex");
}

/** SHA-256 of a string's UTF-8 bytes in hex. */
export const sha256: Sha256 = (text) => {
    // A string's UTF-8 takes at least one byte per UTF-16 unit: a long one is not encoded to be measured.
    if (crypto === undefined && scriptBytes + text.length > SCRIPT_BUDGET) crypto = loadCrypto();
    if (crypto) return nativeText(crypto, text);
    const bytes = utf8ToBytes(text);
    const loaded = native(bytes.length);
    return loaded ? nativeText(loaded, text) : bytesToHex(scriptSha256(bytes));
};

/** SHA-256 of bytes in hex (a lock's entries, compared where they were read: lockFiles.ts). */
export function sha256OfBytes(bytes: Uint8Array): string {
    const loaded = native(bytes.length);
    return loaded ? loaded.createHash("sha256").update(bytes).digest("hex") : bytesToHex(scriptSha256(bytes));
}

/** A hash fed piece by piece: node:crypto's where the host has it, else @noble/hashes' (counted as JS bytes). */
function runningHash(): { update(bytes: Uint8Array): void; hex(): string } {
    if (crypto === undefined) crypto = loadCrypto();
    if (crypto) {
        const hash = crypto.createHash("sha256");
        return { update: (bytes) => hash.update(bytes), hex: () => hash.digest("hex") };
    }
    const hash = scriptSha256.create();
    return {
        update: (bytes) => {
            scriptBytes += bytes.length;
            hash.update(bytes);
        },
        hex: () => bytesToHex(hash.digest()),
    };
}

/**
 * SHA-256 fed piece by piece (a lock streamed through one buffer: lockFiles.ts), in hex. The pieces
 * are kept (copied: the caller reuses its buffer) while they fit the JS budget, and handed to a
 * running hash as soon as they do not (node:crypto's, or on a host without it @noble/hashes').
 */
export function sha256Stream(): { update(bytes: Uint8Array): void; digest(): string } {
    const held: Uint8Array[] = [];
    let heldBytes = 0;
    let running = crypto ? runningHash() : undefined;
    return {
        update: (bytes) => {
            if (!running && heldBytes + bytes.length <= SCRIPT_BUDGET - scriptBytes) {
                held.push(Uint8Array.from(bytes));
                heldBytes += bytes.length;
                return;
            }
            if (!running) {
                running = runningHash();
                for (const piece of held) running.update(piece);
                held.length = 0;
            }
            running.update(bytes);
        },
        digest: () => (running ? running.hex() : sha256OfBytes(concatBytes(...held))),
    };
}
