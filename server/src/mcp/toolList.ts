/**
 * The tools as MCP lists them (docs/agents.md): names, descriptions and JSON Schemas made from the zod
 * schemas of agentTools/schemas.ts. The build computes this list once and writes it into the CLI
 * (scripts/build.mjs), so `sourcecheck mcp` neither builds the zod schemas nor converts them at
 * start-up; compiled without the build (the tests), mcp/server.ts calls it.
 */
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { jsonSchemaOf, outputJsonSchema, TOOL_DEFINITIONS } from "../agentTools/schemas";

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
