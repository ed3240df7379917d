/**
 * What `sourcecheck mcp` loads on its first tool call, a bundle of its own (scripts/build.mjs): the tools
 * with the workspace, the checker, repair and evidence under them. Start-up needs only the SDK and
 * mcp/server.ts; required as `./mcpTools` only, never imported (an import would load it eagerly).
 */
export { runTool } from "../agentTools/tools";
export { diskToolContext } from "./diskContext";
export { toolList } from "./toolList";
