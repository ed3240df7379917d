/**
 * `sourcecheck evidence` as an agent uses it (docs/evidence.md, "For agents"): hits carry the text
 * their ref cites, the answer being written is never offered as its own source, every text file is
 * searched (binary refused), exclusions hold, and no hit is dropped by a budget the caller did not see.
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { resolveRef } from "../../server/src/core/resolve";
import { hitsWithText, type ShownHit } from "../../server/src/evidence/select";
import { DiskDocuments } from "../../server/src/workspace/diskDocuments";
import { CLAIMS, hitIsPassage, writeAnswerCorpus } from "./answerCorpus";
import { runCli } from "./cliRun";

function tempDir(): string {
    return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "sourcecheck-evidence-agents-")));
}

interface JsonHit {
    path: string;
    startLine: number;
    endLine: number;
    ref: { path: string; start: { line: number; str: string }; end: { line: number; str: string } } | null;
    text: string;
    sentence?: { index: number; length: number };
    chunkRef: { path: string; start: { line: number; str: string }; end: { line: number; str: string } } | null;
    textChars: number;
    truncated: boolean;
}

interface JsonAnswer {
    hits: JsonHit[];
    rejected: Record<string, string>;
    maxChars: number;
    truncatedHits: number;
    cutAt?: number;
    searched: { documents: number; refused: number; include: string[]; exclude: string[]; answers: string[] };
    message?: string;
}

function evidence(corpus: string, indexDir: string, query: string, ...more: string[]): JsonAnswer {
    const run = runCli(["evidence", "--json", "--corpus", corpus, "--index-dir", indexDir, "--query", query, ...more], {
        cwd: corpus,
    });
    assert.equal(run.status, 0, run.stderr);
    return JSON.parse(run.stdout) as JsonAnswer;
}

describe("sourcecheck evidence for agents", () => {
    it("on an answer that repeats its sources: every hit has its ref's text, the answer never comes back, the passage is in the top 3", () => {
        const root = tempDir();
        writeAnswerCorpus(root);
        const indexDir = tempDir();
        const disk = new DiskDocuments(root);
        let missed = 0;
        for (const claim of CLAIMS) {
            const answer = evidence(root, indexDir, claim.text, "--top-k", "5");
            assert.ok(answer.hits.length > 0, claim.text);
            for (const hit of answer.hits) {
                assert.notEqual(hit.path, "answer.md", `the answer came back for ${claim.text}`);
                assert.ok(!hit.path.endsWith(".sourcecheck.json"));
                assert.ok(hit.ref !== null);
                const resolved = resolveRef(disk, hit.ref);
                assert.ok(resolved.valid, JSON.stringify(hit));
                // The text is the chunk (it fits), the sentence inside it is what ref cites.
                const sentence = hit.sentence ?? { index: 0, length: hit.text.length };
                assert.equal(hit.text.substr(sentence.index, sentence.length), resolved.text);
                assert.ok(hit.chunkRef !== null);
                const chunk = resolveRef(disk, hit.chunkRef);
                assert.ok(chunk.valid);
                assert.equal(chunk.text, hit.text);
                assert.equal(hit.textChars, hit.text.length);
                assert.equal(hit.truncated, false);
            }
            assert.deepEqual(answer.searched.answers, ["answer.md"]);
            if (!answer.hits.slice(0, 3).some((hit) => hitIsPassage(hit, claim))) missed++;
        }
        assert.ok(missed <= 1, `${missed} of ${CLAIMS.length} claims without their passage in the top 3`);
    });

    it("names the answer's chunks it turned away in rejected", () => {
        const root = tempDir();
        writeAnswerCorpus(root);
        const answer = evidence(root, tempDir(), CLAIMS[0].text);
        assert.ok(Object.values(answer.rejected).some((reason) => reason.startsWith("the answer being written")));
    });

    it("searches .txt and .rst files, refuses binary ones, and skips lock, notes and trace files", () => {
        const root = tempDir();
        fs.writeFileSync(path.join(root, "plain.txt"), "Turbines spin at 14 revolutions per minute.\n");
        fs.writeFileSync(path.join(root, "guide.rst"), "Guide\n=====\n\nBlades are inspected every spring.\n");
        fs.writeFileSync(path.join(root, "image.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0, 0x74, 0x75]));
        fs.writeFileSync(path.join(root, "latin1.txt"), Buffer.from("Turbines caf\xe9 spin\n", "latin1"));
        const mention = "Turbines spin at 14 revolutions per minute.";
        fs.writeFileSync(path.join(root, "a.sourcecheck.lock.json"), JSON.stringify({ text: mention }));
        fs.writeFileSync(path.join(root, "run.trace.jsonl"), `${JSON.stringify({ text: mention })}\n`);
        fs.writeFileSync(path.join(root, "work.notes.md"), `claim: ${mention}\nquote: ${mention}\nurl: https://x\n`);
        const indexDir = tempDir();
        const spin = evidence(root, indexDir, "turbines spin revolutions", "--top-k", "20");
        assert.deepEqual(
            spin.hits.map((h) => h.path),
            ["plain.txt"],
        );
        const blades = evidence(root, indexDir, "blades inspected");
        assert.deepEqual(
            blades.hits.map((h) => h.path),
            ["guide.rst"],
        );
        assert.equal(blades.searched.documents, 2);
        assert.equal(blades.searched.refused, 2, "the PNG and the Latin-1 file");
        for (const glob of ["**/*.lock.json", "**/*.notes.md", "**/*.trace.jsonl", "**/*.sourcecheck.json"]) {
            assert.ok(blades.searched.exclude.includes(glob), glob);
        }
    });

    it("--exclude leaves files out, and an empty result says how many documents were searched with which patterns", () => {
        const root = tempDir();
        fs.mkdirSync(path.join(root, "drafts"));
        fs.writeFileSync(path.join(root, "drafts", "old.md"), "# Old\n\nThe pump failed twice in March.\n");
        fs.writeFileSync(path.join(root, "final.txt"), "Nothing about that here.\n");
        const indexDir = tempDir();
        const all = evidence(root, indexDir, "pump failed March");
        assert.deepEqual(
            all.hits.map((h) => h.path),
            ["drafts/old.md"],
        );
        const excluded = evidence(root, indexDir, "pump failed March", "--exclude", "drafts/**");
        assert.deepEqual(excluded.hits, []);
        assert.equal(excluded.searched.documents, 1);
        assert.ok(excluded.searched.exclude.includes("drafts/**"));
        // The JSON says it once and short: the patterns are in `searched`, not repeated in the message.
        assert.equal(excluded.message, "No evidence matched the query in 1 document.");
        const text = runCli(
            ["evidence", "--corpus", root, "--index-dir", indexDir, "--query", "pump", "--exclude", "drafts/**"],
            { cwd: root },
        );
        assert.match(text.stdout, /No evidence matched the query in 1 document/);
        assert.match(text.stdout, /Searched 1 document\(s\): include \*\*\/\*; exclude .*drafts\/\*\*/);
        const empty = tempDir();
        const nothing = evidence(empty, indexDir, "pump");
        assert.match(nothing.message ?? "", /in 0 documents/);
    });

    it("returns the top 20 when 20 exist, cutting texts to fit --budget rather than dropping hits (and says so)", () => {
        const root = tempDir();
        for (let i = 0; i < 25; i++) {
            const filler = `Reservoir level report ${i}: ${"the reservoir level was measured again ".repeat(8)}`;
            fs.writeFileSync(path.join(root, `r${String(i).padStart(2, "0")}.md`), `# Report ${i}\n\n${filler}\n`);
        }
        const indexDir = tempDir();
        const roomy = evidence(root, indexDir, "reservoir level measured", "--top-k", "20");
        assert.equal(roomy.hits.length, 20, "the default budget holds 20 hits");
        assert.equal(roomy.truncatedHits, 0);
        const tight = evidence(root, indexDir, "reservoir level measured", "--top-k", "20", "--budget", "2000");
        assert.equal(tight.hits.length, 20, "no hit dropped");
        assert.equal(tight.maxChars, 2000);
        assert.equal(tight.truncatedHits, 20);
        assert.equal(tight.cutAt, 100);
        let total = 0;
        for (const hit of tight.hits) {
            assert.equal(hit.truncated, true);
            assert.ok(hit.text.endsWith("…"));
            assert.ok(hit.textChars > hit.text.length - 1);
            total += hit.text.length - 1;
        }
        assert.ok(total <= 2000, `${total}`);
        assert.ok(!Object.values(tight.rejected).includes("prompt budget exceeded"));
        // The text output keeps blocks whole, and names those --budget left out.
        const prompt = runCli(
            ["evidence", "--corpus", root, "--index-dir", indexDir, "--query", "reservoir level", "--top-k", "20"],
            { cwd: root },
        );
        assert.equal((prompt.stdout.match(/^\[S\d+\]/gm) ?? []).length, 20);
        const small = runCli(
            [
                "evidence",
                "--corpus",
                root,
                "--index-dir",
                indexDir,
                "--query",
                "reservoir level",
                "--top-k",
                "20",
                "--budget",
                "2000",
            ],
            { cwd: root },
        );
        const shown = (small.stdout.match(/^\[S\d+\]/gm) ?? []).length;
        assert.ok(shown < 20);
        assert.match(small.stdout, new RegExp(`Left out by --budget 2000: ${20 - shown} more hit\\(s\\)`));
    });
});

describe("hitsWithText (the cut)", () => {
    const hit = (text: string): ShownHit => ({
        path: "a.md",
        startLine: 1,
        endLine: 1,
        score: 1,
        coverage: 1,
        headingPath: [],
        ref: { path: "a.md", start: { line: 1, str: "x" }, end: { line: 1, str: "y" } },
        chunkId: "c",
        citation: "a.md#L1-L1",
        text,
        refText: text,
    });

    it("keeps short texts whole, cuts the long ones at an equal share of what is left, and drops none (counted cases)", () => {
        let cases = 0;
        for (let seed = 1; seed <= 300; seed++) {
            let state = seed;
            const next = () => {
                state = (state * 1103515245 + 12345) % 2147483648;
                return state;
            };
            const lengths = Array.from({ length: 1 + (next() % 20) }, () => 1 + (next() % 400));
            const maxChars = 100 + (next() % 3000);
            const result = hitsWithText(
                lengths.map((n) => hit("a".repeat(n))),
                maxChars,
            );
            assert.equal(result.hits.length, lengths.length);
            const kept = result.hits.map((h) => (h.truncated ? h.text.length - 1 : h.text.length));
            const total = kept.reduce((a, b) => a + b, 0);
            const whole = lengths.reduce((a, b) => a + b, 0);
            // Oracle: everything fits whole, or the budget is used up to the rounding of equal shares.
            if (whole <= maxChars) assert.deepEqual(kept, lengths);
            else {
                assert.ok(total <= maxChars && total > maxChars - lengths.length, `${total} of ${maxChars}`);
                const cut = result.hits.filter((h) => h.truncated);
                const shortestCut = Math.min(...cut.map((h) => h.text.length - 1));
                for (const [i, h] of result.hits.entries()) {
                    if (!h.truncated)
                        assert.ok(lengths[i] <= shortestCut + 1, "a whole text is no longer than a cut one");
                }
                assert.equal(result.cutAt, shortestCut);
            }
            cases++;
        }
        assert.equal(cases, 300);
    });

    it("never splits a surrogate pair", () => {
        const result = hitsWithText([hit("😀".repeat(100)), hit("b".repeat(100))], 101);
        assert.ok(result.hits[0].truncated);
        assert.ok(!/[\ud800-\udbff]…$/.test(result.hits[0].text));
    });
});
