/**
 * TraceCite traces, notes and Markdown reports over LSP (docs/quotes.md, "In the editor"), against
 * dist/server.js. The one re-fetch here names a loopback address, which the server's strict policy
 * refuses before any socket is opened: no test traffic leaves the process.
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import type { CodeAction, Diagnostic, Hover, MarkupContent } from "vscode-languageserver-protocol";
import { checkInput } from "../../server/src/core/check";
import { rangeOf, repoRoot, startClient, type TestClient } from "./harness";

const fixture = (name: string) =>
    fs.readFileSync(path.join(repoRoot, "test/fixtures/tracecite/fixtures", name), "utf8");

const keys = (diagnostics: Diagnostic[]) =>
    diagnostics.map((d) => `${d.code}@${d.range.start.line}:${d.range.start.character}-${d.range.end.character}`);

describe("quote files over LSP", () => {
    let client: TestClient;
    before(async () => {
        client = await startClient({ pull: false });
    });
    after(async () => {
        await client.stop();
    });

    it("pushes TraceCite's diagnostic for a trace, on the cited id", async () => {
        const text = fixture("unknown-source.jsonl");
        const uri = await client.open("unknown.trace.jsonl", "tracecite-trace", text);
        const published = await client.waitForPublished(uri, (p) => p.diagnostics.length > 0);
        const id = rangeOf(text, '"doc-404"');
        assert.deepEqual(keys(published.diagnostics), [`UNKNOWN_SOURCE@2:${id.start.character}-${id.end.character}`]);
        assert.equal(published.diagnostics[0].source, "sourcecheck");
    });

    it("hovers a quote with where it was found in the captured content", async () => {
        const text = fixture("evidence-old.jsonl");
        const uri = await client.open("old.trace.jsonl", "tracecite-trace", text);
        const quote = rangeOf(text, '"value=42"');
        const hover = await client.request<Hover | null>("textDocument/hover", {
            textDocument: { uri },
            position: { line: quote.start.line, character: quote.start.character + 3 },
        });
        assert.ok(hover);
        // The content is "quarter=1\nvalue=42\n": the quote starts line 2, column 1.
        assert.match(
            (hover.contents as MarkupContent).value,
            /source `s1` \(file:\/\/\/example\/report\.txt\): line 2, column 1\./,
        );
    });

    it("offers Convert to SourceCheck refs, whose file checks clean", async () => {
        const text = fixture("codex-two-run-after.jsonl");
        const uri = await client.open("after.trace.jsonl", "tracecite-trace", text);
        const actions = await client.request<CodeAction[]>("textDocument/codeAction", {
            textDocument: { uri },
            range: rangeOf(text, "The archive"),
            context: { diagnostics: [] },
        });
        const convert = actions.find((a) => a.title === "Convert to SourceCheck refs");
        assert.equal(convert?.kind, "source.convertToSourceCheckRefs");
        assert.deepEqual(convert?.command?.arguments, [{ uri }]);
        const result = await client.request<{ ok: boolean; targetUri: string; content: string }>(
            "sourcecheck/convertQuotes",
            { uri },
        );
        assert.ok(result.ok);
        assert.ok(result.targetUri.endsWith("/after.sourcecheck.json"));
        const checked = checkInput(JSON.parse(result.content), undefined, [], { keepEntries: true });
        assert.equal(checked.report.exitCode, 0);
        assert.equal(checked.report.validCount, 1);
    });

    it("leaves plain Markdown alone, and flags a report's quote block without a source", async () => {
        const plain = await client.open("plain.md", "markdown", "# Notes\n\nSee [the docs](https://docs.example/).\n");
        const report = await client.open("report.md", "markdown", "# R\n\n> Quote: “lonely words”\n\nprose\n");
        const published = await client.waitForPublished(report, (p) => p.diagnostics.length > 0);
        // No place narrower than the line: the whole line.
        assert.deepEqual(keys(published.diagnostics), [
            `MISSING_REPORT_SOURCE@2:0-${"> Quote: “lonely words”".length}`,
        ]);
        assert.equal(client.published.get(plain)?.diagnostics.length ?? 0, 0);
    });

    it("re-fetches only on request, with the strict guards: a loopback page is refused, on the quote", async () => {
        const text = "claim: c\nquote: some quoted words here\nurl: http://127.0.0.1/page\n";
        const uri = await client.open("local.notes.txt", "tracecite-notes", text);
        await new Promise((resolve) => setTimeout(resolve, 200));
        assert.equal(client.published.get(uri)?.diagnostics.length ?? 0, 0, "nothing before the request");
        const result = await client.request<{ ok: boolean; pageCount: number; failedCount: number }>(
            "sourcecheck/refetchQuotes",
            { uri },
        );
        assert.deepEqual(result, { ok: true, pageCount: 1, failedCount: 1, citationCount: 1, matchedCount: 0 });
        const published = await client.waitForPublished(uri, (p) => p.diagnostics.length > 0);
        const quote = rangeOf(text, "some quoted words here");
        assert.deepEqual(keys(published.diagnostics), [
            `URL_BLOCKED@1:${quote.start.character}-${quote.end.character}`,
        ]);
        const refused = await client.request<{ ok: boolean }>("sourcecheck/refetchQuotes", {
            uri: client.uri("unknown.trace.jsonl"),
        });
        assert.equal(refused.ok, false);
    });
});

describe("quote files offline: file: URLs", () => {
    let client: TestClient;
    before(async () => {
        client = await startClient({ pull: false });
    });
    after(async () => {
        await client.stop();
    });

    it("reads a file: source from the workspace (never outside it), and checks the good records although one is malformed", async () => {
        const text = [
            "claim: offline sync",
            "quote: mobile clients now queue changes while offline",
            "url: file:sources/release-notes.md",
            "---",
            "claim: absent",
            "quote: the scheduler never drops a job",
            "url: file:sources/release-notes.md",
            "---",
            "claim: outside",
            "quote: root",
            "url: file:///etc/passwd",
            "---",
            "claim: a record with no quote",
            "url: file:sources/release-notes.md",
            "",
        ].join("\n");
        const uri = await client.open("offline.notes.txt", "tracecite-notes", text);
        const result = await client.request<{ ok: boolean; pageCount: number; failedCount: number }>(
            "sourcecheck/refetchQuotes",
            { uri },
        );
        assert.deepEqual(result, { ok: true, pageCount: 2, failedCount: 1, citationCount: 3, matchedCount: 1 });
        const published = await client.waitForPublished(uri, (p) =>
            p.diagnostics.some((d) => d.code === "QUOTE_NOT_IN_LIVE_SOURCE"),
        );
        const codes = published.diagnostics.map((d) => `${d.code}@${d.range.start.line + 1}`).sort();
        const malformed = published.diagnostics.filter((d) => d.range.start.line >= 12).map((d) => d.code);
        assert.ok(malformed.length > 0, `the malformed record has its own error: ${codes}`);
        assert.ok(codes.includes("QUOTE_NOT_IN_LIVE_SOURCE@6"), codes.join(", "));
        assert.ok(codes.includes("FILE_OUTSIDE_WORKSPACE@10"), codes.join(", "));
        assert.ok(!codes.some((c) => c.endsWith("@2")), `the quote found in the file is clean: ${codes}`);
        assert.ok(!codes.includes("URL_BLOCKED@2"), "a file: URL is never fetched");
    });
});

describe("Convert with file: URLs", () => {
    let client: TestClient;
    before(async () => {
        client = await startClient({ pull: false });
    });
    after(async () => {
        await client.stop();
    });

    it("converts a quote from a workspace file: source with no re-fetch first; a source outside the workspace is not read", async () => {
        const text = [
            "claim: offline sync",
            "quote: mobile clients now queue changes while offline",
            "url: file:sources/release-notes.md",
            "---",
            "claim: outside",
            "quote: root",
            "url: file:///etc/passwd",
            "",
        ].join("\n");
        const uri = await client.open("convert-offline.notes.txt", "tracecite-notes", text);
        const result = await client.request<{
            ok: boolean;
            content: string;
            convertedCount: number;
            unconvertedCount: number;
        }>("sourcecheck/convertQuotes", { uri });
        assert.equal(result.ok, true, JSON.stringify(result));
        assert.equal(result.convertedCount, 1, result.content);
        assert.equal(result.unconvertedCount, 1, result.content);
        const converted = JSON.parse(result.content);
        const documents: { path: string; content: string }[] =
            converted.session?.documents ?? converted.documents ?? [];
        const local = documents.find((d) => d.path.includes("release-notes.md"));
        assert.ok(local?.content.includes("mobile clients now queue changes while offline"), result.content);
        // Nothing of the file outside the workspace is in the result.
        assert.ok(!result.content.includes("root:"), result.content);
        assert.match(JSON.stringify(converted.unconverted), /FILE_OUTSIDE_WORKSPACE/);
    });
});

describe("quote files over LSP, pull mode", () => {
    let client: TestClient;
    before(async () => {
        client = await startClient({ pull: true });
    });
    after(async () => {
        await client.stop();
    });

    it("answers a pull for a trace with its diagnostics", async () => {
        const text = fixture("evidence-false-quote.jsonl");
        const uri = await client.open("false.trace.jsonl", "tracecite-trace", text);
        const quote = rangeOf(text, '"value=99"');
        assert.deepEqual(keys(await client.pull(uri)), [
            `QUOTE_NOT_IN_SOURCE@2:${quote.start.character}-${quote.end.character}`,
        ]);
    });
});
