/**
 * The lock's hand check (core/lock/file.ts) accepts exactly what its zod schema accepts: thousands
 * of entries, valid ones with fields mutated, dropped or added, each judged by both (zod is the
 * oracle); and a lock the hand check refuses still gets zod's words.
 */
import * as assert from "node:assert/strict";
import fc from "fast-check";
import { conformsToLockEntry, lockEntryProblem, parseLock } from "../../server/src/core/lock";

const VALID = {
    ref: { path: "docs/a.md", start: { line: 3, str: "The" }, end: { line: 3, str: "blue." } },
    range: { start: { line: 3, column: 0 }, end: { line: 3, column: 16 } },
    sha256: "a".repeat(64),
    length: 16,
    text: "The sky is blue.",
    prefix: "",
    suffix: "\n",
    documentSha256: "0123456789abcdef".repeat(4),
};

const PATHS = [
    [],
    ["ref"],
    ["ref", "path"],
    ["ref", "start"],
    ["ref", "start", "line"],
    ["ref", "start", "str"],
    ["ref", "end", "str"],
    ["range"],
    ["range", "start", "column"],
    ["range", "end", "line"],
    ["sha256"],
    ["length"],
    ["text"],
    ["head"],
    ["tail"],
    ["prefix"],
    ["suffix"],
    ["documentSha256"],
] as const;

const VALUES = [undefined, null, 0, -1, 1, 1.5, "", "x", "A".repeat(64), "f".repeat(64), "f".repeat(63), [], {}, true];

function mutate(entry: unknown, path: readonly string[], field: string, value: unknown, drop: boolean): unknown {
    const copy = structuredClone(entry) as Record<string, unknown>;
    let target = copy;
    for (const step of path) {
        const next = target[step];
        if (typeof next !== "object" || next === null) return copy;
        target = next as Record<string, unknown>;
    }
    if (drop) delete target[field];
    else target[field] = value;
    return copy;
}

describe("lock: the hand check agrees with the schema", () => {
    it("on mutated entries (fast-check, zod as the oracle)", () => {
        let runs = 0;
        let refused = 0;
        const field = fc.constantFrom("line", "str", "column", "path", "start", "end", "extra", ...Object.keys(VALID));
        fc.assert(
            fc.property(
                fc.array(fc.tuple(fc.constantFrom(...PATHS), field, fc.constantFrom(...VALUES), fc.boolean()), {
                    maxLength: 3,
                }),
                (mutations) => {
                    let entry: unknown = VALID;
                    for (const [path, key, value, drop] of mutations) entry = mutate(entry, path, key, value, drop);
                    runs++;
                    const zodAccepts = lockEntryProblem(entry) === undefined;
                    if (!zodAccepts) refused++;
                    assert.equal(conformsToLockEntry(entry), zodAccepts, JSON.stringify(entry));
                },
            ),
            { numRuns: 4000, seed: 20261201 },
        );
        assert.equal(runs, 4000);
        assert.ok(refused > 500 && refused < 3900, `${refused} of ${runs} refused`);
    });

    it("words what is wrong with zod's message and pointer", () => {
        const lock = { lockVersion: 1, annotationFile: "a.sourcecheck.json", entries: { k: { ...VALID, length: -1 } } };
        const error = parseLock(JSON.stringify(lock), "a.sourcecheck.json").error;
        assert.equal(error?.code, "lock-schema");
        assert.equal(error?.pointer, "/entries/k/length");
        const good = parseLock(JSON.stringify({ ...lock, entries: { k: VALID } }), "a.sourcecheck.json");
        assert.deepEqual(good.lock?.entries.k, VALID);
    });
});
