/**
 * "SourceCheck: Cite a Quote…" (docs/cite.md, "In VS Code"): the `cite` flow for people. It asks for the exact
 * words and the document (the active one by default), lets the language server find them (the agent
 * tool `cite`, so the same rules and error codes as `sourcecheck cite`), copies the ref and shows the
 * cited span selected, ready for *Cite Selection as Claim* or *Add Selection as … Source*.
 */
import * as vscode from "vscode";
import { type Range as LspRange, RequestType } from "vscode-languageclient/node";
import { AGENT_TOOL, type AgentToolParams, type AgentToolResult } from "../../shared/agentToolProtocol";
import type { Ref } from "./customRequestTypes";
import type { SourceCheckClient } from "./languageClient";
import { ask } from "./requests";
import type { Outcome } from "./selection";

const agentToolRequest = new RequestType<AgentToolParams, AgentToolResult, void>(AGENT_TOOL);

export interface CiteQuoteArgs {
    /** The exact words to cite; asked when absent. */
    quote: string;
    /** The document, relative to the workspace folder; the active editor's when absent. */
    path: string;
}

export type CiteQuoteResult = Outcome<{ ref: Ref; text: string; path: string; code?: undefined }> & {
    code?: string;
};

export async function citeQuote(sc: SourceCheckClient, args: Partial<CiteQuoteArgs>): Promise<CiteQuoteResult> {
    const active = vscode.window.activeTextEditor?.document;
    const path =
        args.path ??
        (active && active.uri.scheme === "file" && active.languageId !== "sourcecheck"
            ? vscode.workspace.asRelativePath(active.uri, false)
            : await pickDocument());
    if (path === undefined) return { ok: false, cancelled: true, message: vscode.l10n.t("No document chosen.") };
    const selected = active && !vscode.window.activeTextEditor?.selection.isEmpty;
    const quote =
        args.quote ??
        (await vscode.window.showInputBox({
            title: vscode.l10n.t("SourceCheck: Cite a Quote in {0}", path),
            prompt: vscode.l10n.t("The exact words to cite, as the document has them"),
            value: selected ? active.getText(vscode.window.activeTextEditor?.selection) : undefined,
            ignoreFocusOut: true,
        }));
    if (quote === undefined || quote.trim() === "")
        return { ok: false, cancelled: true, message: vscode.l10n.t("No quote given.") };
    const result = await ask(sc, agentToolRequest, { name: "cite", input: { path, quote } });
    if (!result.ok)
        return { ok: false, code: result.error.code, message: `${result.error.code}: ${result.error.message}` };
    const { ref, text } = result.structured as { ref: Ref; text: string };
    await vscode.env.clipboard.writeText(JSON.stringify(ref));
    if (result.location) await showSpan(result.location);
    vscode.window.setStatusBarMessage(
        `$(check) ${vscode.l10n.t("SourceCheck: the quote is at line {0} of {1}; its ref is copied", ref.start.line, path)}`,
        8000,
    );
    return { ok: true, ref, text, path };
}

/** The workspace's text documents to choose from (annotation, lock and notes files left out). */
async function pickDocument(): Promise<string | undefined> {
    const files = await vscode.workspace.findFiles(
        "**/*",
        "{**/node_modules/**,**/.git/**,**/*.sourcecheck.json,**/*.annotations.json,**/*.lock.json}",
        500,
    );
    const paths = files.map((uri) => vscode.workspace.asRelativePath(uri, false)).sort();
    return vscode.window.showQuickPick(paths, {
        title: vscode.l10n.t("SourceCheck: Cite a Quote — in which document?"),
    });
}

/** Opens the document with the cited span selected, where the server found it. */
async function showSpan(location: { uri: string; range: LspRange }): Promise<void> {
    const { start, end } = location.range;
    const document = await vscode.workspace.openTextDocument(vscode.Uri.parse(location.uri));
    const selection = new vscode.Range(start.line, start.character, end.line, end.character);
    await vscode.window.showTextDocument(document, { selection, preview: false });
}
