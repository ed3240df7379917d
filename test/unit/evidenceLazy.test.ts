import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import fc from "fast-check";
import { EvidenceIndex, type IndexFile, IndexFormatError } from "../../server/src/evidence/index";
import { type CurrentText, searchEvidence } from "../../server/src/evidence/select";
import { searchCorpus } from "../../server/src/workspace/evidenceSearch";
import { openIndex } from "../../server/src/workspace/evidenceStore";

const WORDS = ["stale", "evidence", "memory", "permission", "hook", "budget", "index", "检索", "记忆", "validated"];

/** An in-memory index file that counts the bytes read after its first opening (the postings read). */
function memoryFile(bytes: Buffer): { open: IndexFile; postingsRead: () => number } {
    let opened = 0;
    let read = 0;
    const open: IndexFile = () => {
        opened++;
        return {
            size: bytes.length,
            read: (position, length) => {
                if (position + length > bytes.length) throw new IndexFormatError("it is truncated");
                if (opened > 1) read += length;
                return bytes.subarray(position, position + length);
            },
            close: () => {},
        };
    };
    return { open, postingsRead: () => read };
}

const reader =
    (files: Map<string, string>) =>
    (p: string): CurrentText =>
        files.has(p) ? { ok: true, content: files.get(p)! } : { ok: false, missing: true };

const hitsOf = (index: EvidenceIndex, query: string, files: Map<string, string>) => {
    const result = searchEvidence(index, query, { read: reader(files), topK: 5, budget: 1e9 });
    return { hits: result.hits.map((h) => [h.citation, h.score, h.chunkId]), rejected: result.rejected };
};

describe("evidence: an index read in part", () => {
    it("gives the same hits as the index read whole, before and after updates (property)", () => {
        let ran = 0;
        let partial = 0;
        const text = fc
            .array(fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 4 })
            .map((paragraphs) => `# Title\n\n${paragraphs.map((p) => p.join(" ")).join("\n\n## Part\n\n")}\n`);
        const name = fc.constantFrom("a.md", "b.md", "c.md", "d.md", "e.md", "f.md");
        const query = fc
            .array(fc.constantFrom(...WORDS, "absent"), { minLength: 1, maxLength: 4 })
            .map((w) => w.join(" "));
        const step = fc.record({ remove: fc.boolean(), name, text });
        fc.assert(
            fc.property(
                fc.array(fc.tuple(name, text), { minLength: 1, maxLength: 6 }),
                fc.array(query, { minLength: 1, maxLength: 4 }),
                fc.array(step, { maxLength: 4 }),
                (initial, queries, steps) => {
                    ran++;
                    const files = new Map(initial);
                    const built = new EvidenceIndex("/corpus", { maxChars: 120, unsafePatterns: [] });
                    for (const [n, t] of files) built.upsert(n, t.length, 1, t);
                    const bytes = Buffer.from(built.serialize());
                    const whole = EvidenceIndex.deserialize(bytes).index;
                    const file = memoryFile(bytes);
                    const lazy = EvidenceIndex.open(file.open).index;
                    for (const q of queries) assert.deepEqual(hitsOf(lazy, q, files), hitsOf(whole, q, files), q);
                    const all = memoryFile(bytes);
                    EvidenceIndex.open(all.open).index.readAllPostings();
                    if (file.postingsRead() < all.postingsRead()) partial++;
                    // The changes a warm run re-does: the lazy index reads the lists it appends to.
                    for (const s of steps) {
                        for (const index of [whole, lazy]) {
                            if (s.remove) index.remove(s.name);
                            else index.upsert(s.name, s.text.length, 2, s.text);
                        }
                        if (s.remove) files.delete(s.name);
                        else files.set(s.name, s.text);
                    }
                    for (const q of queries) assert.deepEqual(hitsOf(lazy, q, files), hitsOf(whole, q, files), q);
                    // Written again, the lazy index holds every list: the same results as the whole one.
                    const rewritten = EvidenceIndex.deserialize(lazy.serialize()).index;
                    for (const q of queries) assert.deepEqual(hitsOf(rewritten, q, files), hitsOf(whole, q, files), q);
                },
            ),
            { numRuns: 200 },
        );
        assert.equal(ran, 200);
        assert.ok(partial > 100, `most runs read part of the file (${partial} of ${ran})`);
    });

    it("finds damaged postings when a query reads them, and the search rebuilds the index with a warning", () => {
        const root = fs.mkdtempSync(path.join(os.tmpdir(), "sourcecheck-lazy-"));
        const corpus = path.join(root, "corpus");
        fs.mkdirSync(corpus);
        fs.writeFileSync(path.join(corpus, "a.md"), "# Stale\n\nStale evidence must be validated again.\n");
        fs.writeFileSync(path.join(corpus, "b.md"), "# Memory\n\nMemory is written back.\n");
        const indexDir = path.join(root, "index");
        const request = { query: "stale evidence", indexDir, readWholeUpTo: 0 };
        const first = searchCorpus(corpus, corpus, request);
        assert.equal(first.answer.hits[0].path, "a.md");
        const indexFile = first.opened.indexFile;
        const bytes = fs.readFileSync(indexFile);
        bytes[bytes.length - 3] ^= 0x55; // inside the last term's postings
        fs.writeFileSync(indexFile, bytes);
        // Opening reads the front only: no damage seen yet.
        assert.deepEqual(openIndex(corpus, indexDir, { readWholeUpTo: 0 }).warnings, []);
        // Opening whole checks every list.
        assert.match(openIndex(corpus, indexDir, { readWholeUpTo: 0, wholeIndex: true }).warnings.join(), /checksum/);
        fs.writeFileSync(indexFile, bytes);
        const words = ["stale", "evidence", "validated", "memory", "written", "back", "again"];
        const again = searchCorpus(corpus, corpus, { ...request, query: words.join(" "), floor: 0 });
        assert.match(again.opened.warnings.join(), /postings do not match their checksum.*rebuilding/);
        assert.deepEqual(again.answer.hits.map((h) => h.path).sort(), ["a.md", "b.md"], "the rebuilt index answers");
        assert.deepEqual(openIndex(corpus, indexDir, { wholeIndex: true }).warnings, [], "and is sound");
        fs.rmSync(root, { recursive: true, force: true });
    });
});
