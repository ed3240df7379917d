/**
 * One operation, one result (docs/contract.md, "Operations"): `repair` on a locked, committed
 * workspace whose cited document drifted (a paragraph moved, a sentence deleted, one reworded),
 * driven through the CLI (`--json`), the MCP server (the SDK client) and the language server's agent
 * tool (what VS Code's language model tool asks). Every front end must find the same repairs, leave
 * the same refs, with the same codes and next steps.
 */
import * as assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { diskToolContext } from "../../server/src/mcp/diskContext";
import { createMcpServer } from "../../server/src/mcp/server";
import type { AgentToolResult } from "../../shared/agentToolProtocol";
import { runCli } from "../unit/cliRun";
import { driftedWorkspace, FILE } from "../unit/driftWorkspace";
import { startClient } from "./harness";

interface RepairJson {
    repairs: {
        annotation: number;
        role: string;
        source?: number;
        certain: boolean;
        after: unknown;
        evidenceKind: string;
    }[];
    remaining: { annotation: number; role: string; source?: number; code: string; next: { action: string } }[];
    written: number;
}

/** What must agree: the certain repairs, the refs left with their codes and next steps, the candidates offered. */
function essence(result: RepairJson) {
    const place = (r: { annotation: number; role: string; source?: number }) =>
        `${r.annotation}/${r.role}${r.source === undefined ? "" : `/${r.source}`}`;
    return {
        certain: result.repairs
            .filter((r) => r.certain)
            .map((r) => ({ at: place(r), after: r.after, evidence: r.evidenceKind })),
        offered: result.repairs.filter((r) => !r.certain).map((r) => ({ at: place(r), after: r.after })),
        remaining: result.remaining.map((r) => ({ at: place(r), code: r.code, next: r.next })),
    };
}

async function viaMcp(root: string, args: Record<string, unknown>): Promise<CallToolResult> {
    const server = createMcpServer(diskToolContext(root), "test");
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: "parity", version: "1" });
    await client.connect(clientSide);
    try {
        // callTool also validates the structured content against the listed output schema.
        await client.listTools();
        return (await client.callTool({ name: "repair", arguments: args })) as CallToolResult;
    } finally {
        await client.close();
    }
}

async function viaLanguageServer(root: string, input: Record<string, unknown>): Promise<AgentToolResult> {
    const client = await startClient({ root, pull: true });
    try {
        return await client.request<AgentToolResult>("sourcecheck/agentTool", { name: "repair", input });
    } finally {
        await client.stop();
    }
}

describe("one operation on every front end: repair after drift, with a lock and history", function () {
    this.timeout(60_000);

    it("the CLI, the MCP tool and the editor's agent tool repair alike", async () => {
        const root = driftedWorkspace();
        const cli = runCli(["repair", "--json", FILE], { cwd: root });
        assert.equal(cli.status, 1, cli.stderr);
        const fromCli = JSON.parse(cli.stdout) as RepairJson;

        const mcp = await viaMcp(root, { file: FILE, detail: "full" });
        assert.notEqual(mcp.isError, true, JSON.stringify(mcp.content));
        const fromMcp = mcp.structuredContent as unknown as RepairJson;

        const editor = await viaLanguageServer(root, { file: FILE, detail: "full" });
        assert.ok(editor.ok, JSON.stringify(editor));
        const fromEditor = editor.structured as unknown as RepairJson;

        const expected = essence(fromCli);
        // The drift as built: the moved paragraph and the shifted sentence found by the lock, the
        // deleted sentence and the reworded one left with their next step.
        assert.deepEqual(
            expected.certain.map((r) => [r.at, r.evidence]),
            [
                ["2/source/1", "lock"],
                ["3/source/1", "lock"],
                ["3/source/2", "lock"],
            ],
        );
        assert.deepEqual(
            expected.remaining.map((r) => [r.at, r.code, r.next.action]),
            [
                ["1/source/1", "boundary-not-found", "choose-candidate"],
                ["1/source/2", "boundary-not-found", "cite-again"],
                ["2/source/2", "boundary-not-found", "choose-candidate"],
            ],
        );
        assert.deepEqual(essence(fromMcp), expected, "MCP repair differs from sourcecheck repair --json");
        assert.deepEqual(
            essence(fromEditor),
            expected,
            "the editor's agent tool differs from sourcecheck repair --json",
        );
        // The same object, not only the same essence: the CLI adds no envelope to repair.
        assert.deepEqual(fromMcp, fromCli);
        assert.deepEqual(fromEditor, fromCli);
    });

    it("brief (the agents' default) keeps the certain repairs and every remaining ref, and words the next call", async () => {
        const root = driftedWorkspace({ git: false });
        const fromCli = JSON.parse(runCli(["repair", "--json", FILE], { cwd: root }).stdout) as RepairJson;
        const brief = await viaMcp(root, { file: FILE });
        const structured = brief.structuredContent as unknown as RepairJson;
        assert.deepEqual(essence(structured).certain, essence(fromCli).certain);
        assert.deepEqual(essence(structured).remaining, essence(fromCli).remaining);
        assert.deepEqual(essence(structured).offered, [], "brief lists no uncertain candidate");
        const text = (brief.content[0] as { text: string }).text;
        assert.match(text, /^3 certain repairs, proposed: call repair with write: true/m);
        assert.match(text, /^- annotation 1, source 2: boundary-not-found: .*Next: quote the text meant near line 6/m);
        assert.match(text, /annotate \{ file: "answer\.sourcecheck\.json", replace: \{ annotation: 1, source: 2 \}/);
        assert.doesNotMatch(
            text,
            /Quick Fix|`sourcecheck /,
            "a model over MCP is told tool calls, not editor or CLI steps",
        );
        assert.ok(text.length < fromCli.repairs.length * 400, `brief is short (${text.length} characters)`);
    });

    it("cite answers the same on every front end: a ref, an ambiguous quote, a path with a near miss", async () => {
        const root = driftedWorkspace({ git: false });
        const requests: [string, string][] = [
            ["sources/guide.md", "Offline sync resumes after the client reconnects."],
            ["./sources/guide.md", "Cold start takes under two seconds"],
            ["sources/guide.md", "the"],
            ["sources/guides.md", "Offline sync"],
            ["sources/guide.md", "Offline sync resumes when the client reconnects."],
        ];
        const server = createMcpServer(diskToolContext(root), "test");
        const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
        await server.connect(serverSide);
        const mcp = new Client({ name: "parity", version: "1" });
        await mcp.connect(clientSide);
        await mcp.listTools();
        const editor = await startClient({ root, pull: true });
        try {
            for (const [path, quote] of requests) {
                const cli = runCli(["cite", "--json", path, quote], { cwd: root });
                const fromCli = JSON.parse(cli.stdout);
                const viaMcp = (await mcp.callTool({ name: "cite", arguments: { path, quote } })) as CallToolResult;
                const viaEditor = await editor.request<AgentToolResult>("sourcecheck/agentTool", {
                    name: "cite",
                    input: { path, quote },
                });
                const fromEditor = viaEditor.ok
                    ? viaEditor.structured
                    : viaEditor.candidates
                      ? { error: viaEditor.error, candidates: viaEditor.candidates }
                      : { error: viaEditor.error };
                assert.deepEqual(viaMcp.structuredContent, fromCli, `MCP cite ${path} ${quote}`);
                assert.deepEqual(fromEditor, fromCli, `editor cite ${path} ${quote}`);
                assert.equal(viaMcp.isError === true, cli.status !== 0, `${path} ${quote}: ok on both or on neither`);
            }
            const missing = JSON.parse(runCli(["cite", "--json", "sources/guides.md", "x"], { cwd: root }).stdout);
            assert.match(missing.error.message, /did you mean "sources\/guide\.md"/);
        } finally {
            await mcp.close();
            await editor.stop();
        }
    });
});
