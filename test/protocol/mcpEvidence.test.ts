/**
 * The `evidence` tool of `sourcecheck mcp`, driven by the SDK's client over stdio as an agent's host
 * drives it, on a fresh corpus whose answer repeats its sources' sentences: every hit carries the
 * text its ref cites (checked by `check` over the same server), the answer is never offered as a
 * source, the repeated passage is in the top 3 for all but at most one claim, and `exclude` and
 * `maxChars` do what they say.
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { CLAIMS, hitIsPassage, writeAnswerCorpus } from "../unit/answerCorpus";
import { repoRoot } from "./harness";

const cliBundle = path.join(repoRoot, "dist", "cli.js");

interface Hit {
    path: string;
    ref: { path: string; start: { line: number; str: string }; end: { line: number; str: string } } | null;
    text: string;
    sentence?: { index: number; length: number };
    textChars: number;
    truncated: boolean;
}

interface Answer {
    hits: Hit[];
    rejected: Record<string, string>;
    truncatedHits: number;
    searched: { documents: number; answers: string[]; exclude: string[] };
    message?: string;
}

describe("mcp: evidence for agents", function () {
    this.timeout(60000);
    let root: string;
    let client: Client;

    before(async () => {
        root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "sourcecheck-mcp-evidence-")));
        const cache = fs.mkdtempSync(path.join(os.tmpdir(), "sourcecheck-mcp-evidence-cache-"));
        writeAnswerCorpus(root);
        const transport = new StdioClientTransport({
            command: process.execPath,
            args: [cliBundle, "mcp", "--root", root],
            stderr: "pipe",
            env: { ...(process.env as Record<string, string>), XDG_CACHE_HOME: cache },
        });
        client = new Client({ name: "sourcecheck-evidence-test", version: "1.0.0" });
        await client.connect(transport);
    });

    after(async () => {
        await client.close();
    });

    async function call(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
        return (await client.callTool({ name, arguments: args })) as CallToolResult;
    }

    async function evidence(args: Record<string, unknown>): Promise<Answer> {
        const result = await call("evidence", args);
        assert.notEqual(result.isError, true, JSON.stringify(result));
        return result.structuredContent as unknown as Answer;
    }

    it("every hit has its ref's text, the answer never comes back, the passage is in the top 3 for all but one claim at most", async () => {
        let missed = 0;
        for (const claim of CLAIMS) {
            const answer = await evidence({ query: claim.text, topK: 5 });
            assert.ok(answer.hits.length > 0, claim.text);
            assert.deepEqual(answer.searched.answers, ["answer.md"]);
            const refs = [];
            for (const hit of answer.hits) {
                assert.notEqual(hit.path, "answer.md", `the answer was offered for ${claim.text}`);
                assert.ok(hit.ref !== null && hit.text.length > 0 && !hit.truncated);
                refs.push({ ...hit.ref, polarity: "supports", confidence: 0.9 });
            }
            // The text is what the ref cites: `check` over the same server resolves each ref to it.
            const checked = await call("check", {
                annotations: [{ claim: answer.hits[0].ref, sources: refs }],
            });
            const report = checked.structuredContent as {
                exitCode: number;
                entries: { sources: { text: string }[] }[];
            };
            assert.equal(report.exitCode, 0, JSON.stringify(report));
            // Each ref cites the best sentence, which sits in the hit's text where `sentence` says.
            assert.deepEqual(
                report.entries[0].sources.map((s) => s.text),
                answer.hits.map((h) => (h.sentence ? h.text.substr(h.sentence.index, h.sentence.length) : h.text)),
            );
            if (!answer.hits.slice(0, 3).some((hit) => hitIsPassage(hit, claim))) missed++;
        }
        assert.ok(missed <= 1, `${missed} of ${CLAIMS.length} claims without their passage in the top 3`);
    });

    it("exclude leaves folders out; a search with no hit says what it searched", async () => {
        const claim = CLAIMS.find((c) => c.source === "notes/water.txt")!;
        const all = await evidence({ query: claim.text, topK: 20 });
        assert.ok(all.hits.some((h) => h.path === "notes/water.txt"));
        const without = await evidence({ query: claim.text, topK: 20, exclude: ["notes/**"] });
        assert.ok(without.hits.every((h) => !h.path.startsWith("notes/")));
        assert.ok(without.searched.exclude.includes("notes/**"));
        assert.ok(without.searched.exclude.includes("**/node_modules/**"), "the default exclusions stay");
        const none = await evidence({ query: "zeppelin hangar", corpus: "notes" });
        assert.deepEqual(none.hits, []);
        assert.equal(none.message, "No evidence matched the query in 2 documents.");
        assert.deepEqual(
            (none.searched as { include?: string[] }).include,
            ["**/*"],
            "what was searched is said once, in searched",
        );
    });

    it("maxChars cuts texts instead of dropping hits", async () => {
        // Twelve reports that each hold the whole query, so the floor keeps them all.
        fs.mkdirSync(path.join(root, "gauges"));
        for (let i = 1; i <= 12; i++) {
            const text = `Reservoir level report ${i}. ${"The reservoir level was measured again at the dam. ".repeat(6)}`;
            fs.writeFileSync(path.join(root, "gauges", `r${i}.md`), `# Report ${i}\n\n${text}\n`);
        }
        const query = "reservoir level measured";
        const many = await evidence({ query, corpus: "gauges", topK: 20 });
        const count = many.hits.length;
        assert.ok(count >= 10, `${count} hits`);
        const tight = await evidence({ query, corpus: "gauges", topK: 20, maxChars: 200 });
        assert.equal(tight.hits.length, count, "no hit dropped");
        assert.ok(tight.truncatedHits > 0);
        for (const hit of tight.hits) if (hit.truncated) assert.ok(hit.textChars > hit.text.length);
        const bad = await call("evidence", { query: "x", maxChars: 5 });
        assert.equal(bad.isError, true);
    });
    it("the index the server keeps between queries follows files added, changed and deleted", async () => {
        const query = "albatross migration counted";
        assert.deepEqual((await evidence({ query })).hits, [], "no file says it yet");
        fs.mkdirSync(path.join(root, "birds"));
        const file = path.join(root, "birds", "survey.md");
        fs.writeFileSync(file, "# Survey\n\nThe albatross migration was counted twice this year.\n");
        const added = await evidence({ query });
        assert.equal(added.hits[0]?.path, "birds/survey.md");
        fs.writeFileSync(file, "# Survey\n\nThe albatross migration was counted once, by boat, in the month of May.\n");
        const changed = await evidence({ query });
        assert.match(changed.hits[0]?.text ?? "", /by boat/);
        fs.rmSync(file);
        assert.deepEqual((await evidence({ query })).hits, [], "the deleted file is gone from the kept index");
    });
});
