/**
 * workspace/sha256.ts hashes a process's first few kilobytes in JS (@noble/hashes) and the rest with
 * node:crypto, so that a command on a tiny workspace does not load node:crypto (docs/benchmarks.md,
 * "CLI start-up"). Whichever way a hash goes, it must be node:crypto's SHA-256, the oracle here: each
 * sequence of inputs runs in a fresh instance of the module, so it starts in JS and crosses the budget.
 * The web worker's build is the same module on a host without node:crypto: all in JS, the same hashes.
 */
import * as assert from "node:assert/strict";
import { createHash } from "node:crypto";
import fc from "fast-check";
import * as sha256Module from "../../server/src/workspace/sha256";

type Sha256Module = typeof sha256Module;
const modulePath = require.resolve("../../server/src/workspace/sha256");

/** A new instance of the module: nothing hashed yet, node:crypto not loaded by it. */
function freshModule(): Sha256Module {
    delete require.cache[modulePath];
    return require(modulePath) as Sha256Module;
}

const oracle = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** One hash request: a string, bytes, or bytes streamed in pieces (a piece may be empty). */
type Input =
    | { kind: "text"; text: string }
    | { kind: "bytes"; bytes: Uint8Array }
    | { kind: "stream"; pieces: Uint8Array[] };

const sizes = fc.oneof(fc.integer({ min: 0, max: 64 }), fc.integer({ min: 0, max: 2 * sha256Module.SCRIPT_BUDGET }));
const bytesArb = sizes.chain((size) => fc.uint8Array({ minLength: size, maxLength: size }));
const inputArb: fc.Arbitrary<Input> = fc.oneof(
    fc
        .oneof(
            fc.string({ maxLength: 200 }),
            fc.string({ unit: "grapheme", maxLength: 60 }),
            fc.constantFrom("", "naïve 报告 37%", "x".repeat(5000)),
        )
        .map((text) => ({ kind: "text" as const, text })),
    bytesArb.map((bytes) => ({ kind: "bytes" as const, bytes })),
    fc.array(bytesArb, { maxLength: 4 }).map((pieces) => ({ kind: "stream" as const, pieces })),
);

function hashWith(module: Sha256Module, input: Input): { ours: string; expected: string } {
    if (input.kind === "text")
        return { ours: module.sha256(input.text), expected: oracle(Buffer.from(input.text, "utf8")) };
    if (input.kind === "bytes") return { ours: module.sha256OfBytes(input.bytes), expected: oracle(input.bytes) };
    const stream = module.sha256Stream();
    // The caller reuses one buffer for its pieces (lockFiles.ts): the stream must not keep a view of it.
    const buffer = new Uint8Array(Math.max(0, ...input.pieces.map((piece) => piece.length)));
    for (const piece of input.pieces) {
        buffer.set(piece);
        stream.update(buffer.subarray(0, piece.length));
        buffer.fill(0xaa);
    }
    return { ours: stream.digest(), expected: oracle(Buffer.concat(input.pieces)) };
}

describe("SHA-256 in JS first, node:crypto past a budget (workspace/sha256.ts)", () => {
    it("gives node:crypto's hash for every input, from a fresh process state through the budget and past it", () => {
        let cases = 0;
        let sequencesInScript = 0;
        let sequencesPastBudget = 0;
        fc.assert(
            fc.property(fc.array(inputArb, { minLength: 1, maxLength: 8 }), (inputs) => {
                const module = freshModule();
                for (const input of inputs) {
                    const { ours, expected } = hashWith(module, input);
                    cases++;
                    assert.equal(ours, expected, JSON.stringify(input).slice(0, 200));
                }
                const inScript = module.bytesHashedInScript();
                assert.ok(inScript <= module.SCRIPT_BUDGET, String(inScript));
                if (inScript > 0) sequencesInScript++;
                if (inputs.some((input) => byteLength(input) > module.SCRIPT_BUDGET)) sequencesPastBudget++;
            }),
            { numRuns: 400, seed: 30 },
        );
        assert.ok(cases >= 400, String(cases));
        // Both ways are taken, many times each: the comparison covers the JS hash and node:crypto.
        assert.ok(sequencesInScript > 80, String(sequencesInScript));
        assert.ok(sequencesPastBudget > 80, String(sequencesPastBudget));
    });

    it("a tiny workspace's hashes stay in JS; a large input goes to node:crypto and everything after it", () => {
        const module = freshModule();
        const small = Buffer.from("# Notes\n\nThe cache makes cold start 37% faster.\n");
        assert.equal(module.sha256OfBytes(small), oracle(small));
        assert.equal(module.sha256("The cache"), oracle(Buffer.from("The cache")));
        assert.equal(module.bytesHashedInScript(), small.length + "The cache".length);
        const large = Buffer.alloc(module.SCRIPT_BUDGET + 1, 7);
        assert.equal(module.sha256OfBytes(large), oracle(large));
        assert.equal(module.sha256("after"), oracle(Buffer.from("after")));
        assert.equal(module.bytesHashedInScript(), small.length + "The cache".length);
    });

    it("a host without node:crypto (the web worker) hashes everything in JS, node:crypto's hash all the same", () => {
        // The browser bundle is this same module: there `process` is absent, so node:crypto is never had.
        let pastBudget = 0;
        withoutNodeCrypto(() =>
            fc.assert(
                fc.property(fc.array(inputArb, { minLength: 1, maxLength: 8 }), (inputs) => {
                    const module = freshModule();
                    for (const input of inputs) {
                        const { ours, expected } = hashWith(module, input);
                        assert.equal(ours, expected, JSON.stringify(input).slice(0, 200));
                    }
                    // Every byte went through JS, past the budget too.
                    const total = inputs.reduce((sum, input) => sum + byteLength(input), 0);
                    assert.equal(module.bytesHashedInScript(), total);
                    if (total > module.SCRIPT_BUDGET) pastBudget++;
                }),
                { numRuns: 200, seed: 41 },
            ),
        );
        assert.ok(pastBudget > 40, String(pastBudget));
    });

    it("the evidence index's content hash is the first 128 bits of this SHA-256, with or without node:crypto", () => {
        const fingerprintPath = require.resolve("../../server/src/evidence/fingerprint");
        const freshContentHash = () => {
            freshModule();
            delete require.cache[fingerprintPath];
            return (require(fingerprintPath) as typeof import("../../server/src/evidence/fingerprint")).contentHash;
        };
        const texts = ["", "Cold start is faster.\n", "冷启动更快。 — naïve café 🚀\n", "x".repeat(100_000)];
        const expected = texts.map((text) => oracle(Buffer.from(text, "utf8")).slice(0, 32));
        const onNode = freshContentHash();
        assert.deepEqual(texts.map(onNode), expected);
        const inBrowser = withoutNodeCrypto(() => {
            const contentHash = freshContentHash();
            return texts.map(contentHash);
        });
        assert.deepEqual(inBrowser, expected);
    });
});

/** Runs `body` as on a host without node:crypto (the web worker: no `process`, so no getBuiltinModule). */
function withoutNodeCrypto<T>(body: () => T): T {
    const host = process as { getBuiltinModule?: unknown };
    const own = host.getBuiltinModule;
    host.getBuiltinModule = undefined;
    try {
        return body();
    } finally {
        host.getBuiltinModule = own;
    }
}

function byteLength(input: Input): number {
    if (input.kind === "text") return Buffer.byteLength(input.text, "utf8");
    if (input.kind === "bytes") return input.bytes.length;
    return input.pieces.reduce((sum, piece) => sum + piece.length, 0);
}
