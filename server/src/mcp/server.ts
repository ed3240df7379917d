/**
 * `sourcecheck mcp`: the agent tools over the Model Context Protocol (docs/agents.md), on the
 * official SDK's low-level server so that every failure, bad arguments included, is a tool error
 * carrying our stable code (the high-level server answers schema failures with its own text).
 */
import type { Readable, Writable } from "node:stream";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
    CallToolRequestSchema,
    type CallToolResult,
    ListToolsRequestSchema,
    type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { jsonSchemaOf, outputJsonSchema, TOOL_DEFINITIONS } from "../agentTools/schemas";
import { runTool, type ToolContext, type ToolOutcome } from "../agentTools/tools";
import { LineTransport } from "./lineTransport";

/** What a client may show a model about the server as a whole. */
export const SERVER_INSTRUCTIONS =
    "SourceCheck makes citations machine-checkable: a ref { path, start: { line, str }, end: { line, str } } points at an exact span of a document. " +
    "Never count lines or pick boundary strings yourself: find sources with evidence, then write each annotation with annotate " +
    "(the claim's and the sources' verbatim quotes become refs as cite makes them; write: true appends it to the file). " +
    "Finally call check on the file and fix until its exitCode is 0.";

export function toolList(): Tool[] {
    return TOOL_DEFINITIONS.map((tool) => ({
        name: tool.name,
        title: tool.title,
        description: tool.description,
        inputSchema: jsonSchemaOf(tool.listedInput ?? tool.input, "input") as Tool["inputSchema"],
        outputSchema: outputJsonSchema(tool) as Tool["outputSchema"],
        annotations: {
            title: tool.title,
            readOnlyHint: !tool.writes,
            destructiveHint: false,
            idempotentHint: true,
            openWorldHint: false,
        },
    }));
}

/** A tool outcome as MCP's CallToolResult: structured content plus the same for models as text. */
export function callToolResult(outcome: ToolOutcome): CallToolResult {
    if (outcome.ok) return { content: [{ type: "text", text: outcome.text }], structuredContent: outcome.structured };
    return {
        isError: true,
        content: [{ type: "text", text: `${outcome.error.code}: ${outcome.error.message}` }],
        structuredContent: outcome.candidates
            ? { error: outcome.error, candidates: outcome.candidates }
            : { error: outcome.error },
    };
}

export function createMcpServer(context: ToolContext, version: string): Server {
    const server = new Server(
        { name: "sourcecheck", title: "SourceCheck", version },
        { capabilities: { tools: {} }, instructions: SERVER_INSTRUCTIONS },
    );
    const tools = toolList();
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
    server.setRequestHandler(CallToolRequestSchema, async (request) =>
        callToolResult(await runTool(request.params.name, request.params.arguments, context)),
    );
    return server;
}

/**
 * Serve until the client closes stdin. Resolves then; protocol and transport errors are logged to
 * `log` (stderr), never written to the protocol stream and never fatal.
 */
export async function serveStdio(
    context: ToolContext,
    version: string,
    streams: { input: Readable; output: Writable; log: (line: string) => void },
): Promise<void> {
    const server = createMcpServer(context, version);
    server.onerror = (error) => streams.log(`sourcecheck mcp: ${error.message}`);
    const transport = new LineTransport(streams.input, streams.output);
    const closed = new Promise<void>((resolve) => {
        server.onclose = () => resolve();
    });
    await server.connect(transport);
    await closed;
}
