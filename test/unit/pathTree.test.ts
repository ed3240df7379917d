import * as assert from "node:assert/strict";
import fc from "fast-check";
import { PathTree } from "../../server/src/workspace/pathTree";

const numRuns = Number(process.env.SOURCECHECK_FC_RUNS ?? 2_000);

// Few names, so paths share folders and a folder's name can be a file's elsewhere.
const segment = fc.constantFrom("a", "b", "c", "d.md");
const pathArb = fc.array(segment, { minLength: 1, maxLength: 4 }).map((parts) => `/w/${parts.join("/")}`);
const opArb = fc.oneof(
    fc.record({ op: fc.constant("add" as const), path: pathArb }),
    fc.record({ op: fc.constant("deleteUnder" as const), path: pathArb }),
    fc.record({ op: fc.constant("delete" as const), path: pathArb }),
);

/** The oracle: a plain set, "below" judged by string prefix. */
const below = (folder: string, path: string) => path === folder || path.startsWith(`${folder}/`);

describe("PathTree (the scan's file list, cited paths)", () => {
    it("agrees with a plain set for any sequence of adds and deletes, folder deletes included", () => {
        let ran = 0;
        fc.assert(
            fc.property(fc.array(opArb, { maxLength: 40 }), pathArb, (ops, probe) => {
                ran++;
                const tree = new PathTree();
                const oracle = new Set<string>();
                for (const { op, path } of ops) {
                    if (op === "add") {
                        tree.add(path);
                        oracle.add(path);
                    } else if (op === "delete") {
                        tree.delete(path);
                        oracle.delete(path);
                    } else {
                        const removed = tree.deleteUnder(path);
                        const expected = [...oracle].filter((p) => below(path, p)).sort();
                        assert.deepEqual(removed, expected);
                        for (const p of expected) oracle.delete(p);
                    }
                }
                assert.equal(tree.size, oracle.size);
                assert.deepEqual([...tree.values()].sort(), [...oracle].sort());
                assert.deepEqual(tree.under(probe), [...oracle].filter((p) => below(probe, p)).sort());
                assert.deepEqual(tree.under("/w"), [...oracle].sort());
            }),
            { numRuns },
        );
        assert.equal(ran, numRuns);
    });

    it("a folder delete visits only what is below it", () => {
        const tree = new PathTree();
        for (let i = 0; i < 5000; i++) tree.add(`/w/big/${i}.txt`);
        tree.add("/w/small/x.md");
        let visited = 0;
        const children = (tree as unknown as { children: Map<string, Set<string>> }).children;
        const original = children.get.bind(children);
        children.get = (key: string) => {
            visited++;
            return original(key);
        };
        assert.deepEqual(tree.deleteUnder("/w/small"), ["/w/small/x.md"]);
        assert.ok(visited < 10, `deleting one small folder looked at ${visited} folders`);
        assert.equal(tree.size, 5000);
    });
});
