import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { CancellationTokenSource } from "vscode-languageserver-protocol/node";
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

    /** `annotation` counted from 1, as the request takes it. */
    const find = (annotation: number, extra: object = {}) =>
        client.request<Found>("sourcecheck/findEvidence", { annotationUri: uri, annotation, indexDir, ...extra });

    it("searches the document root for a claim's text, never offering the claim's own document", async () => {
        const value = JSON.parse(client.text(uri)) as { annotations: { claim: { start: { str: string } } }[] };
        const index = value.annotations.findIndex((a) => a.claim.start.str === "offline sync");
        const result = await find(index + 1);
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
        const after = await find(2);
        assert.equal(after.hits![0].path, "sources/sync.md");
        const unsafe = await find(2, { unsafePatterns: ["is in 2.4"] });
        assert.ok(unsafe.hits!.every((h) => h.path !== "sources/sync.md"));
        fs.rmSync(path.join(root, "sources", "sync.md"));
        const gone = await find(2);
        assert.ok(gone.hits!.every((h) => h.path !== "sources/sync.md"));
        const onlyTxt = await find(2, { include: ["**/*.txt"] });
        assert.ok(onlyTxt.hits!.every((h) => h.path.endsWith(".txt")));
    });

    it("honours the sources of sourcecheck.config.json: the demo's README is never a hit, without the setting it is", async () => {
        const root = client.options.root;
        // Annotation 2's claim ("offline sync … clients.") is named in the README's table of claims.
        const named = await find(2);
        assert.equal(named.ok, true, named.message);
        assert.ok(named.hits!.length > 0);
        assert.ok(
            named.hits!.every((h) => h.path.startsWith("sources/")),
            named.hits!.map((h) => h.path).join(", "),
        );
        fs.writeFileSync(path.join(root, "sourcecheck.config.json"), "{}\n");
        const everything = await find(2);
        assert.ok(
            everything.hits!.some((h) => h.path === "README.md"),
            `without sources the README is searched: ${everything.hits!.map((h) => h.path).join(", ")}`,
        );
    });

    /** `count` small documents under sources/bulk, so a cold search reads them in several steps. */
    function bulkFiles(count: number): void {
        const folder = path.join(client.options.root, "sources", "bulk");
        fs.mkdirSync(folder, { recursive: true });
        for (let i = 1; i <= count; i++)
            fs.writeFileSync(path.join(folder, `note-${i}.md`), `# Note ${i}\n\nThe weather on day ${i} was mild.\n`);
    }

    type Progress = { token: string; value: { kind: string; message?: string; percentage?: number } };
    const progressOf = (token: string) => (client.progress as Progress[]).filter((p) => p.token === token);

    it("reports work done progress under the client's token: cancellable, files read, then the end", async () => {
        bulkFiles(600);
        const result = await find(2, { workDoneToken: "search-1" });
        assert.equal(result.ok, true, result.message);
        const kinds = progressOf("search-1").map((p) => p.value.kind);
        assert.equal(kinds[0], "begin");
        assert.equal(kinds.at(-1), "end");
        const begin = progressOf("search-1")[0].value as { cancellable?: boolean };
        assert.equal(begin.cancellable, true);
        const reads = progressOf("search-1")
            .map((p) => p.value.message ?? "")
            .filter((m) => / files read$/.test(m));
        // 600 files and the demo's, 256 a step: three steps, the last with every file.
        assert.equal(reads.length, 3, reads.join("; "));
        const [last, total] = reads.at(-1)!.match(/\d+/g)!.map(Number);
        assert.equal(last, total);
        assert.ok(total >= 600, reads.at(-1));
    });

    it("stops between steps when the request is cancelled: a cancelled answer, no progress after it, no index saved", async () => {
        bulkFiles(3000); // 12 steps: the cancel, sent at the first report, lands long before the last
        const source = new CancellationTokenSource();
        const answer = client.connection.sendRequest(
            "sourcecheck/findEvidence",
            { annotationUri: uri, annotation: 2, indexDir, workDoneToken: "search-2" },
            source.token,
        ) as Promise<Found & { cancelled?: boolean }>;
        await client.waitFor(
            () => progressOf("search-2").some((p) => p.value.kind === "report"),
            "a first progress report",
        );
        source.cancel();
        const result = await answer;
        const atAnswer = progressOf("search-2").length;
        assert.equal(result.ok, false);
        assert.equal(result.cancelled, true);
        assert.match(result.message!, /cancelled/);
        const reports = progressOf("search-2").filter((p) => p.value.kind === "report");
        const [done, total] = reports.at(-1)!.value.message!.match(/\d+/g)!.map(Number);
        assert.ok(done < total, `stopped at ${done} of ${total} files`);
        assert.equal(progressOf("search-2").at(-1)!.value.kind, "end");
        // A later message proves the server is idle; nothing more came for the cancelled search.
        await find(999);
        assert.equal(progressOf("search-2").length, atAnswer);
        // The index is saved only by a search that finished: this one never got there.
        assert.deepEqual(
            fs.readdirSync(indexDir).filter((n) => n.endsWith(".idx")),
            [],
        );
        // The next search reads what the cancelled one did not, and finds the claim's source.
        const again = await find(2);
        assert.equal(again.ok, true, again.message);
        assert.equal(again.hits![0].path, "sources/release-notes.md");
    });

    it("answers ok: false for a claim that is missing", async () => {
        const result = await find(999);
        assert.equal(result.ok, false);
        assert.match(result.message!, /annotation 999 has no claim/);
        // Counted from 1: 0 names no annotation, and the answer says how to count.
        const zero = await find(0);
        assert.equal(zero.ok, false);
        assert.match(zero.message!, /counted from 1/);
    });
});
