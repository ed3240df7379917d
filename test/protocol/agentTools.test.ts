/**
 * `sourcecheck/agentTool`: what VS Code's language model tools ask the language server. The tools see
 * the workspace as the server does (unsaved buffers win), and a repair that writes comes back to the
 * client as one workspace edit instead of a write behind the editor's back.
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import type { AgentToolResult } from "../../shared/agentToolProtocol";
import { startClient, type TestClient } from "./harness";

interface ApplyEditParams {
    label?: string;
    edit: { changes: Record<string, { range: unknown; newText: string }[]> };
}

describe("agent tools through the language server", function () {
    this.timeout(30000);
    let client: TestClient;
    let root: string;
    const edits: ApplyEditParams[] = [];
    let acceptEdits = true;

    beforeEach(async () => {
        client = await startClient({ pull: true });
        root = client.options.root;
        edits.length = 0;
        acceptEdits = true;
        client.connection.onRequest("workspace/applyEdit", (params: ApplyEditParams) => {
            edits.push(params);
            return { applied: acceptEdits };
        });
    });

    afterEach(async () => {
        await client.stop();
    });

    const tool = (name: string, input: unknown) =>
        client.request<AgentToolResult>("sourcecheck/agentTool", { name, input });

    it("cite and index read an unsaved buffer, not the file on disk", async () => {
        const disk = fs.readFileSync(path.join(root, "answer.md"), "utf8");
        const phrase = "An unsaved zebra sentence.";
        const lines = disk.split("\n");
        lines.splice(1, 0, phrase);
        await client.open("answer.md", "markdown", lines.join("\n"));
        const cited = await tool("cite", { path: "answer.md", quote: phrase });
        assert.ok(cited.ok, JSON.stringify(cited));
        assert.deepEqual((cited.structured as { ref: { start: { line: number } } }).ref.start.line, 2);
        const index = await tool("index", { path: "answer.md", startLine: 2, endLine: 2 });
        assert.ok(index.ok);
        assert.match(index.text, new RegExp(`2 \\| ${phrase}$`));
        assert.equal(fs.readFileSync(path.join(root, "answer.md"), "utf8"), disk);
    });

    it("cite says where its span is, so the editor selects it without resolving the ref (CRLF document)", async () => {
        const quote = "cold start";
        const text = "Release notes.\r\nThe cold start is faster:\r\nabout 40% on large files.\r\n";
        fs.writeFileSync(path.join(root, "crlf.md"), text);
        const cited = await tool("cite", { path: "crlf.md", quote: "The cold start is faster" });
        assert.ok(cited.ok && cited.location, JSON.stringify(cited));
        // The oracle: the quote's own place in the lines as the file has them.
        const lines = text.split("\r\n");
        const line = lines.findIndex((l) => l.includes(quote));
        const column = lines[line].indexOf("The cold start is faster");
        assert.equal(cited.location.uri, pathToFileURL(path.join(root, "crlf.md")).href);
        assert.deepEqual(cited.location.range, {
            start: { line, character: column },
            end: { line, character: column + "The cold start is faster".length },
        });
        const failed = await tool("cite", { path: "crlf.md", quote: "not in the file" });
        assert.ok(!failed.ok);
    });

    it("check resolves an annotation file's refs against its own sourcecheck.config.json folder", async () => {
        const project = path.join(root, "project");
        fs.mkdirSync(path.join(project, "notes"), { recursive: true });
        fs.mkdirSync(path.join(project, "answers"));
        fs.writeFileSync(path.join(project, "sourcecheck.config.json"), "{}\n");
        fs.writeFileSync(path.join(project, "notes", "memo.md"), "Notes\n\nThe launch moved to Tuesday.\n");
        const source = { path: "notes/memo.md", start: { line: 3, str: "The" }, end: { line: 3, str: "Tuesday." } };
        const annotations = {
            annotations: [{ claim: source, sources: [{ ...source, polarity: "supports", confidence: 1 }] }],
        };
        fs.writeFileSync(path.join(project, "answers", "a.sourcecheck.json"), JSON.stringify(annotations));
        const report = await tool("check", { file: "project/answers/a.sourcecheck.json" });
        assert.ok(report.ok, JSON.stringify(report));
        const structured = report.structured as { exitCode: number; validCount: number };
        assert.equal(structured.exitCode, 0, JSON.stringify(structured));
        assert.equal(structured.validCount, 1);
    });

    it("check's brief text gives VS Code's agents the verdict counts and coverage by line of an unsaved answer", async () => {
        // answer.md gains an unsaved last sentence that no claim covers.
        const lines = fs.readFileSync(path.join(root, "answer.md"), "utf8").split("\n");
        const added = lines.length; // 1-based: the text ends with a newline, so the last entry is ""
        lines.splice(lines.length - 1, 0, "An unsaved sentence nobody cites.");
        await client.open("answer.md", "markdown", lines.join("\n"));
        const report = await tool("check", { file: "answer.sourcecheck.json" });
        assert.ok(report.ok, JSON.stringify(report));
        const [status, verdicts, coverage] = report.text.split("\n");
        assert.match(status, /^answer\.sourcecheck\.json: 8 annotations: 4 valid, 4 invalid \(exit 1\)\.$/);
        assert.equal(verdicts, "verdicts: 3 supported, 1 refuted, 0 contested, 4 broken.");
        const listed = /^coverage: "answer\.md": \d+ of \d+ sentences no claim covers, lines? (.*)\.$/.exec(coverage);
        assert.ok(listed, coverage);
        const numbers = listed[1].split(", ").flatMap((part) => {
            const [from, to = from] = part.split("-").map(Number);
            return Array.from({ length: to - from + 1 }, (_, i) => from + i);
        });
        assert.ok(numbers.includes(added), `line ${added} is listed: ${coverage}`);
    });

    it("check reads an unsaved annotation file", async () => {
        await client.open("answer.sourcecheck.json", "sourcecheck", '{ "annotations": [] }');
        const report = await tool("check", { file: "answer.sourcecheck.json" });
        assert.ok(report.ok);
        assert.deepEqual(
            [report.structured.exitCode, report.structured.validCount, report.structured.invalidCount],
            [0, 0, 0],
        );
    });

    it("repair with write sends one workspace edit with the certain repairs, and writes no file itself", async () => {
        const notes = path.join(root, "sources", "release-notes.md");
        const disk = fs.readFileSync(notes, "utf8");
        await client.open("sources/release-notes.md", "markdown", `Inserted.\nInserted again.\n${disk}`);
        const file = path.join(root, "answer.sourcecheck.json");
        const before = fs.readFileSync(file, "utf8");
        const result = await tool("repair", { file: "answer.sourcecheck.json", write: true });
        assert.ok(result.ok, JSON.stringify(result));
        const written = result.structured.written as number;
        assert.ok(written >= 2, JSON.stringify(result.structured));
        assert.equal(edits.length, 1);
        const changes = edits[0].edit.changes[client.uri("answer.sourcecheck.json")];
        assert.equal(changes.length, 1);
        const next = changes[0].newText;
        const certain = (
            result.structured.repairs as { certain: boolean; after: { start: { line: number } } }[]
        ).filter((r) => r.certain);
        assert.equal(certain.length, written);
        assert.notEqual(next, before);
        assert.equal(next.split("\n").length, before.split("\n").length);
        assert.equal(fs.readFileSync(file, "utf8"), before, "the server wrote the file itself");

        acceptEdits = false;
        const refused = await tool("repair", { file: "answer.sourcecheck.json", write: true });
        assert.ok(!refused.ok);
        assert.equal(refused.error.code, "write-failed");
    });

    it("bad calls answer with a code, and the server keeps answering", async () => {
        const outside = await tool("cite", { path: "../../etc/passwd", quote: "root" });
        assert.ok(!outside.ok);
        assert.equal(outside.error.code, "path-outside-root");
        const unknown = await tool("format-disk", {});
        assert.ok(!unknown.ok);
        assert.equal(unknown.error.code, "unknown-tool");
        const garbage = await client.request<AgentToolResult>("sourcecheck/agentTool", null);
        assert.ok(!garbage.ok);
        const wrong = await tool("index", { path: ["answer.md"] });
        assert.ok(!wrong.ok);
        assert.equal(wrong.error.code, "invalid-arguments");
        const fine = await tool("cite", { path: "answer.md", quote: "under ten minutes" });
        assert.ok(fine.ok);
    });
});
