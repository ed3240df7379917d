/**
 * The MCP client snippets of docs/agents.md (also in examples/agents/): each parses as its client
 * would read it, is quoted verbatim in the docs, and starts a server that answers, launched exactly as
 * named (command looked up on PATH, variables expanded as the client expands them).
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { type ParseError, parse } from "jsonc-parser";
import { copyDemo, repoRoot } from "./harness";

interface ServerEntry {
    type?: string;
    command: string;
    args: string[];
}

const snippets: { file: string; key: "servers" | "mcpServers"; client: string }[] = [
    { file: "vscode-mcp.json", key: "servers", client: "VS Code" },
    { file: "claude-code.mcp.json", key: "mcpServers", client: "Claude Code" },
    { file: "cursor-mcp.json", key: "mcpServers", client: "Cursor" },
];

/** The variable VS Code and Cursor expand to the workspace folder. */
const WORKSPACE_FOLDER = ["$", "{workspaceFolder}"].join("");

/** A PATH directory holding `sourcecheck`, as a global install of the package provides it. */
function shimDirectory(): string {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sourcecheck-bin-"));
    fs.symlinkSync(path.join(repoRoot, "bin", "sourcecheck.js"), path.join(dir, "sourcecheck"));
    return dir;
}

describe("mcp: client configuration snippets", function () {
    this.timeout(30000);
    const docs = fs.readFileSync(path.join(repoRoot, "docs", "agents.md"), "utf8");

    for (const snippet of snippets) {
        it(`${snippet.client}: ${snippet.file} is in the docs and starts a working server`, async () => {
            const text = fs.readFileSync(path.join(repoRoot, "examples", "agents", snippet.file), "utf8");
            assert.ok(
                docs.includes(`\`\`\`json\n${text.trim()}\n\`\`\``),
                `docs/agents.md does not quote ${snippet.file}`,
            );
            const errors: ParseError[] = [];
            const config = parse(text, errors) as Record<string, Record<string, ServerEntry>>;
            assert.deepEqual(errors, []);
            const entry = config[snippet.key]?.sourcecheck;
            assert.ok(entry, `no ${snippet.key}.sourcecheck`);
            assert.ok(entry.type === undefined || entry.type === "stdio");

            const workspace = copyDemo();
            const args = entry.args.map((arg) => arg.replaceAll(WORKSPACE_FOLDER, workspace));
            assert.ok(
                args.every((arg) => !arg.includes("${")),
                "an unexpanded variable",
            );
            const transport = new StdioClientTransport({
                command: entry.command,
                args,
                cwd: workspace,
                env: {
                    ...(process.env as Record<string, string>),
                    PATH: `${shimDirectory()}${path.delimiter}${process.env.PATH}`,
                },
                stderr: "pipe",
            });
            const client = new Client({ name: `${snippet.client} snippet test`, version: "1.0.0" });
            await client.connect(transport);
            try {
                const { tools } = await client.listTools();
                assert.ok(tools.some((tool) => tool.name === "cite"));
                const result = (await client.callTool({
                    name: "cite",
                    arguments: { path: "answer.md", quote: "under ten minutes" },
                })) as CallToolResult;
                assert.equal(result.isError, undefined);
                assert.equal((result.structuredContent as { text: string }).text, "under ten minutes");
            } finally {
                await client.close();
            }
        });
    }
});
