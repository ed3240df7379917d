/**
 * The request by which VS Code's language model tools run an agent tool in the language server
 * (docs/agents.md): the tools act on the workspace as the server sees it, unsaved buffers included,
 * and the client never resolves anything itself. Types and names only.
 */
import type { Range as LspRange } from "vscode-languageserver-protocol";

export const AGENT_TOOL = "sourcecheck/agentTool";

export interface AgentToolParams {
    /** `check`, `index`, `cite`, ... (the MCP tool names). */
    name: string;
    /** The tool's arguments, exactly as the model gave them. */
    input: unknown;
}

export interface AgentToolError {
    code: string;
    message: string;
    lines?: number[];
}

export type AgentToolResult =
    | {
          ok: true;
          /** The CLI's `--json` shape. */
          structured: Record<string, unknown>;
          /** What the model reads. */
          text: string;
          /**
           * `cite` only: where the cited span is (LSP range, 0-based), so the editor shows it without
           * resolving the ref itself (docs/architecture.md: the client never resolves refs).
           */
          location?: { uri: string; range: LspRange };
      }
    | { ok: false; error: AgentToolError; candidates?: unknown[] };
