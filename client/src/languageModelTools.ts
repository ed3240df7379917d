/**
 * SourceCheck's agent tools for VS Code's agents (docs/agents.md): every tool contributed in
 * package.json (`contributes.languageModelTools`, named `sourcecheck_<tool>`) is registered here and
 * runs in the language server (`sourcecheck/agentTool`), over the workspace as the server sees it,
 * unsaved buffers included. The client resolves nothing itself.
 */
import * as vscode from "vscode";
import { agentToolRequest } from "./customRequestTypes";
import type { SourceCheckClient } from "./languageClient";
import { ask } from "./requests";
import { confirmation, writes } from "./toolConfirmation";

const PREFIX = "sourcecheck_";

interface ContributedTool {
    name: string;
    displayName?: string;
}

class SourceCheckTool implements vscode.LanguageModelTool<Record<string, unknown>> {
    constructor(
        private readonly sc: SourceCheckClient,
        private readonly tool: string,
        private readonly displayName: string,
    ) {}

    prepareInvocation(
        options: vscode.LanguageModelToolInvocationPrepareOptions<Record<string, unknown>>,
    ): vscode.PreparedToolInvocation {
        const target = options.input?.path ?? options.input?.file;
        const invocationMessage = typeof target === "string" ? `${this.displayName} (${target})` : this.displayName;
        if (!writes(this.tool, options.input)) return { invocationMessage };
        const { title, message } = confirmation(options.input, this.tool);
        return { invocationMessage, confirmationMessages: { title, message: new vscode.MarkdownString(message) } };
    }

    async invoke(
        options: vscode.LanguageModelToolInvocationOptions<Record<string, unknown>>,
    ): Promise<vscode.LanguageModelToolResult> {
        const result = await ask(this.sc, agentToolRequest, { name: this.tool, input: options.input });
        // A thrown error is what VS Code shows the model as the tool's failure: the code says what to do.
        if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
        return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(result.text)]);
    }
}

/** Register the contributed tools; nothing on a VS Code without the language model API. */
export function registerLanguageModelTools(context: vscode.ExtensionContext, sc: SourceCheckClient): void {
    if (typeof vscode.lm?.registerTool !== "function") return;
    const contributed = (context.extension.packageJSON?.contributes?.languageModelTools ?? []) as ContributedTool[];
    for (const tool of contributed) {
        if (!tool.name.startsWith(PREFIX)) continue;
        const name = tool.name.slice(PREFIX.length);
        const registered = new SourceCheckTool(sc, name, tool.displayName ?? tool.name);
        context.subscriptions.push(vscode.lm.registerTool(tool.name, registered));
    }
}
