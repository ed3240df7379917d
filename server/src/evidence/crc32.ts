/**
 * CRC-32 (zlib's: IEEE polynomial, reflected) for the index codec. A process's first 64 KB are summed
 * in JS: loading node:zlib costs a command about 3 ms of its start-up (docs/benchmarks-cases.md, "CLI
 * start-up"), more than a small index's few kilobytes cost in JS. Past that, node:zlib's crc32.
 * test/unit/crc32.test.ts holds both to node:zlib.
 */

/** Bytes summed in JS at most, in all, before node:zlib is loaded. */
export const SCRIPT_BUDGET = 64 * 1024;
let scriptBytes = 0;
let zlibCrc32: ((data: Uint8Array, value?: number) => number) | undefined;
let table: Uint32Array | undefined;

function crcTable(): Uint32Array {
    if (table) return table;
    table = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
        let c = n;
        for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
        table[n] = c >>> 0;
    }
    return table;
}

/** The CRC-32 of `bytes`, continuing from `value` (the CRC of what came before), as node:zlib's crc32. */
export function crc32(bytes: Uint8Array, value = 0): number {
    if (!zlibCrc32 && scriptBytes + bytes.length <= SCRIPT_BUDGET) {
        scriptBytes += bytes.length;
        const t = crcTable();
        let c = ~value;
        for (let i = 0; i < bytes.length; i++) c = t[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
        return ~c >>> 0;
    }
    zlibCrc32 ??= (require("node:zlib") as typeof import("node:zlib")).crc32;
    return zlibCrc32(bytes, value);
}
