/**
 * "SourceCheck: Build Session from Open Documents": an untitled JSON document `{ documents: [...] }`
 * holding the open text files, LF-normalised (the spec makes that the caller's job) with paths relative
 * to their workspace folder, ready to paste annotations next to.
 */
import * as vscode from "vscode";
import { isAnnotationDocument } from "./config";
import { displayPath } from "./uriPaths";

export interface SessionResult {
    ok: true;
    uri: string;
    paths: string[];
    /** Open files left out: outside every workspace folder, or not readable as text. */
    skipped: string[];
}

/** The files open in editor tabs, as the user sees them (not documents extensions loaded in the background). */
function openTabFiles(): vscode.Uri[] {
    const byKey = new Map<string, vscode.Uri>();
    for (const tab of vscode.window.tabGroups.all.flatMap((group) => group.tabs)) {
        if (tab.input instanceof vscode.TabInputText && tab.input.uri.scheme === "file") {
            byKey.set(tab.input.uri.toString(), tab.input.uri);
        }
    }
    return [...byKey.values()];
}

export async function sessionOfOpenDocuments(): Promise<{
    documents: { path: string; content: string }[];
    skipped: string[];
}> {
    const documents = new Map<string, string>();
    const skipped: string[] = [];
    for (const uri of openTabFiles()) {
        const folder = vscode.workspace.getWorkspaceFolder(uri);
        if (!folder) {
            skipped.push(displayPath(uri));
            continue;
        }
        let document: vscode.TextDocument;
        try {
            document = await vscode.workspace.openTextDocument(uri);
        } catch {
            skipped.push(displayPath(uri)); // binary or unreadable: not text a session can hold
            continue;
        }
        if (isAnnotationDocument(document)) continue;
        const relative = vscode.workspace.asRelativePath(uri, false).replace(/\\/g, "/");
        documents.set(relative, document.getText().replace(/\r\n?/g, "\n"));
    }
    const sorted = [...documents].sort(([a], [b]) => a.localeCompare(b));
    return { documents: sorted.map(([path, content]) => ({ path, content })), skipped };
}

export async function buildSessionFromOpenDocuments(): Promise<SessionResult | { ok: false; message: string }> {
    const { documents, skipped } = await sessionOfOpenDocuments();
    if (documents.length === 0) {
        return {
            ok: false,
            message: vscode.l10n.t("No open text files inside the workspace folder to put in a session."),
        };
    }
    const content = `${JSON.stringify({ documents }, null, 2)}\n`;
    const document = await vscode.workspace.openTextDocument({ language: "json", content });
    await vscode.window.showTextDocument(document, { preview: false });
    if (skipped.length > 0) {
        void vscode.window.showWarningMessage(
            vscode.l10n.t(
                "SourceCheck: left out {0} open file(s) outside the workspace folder or not text: {1}",
                skipped.length,
                skipped.join(", "),
            ),
        );
    }
    return { ok: true, uri: document.uri.toString(), paths: documents.map((d) => d.path), skipped };
}
