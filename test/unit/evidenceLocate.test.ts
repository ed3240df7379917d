/**
 * How an index finds a document by path (evidence/index.ts locate): the document after the last one
 * found, a binary search while documents are numbered in path order (an index read from its file),
 * and a map once documents were added or the lookups come in another order. Oracle: a plain Map of
 * the paths present, kept beside the index through adds, removals, refusals and a write and read back.
 */
import * as assert from "node:assert/strict";
import fc from "fast-check";
import { documentColumns, IndexFormatError, StoredDocuments } from "../../server/src/evidence/documents";
import { EvidenceIndex } from "../../server/src/evidence/index";

const NAMES = ["a.md", "a-b.md", "a/b.md", "a/c/d.md", "a0.md", "b.md", "é.md", "Z.md", "z/z.md", "中.md", "a/é.md"];

describe("evidence: finding a document by path", () => {
    it("answers as a map of the paths would, in walk order, random order, and after changes (property)", () => {
        let ran = 0;
        let readBack = 0;
        const operation = fc.oneof(
            fc.record({
                op: fc.constant("add" as const),
                name: fc.constantFrom(...NAMES),
                text: fc.constantFrom("x", "y"),
            }),
            fc.record({ op: fc.constant("refuse" as const), name: fc.constantFrom(...NAMES) }),
            fc.record({ op: fc.constant("remove" as const), name: fc.constantFrom(...NAMES) }),
            fc.record({ op: fc.constant("reload" as const) }),
            fc.record({ op: fc.constant("sorted" as const) }),
            fc.record({ op: fc.constant("shuffled" as const), seed: fc.integer({ min: 0, max: 1000 }) }),
        );
        fc.assert(
            fc.property(
                fc.uniqueArray(fc.constantFrom(...NAMES), { minLength: 1 }),
                fc.array(operation, { maxLength: 20 }),
                (initial, operations) => {
                    ran++;
                    let index = new EvidenceIndex("/corpus", { maxChars: 200, unsafePatterns: [] });
                    const oracle = new Map<string, "doc" | "refused">();
                    for (const name of initial) {
                        index.upsert(name, 1, 1, `# ${name}\n\ntext\n`);
                        oracle.set(name, "doc");
                    }
                    const check = (names: readonly string[]) => {
                        for (const name of names) {
                            const record = index.document(name);
                            assert.equal(record?.path, oracle.has(name) ? name : undefined, name);
                            assert.equal(record?.refused !== undefined, oracle.get(name) === "refused", name);
                        }
                        assert.equal(index.documentCount, oracle.size);
                        assert.deepEqual([...index.paths].sort(), [...oracle.keys()].sort());
                        const refused = [...oracle.values()].filter((v) => v === "refused").length;
                        assert.deepEqual(index.counts(), { documents: oracle.size - refused, refused });
                    };
                    for (const step of operations) {
                        if (step.op === "add") {
                            index.upsert(step.name, 2, 2, `# ${step.name}\n\n${step.text}\n`);
                            oracle.set(step.name, "doc");
                        } else if (step.op === "refuse") {
                            index.refuse(step.name, 3, 3, "binary");
                            oracle.set(step.name, "refused");
                        } else if (step.op === "remove") {
                            assert.equal(index.remove(step.name), oracle.delete(step.name));
                        } else if (step.op === "reload") {
                            index = EvidenceIndex.deserialize(index.serialize()).index;
                            readBack++;
                        } else if (step.op === "sorted") check([...NAMES].sort());
                        else {
                            const names = [...NAMES];
                            for (let i = names.length - 1; i > 0; i--) {
                                const j = (step.seed * (i + 7)) % (i + 1);
                                [names[i], names[j]] = [names[j], names[i]];
                            }
                            check(names);
                        }
                    }
                    check(NAMES);
                    // What a warm walk does: every file in path order, then those unseen removed.
                    const seen = new Uint8Array(index.numbered);
                    for (const name of [...NAMES].sort()) {
                        const at = index.numberOf(name);
                        assert.equal(at !== undefined, oracle.has(name), name);
                        if (at !== undefined && name !== initial[0]) seen[at] = 1;
                    }
                    const removed = index.removeUnseen(seen);
                    assert.equal(removed, oracle.has(initial[0]) ? 1 : 0);
                    oracle.delete(initial[0]);
                    check(NAMES);
                },
            ),
            { numRuns: 300 },
        );
        assert.equal(ran, 300);
        assert.ok(readBack > 100, `${readBack} indexes read back`);
    });

    it("finds 2,000 documents listed in path order in a read-back index, and in another order", () => {
        const index = new EvidenceIndex("/corpus", { maxChars: 200, unsafePatterns: [] });
        const names = Array.from({ length: 2000 }, (_, i) => `f/${String((i * 7919) % 2000).padStart(4, "0")}.md`);
        for (const name of names) index.upsert(name, 1, 1, `# ${name}\n\ntext\n`);
        const read = EvidenceIndex.deserialize(index.serialize()).index;
        for (const name of [...names].sort()) assert.equal(read.numberOf(name) !== undefined, true, name);
        for (const name of names) assert.equal(read.document(name)?.path, name);
        assert.equal(read.document("f/2000.md"), undefined);
    });
    it("finds where each stored path starts as far as asked, and refuses a column whose paths do not add up", () => {
        const records = ["a.md", "b/c.md", "é.md"].map((path, i) => ({
            path,
            size: i,
            mtimeMs: i,
            ino: i,
            hash: "0".repeat(32),
            firstSlot: i,
            chunkCount: 1,
        }));
        const { columns, header } = documentColumns(records);
        const stored = () => new StoredDocuments(Buffer.concat(columns), 0, header);
        // In order, matched in place; out of order, found by the separators; a near miss is no match.
        const inOrder = stored();
        assert.deepEqual(
            [inOrder.pathIs(0, "a.md"), inOrder.pathIs(1, "b/c.md"), inOrder.pathIs(2, "é.md")],
            [true, true, true],
        );
        const outOfOrder = stored();
        assert.deepEqual(
            [outOfOrder.pathIs(2, "é.md"), outOfOrder.pathIs(0, "a.m"), outOfOrder.pathIs(0, "a.md")],
            [true, false, true],
        );
        assert.deepEqual(
            [0, 1, 2].map((i) => stored().pathAt(i)),
            ["a.md", "b/c.md", "é.md"],
        );
        // One separator too few (two paths run together) or too many (a path split): IndexFormatError.
        for (const [from, to] of [
            [0, 120],
            [98, 0],
        ] as const) {
            const paths = Buffer.from(columns[0]);
            const at = paths.indexOf(from);
            assert.ok(at >= 0);
            paths[at] = to;
            const damaged = new StoredDocuments(Buffer.concat([paths, ...columns.slice(1)]), 0, header);
            assert.throws(() => [0, 1, 2].map((i) => damaged.pathAt(i)), IndexFormatError);
            const walked = new StoredDocuments(Buffer.concat([paths, ...columns.slice(1)]), 0, header);
            assert.throws(() => {
                for (const [i, p] of ["a.md", "b/c.md", "é.md"].entries()) if (!walked.pathIs(i, p)) walked.pathAt(i);
            }, IndexFormatError);
        }
    });
});
