/**
 * The one discovery (server/src/workspace/discovery.ts) against git itself: on generated work trees
 * with layered .gitignore files, negations, .git/info/exclude and names with spaces, the CLI's
 * `check .`, the discovery's synchronous, asynchronous and stat walks and the language server's scan all
 * list exactly the annotation files `git ls-files --others --exclude-standard` lists.
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import fc from "fast-check";
import { discoverFiles } from "../../server/src/cli/discovery";
import { isAnnotationFileName, rebase } from "../../server/src/workspace/discovery";
import { nodeStatWalkFs } from "../../server/src/workspace/discoveryFs";
import { nodeProjectConfigs } from "../../server/src/workspace/nodeConfigs";
import { nodeDiscovery } from "../../server/src/workspace/nodeDiscovery";
import { NODE_HOST } from "../../server/src/workspace/nodeHost";
import { WorkspaceIndex } from "../../server/src/workspace/workspaceIndex";
import { gitList, materialise, treeArbitrary } from "./gitTrees";

const RUNS = Number(process.env.SOURCECHECK_GIT_TREES ?? 40);

const relativeSorted = (work: string, files: string[]) =>
    files.map((file) => path.relative(work, file).split(path.sep).join("/")).sort();

describe("discovery agrees with git", () => {
    it(`lists exactly git's non-ignored annotation files on ${RUNS} generated work trees (CLI, sync, async, language server)`, async function () {
        // Two git processes per tree: minutes on a loaded machine, not a speed target.
        this.timeout(600_000);
        let trees = 0;
        let nonEmpty = 0;
        let ignoredSome = 0;
        await fc.assert(
            fc.asyncProperty(treeArbitrary, async (tree) => {
                const work = materialise(tree);
                try {
                    trees++;
                    const expected = gitList(work);
                    const all = tree.files.filter((f) => isAnnotationFileName(path.posix.basename(f)));
                    if (expected.length > 0) nonEmpty++;
                    if (expected.length < all.length) ignoredSome++;

                    const cli = discoverFiles(["."], { cwd: work, exclude: [], configs: nodeProjectConfigs() });
                    assert.deepEqual(cli.map((f) => f.shown).sort(), expected, "sourcecheck check .");

                    const discovery = nodeDiscovery({ base: work });
                    const sync = discovery.annotationFilesSync(work).map((f) => f.fromBase);
                    assert.deepEqual(sync.sort(), expected, "synchronous walk");
                    // The stat walk (a warm evidence sync's): the same files, each with its own lstat.
                    const statWalked: string[] = [];
                    nodeDiscovery({ base: work }).walkStatsSync(work, nodeStatWalkFs, (file, stats) => {
                        assert.equal(stats.ino, fs.lstatSync(file.path).ino, file.path);
                        if (isAnnotationFileName(file.name)) statWalked.push(file.fromBase);
                    });
                    assert.deepEqual(statWalked.sort(), expected, "stat walk");
                    const walked = await nodeDiscovery({ base: work }).walk(work);
                    const asyncList = walked.files.filter((f) => isAnnotationFileName(f.name)).map((f) => f.fromBase);
                    assert.deepEqual(asyncList.sort(), expected, "asynchronous walk");

                    const index = new WorkspaceIndex({ get: () => undefined }, NODE_HOST);
                    index.folders = [work];
                    assert.deepEqual(relativeSorted(work, await index.scan()), expected, "language server scan");
                    for (const file of all) {
                        const skipped = index.isSkipped(path.join(work, file));
                        assert.equal(skipped, !expected.includes(file), `isSkipped(${file})`);
                    }
                } finally {
                    fs.rmSync(path.dirname(work), { recursive: true, force: true });
                }
            }),
            { numRuns: RUNS },
        );
        assert.equal(trees, RUNS, "every generated tree was compared");
        // The generator must exercise the rules: trees where git ignores some files and lists others.
        assert.ok(nonEmpty >= RUNS / 4, `only ${nonEmpty} of ${RUNS} trees listed a file`);
        assert.ok(ignoredSome >= RUNS / 4, `only ${ignoredSome} of ${RUNS} trees ignored a file`);
    });

    it("rebases a nested .gitignore onto the repository's top", () => {
        assert.deepEqual(rebase("a\n/b\nc/d\n!e/\n# note\n\n**/f\n", "x y/"), [
            "x y/**/a",
            "x y/b",
            "x y/c/d",
            "!x y/**/e/",
            "x y/**/f",
        ]);
        assert.deepEqual(rebase("a\n", "!odd/#dir/"), ["\\!odd/\\#dir/**/a"]);
        assert.deepEqual(rebase("a  \nb\\ \n", ""), ["a", "b\\ "], "trailing spaces go unless escaped");
    });
});
