/**
 * CRC-32 (zlib's: IEEE polynomial, reflected) for the index codec. A process's first 64 KB are summed
 * in JS: loading node:zlib costs a command about 3 ms of its start-up (docs/benchmarks-cases.md, "CLI
 * start-up"), more than a small index's few kilobytes cost in JS. Past that, node:zlib's crc32, asked
 * of the host (`process.getBuiltinModule`) rather than imported, so the web worker's bundle takes this
 * module as it is (summing in JS there: docs/web.md). test/unit/crc32.test.ts holds both, and a host
 * without node:zlib, to node:zlib.
 */

/** Bytes summed in JS at most, in all, before node:zlib is loaded. */
export const SCRIPT_BUDGET = 64 * 1024;
let scriptBytes = 0;
type Crc32 = (data: Uint8Array, value?: number) => number;
/** node:zlib's crc32 once loaded; null once the host was found to have none (a browser). */
let zlibCrc32: Crc32 | null | undefined;
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
    if (zlibCrc32 === undefined && scriptBytes + bytes.length > SCRIPT_BUDGET) zlibCrc32 = hostCrc32();
    if (zlibCrc32) return zlibCrc32(bytes, value);
    scriptBytes += bytes.length;
    const t = crcTable();
    let c = ~value;
    for (let i = 0; i < bytes.length; i++) c = t[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
    return ~c >>> 0;
}

/** The host's node:zlib crc32, or null where there is none. */
function hostCrc32(): Crc32 | null {
    const host = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
    const zlib = host?.getBuiltinModule?.("node:zlib") as { crc32?: Crc32 } | undefined;
    return zlib?.crc32 ?? null;
}
