import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { resolveRef } from "../../server/src/core/resolve";
import { DiskDocuments } from "../../server/src/workspace/diskDocuments";
import { startClient, type TestClient } from "./harness";

interface Found {
    ok: boolean;
    message?: string;
    query?: string;
    hits?: {
        path: string;
        startLine: number;
        endLine: number;
        score: number;
        headingPath: string[];
        ref: { path: string; start: { line: number; str: string }; end: { line: number; str: string } } | null;
        refText: string;
        text: string;
    }[];
    warnings?: string[];
}

describe("sourcecheck/findEvidence", () => {
    let client: TestClient;
    let uri: string;
    let indexDir: string;
    beforeEach(async () => {
        client = await startClient({ pull: true });
        uri = await client.open("answer.sourcecheck.json", "sourcecheck");
        indexDir = fs.mkdtempSync(path.join(os.tmpdir(), "sourcecheck-evidence-lsp-"));
    });
    afterEach(async () => {
        await client.stop();
    });

    const find = (annotationIndex: number, extra: object = {}) =>
        client.request<Found>("sourcecheck/findEvidence", { annotationUri: uri, annotationIndex, indexDir, ...extra });

    it("searches the document root for a claim's text, never offering the claim's own document", async () => {
        const value = JSON.parse(client.text(uri)) as { annotations: { claim: { start: { str: string } } }[] };
        const index = value.annotations.findIndex((a) => a.claim.start.str === "offline sync");
        const result = await find(index);
        assert.equal(result.ok, true, result.message);
        assert.equal(result.query, "offline sync for mobile clients.");
        assert.ok(result.hits!.length > 0);
        assert.ok(result.hits!.every((h) => h.path !== "answer.md"));
        const best = result.hits![0];
        assert.equal(best.path, "sources/release-notes.md");
        const disk = new DiskDocuments(client.options.root);
        const resolved = resolveRef(disk, best.ref!);
        assert.ok(resolved.valid);
        assert.equal(resolved.text, best.refText);
        assert.ok(resolved.range.start.line >= best.startLine && resolved.range.end.line <= best.endLine);
        assert.match(best.refText, /^Offline sync/);
        assert.equal(fs.readdirSync(indexDir).filter((n) => n.endsWith(".idx")).length, 1, "the index is saved there");
    });

    it("follows file changes between searches, and honours include and unsafe patterns", async () => {
        const root = client.options.root;
        fs.writeFileSync(
            path.join(root, "sources", "sync.md"),
            "# Sync\n\nOffline sync for mobile clients is in 2.4.\n",
        );
        const after = await find(1);
        assert.equal(after.hits![0].path, "sources/sync.md");
        const unsafe = await find(1, { unsafePatterns: ["is in 2.4"] });
        assert.ok(unsafe.hits!.every((h) => h.path !== "sources/sync.md"));
        fs.rmSync(path.join(root, "sources", "sync.md"));
        const gone = await find(1);
        assert.ok(gone.hits!.every((h) => h.path !== "sources/sync.md"));
        const onlyTxt = await find(1, { include: ["**/*.txt"] });
        assert.ok(onlyTxt.hits!.every((h) => h.path.endsWith(".txt")));
    });

    it("honours the sources of sourcecheck.config.json: the demo's README is never a hit, without the setting it is", async () => {
        const root = client.options.root;
        // Annotation 2's claim ("offline sync … clients.") is named in the README's table of claims.
        const named = await find(1);
        assert.equal(named.ok, true, named.message);
        assert.ok(named.hits!.length > 0);
        assert.ok(
            named.hits!.every((h) => h.path.startsWith("sources/")),
            named.hits!.map((h) => h.path).join(", "),
        );
        fs.writeFileSync(path.join(root, "sourcecheck.config.json"), "{}\n");
        const everything = await find(1);
        assert.ok(
            everything.hits!.some((h) => h.path === "README.md"),
            `without sources the README is searched: ${everything.hits!.map((h) => h.path).join(", ")}`,
        );
    });

    it("answers ok: false for a claim that is missing", async () => {
        const result = await find(999);
        assert.equal(result.ok, false);
        assert.match(result.message!, /no claim/);
    });
});
