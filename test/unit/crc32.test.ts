/**
 * evidence/crc32.ts sums a process's first 64 KB in JS and the rest with node:zlib, so that a query on
 * a small index does not load node:zlib (docs/benchmarks-cases.md, "CLI start-up"). Whichever way a sum
 * goes, it must be node:zlib's crc32, the oracle: each sequence runs in a fresh instance of the
 * module, so it starts in JS, continues sums across pieces and crosses the budget. The web worker's
 * build is the same module on a host without node:zlib: all in JS, the same sums.
 */
import * as assert from "node:assert/strict";
import { crc32 as zlibCrc32 } from "node:zlib";
import fc from "fast-check";
import * as crc32Module from "../../server/src/evidence/crc32";

const modulePath = require.resolve("../../server/src/evidence/crc32");

function freshModule(): typeof crc32Module {
    delete require.cache[modulePath];
    return require(modulePath) as typeof crc32Module;
}

const piece = fc.oneof(
    fc.uint8Array({ maxLength: 64 }),
    fc.integer({ min: 0, max: crc32Module.SCRIPT_BUDGET }).map((size) => new Uint8Array(size).fill(size & 0xff)),
);

describe("CRC-32 in JS first, node:zlib past a budget (evidence/crc32.ts)", () => {
    it("gives node:zlib's crc32 for every piece and every continued sum, through the budget and past it", () => {
        let cases = 0;
        let pastBudget = 0;
        fc.assert(
            fc.property(fc.array(piece, { minLength: 1, maxLength: 6 }), fc.nat(), (pieces, start) => {
                const module = freshModule();
                let ours = start >>> 0;
                let expected = start >>> 0;
                let total = 0;
                for (const bytes of pieces) {
                    cases++;
                    total += bytes.length;
                    assert.equal(module.crc32(bytes), zlibCrc32(bytes));
                    ours = module.crc32(bytes, ours);
                    expected = zlibCrc32(bytes, expected);
                    assert.equal(ours, expected);
                }
                if (2 * total > module.SCRIPT_BUDGET) pastBudget++;
            }),
            { numRuns: 300, seed: 30 },
        );
        assert.ok(cases >= 300, String(cases));
        assert.ok(pastBudget > 50, String(pastBudget));
    });

    it("a host without node:zlib (the web worker) sums everything in JS, node:zlib's crc32 all the same", () => {
        // The browser bundle is this same module: there `process` is absent, so node:zlib is never had.
        const host = process as { getBuiltinModule?: unknown };
        const own = host.getBuiltinModule;
        host.getBuiltinModule = undefined;
        try {
            const module = freshModule();
            const large = new Uint8Array(3 * module.SCRIPT_BUDGET).map((_, i) => (i * 31) & 0xff);
            let ours = module.crc32(large.subarray(0, 1000));
            ours = module.crc32(large.subarray(1000), ours);
            assert.equal(ours, zlibCrc32(large));
            assert.equal(module.crc32(large), zlibCrc32(large));
        } finally {
            host.getBuiltinModule = own;
        }
    });

    it("known values: empty, one byte, a sentence", () => {
        const module = freshModule();
        assert.equal(module.crc32(new Uint8Array(0)), 0);
        assert.equal(module.crc32(Buffer.from("a")), 0xe8b7be43);
        assert.equal(module.crc32(Buffer.from("The quick brown fox jumps over the lazy dog")), 0x414fa339);
    });
});
