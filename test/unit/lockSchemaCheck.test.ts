/**
 * The lock's hand check (core/lock/lockProblem.ts) accepts exactly what its zod schema
 * (core/lock/lockZodSchema.ts) accepts: thousands of entries and whole locks, valid ones with fields
 * mutated, dropped or added, each judged by both (zod is the oracle); and where the hand check
 * refuses, the place it names is one zod names too.
 */
import * as assert from "node:assert/strict";
import fc from "fast-check";
import { conformsToLockEntry, lockEntryProblem, parseLock } from "../../server/src/core/lock";
import { LOCK_ZOD_SCHEMAS } from "../../server/src/core/lock/lockZodSchema";

/** Whether zod, refusing `value`, names `path` among its issues. */
function zodNames(issues: readonly { path: PropertyKey[] }[], path: readonly string[]): boolean {
    return issues.some((issue) => issue.path.map(String).join("/") === path.join("/"));
}

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
                    const zod = LOCK_ZOD_SCHEMAS.entry.safeParse(entry);
                    if (!zod.success) refused++;
                    assert.equal(conformsToLockEntry(entry), zod.success, JSON.stringify(entry));
                    const problem = lockEntryProblem(entry);
                    if (problem && !zod.success) {
                        assert.ok(zodNames(zod.error.issues, problem.path), `${problem.path} ${JSON.stringify(entry)}`);
                    }
                },
            ),
            { numRuns: 4000, seed: 20261201 },
        );
        assert.equal(runs, 4000);
        assert.ok(refused > 500 && refused < 3900, `${refused} of ${runs} refused`);
    });

    it("on mutated whole locks, basis and entries' keys included (fast-check, zod as the oracle)", () => {
        const sha = "0123456789abcdef".repeat(4);
        const lock = {
            lockVersion: 1,
            annotationFile: "a.sourcecheck.json",
            basis: { annotationFileSha256: sha, entriesSha256: sha, documents: { "docs/a.md": sha, "gone.md": null } },
            entries: { k: VALID, j: VALID },
        };
        const paths = [[], ["basis"], ["basis", "documents"], ["entries"], ["entries", "k"], ["entries", "k", "ref"]];
        const field = fc.constantFrom("lockVersion", "annotationFile", "basis", "entries", "documents", "", "k", "x");
        let runs = 0;
        let refused = 0;
        fc.assert(
            fc.property(
                fc.array(fc.tuple(fc.constantFrom(...paths), field, fc.constantFrom(...VALUES, 2, sha), fc.boolean()), {
                    maxLength: 3,
                }),
                (mutations) => {
                    let value: unknown = lock;
                    for (const [path, key, item, drop] of mutations) value = mutate(value, path, key, item, drop);
                    // As the lock is read: from its JSON text (a key set to undefined is not there).
                    value = JSON.parse(JSON.stringify(value));
                    runs++;
                    const zod = LOCK_ZOD_SCHEMAS.lock.safeParse(value);
                    if (!zod.success) refused++;
                    const error = parseLock(JSON.stringify(value), "a.sourcecheck.json").error;
                    const schemaError = error?.code === "lock-schema";
                    assert.equal(!schemaError, zod.success, JSON.stringify(value));
                    if (error?.pointer !== undefined && !zod.success) {
                        const path = error.pointer
                            .split("/")
                            .slice(1)
                            .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
                        assert.ok(zodNames(zod.error.issues, path), `${error.pointer} ${JSON.stringify(value)}`);
                    }
                },
            ),
            { numRuns: 3000, seed: 20261206 },
        );
        assert.equal(runs, 3000);
        assert.ok(refused > 300 && refused < 2900, `${refused} of ${runs} refused`);
    });

    it("names the place and what is wrong there", () => {
        const lock = { lockVersion: 1, annotationFile: "a.sourcecheck.json", entries: { k: { ...VALID, length: -1 } } };
        const error = parseLock(JSON.stringify(lock), "a.sourcecheck.json").error;
        assert.equal(error?.code, "lock-schema");
        assert.equal(error?.pointer, "/entries/k/length");
        const good = parseLock(JSON.stringify({ ...lock, entries: { k: VALID } }), "a.sourcecheck.json");
        assert.deepEqual(good.lock?.entries.k, VALID);
    });
});
