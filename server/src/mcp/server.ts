/**
 * `sourcecheck mcp`: the agent tools over the Model Context Protocol (docs/agents.md), on the
 * official SDK's low-level server so that every failure, bad arguments included, is a tool error
 * carrying our stable code (the high-level server answers schema failures with its own text).
 *
 * Start-up loads the SDK and nothing of the tools: the listed schemas come written in by the build,
 * and the tools (with the workspace, the checker, repair and evidence) load on the first call
 * (docs/architecture.md, "CLI bundles").
 */
import type { Readable, Writable } from "node:stream";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
    CallToolRequestSchema,
    type CallToolResult,
    ListToolsRequestSchema,
    type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv-provider.js";
import type {
    JsonSchemaType,
    JsonSchemaValidator,
    jsonSchemaValidator,
} from "@modelcontextprotocol/sdk/validation/types.js";
import { nextTurn } from "../agentTools/cooperative";
import type { ToolOutcome, ToolRunner } from "../agentTools/tools";
import { busyMessage, CALL_BOUNDS, type CallBounds, CallGate } from "./callGate";
import { LineTransport, MAX_MESSAGE_BYTES, type RequestTiming } from "./lineTransport";

/** What a client may show a model about the server as a whole. */
export const SERVER_INSTRUCTIONS =
    "SourceCheck makes citations machine-checkable: a ref { path, start: { line, str }, end: { line, str } } points at an exact span of a document. " +
    "Never count lines or pick boundary strings yourself: find sources with evidence, then write each annotation with annotate " +
    "(the claim's and the sources' verbatim quotes become refs as cite makes them; write: true appends it to the file). " +
    "Finally call check on the file and fix until its exitCode is 0.";

/**
 * The list computed by the build (scripts/build.mjs), as JSON text: a string lets the build fold the
 * condition below and drop the require of the zod schemas with its branch. Undefined when compiled
 * without it (the tests).
 */
declare const SOURCECHECK_MCP_TOOLS: string | undefined;

/** What tools/list answers: the build's list, else the same list made from the zod schemas. */
export function listedTools(): Tool[] {
    return typeof SOURCECHECK_MCP_TOOLS !== "undefined"
        ? (JSON.parse(SOURCECHECK_MCP_TOOLS) as Tool[])
        : (require("./toolList") as typeof import("./toolList")).toolList();
}

/**
 * The tools on disk under `root`, loaded on the first tool call: ./diskContext.ts is required (never
 * imported), so the CLI's build makes it a bundle of its own and start-up loads the SDK alone
 * (docs/architecture.md, "CLI bundles").
 */
export function diskToolsOnFirstCall(root: string): ToolRunner {
    let runner: ToolRunner | undefined;
    return (name, rawArguments) => {
        runner ??= (require("./diskContext") as typeof import("./diskContext")).diskToolRunner(root, {
            watchEvidence: true,
        });
        return runner(name, rawArguments);
    };
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

/**
 * The SDK's own JSON Schema validator, made on first use: the server uses it only for answers to
 * elicitations, which this server never asks for, and building it (Ajv and its formats) at start-up
 * cost a twentieth of a bare `node -e 0`.
 */
class ValidatorOnFirstUse implements jsonSchemaValidator {
    private validator: AjvJsonSchemaValidator | undefined;
    getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
        this.validator ??= new AjvJsonSchemaValidator();
        return this.validator.getValidator<T>(schema);
    }
}

export function createMcpServer(
    runTool: ToolRunner,
    version: string,
    bounds: CallBounds = CALL_BOUNDS,
    /** Awaited before each call runs (serveStdio: the answers given so far are written out). */
    ready?: () => Promise<void>,
): Server {
    const server = new Server(
        { name: "sourcecheck", title: "SourceCheck", version },
        {
            capabilities: { tools: {} },
            instructions: SERVER_INSTRUCTIONS,
            jsonSchemaValidator: new ValidatorOnFirstUse(),
        },
    );
    let tools: Tool[] | undefined;
    server.setRequestHandler(ListToolsRequestSchema, async () => {
        tools ??= listedTools();
        return { tools };
    });
    // A bound on calls in flight: a few run, some wait, the rest are refused with `busy` (callGate.ts).
    const gate = new CallGate(bounds, ready);
    server.setRequestHandler(CallToolRequestSchema, async (request) => {
        const outcome = await gate.run(async () => {
            // One turn of the event loop first: file events already queued (a file the client wrote before
            // calling) are heard before the tool runs, so the evidence kept in memory is current.
            await nextTurn();
            return runTool(request.params.name, request.params.arguments);
        });
        if ("done" in outcome) return callToolResult(outcome.done);
        const { running, waiting, retryAfterMs } = outcome.refused;
        const message = busyMessage(outcome.refused);
        // Beside code and message, when to call again and the load (extra fields: the listed schema stays small).
        const error = { code: "busy", message, retryAfterMs, load: { running, waiting } };
        return { isError: true, content: [{ type: "text", text: `busy: ${message}` }], structuredContent: { error } };
    });
    return server;
}

/**
 * Serve until the client closes stdin. Resolves then; protocol and transport errors are logged to
 * `log` (stderr), never written to the protocol stream and never fatal.
 */
export async function serveStdio(
    runTool: ToolRunner,
    version: string,
    streams: { input: Readable; output: Writable; log: (line: string) => void },
    /** Log each request's time in the server, from its line read to its answer written (docs/agents.md). */
    logTimings = false,
): Promise<void> {
    let transport: LineTransport | undefined;
    const server = createMcpServer(runTool, version, CALL_BOUNDS, () => transport?.writable() ?? Promise.resolve());
    server.onerror = (error) => streams.log(`sourcecheck mcp: ${error.message}`);
    const timed = logTimings
        ? (timing: RequestTiming) =>
              streams.log(
                  `sourcecheck mcp: timing ${JSON.stringify({ ...timing, ms: Math.round(timing.ms * 1000) / 1000 })}`,
              )
        : undefined;
    transport = new LineTransport(streams.input, streams.output, MAX_MESSAGE_BYTES, timed);
    const closed = new Promise<void>((resolve) => {
        server.onclose = () => resolve();
    });
    await server.connect(transport);
    await closed;
}
