/**
 * Hardening: the MCP server never breaks its contract (docs/security.md, "Agents"). The official SDK
 * client, after listTools() as real clients do, validates every structured result against the tool's
 * declared output schema: a corpus of bad inputs for every tool must all come back valid (a result
 * that breaks the schema makes callTool throw -32602). Malformed requests get JSON-RPC errors.
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { PassThrough } from "node:stream";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { TOOL_DEFINITIONS } from "../../server/src/agentTools/schemas";
import { diskToolRunner } from "../../server/src/mcp/diskContext";
import { createMcpServer, serveStdio } from "../../server/src/mcp/server";

function workspace(): string {
    const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "sourcecheck-mcp-hard-")));
    fs.writeFileSync(path.join(root, "doc.md"), "The sky is blue.\nThe sky is blue.\n\u202eevil\u001b[31m\n");
    fs.writeFileSync(path.join(root, "broken.sourcecheck.json"), '{"annotations": [ {"claim": ');
    fs.writeFileSync(path.join(root, "trailing.sourcecheck.json"), '{"annotations": [],}');
    fs.writeFileSync(path.join(root, "deep.sourcecheck.json"), "[".repeat(5000));
    fs.writeFileSync(path.join(root, "schema.sourcecheck.json"), '{"annotations": [{"claim": 3}]}');
    fs.writeFileSync(path.join(root, "binary.sourcecheck.json"), Buffer.from([0, 1, 2, 3]));
    fs.mkdirSync(path.join(root, "folder.sourcecheck.json"));
    fs.writeFileSync(
        path.join(root, "ok.sourcecheck.json"),
        JSON.stringify({
            annotations: [
                {
                    claim: { path: "doc.md", start: { line: 1, str: "The" }, end: { line: 1, str: "blue." } },
                    sources: [
                        {
                            path: "doc.md",
                            start: { line: 3, str: "evil" },
                            end: { line: 3, str: "evil" },
                            polarity: "supports",
                            confidence: 2,
                        },
                    ],
                },
            ],
        }),
    );
    return root;
}

const FILES = [
    "broken.sourcecheck.json",
    "trailing.sourcecheck.json",
    "deep.sourcecheck.json",
    "schema.sourcecheck.json",
    "binary.sourcecheck.json",
    "folder.sourcecheck.json",
    "ok.sourcecheck.json",
    "missing.sourcecheck.json",
    "../outside.json",
    "/etc/passwd",
    "",
];

/** Bad (and a few good) arguments for every tool. */
function corpus(): [string, unknown][] {
    const calls: [string, unknown][] = [];
    for (const file of FILES) {
        calls.push(["check", { file }], ["repair", { file }], ["repair", { file, write: true }]);
    }
    calls.push(
        ["check", {}],
        ["check", { annotations: [{ claim: null }] }],
        ["check", { annotations: [1, "x", null], documents: [{ path: "a", content: "b" }] }],
        ["check", { annotations: [], file: "ok.sourcecheck.json" }],
        [
            "check",
            {
                annotations: [{}],
                documents: [
                    { path: "a", content: "x\r\n" },
                    { path: "a", content: "" },
                ],
            },
        ],
        ["index", { path: "doc.md" }],
        ["index", { path: "doc.md", startLine: 99 }],
        ["index", { path: "doc.md", startLine: 3, endLine: 1 }],
        ["index", { path: "nope.md" }],
        ["index", { path: 5 }],
        ["cite", { path: "doc.md", quote: "The sky is blue." }],
        ["cite", { path: "doc.md", quote: "not there" }],
        ["cite", { path: "doc.md", quote: "" }],
        ["cite", { path: "doc.md" }],
        ["evidence", { query: "sky" }],
        ["evidence", { query: "sky", corpus: "../" }],
        ["evidence", { query: "" }],
        ["evidence", { query: "sky", topK: 1e9 }],
        ["nosuchtool", {}],
    );
    for (const tool of TOOL_DEFINITIONS)
        calls.push([tool.name, { extra: 1 }], [tool.name, { file: 5, path: [], query: {} }]);
    return calls;
}

/**
 * `sourcecheck mcp`'s stdio loop in process, on streams, initialized: what it answered (each line parsed)
 * and what it logged. `until` waits for what a test needs, 20 s at most.
 */
function stdioSession(root: string, logTimings = false) {
    const input = new PassThrough();
    const output = new PassThrough();
    const logged: string[] = [];
    const served = serveStdio(diskToolRunner(root), "test", { input, output, log: (l) => logged.push(l) }, logTimings);
    const replies: { id?: unknown; error?: { code: number }; result?: unknown }[] = [];
    let buffered = "";
    output.on("data", (chunk: Buffer) => {
        buffered += chunk.toString("utf8");
        for (let newline = buffered.indexOf("\n"); newline !== -1; newline = buffered.indexOf("\n")) {
            replies.push(JSON.parse(buffered.slice(0, newline)));
            buffered = buffered.slice(newline + 1);
        }
    });
    const write = (text: string) => input.write(text);
    const send = (message: unknown) => write(`${JSON.stringify(message)}\n`);
    send({
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    });
    send({ jsonrpc: "2.0", method: "notifications/initialized" });
    return {
        send,
        write,
        replies,
        logged,
        until: async (done: () => boolean) => {
            const deadline = Date.now() + 20_000;
            while (!done() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
        },
        close: async () => {
            input.end();
            await served;
        },
    };
}

describe("hardening: MCP results always match the declared output schemas", function () {
    this.timeout(120_000);

    it("every result of every tool on a corpus of bad inputs validates in the SDK client (after listTools)", async () => {
        const root = workspace();
        const server = createMcpServer(diskToolRunner(root), "test");
        const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
        await server.connect(serverSide);
        const client = new Client({ name: "hardening", version: "1" });
        await client.connect(clientSide);
        const { tools } = await client.listTools();
        assert.ok(tools.every((tool) => tool.outputSchema !== undefined));
        let validated = 0;
        for (const [name, args] of corpus()) {
            // callTool validates structuredContent against the tool's outputSchema and throws if it does not match.
            const result = await client.callTool({ name, arguments: args as Record<string, unknown> });
            assert.ok(result.structuredContent !== undefined, `${name} ${JSON.stringify(args)} has structured content`);
            validated++;
        }
        assert.ok(validated >= 50, `${validated} results validated`);
        // Arguments that are not an object are a malformed request: a JSON-RPC error, not a hang.
        for (const args of [null, [1, 2], "x"]) {
            await assert.rejects(
                client.callTool({ name: "check", arguments: args as unknown as Record<string, unknown> }),
                /MCP error -326/,
            );
        }
        await client.close();
    });

    it("answers a malformed request (params: null, params: 5) with a JSON-RPC error, and keeps answering", async () => {
        const session = stdioSession(workspace());
        session.send({ jsonrpc: "2.0", id: 1, method: "tools/call", params: null });
        session.send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: 5 });
        session.write("{not json\n");
        session.send({ jsonrpc: "2.0", id: 3, method: "tools/list" });
        const replies = session.replies;
        await session.until(() => replies.some((r) => r.id === 3));
        const byId = (id: unknown) => replies.find((r) => r.id === id);
        assert.equal(byId(1)?.error?.code, -32600, JSON.stringify(replies));
        assert.equal(byId(2)?.error?.code, -32600);
        assert.equal(byId(null)?.error?.code, -32700, "unparseable JSON gets a parse error with id null");
        assert.ok(byId(3)?.result, "the server keeps answering");
        await session.close();
    });

    it("--log-timings logs each request answered (method, tool, time in the server), and nothing without it", async () => {
        const root = workspace();
        for (const logTimings of [true, false]) {
            const session = stdioSession(root, logTimings);
            session.send({
                jsonrpc: "2.0",
                id: "c",
                method: "tools/call",
                params: { name: "index", arguments: { path: "doc.md" } },
            });
            session.send({ jsonrpc: "2.0", id: 2, method: "tools/list" });
            await session.until(() => session.replies.length >= 3);
            await session.close();
            const timings = session.logged
                .filter((line) => line.startsWith("sourcecheck mcp: timing "))
                .map((line) => JSON.parse(line.slice("sourcecheck mcp: timing ".length)));
            if (!logTimings) {
                assert.deepEqual(timings, []);
                continue;
            }
            assert.deepEqual(
                // By id: tools/list may be answered before the tool call, which loads the tools first.
                timings.map(({ ms, ...named }) => named).sort((a, b) => String(a.id).localeCompare(String(b.id))),
                [
                    { id: 0, method: "initialize" },
                    { id: 2, method: "tools/list" },
                    { id: "c", method: "tools/call", tool: "index" },
                ],
            );
            assert.ok(timings.every((timing) => typeof timing.ms === "number" && timing.ms >= 0));
        }
    });

    it("a slow repair does not hold up other calls: a cite sent after it is answered first", async () => {
        const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "sourcecheck-mcp-slow-")));
        const lines = Array.from(
            { length: 400 },
            (_, i) => `Sentence ${i + 1} says the value ${i * 7} was measured twice.`,
        );
        fs.writeFileSync(path.join(root, "doc.md"), `${lines.join("\n")}\n`);
        // Every claim ref two lines off: each is judged by the repair engine.
        const annotations = Array.from({ length: 3000 }, (_, i) => {
            const line = 1 + (i % 396);
            const ref = {
                path: "doc.md",
                start: { line, str: `Sentence ${line + 2} says` },
                end: { line, str: "twice." },
            };
            return { claim: ref, sources: [{ ...ref, polarity: "supports", confidence: 1 }] };
        });
        fs.writeFileSync(path.join(root, "slow.sourcecheck.json"), JSON.stringify({ annotations }));
        const server = createMcpServer(diskToolRunner(root), "test");
        const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
        await server.connect(serverSide);
        const client = new Client({ name: "slow", version: "1" });
        await client.connect(clientSide);
        await client.listTools();
        const answered: string[] = [];
        const repair = client
            .callTool({ name: "repair", arguments: { file: "slow.sourcecheck.json", detail: "full" } })
            .then((result) => {
                answered.push("repair");
                return result;
            });
        // Sent once the repair is well under way (it judges 6,000 refs: seconds of work).
        await new Promise((resolve) => setTimeout(resolve, 500));
        const cite = client
            .callTool({ name: "cite", arguments: { path: "doc.md", quote: "Sentence 17 says the value 112" } })
            .then((result) => {
                answered.push("cite");
                return result;
            });
        const [repaired, cited] = await Promise.all([repair, cite]);
        assert.deepEqual(answered, ["cite", "repair"]);
        assert.ok(!cited.isError, JSON.stringify(cited.content));
        const structured = repaired.structuredContent as { repairs: unknown[] };
        assert.ok(structured.repairs.length >= 3000, `${structured.repairs.length} repairs`);
        await client.close();
    });
});
