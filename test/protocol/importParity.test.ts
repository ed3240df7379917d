/**
 * One import, one result (docs/import.md): the same response imported over the same workspace through
 * the CLI (`import --json`), the MCP `import` tool (the SDK client, which also validates the result
 * against the listed output schema), the library's `importCitations` and the language server's agent
 * tool (what the editor's command "Import Citations from a Model Response…" and VS Code's language
 * model tool ask) gives the same JSON and writes the same answer and annotation file.
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { ECHO_CHARS } from "../../server/src/agentTools/echoes";
import { createNodeWorkspace, importCitations } from "../../server/src/index";
import { diskToolRunner } from "../../server/src/mcp/diskContext";
import { createMcpServer } from "../../server/src/mcp/server";
import type { AgentToolResult } from "../../shared/agentToolProtocol";
import { runCli } from "../unit/cliRun";
import {
    anthropicAnswer,
    anthropicRequest,
    anthropicResponse,
    cohereResponse,
    FILES,
    geminiResponse,
} from "../unit/importFixtures";
import { startClient } from "./harness";

const WITH_RESPONSES: Record<string, string> = {
    ...FILES,
    "answers/claude.json": JSON.stringify(anthropicResponse, null, 2),
    "answers/request.json": JSON.stringify(anthropicRequest, null, 2),
    "answers/gemini.json": JSON.stringify(geminiResponse),
    "answers/cohere.json": JSON.stringify(cohereResponse),
};

function tree(files: Record<string, string> = WITH_RESPONSES): string {
    const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "sourcecheck-import-parity-")));
    for (const [name, text] of Object.entries(files)) {
        fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
        fs.writeFileSync(path.join(dir, name), text);
    }
    return dir;
}

async function callMcp(root: string, args: Record<string, unknown>): Promise<CallToolResult> {
    const server = createMcpServer(diskToolRunner(root), "test");
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: "import-parity", version: "1" });
    await client.connect(clientSide);
    try {
        await client.listTools(); // so callTool validates the result against the listed output schema
        return (await client.callTool({ name: "import", arguments: args })) as CallToolResult;
    } finally {
        await client.close();
    }
}

interface CreatedFile {
    uri: string;
    text: string;
}

/** The agent tool in the language server; the files it creates, as the edits the editor is asked to apply. */
async function viaLanguageServer(
    root: string,
    input: Record<string, unknown>,
): Promise<{ result: AgentToolResult; created: CreatedFile[] }> {
    const client = await startClient({ root, pull: true });
    const created: CreatedFile[] = [];
    client.connection.onRequest(
        "workspace/applyEdit",
        (params: {
            edit: { documentChanges?: { textDocument?: { uri: string }; edits?: { newText: string }[] }[] };
        }) => {
            for (const change of params.edit.documentChanges ?? []) {
                if (change.textDocument && change.edits)
                    created.push({ uri: change.textDocument.uri, text: change.edits.map((e) => e.newText).join("") });
            }
            return { applied: true };
        },
    );
    try {
        const result = await client.request<AgentToolResult>("sourcecheck/agentTool", { name: "import", input });
        return { result, created };
    } finally {
        await client.stop();
    }
}

const CASES = [
    {
        name: "Anthropic with its request",
        cli: ["answers/claude.json", "--request", "answers/request.json"],
        tool: { response: "answers/claude.json", request: "answers/request.json" },
        answer: "answers/claude.md",
        output: "answers/claude.sourcecheck.json",
    },
    {
        name: "Gemini",
        cli: ["answers/gemini.json"],
        tool: { response: "answers/gemini.json" },
        answer: "answers/gemini.md",
        output: "answers/gemini.sourcecheck.json",
    },
    {
        name: "Cohere, a document named",
        cli: ["answers/cohere.json", "--document", "faq=kb/faq.md"],
        tool: { response: "answers/cohere.json", documents: { faq: "kb/faq.md" } },
        answer: "answers/cohere.md",
        output: "answers/cohere.sourcecheck.json",
    },
];

describe("one import on every front end: CLI, MCP, library, the editor's server", function () {
    this.timeout(60_000);

    for (const c of CASES) {
        it(`gives the same JSON and the same annotation file: ${c.name}`, async () => {
            const cliRoot = tree();
            const cli = runCli(["import", ...c.cli, "--json"], { cwd: cliRoot });
            assert.ok(cli.status === 0 || cli.status === 1, cli.stdout + cli.stderr);
            const expected = JSON.parse(cli.stdout);
            assert.ok(expected.converted > 0, cli.stdout);
            const annotations = fs.readFileSync(path.join(cliRoot, c.output), "utf8");
            const answer = fs.readFileSync(path.join(cliRoot, c.answer), "utf8");

            const mcpRoot = tree();
            const mcp = await callMcp(mcpRoot, { ...c.tool, write: true });
            assert.notEqual(mcp.isError, true, JSON.stringify(mcp.content));
            assert.deepEqual(mcp.structuredContent, { ...expected, written: true });
            assert.equal(fs.readFileSync(path.join(mcpRoot, c.output), "utf8"), annotations);
            assert.equal(fs.readFileSync(path.join(mcpRoot, c.answer), "utf8"), answer);

            const libraryRoot = tree();
            const library = await importCitations(createNodeWorkspace(libraryRoot), {
                ...c.tool,
                documents: (c.tool as { documents?: Record<string, string> }).documents,
            });
            assert.deepEqual(library, expected);
            assert.equal(fs.readFileSync(path.join(libraryRoot, c.output), "utf8"), annotations);

            const editorRoot = tree();
            const editor = await viaLanguageServer(editorRoot, { ...c.tool, write: true });
            assert.ok(editor.result.ok, JSON.stringify(editor.result));
            assert.deepEqual(editor.result.structured, { ...expected, written: true });
            const byName = (name: string) => editor.created.find((f) => f.uri.endsWith(`/${name}`))?.text;
            assert.equal(byName(c.output), annotations);
            assert.equal(byName(c.answer), answer);
        });
    }

    it("an inline response (the JSON text) gives the same annotations, with the echoes bounded", async () => {
        const cliRoot = tree();
        const cli = runCli(["import", "answers/claude.json", "--request", "answers/request.json"], { cwd: cliRoot });
        assert.equal(cli.status, 1, cli.stderr);
        const annotations = fs.readFileSync(path.join(cliRoot, "answers/claude.sourcecheck.json"), "utf8");
        const root = tree({ ...FILES, "answers/.keep": "" }); // the tools create no folders
        const response = JSON.stringify(anthropicResponse);
        assert.ok(response.length > ECHO_CHARS);
        const mcp = await callMcp(root, {
            response,
            request: anthropicRequest,
            answer: "answers/claude.md",
            write: true,
        });
        assert.notEqual(mcp.isError, true, JSON.stringify(mcp.content));
        assert.equal(fs.readFileSync(path.join(root, "answers/claude.sourcecheck.json"), "utf8"), annotations);
        assert.equal(fs.readFileSync(path.join(root, "answers/claude.md"), "utf8"), anthropicAnswer);
        // No string of the result quotes more than ECHO_CHARS of the response (docs/agents.md, "Bounded echoes").
        for (const part of [JSON.stringify(mcp.structuredContent), JSON.stringify(mcp.content)])
            assert.ok(!part.includes(response.slice(0, ECHO_CHARS + 1)));
        // A dry run writes nothing and says how to write.
        const dry = tree(FILES);
        const preview = await callMcp(dry, { response, request: anthropicRequest, answer: "a.md" });
        assert.equal((preview.structuredContent as { written: boolean }).written, false);
        assert.match(JSON.stringify(preview.content), /write: true/);
        assert.equal(fs.existsSync(path.join(dry, "a.md")), false);
        assert.equal(fs.existsSync(path.join(dry, "a.sourcecheck.json")), false);
    });

    it("bad input is a tool error with the command's code, nothing written", async () => {
        const root = tree({ ...FILES, "bad.json": "{ not json" });
        const bad = await callMcp(root, { response: "bad.json", write: true });
        assert.equal(bad.isError, true);
        assert.equal((bad.structuredContent as { error: { code: string } }).error.code, "invalid-response");
        const inline = await callMcp(root, { response: anthropicResponse, write: true });
        assert.equal((inline.structuredContent as { error: { code: string } }).error.code, "invalid-arguments");
        const outside = await callMcp(root, { response: "../x.json", write: true });
        assert.equal((outside.structuredContent as { error: { code: string } }).error.code, "path-outside-root");
        assert.equal(fs.existsSync(path.join(root, "bad.md")), false);
        assert.equal(fs.existsSync(path.join(root, "bad.sourcecheck.json")), false);
    });
});
