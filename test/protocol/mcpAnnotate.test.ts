/**
 * The one-pass flow of docs/agents.md over `sourcecheck mcp` with the SDK's own client: `annotate`
 * builds (and on request appends) an annotation from quotes, refuses what it cannot cite or what
 * cites itself without touching the file, and `check` answers briefly.
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { copyDemo, repoRoot } from "./harness";

const cliBundle = path.join(repoRoot, "dist", "cli.js");
const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), "sourcecheck-mcp-annotate-cache-"));

async function connect(root: string): Promise<Client> {
    const transport = new StdioClientTransport({
        command: process.execPath,
        args: [cliBundle, "mcp", "--root", root],
        stderr: "pipe",
        env: { ...(process.env as Record<string, string>), XDG_CACHE_HOME: cacheDir },
    });
    const client = new Client({ name: "sourcecheck-annotate-test", version: "1.0.0" });
    await client.connect(transport);
    return client;
}

async function call(client: Client, name: string, args: unknown): Promise<CallToolResult> {
    return (await client.callTool({ name, arguments: args as Record<string, unknown> })) as CallToolResult;
}

function textOf(result: CallToolResult): string {
    return (result.content[0] as { text: string }).text;
}

function errorOf(result: CallToolResult): { code: string; message: string } {
    assert.equal(result.isError, true, JSON.stringify(result));
    const error = (result.structuredContent as { error: { code: string; message: string } }).error;
    assert.ok(textOf(result).startsWith(`${error.code}: `));
    return error;
}

const CLAIM = { path: "answer.md", quote: "The release adds offline sync for mobile clients." };
const SOURCE = {
    path: "sources/release-notes.md",
    quote: "mobile clients now queue changes while offline and sync when reconnected",
    polarity: "supports",
    confidence: 0.9,
};

describe("mcp: annotate and brief check (one pass)", function () {
    this.timeout(60000);
    let root: string;
    let client: Client;
    const demoFile = () => path.join(root, "answer.sourcecheck.json");

    before(async () => {
        root = copyDemo();
        client = await connect(root);
    });

    after(async () => {
        await client?.close();
    });

    it("builds the annotation without writing, then appends it with write: true", async () => {
        const before = fs.readFileSync(demoFile(), "utf8");
        const dry = await call(client, "annotate", {
            file: "answer.sourcecheck.json",
            claim: CLAIM,
            sources: [SOURCE],
        });
        assert.equal(dry.isError, undefined, textOf(dry));
        const shown = dry.structuredContent as {
            annotation: number;
            written: boolean;
            cited: { claim: unknown; sources: unknown[] };
        };
        assert.equal(shown.annotation, 9, "numbered from 1");
        assert.equal("index" in shown, false, "no 0-based index in a result a model reads");
        assert.equal(shown.written, false);
        assert.match(textOf(dry), /annotation 9 .* not written/);
        assert.equal(fs.readFileSync(demoFile(), "utf8"), before, "nothing is written without write: true");
        // Each ref is the one cite makes.
        const cited = await call(client, "cite", { path: SOURCE.path, quote: SOURCE.quote });
        assert.deepEqual(
            (shown.cited.sources[0] as { path: string }).path,
            (cited.structuredContent as { ref: { path: string } }).ref.path,
        );
        const { polarity: _p, confidence: _c, ...sourceRef } = shown.cited.sources[0] as Record<string, unknown>;
        assert.deepEqual(sourceRef, (cited.structuredContent as { ref: unknown }).ref);

        const wrote = await call(client, "annotate", {
            file: "answer.sourcecheck.json",
            claim: CLAIM,
            sources: [SOURCE],
            write: true,
        });
        assert.equal(wrote.isError, undefined, textOf(wrote));
        assert.deepEqual(wrote.structuredContent, { ...shown, written: true });
        assert.match(textOf(wrote), /^Wrote annotation 9 /);
        const after = fs.readFileSync(demoFile(), "utf8");
        assert.ok(
            after.startsWith(before.slice(0, before.lastIndexOf("}", before.lastIndexOf("]")))),
            "earlier text kept",
        );
        const annotations = JSON.parse(after).annotations;
        assert.equal(annotations.length, 9);
        assert.deepEqual(annotations[8], shown.cited);
    });

    it("creates a missing annotation file, and a check of it passes", async () => {
        const wrote = await call(client, "annotate", {
            file: "new.sourcecheck.json",
            claim: CLAIM,
            sources: [SOURCE],
            write: true,
        });
        assert.equal((wrote.structuredContent as { annotation: number }).annotation, 1);
        assert.equal(
            JSON.parse(fs.readFileSync(path.join(root, "new.sourcecheck.json"), "utf8")).annotations.length,
            1,
        );
        const check = await call(client, "check", { file: "new.sourcecheck.json" });
        assert.equal((check.structuredContent as { exitCode: number }).exitCode, 0);
    });

    it("replace: N (from 1) puts the annotation in place of annotation N, only with write: true", async () => {
        const file = path.join(root, "replace.sourcecheck.json");
        for (const confidence of [0.9, 0.8]) {
            await call(client, "annotate", {
                file: "replace.sourcecheck.json",
                claim: CLAIM,
                sources: [{ ...SOURCE, confidence }],
                write: true,
            });
        }
        const before = fs.readFileSync(file, "utf8");
        const refuting = { ...SOURCE, polarity: "refutes", confidence: 0.3 };
        const args = { file: "replace.sourcecheck.json", claim: CLAIM, sources: [refuting], replace: 2 };
        const dry = await call(client, "annotate", args);
        assert.equal(dry.isError, undefined, textOf(dry));
        assert.equal(fs.readFileSync(file, "utf8"), before, "nothing written without write: true");
        assert.match(textOf(dry), /^annotation 2 of replace\.sourcecheck\.json: would be replaced, not written/);
        const wrote = await call(client, "annotate", { ...args, write: true });
        const shown = wrote.structuredContent as { annotation: number; written: boolean; replaced: boolean };
        assert.deepEqual([shown.annotation, shown.written, shown.replaced], [2, true, true]);
        const annotations = JSON.parse(fs.readFileSync(file, "utf8")).annotations;
        assert.equal(annotations.length, 2);
        assert.equal(annotations[0].sources[0].polarity, "supports");
        assert.equal(annotations[1].sources[0].polarity, "refutes");
        const outOfRange = errorOf(await call(client, "annotate", { ...args, replace: 3, write: true }));
        assert.equal(outOfRange.code, "no-such-annotation");
        assert.match(outOfRange.message, /has no annotation 3 \(it has 2, numbered 1 to 2\)/);
    });

    it("a retried annotate reports the annotation present and appends nothing (docs/annotate.md, Retries)", async () => {
        const file = "retry.sourcecheck.json";
        const args = { file, claim: CLAIM, sources: [SOURCE], write: true };
        const first = await call(client, "annotate", args);
        const written = fs.readFileSync(path.join(root, file), "utf8");
        const again = await call(client, "annotate", args);
        assert.equal(again.isError, undefined, textOf(again));
        const shown = again.structuredContent as Record<string, unknown>;
        assert.deepEqual([shown.annotation, shown.present, shown.written], [1, true, false]);
        assert.deepEqual(shown.cited, (first.structuredContent as { cited: unknown }).cited);
        assert.match(textOf(again), /^annotation 1 of retry\.sourcecheck\.json: already present/);
        assert.equal(fs.readFileSync(path.join(root, file), "utf8"), written, "nothing appended");
        // In a batch, the present one is reported and only the new one appended.
        const other = { ...SOURCE, confidence: 0.5 };
        const batch = await call(client, "annotate", {
            file,
            annotations: [
                { claim: CLAIM, sources: [SOURCE] },
                { claim: CLAIM, sources: [other] },
            ],
            write: true,
        });
        const added = (batch.structuredContent as { added: Record<string, unknown>[] }).added;
        assert.deepEqual(
            added.map((a) => [a.annotation, a.present === true]),
            [
                [1, true],
                [2, false],
            ],
        );
        assert.equal(JSON.parse(fs.readFileSync(path.join(root, file), "utf8")).annotations.length, 2);
    });

    it("an off-by-one replace of one source is refused with replace-mismatch when the claim is given", async () => {
        const file = "mismatch.sourcecheck.json";
        const second = { path: "answer.md", quote: "Orbit 2.4 is available for Linux, macOS and Windows." };
        await call(client, "annotate", { file, claim: CLAIM, sources: [SOURCE], write: true });
        await call(client, "annotate", { file, claim: second, sources: [SOURCE], write: true });
        const before = fs.readFileSync(path.join(root, file), "utf8");
        const refuting = { ...SOURCE, polarity: "refutes", confidence: 0.4 };
        // The model meant annotation 2 (this claim) but passed its 0-based place, 1.
        const wrong = errorOf(
            await call(client, "annotate", {
                file,
                claim: second,
                sources: [refuting],
                replace: { annotation: 1, source: 1 },
                write: true,
            }),
        );
        assert.equal(wrong.code, "replace-mismatch");
        assert.match(wrong.message, /annotation 2 holds this claim: replace 2 \(annotations count from 1\)/);
        assert.equal(fs.readFileSync(path.join(root, file), "utf8"), before, "nothing written");
        const right = await call(client, "annotate", {
            file,
            claim: second,
            sources: [refuting],
            replace: { annotation: 2, source: 1 },
            write: true,
        });
        assert.equal(right.isError, undefined, textOf(right));
        const annotations = JSON.parse(fs.readFileSync(path.join(root, file), "utf8")).annotations;
        assert.deepEqual(
            annotations.map((a: { sources: { polarity: string }[] }) => a.sources[0].polarity),
            ["supports", "refutes"],
        );
    });

    it("a quote that cannot be cited writes nothing and says which quote and what differs", async () => {
        const before = fs.readFileSync(demoFile(), "utf8");
        const result = await call(client, "annotate", {
            file: "answer.sourcecheck.json",
            claim: CLAIM,
            sources: [
                SOURCE,
                { ...SOURCE, quote: "mobile clients now queue changes while online and sync when reconnected" },
            ],
            write: true,
        });
        const error = errorOf(result);
        assert.equal(error.code, "quote-not-found");
        assert.match(error.message, /^source 2: /);
        assert.match(error.message, /"online" \(your quote\) vs "offline" \(the document\)/);
        assert.equal(fs.readFileSync(demoFile(), "utf8"), before);
        const ambiguous = errorOf(
            await call(client, "annotate", {
                file: "answer.sourcecheck.json",
                claim: { path: "answer.md", quote: "Orbit 2.4" },
                sources: [SOURCE],
                write: true,
            }),
        );
        assert.equal(ambiguous.code, "quote-ambiguous");
        assert.match(ambiguous.message, /^claim: /);
        assert.equal(fs.readFileSync(demoFile(), "utf8"), before);
    });

    it("refuses a source that cites its own claim, writing nothing", async () => {
        const before = fs.readFileSync(demoFile(), "utf8");
        const error = errorOf(
            await call(client, "annotate", {
                file: "answer.sourcecheck.json",
                claim: CLAIM,
                sources: [
                    {
                        path: "./answer.md",
                        quote: "offline sync for mobile clients",
                        polarity: "supports",
                        confidence: 1,
                    },
                ],
                write: true,
            }),
        );
        assert.equal(error.code, "self-citation");
        assert.match(error.message, /source 1/);
        assert.equal(fs.readFileSync(demoFile(), "utf8"), before);
    });

    it("concurrent writes to one file each append their own annotation", async () => {
        const file = "together.sourcecheck.json";
        const results = await Promise.all(
            [0.1, 0.2, 0.3, 0.4].map((confidence) =>
                call(client, "annotate", { file, claim: CLAIM, sources: [{ ...SOURCE, confidence }], write: true }),
            ),
        );
        const numbers = results.map((r) => (r.structuredContent as { annotation: number }).annotation).sort();
        assert.deepEqual(numbers, [1, 2, 3, 4]);
        const written = JSON.parse(fs.readFileSync(path.join(root, file), "utf8")).annotations;
        assert.deepEqual(
            written.map((a: { sources: { confidence: number }[] }) => a.sources[0].confidence).sort(),
            [0.1, 0.2, 0.3, 0.4],
        );
    });

    it("refuses to write into a file that is not an annotation file", async () => {
        const error = errorOf(
            await call(client, "annotate", { file: "answer.md", claim: CLAIM, sources: [SOURCE], write: true }),
        );
        assert.equal(error.code, "invalid-arguments");
        assert.match(error.message, /not an annotation file/);
    });

    it("one pass: 14 claims annotated with one call each, and check passes in three short lines", async () => {
        const dir = path.join(root, "pass");
        fs.mkdirSync(dir);
        const facts = Array.from(
            { length: 14 },
            (_, i) => `Fact ${i + 1} says the value ${i + 1} is ${(i + 1) * 7} units.`,
        );
        fs.writeFileSync(
            path.join(dir, "answer.md"),
            `# Answer\n\n${facts.map((f) => `We found that ${f}`).join("\n")}\n`,
        );
        fs.writeFileSync(path.join(dir, "source.md"), `# Source\n\n${facts.join("\n\n")}\n`);
        for (const fact of facts) {
            const result = await call(client, "annotate", {
                file: "pass/answer.sourcecheck.json",
                claim: { path: "pass/answer.md", quote: `We found that ${fact}` },
                sources: [
                    { path: "pass/source.md", quote: fact, polarity: "supports", confidence: 0.9 },
                    { path: "pass/source.md", quote: fact.split(" says ")[1], polarity: "supports", confidence: 0.5 },
                ],
                write: true,
            });
            assert.equal(result.isError, undefined, textOf(result));
        }
        const check = await call(client, "check", { file: "pass/answer.sourcecheck.json" });
        const text = textOf(check);
        assert.ok(text.length <= 400, `${text.length} characters: ${text}`);
        // Status, verdicts and coverage: the heading is the one sentence no claim covers.
        assert.deepEqual(text.split("\n").slice(1), [
            "verdicts: 14 supported, 0 refuted, 0 contested.",
            'coverage: "pass/answer.md": 1 of 15 sentences no claim covers, line 1.',
        ]);
        assert.match(text, /14 annotations, 42 refs: all refs resolve/);
        const report = check.structuredContent as { exitCode: number; entries: unknown[] };
        assert.equal(report.exitCode, 0);
        assert.equal(report.entries.length, 14, "the structured content keeps every entry");
        const full = await call(client, "check", { file: "pass/answer.sourcecheck.json", detail: "full" });
        assert.deepEqual(JSON.parse(textOf(full)), full.structuredContent);
    });

    it("a failing check lists only the failing refs, each with its place, both boundary errors and what to do", async () => {
        const check = await call(client, "check", { file: "answer.sourcecheck.json" });
        const text = textOf(check);
        const report = check.structuredContent as { exitCode: number; invalidCount: number };
        assert.equal(report.exitCode, 1);
        assert.match(text.split("\n")[0], new RegExp(`${report.invalidCount} invalid \\(exit 1\\)`));
        // The demo's annotation 7: both boundaries of its source are gone from their line.
        assert.match(
            text,
            /annotation 7, source 1 \(failing\): sources\/release-notes\.md:7 "Faster cold start" … 7 "lazily\."\n {2}start: boundary-not-found: [^\n]*\n {2}end: boundary-not-found: /,
        );
        assert.match(text, /no file "sources\/benchmarks\.txt"[^\n]*did you mean "sources\/benchmark\.txt"\?/);
        assert.match(text, /to do: re-cite the exact words with cite/);
        assert.doesNotMatch(text, /annotation 1[,: ]/, "valid annotations are not listed");
        assert.ok(text.length < JSON.stringify(check.structuredContent).length, "the text is shorter than the report");
        assert.ok(text.length <= 1500, `a failing check is about 1,500 characters at most: ${text.length}`);
        assert.match(text, /^verdicts: \d+ supported, 1 refuted, 0 contested, 4 broken\.$/m);
    });

    it("messages say what to do: the tools, the nearest paths, ./ and \\ in ref paths, index's line numbers", async () => {
        const unknown = errorOf(await call(client, "annotat", {}));
        assert.equal(unknown.code, "unknown-tool");
        assert.match(unknown.message, /the tools are index, cite, annotate, check, repair, lock, import, evidence/);
        const missing = errorOf(await call(client, "index", { path: "sources/release-note.md" }));
        assert.equal(missing.code, "unreadable-document");
        assert.match(missing.message, /did you mean "sources\/release-notes\.md"\?/);
        const viaAnnotate = errorOf(
            await call(client, "annotate", {
                file: "x.sourcecheck.json",
                claim: CLAIM,
                sources: [{ ...SOURCE, path: "sources/release-note.md" }],
            }),
        );
        assert.match(viaAnnotate.message, /^source 1: .*did you mean "sources\/release-notes\.md"\?/);
        for (const spelled of ["./sources/release-notes.md", "sources\\release-notes.md"]) {
            const cited = await call(client, "cite", { path: spelled, quote: "Offline sync" });
            assert.equal((cited.structuredContent as { ref: { path: string } }).ref.path, "sources/release-notes.md");
        }
        const outside = errorOf(await call(client, "cite", { path: "../x.md", quote: "x" }));
        assert.equal(outside.code, "path-outside-root");
        const index = textOf(await call(client, "index", { path: "answer.md", startLine: 3, endLine: 4 }));
        const numbered = await call(client, "cite", { path: "answer.md", quote: index });
        assert.equal(
            (numbered.structuredContent as { text: string }).text,
            fs.readFileSync(path.join(root, "answer.md"), "utf8").split("\n").slice(2, 4).join("\n"),
        );
        const midWord = await call(client, "cite", { path: "sources/release-notes.md", quote: "ffline sync" });
        const warnings = (midWord.structuredContent as { warnings: { code: string; alternative: { text: string } }[] })
            .warnings;
        assert.equal(warnings[0].code, "mid-word-boundary");
        assert.equal(warnings[0].alternative.text, "Offline sync");
        assert.match(textOf(midWord), /mid-word-boundary: /);
    });

    it("lists check's annotations typed, examples that fit each argument, and repair's since", async () => {
        const { tools } = await client.listTools();
        const byName = new Map(tools.map((tool) => [tool.name, tool]));
        const check = byName.get("check")!.inputSchema as {
            properties: Record<string, { items?: { properties?: Record<string, unknown> }; description?: string }>;
        };
        assert.ok(check.properties.annotations.items?.properties?.claim, "annotation items are typed");
        assert.match(check.properties.file.description ?? "", /e\.g\. "[^"]*\.sourcecheck\.json"/);
        const repair = byName.get("repair")!.inputSchema as { properties: Record<string, { description?: string }> };
        assert.match(repair.properties.file.description ?? "", /\.sourcecheck\.json"/);
        assert.ok(repair.properties.since, "repair takes since");
        const evidence = byName.get("evidence")!.inputSchema as {
            properties: Record<string, { description?: string }>;
        };
        assert.doesNotMatch(evidence.properties.corpus.description ?? "", /\.md"/);
        const badSince = errorOf(
            await call(client, "repair", { file: "answer.sourcecheck.json", since: "no-such-rev" }),
        );
        assert.equal(badSince.code, "invalid-arguments");
        assert.match(badSince.message, /since/);
    });
});
