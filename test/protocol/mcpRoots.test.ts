/**
 * `sourcecheck mcp --root DIR` resolves each annotation file's document root as the CLI does
 * (docs/config.md): the folder of the nearest sourcecheck.config.json above the file, but never one
 * above DIR, which stays the safety boundary and the root when no configuration applies.
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { repoRoot } from "./harness";

const cliBundle = path.join(repoRoot, "dist", "cli.js");

function ref(file: string, line: number, start: string, end: string) {
    return { path: file, start: { line, str: start }, end: { line, str: end } };
}

function write(file: string, content: string): void {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
}

/** One annotation citing `source` (a path relative to the file's document root). */
function annotationFile(answer: string, source: string, sourceLine: number): string {
    return JSON.stringify(
        {
            annotations: [
                {
                    claim: ref(answer, 1, "Launch", "Tuesday."),
                    sources: [{ ...ref(source, sourceLine, "The", "Tuesday."), polarity: "supports", confidence: 0.9 }],
                },
            ],
        },
        null,
        2,
    );
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
    return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

describe("mcp: document roots from sourcecheck.config.json under --root", function () {
    this.timeout(60000);
    let outer: string;
    let root: string;
    let client: Client;

    before(async () => {
        outer = fs.mkdtempSync(path.join(os.tmpdir(), "sourcecheck-mcp-roots-"));
        root = path.join(outer, "root");
        // Above the root: broken, so reading it would turn every check into an error.
        write(path.join(outer, "sourcecheck.config.json"), '{ "exclued": [] }');
        // No configuration between root/ and this file: the root is its document root.
        write(path.join(root, "answer.md"), "Launch moved to Tuesday.\n");
        write(path.join(root, "sources", "memo.md"), "Memo\nThe launch moved to Tuesday.\n");
        write(path.join(root, "top.sourcecheck.json"), annotationFile("answer.md", "sources/memo.md", 2));
        // A project of its own: refs relative to root/project, its annotation file one folder deeper.
        write(path.join(root, "project", "sourcecheck.config.json"), "{}\n");
        write(path.join(root, "project", "answer.md"), "Launch moved to Tuesday.\n");
        write(path.join(root, "project", "notes", "memo.md"), "Notes\n\nThe launch moved to Tuesday.\n");
        write(
            path.join(root, "project", "answers", "a.sourcecheck.json"),
            annotationFile("answer.md", "notes/memo.md", 3),
        );
        // The same project, its source ref one line off: repair finds it relative to the project.
        write(
            path.join(root, "project", "answers", "shifted.sourcecheck.json"),
            annotationFile("answer.md", "notes/memo.md", 2),
        );
        // A project whose configuration is broken: an error, never a silent fallback to the root.
        write(path.join(root, "broken", "sourcecheck.config.json"), '{ "annotationFiles": 3 }');
        write(path.join(root, "broken", "a.sourcecheck.json"), annotationFile("answer.md", "memo.md", 1));

        const transport = new StdioClientTransport({
            command: process.execPath,
            args: [cliBundle, "mcp", "--root", root],
            stderr: "pipe",
        });
        client = new Client({ name: "sourcecheck-roots-test", version: "1.0.0" });
        await client.connect(transport);
    });

    after(async () => {
        await client?.close();
    });

    it("check {file} resolves refs against the folder of the file's sourcecheck.config.json", async () => {
        const result = await call(client, "check", { file: "project/answers/a.sourcecheck.json" });
        assert.equal(result.isError, undefined, JSON.stringify(result));
        const report = result.structuredContent as { exitCode: number; validCount: number; invalidCount: number };
        assert.equal(report.exitCode, 0, JSON.stringify(report));
        assert.equal(report.validCount, 1);
        assert.equal(report.invalidCount, 0);
    });

    it("the same refs against the --root would not resolve (the config is what makes the file clean)", async () => {
        const inline = JSON.parse(fs.readFileSync(path.join(root, "project", "answers", "a.sourcecheck.json"), "utf8"));
        const result = await call(client, "check", { annotations: inline.annotations });
        const report = result.structuredContent as { exitCode: number; invalidCount: number };
        assert.notEqual(report.exitCode, 0);
        assert.equal(report.invalidCount, 1, JSON.stringify(result));
    });

    it("a configuration above --root is ignored: the root is the document root", async () => {
        const result = await call(client, "check", { file: "top.sourcecheck.json" });
        assert.equal(result.isError, undefined, JSON.stringify(result));
        const report = result.structuredContent as { exitCode: number; validCount: number };
        assert.equal(report.exitCode, 0, JSON.stringify(report));
        assert.equal(report.validCount, 1);
    });

    it("repair {file} finds the shifted span under the file's own document root", async () => {
        const result = await call(client, "repair", { file: "project/answers/shifted.sourcecheck.json" });
        assert.equal(result.isError, undefined, JSON.stringify(result));
        const answer = result.structuredContent as {
            repairs: { reason: string; after: { path: string; start: { line: number } } }[];
        };
        assert.equal(answer.repairs.length, 1, JSON.stringify(answer));
        assert.equal(answer.repairs[0].reason, "line-shift");
        assert.equal(answer.repairs[0].after.path, "notes/memo.md");
        assert.equal(answer.repairs[0].after.start.line, 3);
    });

    it("a broken configuration under the root is a tool error naming it", async () => {
        const result = await call(client, "check", { file: "broken/a.sourcecheck.json" });
        assert.equal(result.isError, true);
        const error = (result.structuredContent as { error: { code: string; message: string } }).error;
        assert.equal(error.code, "unreadable-document");
        assert.match(error.message, /^broken\/sourcecheck\.config\.json:1:\d+: annotationFiles/);
    });

    it("cite and index paths stay relative to --root", async () => {
        const cited = await call(client, "cite", { path: "project/notes/memo.md", quote: "launch moved" });
        assert.equal(cited.isError, undefined, JSON.stringify(cited));
        assert.equal((cited.structuredContent as { ref: { path: string } }).ref.path, "project/notes/memo.md");
        const outside = await call(client, "index", { path: "../sourcecheck.config.json" });
        assert.equal((outside.structuredContent as { error: { code: string } }).error.code, "path-outside-root");
    });
});
