/**
 * Evidence kept in a long-lived server follows file events (docs/evidence-internals.md, "In a server"): after
 * the first query, a changed or deleted document is read again without walking the corpus, and a
 * new file (which no kept index knows) makes the query walk. The walk is seen by counting the
 * folder listings the discovery makes (fs.readdirSync); a plain kept index walks on every query,
 * which shows the count sees walks.
 */
import * as assert from "node:assert/strict";
// The module object itself (not a namespace copy of it), so its readdirSync can be wrapped.
import nodeFs, * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { EvidenceFeature, type SearchWork } from "../../server/src/node/evidence";
import type { AnnotationFile } from "../../server/src/workspace/annotationFile";
import { type KeptIndexes, searchEvidenceUnderRoot, WatchedIndexes } from "../../server/src/workspace/evidenceSearch";
import type { OpenedIndex } from "../../server/src/workspace/evidenceStore";

/** Folder listings made while `work` runs. */
function listings<T>(work: () => T): { value: T; count: number } {
    const original = nodeFs.readdirSync;
    let count = 0;
    (nodeFs as { readdirSync: unknown }).readdirSync = (...args: Parameters<typeof fs.readdirSync>) => {
        count++;
        return original(...args);
    };
    try {
        return { value: work(), count };
    } finally {
        nodeFs.readdirSync = original;
    }
}

/** Time for the operating system's file events to reach the watcher (they come within milliseconds). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

describe("evidence kept in a server follows file events", function () {
    this.timeout(30000);
    let root: string;
    let indexDir: string;
    const watched = new WatchedIndexes();

    before(() => {
        root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "sourcecheck-evidence-watch-")));
        indexDir = fs.mkdtempSync(path.join(os.tmpdir(), "sourcecheck-evidence-watch-index-"));
        fs.mkdirSync(path.join(root, "notes"));
        fs.writeFileSync(path.join(root, "notes", "birds.md"), "# Birds\n\nThe heron nests by the lake in spring.\n");
        fs.writeFileSync(path.join(root, "notes", "boats.md"), "# Boats\n\nThe ferry crosses the lake twice a day.\n");
        fs.writeFileSync(path.join(root, "weather.md"), "# Weather\n\nFog covers the lake on cold mornings.\n");
    });

    after(() => {
        watched.close();
        fs.rmSync(root, { recursive: true, force: true });
        fs.rmSync(indexDir, { recursive: true, force: true });
    });

    function search(query: string, kept: KeptIndexes) {
        return listings(() => {
            const answer = searchEvidenceUnderRoot(root, undefined, { query, indexDir }, kept);
            assert.ok(!("code" in answer), JSON.stringify(answer));
            return answer;
        });
    }

    it("walks on the first query, then reads only what changed; a new file makes it walk again", async () => {
        const first = search("heron nests", watched);
        assert.ok(first.count > 0, "the first query walks the corpus");
        assert.equal(first.value.hits[0]?.path, "notes/birds.md");

        await settle();
        const quiet = search("heron nests", watched);
        assert.equal(quiet.count, 0, "nothing changed: no walk");

        fs.appendFileSync(path.join(root, "notes", "boats.md"), "\nA zeppelin once moored above the ferry.\n");
        await settle();
        const changed = search("zeppelin moored", watched);
        assert.equal(changed.count, 0, "a changed document is read again without a walk");
        assert.equal(changed.value.hits[0]?.path, "notes/boats.md");

        fs.rmSync(path.join(root, "notes", "boats.md"));
        await settle();
        const deleted = search("zeppelin moored", watched);
        assert.equal(deleted.count, 0, "a deleted document leaves without a walk");
        assert.deepEqual(deleted.value.hits, []);

        fs.writeFileSync(
            path.join(root, "notes", "kites.md"),
            "# Kites\n\nA red kite hovers over the zeppelin field.\n",
        );
        await settle();
        const added = search("zeppelin field kite", watched);
        assert.ok(added.count > 0, "a new file is unknown to the index: the query walks");
        assert.equal(added.value.hits[0]?.path, "notes/kites.md");
    });

    it("a kept index without a watcher walks on every query (what the count above is compared with)", () => {
        const plain = new Map<string, OpenedIndex>();
        search("fog mornings", plain);
        const again = search("fog mornings", plain);
        assert.ok(again.count > 0);
        assert.equal(again.value.hits[0]?.path, "weather.md");
    });
});

describe("Find Sources in the language server keeps its index by file events too", function () {
    this.timeout(30000);
    let root: string;
    let indexDir: string;

    before(() => {
        root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "sourcecheck-find-watch-")));
        indexDir = fs.mkdtempSync(path.join(os.tmpdir(), "sourcecheck-find-watch-index-"));
        fs.writeFileSync(path.join(root, "answer.md"), "The heron nests by the lake.\n");
        fs.mkdirSync(path.join(root, "notes"));
        fs.writeFileSync(path.join(root, "notes", "birds.md"), "# Birds\n\nThe heron nests by the lake in spring.\n");
        fs.writeFileSync(path.join(root, "notes", "boats.md"), "# Boats\n\nThe ferry crosses the lake twice a day.\n");
    });

    after(() => {
        fs.rmSync(root, { recursive: true, force: true });
        fs.rmSync(indexDir, { recursive: true, force: true });
    });

    /** The feature reads of the annotation file only its root and the claim's resolved text. */
    function annotationFile(claim: string): AnnotationFile {
        const site = { resolution: { valid: true, text: claim }, ref: { path: "answer.md" } };
        return { embedded: false, root, site: () => site } as unknown as AnnotationFile;
    }

    async function find(feature: EvidenceFeature, claim: string, work: SearchWork = {}) {
        let count = 0;
        const original = nodeFs.readdirSync;
        (nodeFs as { readdirSync: unknown }).readdirSync = (...args: Parameters<typeof fs.readdirSync>) => {
            count++;
            return original(...args);
        };
        try {
            const params = { annotationUri: "file:///a.sourcecheck.json", annotation: 1, indexDir };
            return { value: await feature.find(annotationFile(claim), params, () => {}, work), count };
        } finally {
            nodeFs.readdirSync = original;
        }
    }

    it("walks on the first search, then reads only what changed; a cancelled search makes the next one walk", async () => {
        const feature = new EvidenceFeature();
        const first = await find(feature, "heron nests");
        assert.ok(first.count > 0, "the first search walks the document root");
        assert.equal(first.value.ok && first.value.hits[0]?.path, "notes/birds.md");

        fs.appendFileSync(path.join(root, "notes", "boats.md"), "\nA zeppelin once moored above the ferry.\n");
        await settle();
        const changed = await find(feature, "zeppelin moored");
        assert.equal(changed.count, 0, "a changed document is read again without a walk");
        assert.equal(changed.value.ok && changed.value.hits[0]?.path, "notes/boats.md");

        fs.writeFileSync(path.join(root, "notes", "kites.md"), "# Kites\n\nA red kite hovers over the field.\n");
        await settle();
        const cancelled = await find(feature, "red kite hovers", { cancelled: () => true });
        assert.equal(cancelled.value.ok, false);
        assert.equal(!cancelled.value.ok && cancelled.value.cancelled, true);
        // The stopped search took the watcher's news of kites.md without applying it: only a walk can.
        const after = await find(feature, "red kite hovers");
        assert.ok(after.count > 0, "the search after a cancelled one walks");
        assert.equal(after.value.ok && after.value.hits[0]?.path, "notes/kites.md");
    });
});
