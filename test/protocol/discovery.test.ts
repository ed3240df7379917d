/**
 * The SourceCheck view lists what the server's `sourcecheck/annotationFiles` answers: on generated
 * git work trees (test/unit/gitTrees.ts) that is exactly git's list of the annotation files it does
 * not ignore, as `sourcecheck check .` finds them (test/unit/discovery.test.ts).
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { gitList, materialise, treeArbitrary } from "../unit/gitTrees";
import { startClient } from "./harness";

const TREES = Number(process.env.SOURCECHECK_GIT_TREES_LSP ?? 6);

describe("the view's annotation files agree with git", () => {
    it(`sourcecheck/annotationFiles lists exactly git's non-ignored annotation files on ${TREES} generated trees`, async function () {
        this.timeout(600_000);
        let trees = 0;
        await fc.assert(
            fc.asyncProperty(treeArbitrary, async (tree) => {
                const work = materialise(tree);
                const client = await startClient({ root: work, pull: true });
                try {
                    trees++;
                    const { uris } = await client.request<{ uris: string[] }>("sourcecheck/annotationFiles", {});
                    const listed = uris.map((uri) => path.relative(work, fileURLToPath(uri)).split(path.sep).join("/"));
                    assert.deepEqual(listed.sort(), gitList(work));
                } finally {
                    await client.stop();
                    fs.rmSync(path.dirname(work), { recursive: true, force: true });
                }
            }),
            { numRuns: TREES },
        );
        assert.equal(trees, TREES, "every generated tree was compared");
    });
});
