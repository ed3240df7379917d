/**
 * What an agent gets from the `evidence` tool (docs/evidence.md, "Hit text"): the passage that holds
 * the fact (the sentence after the best one included), the best sentence marked, refs to the
 * sentence and the passage; the answer being written never a hit, with or without an annotation file.
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { runTool } from "../../server/src/agentTools/tools";
import { resolveRef } from "../../server/src/core/resolve";
import { diskToolContext } from "../../server/src/mcp/diskContext";
import { DiskDocuments } from "../../server/src/workspace/diskDocuments";

interface Hit {
    path: string;
    text: string;
    sentence?: { index: number; length: number };
    ref: unknown;
    chunkRef: unknown;
    truncated: boolean;
    textChars: number;
}

const SOURCE = [
    "# Harbor 3.0 release notes",
    "",
    "## Deprecations",
    "",
    "The v1 REST API is deprecated. It will be removed in Harbor 4.0, planned for the second quarter of 2027.",
    "Clients should move to the v2 API, which uses the same authentication tokens.",
    "",
    `${"Other changes of this release are listed in the changelog with their issue numbers. ".repeat(12).trim()}`,
    "",
].join("\n");

const ANSWER = "# Answer\n\nThe v1 REST API is deprecated and will be removed in Harbor 4.0 in 2027.\n";

function workspace(): { root: string; indexDir: string } {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "sourcecheck-hits-"));
    fs.mkdirSync(path.join(root, "sources"));
    fs.writeFileSync(path.join(root, "sources", "release.md"), SOURCE);
    fs.writeFileSync(path.join(root, "answer.md"), ANSWER);
    return { root, indexDir: fs.mkdtempSync(path.join(os.tmpdir(), "sourcecheck-hits-index-")) };
}

async function evidence(root: string, indexDir: string, args: Record<string, unknown>) {
    const outcome = await runTool("evidence", args, diskToolContext(root, { indexDir }));
    assert.ok(outcome.ok, JSON.stringify(outcome));
    return outcome.structured as { hits: Hit[]; searched: { answers: string[] }; message?: string };
}

describe("evidence hits for agents", () => {
    it("show the passage around the best sentence, mark it, and cite both", async () => {
        const { root, indexDir } = workspace();
        const found = await evidence(root, indexDir, { query: "The v1 REST API is deprecated.", answer: "answer.md" });
        const hit = found.hits[0];
        assert.equal(hit.path, "sources/release.md");
        assert.match(
            hit.text,
            /removed in Harbor 4\.0, planned for the second quarter of 2027\./,
            "the fact after the sentence",
        );
        assert.ok(hit.sentence, "the best sentence is marked");
        assert.equal(hit.text.substr(hit.sentence.index, hit.sentence.length), "The v1 REST API is deprecated.");
        const disk = new DiskDocuments(root);
        const sentence = resolveRef(disk, hit.ref as never);
        assert.ok(sentence.valid && sentence.text === "The v1 REST API is deprecated.");
        const passage = resolveRef(disk, hit.chunkRef as never);
        assert.ok(passage.valid && passage.text === hit.text, "chunkRef cites the text shown");
    });

    it("cut a long chunk at sentence edges, at most 600 characters", async () => {
        const { root, indexDir } = workspace();
        const long = [
            "# Notes",
            "",
            Array.from(
                { length: 30 },
                (_, i) => `Sentence ${i + 1} talks about filler topic number ${i + 1} at length.`,
            ).join(" "),
            "The scheduler drops low-priority jobs under sustained heavy load since version 2.4.",
            Array.from({ length: 30 }, (_, i) => `Closing remark ${i + 1} is about something else entirely here.`).join(
                " ",
            ),
            "",
        ].join("\n");
        fs.writeFileSync(path.join(root, "sources", "notes.md"), long);
        const found = await evidence(root, indexDir, { query: "scheduler drops low-priority jobs under heavy load" });
        const hit = found.hits.find((h) => h.path === "sources/notes.md")!;
        assert.ok(hit.truncated && hit.textChars > 600);
        assert.ok(hit.text.length <= 600, `${hit.text.length}`);
        assert.match(hit.text, /^(Sentence|The|Closing)/, "starts at a sentence");
        assert.match(hit.text, /[.]$/, "ends at a sentence");
        assert.ok(hit.text.includes("The scheduler drops low-priority jobs"));
        const passage = resolveRef(new DiskDocuments(root), hit.chunkRef as never);
        assert.ok(passage.valid && passage.text === hit.text);
    });

    it("never offer the answer named in the call, before any annotation file exists", async () => {
        const { root, indexDir } = workspace();
        const query = "The v1 REST API is deprecated and will be removed in Harbor 4.0 in 2027.";
        const unnamed = await evidence(root, indexDir, { query, topK: 5 });
        assert.ok(
            unnamed.hits.some((h) => h.path === "answer.md"),
            "without an annotation file or answer, the answer is a hit (what `answer` is for)",
        );
        const named = await evidence(root, indexDir, { query, topK: 5, answer: "answer.md" });
        assert.ok(named.hits.length > 0);
        assert.ok(named.hits.every((h) => h.path !== "answer.md"));
        assert.deepEqual(named.searched.answers, ["answer.md"]);
        const excluded = await evidence(root, indexDir, { query, topK: 5, exclude: ["answer.md"] });
        assert.ok(excluded.hits.every((h) => h.path !== "answer.md"));
    });

    it("never offer the answer, annotation, lock, notes or trace files once an annotation file names it", async () => {
        const { root, indexDir } = workspace();
        const claim = { path: "answer.md", start: { line: 3, str: "The" }, end: { line: 3, str: "2027." } };
        const annotations = JSON.stringify({ annotations: [{ claim, sources: [] }] });
        fs.writeFileSync(path.join(root, "answer.sourcecheck.json"), annotations);
        fs.writeFileSync(path.join(root, "answer.sourcecheck.lock.json"), JSON.stringify({ text: ANSWER }));
        fs.writeFileSync(path.join(root, "run.notes.md"), ANSWER);
        fs.writeFileSync(path.join(root, "run.trace.jsonl"), `${JSON.stringify({ text: ANSWER })}\n`);
        const found = await evidence(root, indexDir, { query: ANSWER, topK: 20, corpus: "." });
        assert.ok(found.hits.length > 0);
        for (const hit of found.hits) assert.equal(hit.path, "sources/release.md");
        assert.deepEqual(found.searched.answers, ["answer.md"]);
    });
});

describe("evidence: what lexical search cannot find", () => {
    it("says which scripts the corpus holds when no hit is written in the query's", async () => {
        const { root, indexDir } = workspace();
        fs.writeFileSync(path.join(root, "sources", "survey.md"), "# 调研\n\n多数团队表示，完成安装配置不到十分钟。\n");
        const english = await evidence(root, indexDir, { query: "setup takes under ten minutes", answer: "answer.md" });
        const result = english as unknown as { note?: string };
        assert.match(result.note ?? "", /written in Latin and no hit is; the corpus also holds Han text.*lexical/);
        const chinese = await evidence(root, indexDir, { query: "安装配置不到十分钟", answer: "answer.md" });
        assert.ok(chinese.hits.some((h) => h.path === "sources/survey.md"));
        assert.equal(
            (chinese as unknown as { scripts?: unknown }).scripts,
            undefined,
            "a hit in the query's script: no note",
        );
    });
});
