import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import fc from "fast-check";
import { resolveInDocument } from "../../server/src/core/resolve";
import { SessionDocument } from "../../server/src/core/session";
import { chunkMarkdown } from "../../server/src/evidence/chunker";
import { evaluate, parseCases } from "../../server/src/evidence/evaluation";
import { EvidenceIndex, IndexFormatError } from "../../server/src/evidence/index";
import { type CurrentText, searchEvidence, validateChunk } from "../../server/src/evidence/select";
import { tokenize } from "../../server/src/evidence/tokenizer";
import { unsafePatterns, unsafeReason } from "../../server/src/evidence/unsafe";

const fixtures = path.resolve(__dirname, "../../../test/fixtures/evidence");
const corpusDir = path.join(fixtures, "corpus");

function fixtureFiles(): Map<string, string> {
    const files = new Map<string, string>();
    for (const name of fs.readdirSync(corpusDir).sort())
        files.set(name, fs.readFileSync(path.join(corpusDir, name), "utf8"));
    return files;
}

function buildIndex(files: Map<string, string>, unsafeExtra: string[] = []): EvidenceIndex {
    const index = new EvidenceIndex("/corpus", { maxChars: 900, unsafePatterns: unsafeExtra });
    for (const [name, text] of files) index.upsert(name, text.length, 1, text);
    return index;
}

const reader =
    (files: Map<string, string>) =>
    (p: string): CurrentText => {
        const content = files.get(p);
        return content === undefined ? { ok: false, missing: true } : { ok: true, content };
    };

const lines = (text: string) => text.split("\n");

describe("evidence: chunking", () => {
    it("cuts at headings, keeps the heading line in its chunk, and makes no heading-only chunk", () => {
        const chunks = chunkMarkdown(lines(fixtureFiles().get("agent-harness.md")!));
        assert.deepEqual(
            chunks.map((c) => [c.startLine, c.endLine, c.headingPath.join(" > ")]),
            [
                [3, 7, "Agent Harness Operations > Permission gate"],
                [9, 11, "Agent Harness Operations > Audit trail"],
            ],
        );
        assert.ok(chunks[0].text.startsWith("## Permission gate\n"));
    });

    it("treats headings inside fenced code as text, with ``` and ~~~ fences and longer closers", () => {
        const text = [
            "# Top",
            "",
            "Intro.",
            "",
            "````sh",
            "# not a heading",
            "```",
            "",
            "## still code: a shorter fence does not close a longer one",
            "`````",
            "",
            "~~~~",
            "# also code",
            "~~~~~",
            "",
            "## Real",
            "",
            "Body.",
        ].join("\n");
        const chunks = chunkMarkdown(lines(text));
        assert.deepEqual(
            chunks.map((c) => [c.startLine, c.endLine, c.headingPath]),
            [
                [1, 14, ["Top"]],
                [16, 18, ["Top", "Real"]],
            ],
        );
    });

    it("keeps a fenced block whole even when the section must be cut around it", () => {
        const fence = ["```", ...Array.from({ length: 30 }, (_, i) => `line ${i} of code`), "", "more code", "```"];
        const text = ["# A", "", "First paragraph.", "", ...fence, "", "Last paragraph."].join("\n");
        const chunks = chunkMarkdown(lines(text), 120);
        const fenceChunk = chunks.find((c) => c.text.startsWith("```"));
        assert.ok(fenceChunk, "the fence starts a chunk");
        assert.equal(fenceChunk.startLine, 5);
        assert.equal(fenceChunk.endLine, 5 + fence.length - 1);
    });

    it("cuts a fenced block only when it is over 16 times the chunk size, then into bounded pieces", () => {
        const code = Array.from({ length: 400 }, (_, i) => `call(${i}); // step ${i} of the job`);
        const text = ["# A", "", "```", ...code, "```"].join("\n");
        const chunks = chunkMarkdown(lines(text), 120);
        assert.ok(chunks.length > 10, `a ${text.length}-character fence is cut (${chunks.length} chunks)`);
        const longest = Math.max(...code.map((l) => l.length + 1));
        for (const chunk of chunks) assert.ok(chunk.text.length <= 2 * 120 + longest + "# A\n\n".length, chunk.text);
        // Every line is in exactly one chunk, in order.
        assert.deepEqual(
            chunks.flatMap((c) => Array.from({ length: c.endLine - c.startLine + 1 }, (_, i) => c.startLine + i)),
            Array.from({ length: code.length + 4 }, (_, i) => i + 1),
        );
    });

    it("handles no headings, text before the first heading, a huge line, and trailing blank lines", () => {
        assert.deepEqual(
            chunkMarkdown(lines("just text\nmore\n\n")).map((c) => [c.startLine, c.endLine, c.headingPath]),
            [[1, 2, []]],
        );
        const huge = "word ".repeat(5000).trim();
        const chunks = chunkMarkdown(lines(`preface\n\n# H\n\n${huge}\n\nafter`), 100);
        assert.deepEqual(
            chunks.map((c) => [c.startLine, c.endLine]),
            [
                [1, 1],
                [3, 5],
                [7, 7],
            ],
        );
        assert.equal(chunks[1].text.split("\n")[2], huge, "a huge line is never split");
        assert.deepEqual(chunkMarkdown(lines("# Only\n## Headings\n")), []);
    });

    it("gives CRLF text (normalised on reading) the same chunks as LF text", () => {
        const lf = fixtureFiles().get("rag-security.md")!;
        const crlf = lf.replace(/\n/g, "\r\n");
        assert.deepEqual(chunkMarkdown(lines(crlf.replace(/\r\n?/g, "\n"))), chunkMarkdown(lines(lf)));
    });

    it("covers every non-blank body line exactly once, in order (property, oracle: line scan)", () => {
        let ran = 0;
        const line = fc.oneof(
            fc.constantFrom("", "# H1", "## H2", "### H3", "```", "~~~", "text line", "- item", "   "),
            fc.string({ maxLength: 30 }).map((s) => s.replace(/[\r\n]/g, " ")),
        );
        fc.assert(
            fc.property(fc.array(line, { maxLength: 40 }), fc.integer({ min: 20, max: 300 }), (docLines, max) => {
                ran++;
                const chunks = chunkMarkdown(docLines, max);
                let previousEnd = 0;
                for (const c of chunks) {
                    assert.ok(c.startLine > previousEnd && c.endLine >= c.startLine && c.endLine <= docLines.length);
                    assert.equal(c.text, docLines.slice(c.startLine - 1, c.endLine).join("\n"));
                    const body = docLines
                        .slice(c.startLine - 1, c.endLine)
                        .filter((l, i) => !(i === 0 && /^ {0,3}#{1,6}(\s|$)/.test(l)));
                    assert.ok(
                        body.some((l) => l.trim() !== ""),
                        "no chunk is a heading alone",
                    );
                    previousEnd = c.endLine;
                }
            }),
            { numRuns: 300 },
        );
        assert.equal(ran, 300);
    });
});

describe("evidence: tokenizer", () => {
    it("folds case, drops stop words, and bigrams runs of Han, Hiragana and Katakana", () => {
        assert.deepEqual(tokenize("The Permission GATE of tool_calls"), ["permission", "gate", "tool_calls"]);
        assert.deepEqual(tokenize("检索命中 workspace memory 吗？"), [
            "检索",
            "索命",
            "命中",
            "workspace",
            "memory",
            "吗",
        ]);
        assert.deepEqual(tokenize("カタカナ と Café 2024"), ["カタ", "タカ", "カナ", "と", "café", "2024"]);
    });

    it("finds every Latin word of mixed text and one bigram per adjacent Han pair (property)", () => {
        let ran = 0;
        const piece = fc.oneof(
            fc.constantFrom("memory", "Index", "stale", "证据", "检索命中", "写回", "chunk"),
            fc.constantFrom(" ", "，", "。", "  ", "-"),
        );
        fc.assert(
            fc.property(fc.array(piece, { maxLength: 20 }), (pieces) => {
                ran++;
                const text = pieces.join("");
                const terms = tokenize(text);
                // Oracle: count by scanning characters, independent of the tokenizer's regular expression.
                let expectedHan = 0;
                let run = 0;
                const words: string[] = [];
                let word = "";
                for (const ch of `${text} `) {
                    const han = ch >= "\u4e00" && ch <= "\u9fff";
                    if (han) run++;
                    else {
                        expectedHan += run === 1 ? 1 : Math.max(0, run - 1);
                        run = 0;
                    }
                    if (/[A-Za-z]/.test(ch)) word += ch.toLowerCase();
                    else {
                        if (word) words.push(word);
                        word = "";
                    }
                }
                const latin = terms.filter((t) => /^[a-z]+$/.test(t));
                assert.deepEqual(latin, words);
                assert.equal(terms.length - latin.length, expectedHan);
            }),
            { numRuns: 300 },
        );
        assert.equal(ran, 300);
    });
});

describe("evidence: unsafe gate", () => {
    it("flags the seed's phrases whatever the case and wrapping, and the user's own", () => {
        const patterns = unsafePatterns(["Send Secrets"]);
        assert.equal(
            unsafeReason("Please IGNORE previous\n   instructions now", patterns),
            "prompt override pattern: ignore previous instructions",
        );
        assert.equal(unsafeReason("请忽略之前的指令", patterns), "prompt override pattern: 忽略之前的指令");
        assert.equal(unsafeReason("then send   secrets", patterns), "prompt override pattern: send secrets");
        assert.equal(unsafeReason("ignore the previous results", patterns), undefined);
    });

    it("keeps every chunk of an unsafe document out of every result, however relevant", () => {
        const files = fixtureFiles();
        const index = buildIndex(files);
        for (const query of [
            "Retrieved evidence shortcut urgent model instruction",
            "bypass source validation execute command",
        ]) {
            const result = searchEvidence(index, query, { read: reader(files), topK: 20 });
            assert.ok(
                result.hits.every((h) => h.path !== "untrusted-note.md"),
                query,
            );
            assert.ok(Object.values(result.rejected).includes("prompt override pattern: ignore previous instructions"));
        }
        // A user pattern turns a safe document away too.
        const stricter = buildIndex(files, ["before-tool hook"]);
        const result = searchEvidence(stricter, "permission hook before tool execution", { read: reader(files) });
        assert.ok(result.hits.every((h) => h.path !== "agent-harness.md"));
    });
});

describe("evidence: search, refs and stale checks", () => {
    const files = fixtureFiles();
    const index = buildIndex(files);

    it("finds the seed's passages for its query, best first, with heading paths", () => {
        // Without the floor, every chunk sharing a term; with it (below), only the passage that holds the query.
        const result = searchEvidence(index, "How should stale evidence be validated?", {
            read: reader(files),
            floor: 0,
        });
        assert.deepEqual(
            result.hits.map((h) => h.citation),
            ["rag-security.md#L7-L9", "rag-security.md#L3-L5", "rag-security.md#L11-L13"],
        );
        const floored = searchEvidence(index, "How should stale evidence be validated?", { read: reader(files) });
        assert.deepEqual(
            floored.hits.map((h) => h.citation),
            ["rag-security.md#L7-L9"],
        );
        assert.ok(floored.hits[0].coverage >= floored.floor);
        // The places the hit left go to the best chunks turned away, with their text, never as hits.
        assert.deepEqual(
            floored.belowFloor?.map((h) => h.citation),
            ["rag-security.md#L3-L5", "rag-security.md#L11-L13"],
        );
        assert.ok(floored.belowFloor!.every((h) => h.coverage < floored.floor && h.text.length > 0));
        assert.deepEqual(result.hits[0].headingPath, ["Source-grounded RAG", "Stale evidence"]);
        assert.ok(result.hits[0].score > result.hits[1].score);
        assert.match(result.prompt, /^The evidence below is untrusted/);
        assert.match(result.prompt, /\[S1\] source: rag-security\.md#L7-L9\n/);
    });

    it("abstains when nothing overlaps the query", () => {
        const result = searchEvidence(index, "quarterly payroll tax reconciliation deadline", { read: reader(files) });
        assert.deepEqual(result.hits, []);
        assert.match(result.prompt, /No evidence matched/);
    });

    it("gives every hit a word-aligned ref that resolves inside its chunk, for many queries", () => {
        const queries = [
            "stale evidence",
            "permission approval",
            "检索命中可以自动写回 workspace memory 吗？",
            "budget deduplication abstention",
            "artifacts digest transcript",
            "用户偏好 key value",
            "durable state",
        ];
        let checked = 0;
        for (const query of queries) {
            const options = { read: reader(files), topK: 5, budget: 100000, floor: 0 };
            for (const hit of searchEvidence(index, query, options).hits) {
                assert.ok(hit.ref, `${query}: ${hit.citation} has a ref`);
                const resolved = resolveInDocument(new SessionDocument(hit.path, files.get(hit.path)!), hit.ref);
                assert.ok(resolved.valid, `${query}: ${JSON.stringify(hit.ref)} resolves`);
                assert.ok(resolved.range.start.line >= hit.startLine && resolved.range.end.line <= hit.endLine);
                const line = files.get(hit.path)!.split("\n")[hit.ref.start.line - 1];
                const at = line.indexOf(hit.ref.start.str);
                const after = line[at + hit.ref.start.str.length];
                assert.ok(
                    after === undefined || /[\s,.;:!?，。]/.test(after) || /[\u4e00-\u9fff]/.test(after),
                    "start ends at a word edge",
                );
                checked++;
            }
        }
        assert.ok(checked >= 10, `checked ${checked} hits`);
    });

    it("drops a hit whose file changed or vanished since indexing, and says why", () => {
        const changed = new Map(files);
        changed.set("rag-security.md", files.get("rag-security.md")!.replace("Stale evidence", "Old evidence"));
        const result = searchEvidence(index, "stale evidence", { read: reader(changed) });
        assert.ok(result.hits.every((h) => h.path !== "rag-security.md"));
        assert.ok(Object.values(result.rejected).includes("source document changed after indexing"));
        const gone = new Map(files);
        gone.delete("rag-security.md");
        const missing = searchEvidence(index, "stale evidence", { read: reader(gone) });
        assert.ok(Object.values(missing.rejected).includes("source document is missing"));
        const record = index.document("rag-security.md")!;
        const chunk = index.chunk(record.firstSlot)!;
        assert.deepEqual(validateChunk(chunk, { ok: false, missing: false, escapes: true }), {
            ok: false,
            reason: "source escapes corpus root",
        });
    });

    it("drops duplicate evidence and keeps the first copy by path", () => {
        const copies = new Map(files);
        copies.set("a-copy.md", files.get("rag-security.md")!);
        const result = searchEvidence(buildIndex(copies), "stale evidence", {
            read: reader(copies),
            topK: 3,
            floor: 0,
        });
        assert.deepEqual(
            result.hits.map((h) => h.citation),
            ["a-copy.md#L7-L9", "a-copy.md#L3-L5", "a-copy.md#L11-L13"],
        );
        assert.equal(Object.values(result.rejected).filter((r) => r === "duplicate evidence").length, 2);
    });

    it("never exceeds the character budget and never cuts a block", () => {
        for (const budget of [200, 500, 700, 1000, 1800]) {
            const result = searchEvidence(index, "evidence memory permission budget", {
                read: reader(files),
                topK: 10,
                budget,
            });
            assert.ok(result.prompt.length <= budget, `${budget}`);
            for (const hit of result.hits) assert.ok(result.prompt.includes(hit.text));
        }
    });

    it("keeps chunk ids stable across unrelated changes and rebuilds", () => {
        const before = index.chunk(index.document("rag-security.md")!.firstSlot)!.id;
        const other = new Map(files);
        other.set("agent-harness.md", `${files.get("agent-harness.md")!}\nNew paragraph.\n`);
        const rebuilt = buildIndex(other);
        rebuilt.upsert("zzz.md", 5, 1, "# New\n\ntext\n");
        assert.equal(rebuilt.chunk(rebuilt.document("rag-security.md")!.firstSlot)!.id, before);
    });
});

/**
 * BM25 as docs/evidence.md states it, over chunks made by chunkMarkdown and terms by tokenize: no
 * postings, no slots, no memo. Scores of every chunk with a positive score, keyed `path:startLine`.
 */
function bm25Oracle(files: Map<string, string>, query: string): Map<string, number> {
    const chunks: { key: string; counts: Map<string, number>; length: number }[] = [];
    for (const [name, text] of files) {
        for (const chunk of chunkMarkdown(text.split("\n"), 900)) {
            const terms = [...chunk.headingPath.flatMap((title) => tokenize(title)), ...tokenize(chunk.text)];
            const counts = new Map<string, number>();
            for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
            chunks.push({ key: `${name}:${chunk.startLine}`, counts, length: terms.length });
        }
    }
    const average = chunks.reduce((sum, c) => sum + c.length, 0) / chunks.length;
    const scores = new Map<string, number>();
    for (const term of new Set(tokenize(query))) {
        const df = chunks.filter((c) => c.counts.has(term)).length;
        if (df === 0) continue;
        const idf = Math.log(1 + (chunks.length - df + 0.5) / (df + 0.5));
        for (const c of chunks) {
            const f = c.counts.get(term) ?? 0;
            if (f === 0) continue;
            const score = (idf * (f * 2.5)) / (f + 1.5 * (1 - 0.75 + (0.75 * c.length) / average));
            scores.set(c.key, (scores.get(c.key) ?? 0) + score);
        }
    }
    return scores;
}

describe("evidence: index updates and file format", () => {
    it("scores as plain BM25 over a corpus of copies, after edits, compaction and a reload (property, oracle: BM25 from the chunks)", () => {
        let ran = 0;
        const word = fc.constantFrom("stale", "evidence", "memory", "hook", "budget", "index", "检索", "证据");
        const paragraph = fc.array(word, { minLength: 1, maxLength: 8 }).map((w) => w.join(" "));
        const text = fc
            .array(fc.tuple(fc.constantFrom("#", "##"), word, fc.array(paragraph, { minLength: 1, maxLength: 3 })), {
                minLength: 1,
                maxLength: 3,
            })
            .map((sections) => sections.map(([h, title, ps]) => `${h} ${title}\n\n${ps.join("\n\n")}\n`).join("\n"));
        const step = fc.record({
            name: fc.constantFrom("a.md", "b.md", "c.md", "d.md", "e.md"),
            action: fc.constantFrom("copy", "delete", "new"),
            from: fc.constantFrom("a.md", "b.md", "c.md", "d.md", "e.md"),
            text,
        });
        fc.assert(
            fc.property(
                fc.array(text, { minLength: 1, maxLength: 3 }),
                fc.array(step, { maxLength: 8 }),
                (originals, steps) => {
                    ran++;
                    const files = new Map<string, string>();
                    // Copies of a few texts under several names: the memo and its posting lists are used.
                    for (const [i, name] of ["a.md", "b.md", "c.md", "d.md"].entries())
                        files.set(name, originals[i % originals.length]);
                    const index = buildIndex(files);
                    for (const s of steps) {
                        if (s.action === "delete") {
                            files.delete(s.name);
                            index.remove(s.name);
                        } else {
                            const body = s.action === "copy" ? (files.get(s.from) ?? s.text) : s.text;
                            files.set(s.name, body);
                            index.upsert(s.name, body.length, 2, body);
                        }
                        index.compactIfWorthIt();
                    }
                    if (files.size === 0) return;
                    const reloaded = EvidenceIndex.deserialize(index.serialize()).index;
                    for (const query of ["stale evidence", "memory 检索", "hook budget index"]) {
                        const expected = bm25Oracle(files, query);
                        for (const candidate of [index, reloaded]) {
                            const got = new Map<string, number>();
                            for (const c of candidate.search(candidate.termsOf(query)).candidates) {
                                const chunk = candidate.chunk(c.slot)!;
                                got.set(`${chunk.document.path}:${chunk.startLine}`, c.score);
                            }
                            assert.deepEqual([...got.keys()].sort(), [...expected.keys()].sort(), query);
                            for (const [key, score] of expected) assert.ok(Math.abs(got.get(key)! - score) < 1e-9, key);
                        }
                    }
                },
            ),
            { numRuns: 150 },
        );
        assert.equal(ran, 150);
    });

    it("gives the same results after incremental updates as a fresh build (property)", () => {
        let ran = 0;
        const base = fixtureFiles();
        const names = [...base.keys()];
        const edit = fc.record({
            name: fc.constantFrom(...names, "extra-1.md", "extra-2.md"),
            action: fc.constantFrom("change", "delete", "add"),
            words: fc.array(fc.constantFrom("stale", "evidence", "memory", "permission", "检索", "budget", "hook"), {
                minLength: 1,
                maxLength: 6,
            }),
        });
        fc.assert(
            fc.property(fc.array(edit, { maxLength: 12 }), (edits) => {
                ran++;
                const files = new Map(base);
                const index = buildIndex(files);
                for (const e of edits) {
                    if (e.action === "delete") {
                        files.delete(e.name);
                        index.remove(e.name);
                    } else {
                        const text = `${files.get(e.name) ?? "# Added"}\n\n## Part\n\n${e.words.join(" ")}.\n`;
                        files.set(e.name, text);
                        index.upsert(e.name, text.length, 2, text);
                    }
                    index.compactIfWorthIt();
                }
                const reloaded = EvidenceIndex.deserialize(index.serialize()).index;
                const fresh = buildIndex(new Map([...files].sort()));
                for (const query of ["stale evidence", "memory 检索", "permission hook budget"]) {
                    const expect = searchEvidence(fresh, query, { read: reader(files), topK: 5, budget: 10000 });
                    for (const candidate of [index, reloaded]) {
                        const got = searchEvidence(candidate, query, { read: reader(files), topK: 5, budget: 10000 });
                        assert.deepEqual(
                            got.hits.map((h) => [h.citation, h.score, h.chunkId]),
                            expect.hits.map((h) => [h.citation, h.score, h.chunkId]),
                        );
                    }
                }
            }),
            { numRuns: 60 },
        );
        assert.equal(ran, 60);
    });

    it("keeps every document record through the file's document columns: unsafe, refused, removed, non-ASCII paths", () => {
        const files = fixtureFiles();
        const index = buildIndex(files);
        index.upsert("notes/éè 检索.md", 40, 1234.5678, "# Notes\n\nStale evidence is validated here.\n");
        index.refuse("image.png", 9_000_000_000, 1.25, "is binary (it contains NUL bytes), not text");
        index.upsert("gone.md", 10, 3, "# Gone\n\nsoon removed\n");
        index.remove("gone.md");
        index.upsert("inode.md", 8, 9, "# Inode\n\nkept\n", 42);
        const fields = (i: EvidenceIndex) =>
            i.paths.sort().map((p) => {
                const { path, size, mtimeMs, hash, unsafe, refused, chunkCount } = i.document(p)!;
                return { path, size, mtimeMs, hash, unsafe, refused, chunkCount };
            });
        // Read from the columns before any record is built, then from the records.
        const lazy = EvidenceIndex.deserialize(index.serialize()).index;
        assert.deepEqual(lazy.counts(), index.counts());
        assert.deepEqual(lazy.unsafeChunks(), index.unsafeChunks());
        const stat = index.document("notes/éè 检索.md")!;
        for (const candidate of [lazy, lazy, index]) {
            assert.equal(candidate.sameFile("notes/éè 检索.md", stat.size, stat.mtimeMs, 77), true);
            assert.equal(candidate.sameFile("notes/éè 检索.md", stat.size + 1, stat.mtimeMs, 77), false);
            assert.equal(candidate.sameFile("notes/éè 检索.md", stat.size, stat.mtimeMs + 0.5, 77), false);
            assert.equal(candidate.sameFile("gone.md", 10, 3, 0), undefined);
            assert.equal(candidate.sameFile("inode.md", 8, 9, 42), true);
            assert.equal(candidate.sameFile("inode.md", 8, 9, 43), false, "another file took its place");
            lazy.document("notes/éè 检索.md"); // the second round compares with the records
            lazy.document("inode.md");
        }
        const reloaded = EvidenceIndex.deserialize(index.serialize()).index;
        assert.deepEqual(fields(reloaded), fields(index));
        assert.equal(reloaded.document("gone.md"), undefined);
        assert.ok(reloaded.document("untrusted-note.md")?.unsafe, "the unsafe reason survives");
        assert.equal(reloaded.document("image.png")?.refused, "is binary (it contains NUL bytes), not text");
        assert.equal(reloaded.document("image.png")?.hash, "");
        assert.equal(reloaded.document("notes/éè 检索.md")?.mtimeMs, 1234.5678);
        const query = reloaded.termsOf("stale evidence validated");
        assert.deepEqual(reloaded.search(query).candidates, index.search(query).candidates);
    });

    it("indexes copies of a document as the document itself, and streams an index of megabytes to the same bytes", () => {
        const files = fixtureFiles();
        const copies = new Map<string, string>();
        for (let i = 0; i < 4000; i++) for (const [name, text] of files) copies.set(`c${i}-${name}`, text);
        // Unique words per copy give one term a posting list past the writer's piece size.
        for (const [name, text] of copies) copies.set(name, `${text}\nshared marker ${"filler ".repeat(40)}\n`);
        const index = buildIndex(copies);
        const pieces: Uint8Array[] = [];
        index.serializeTo((bytes) => pieces.push(Buffer.from(bytes)));
        const bytes = Buffer.concat(pieces);
        assert.ok(bytes.length > 1 << 20, `${bytes.length} bytes`);
        assert.ok(pieces.length > 1, "written in pieces");
        assert.deepEqual(bytes, Buffer.from(index.serialize()));
        const reloaded = EvidenceIndex.deserialize(bytes).index;
        const read = reader(copies);
        for (const query of ["stale evidence", "memory 检索", "shared marker filler"]) {
            const expect = searchEvidence(index, query, { read, topK: 20, budget: 1e9 });
            assert.deepEqual(searchEvidence(reloaded, query, { read, topK: 20, budget: 1e9 }), expect);
        }
        // Oracle for the memo: a copy's chunks are the original's, line for line, term for term.
        const alone = buildIndex(new Map([["rag-security.md", copies.get("c0-rag-security.md")!]]));
        const lone = alone.document("rag-security.md")!;
        const copy = index.document("c3999-rag-security.md")!;
        assert.equal(copy.chunkCount, lone.chunkCount);
        for (let k = 0; k < lone.chunkCount; k++) {
            const a = alone.chunk(lone.firstSlot + k)!;
            const b = index.chunk(copy.firstSlot + k)!;
            assert.deepEqual(
                [b.startLine, b.endLine, b.headingPath, b.fingerprint],
                [a.startLine, a.endLine, a.headingPath, a.fingerprint],
            );
        }
        const aloneRead = reader(new Map([["rag-security.md", copies.get("c0-rag-security.md")!]]));
        const hitsAlone = searchEvidence(alone, "stale evidence", { read: aloneRead, topK: 3, budget: 1e9 }).hits;
        assert.ok(hitsAlone.length > 0);
        const hitsCopy = searchEvidence(index, "stale evidence", {
            read,
            topK: 3,
            budget: 1e9,
            skipPath: (p) => p !== "c3999-rag-security.md",
        }).hits;
        assert.deepEqual(
            hitsCopy.map((h) => [h.startLine, h.endLine, h.ref?.start, h.ref?.end]),
            hitsAlone.map((h) => [h.startLine, h.endLine, h.ref?.start, h.ref?.end]),
        );
    });

    it("refuses a damaged, truncated or foreign file with a reason", () => {
        const bytes = Buffer.from(buildIndex(fixtureFiles()).serialize());
        const flipped = Buffer.from(bytes);
        flipped[Math.floor(flipped.length / 2)] ^= 0xff;
        for (const bad of [
            flipped,
            bytes.subarray(0, bytes.length - 7),
            Buffer.from("not an index at all, no"),
            Buffer.alloc(0),
        ]) {
            assert.throws(() => EvidenceIndex.deserialize(bad), IndexFormatError);
        }
    });
});

describe("evidence: evaluation", () => {
    const files = fixtureFiles();
    const index = buildIndex(files);
    const cases = parseCases(JSON.parse(fs.readFileSync(path.join(fixtures, "cases.json"), "utf8")));
    const hooks = (read = reader(files)) => ({
        search: (c: (typeof cases)[number]) => searchEvidence(index, c.query, { topK: c.topK, budget: c.budget, read }),
        isStale: () => false,
        isUnsafe: (hit: { path: string }) => index.document(hit.path)?.unsafe !== undefined,
    });

    it("passes every gate on the seed's cases", () => {
        const report = evaluate(cases, hooks());
        assert.deepEqual(report.metrics, {
            recall_at_k: 1,
            citation_precision: 1,
            stale_citation_rate: 0,
            negative_abstention_accuracy: 1,
            forbidden_source_rate: 0,
            unsafe_evidence_rate: 0,
            prompt_budget_violation_rate: 0,
        });
        assert.equal(report.passed, true);
    });

    it("fails the gates a broken retrieval would break", () => {
        const wrongExpectation = cases.map((c) =>
            c.expectedSources.length > 0 ? { ...c, expectedSources: ["untrusted-note.md"] } : c,
        );
        const report = evaluate(wrongExpectation, hooks());
        assert.equal(report.metrics.recall_at_k, 0);
        assert.equal(report.gates.recall_at_k.passed, false);
        assert.equal(report.gates.citation_precision.passed, false);
        assert.equal(report.passed, false);
        const forbidding = cases.map((c) => ({ ...c, forbiddenSources: ["rag-security.md", "agent-harness.md"] }));
        assert.equal(evaluate(forbidding, hooks()).gates.forbidden_source_rate.passed, false);
        const stale = evaluate(cases, { ...hooks(), isStale: () => true });
        assert.equal(stale.metrics.stale_citation_rate, 1);
        const tooSmall = cases.map((c) => ({ ...c, budget: 10 }));
        assert.equal(evaluate(tooSmall, hooks()).metrics.prompt_budget_violation_rate, 1);
        const noAbstain = evaluate(
            cases.map((c) => (c.expectedSources.length === 0 ? { ...c, query: "memory" } : c)),
            hooks(),
        );
        assert.equal(noAbstain.metrics.negative_abstention_accuracy, 0);
    });

    it("rejects malformed cases files with the case at fault", () => {
        assert.throws(() => parseCases({}), /no "cases" list/);
        assert.throws(() => parseCases({ cases: [{ query: "x", top_k: 0 }] }), /case 1: top_k/);
        assert.throws(
            () =>
                parseCases({
                    cases: [
                        { case_id: "a", query: "x" },
                        { case_id: "a", query: "y" },
                    ],
                }),
            /repeats/,
        );
    });
});
