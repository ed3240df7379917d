/**
 * "SourceCheck: Build Session from Open Documents": an untitled JSON document `{ documents: [...] }`
 * holding the open text files, LF-normalised (the spec makes that the caller's job) with paths relative
 * to their workspace folder, ready to paste annotations next to.
 */
import * as vscode from "vscode";
import { isAnnotationDocument } from "./config";

export interface SessionResult {
    ok: true;
    uri: string;
    paths: string[];
    /** Open files left out because they lie outside every workspace folder. */
    skipped: string[];
}

export function sessionOfOpenDocuments(): { documents: { path: string; content: string }[]; skipped: string[] } {
    const documents = new Map<string, string>();
    const skipped: string[] = [];
    for (const document of vscode.workspace.textDocuments) {
        if (document.uri.scheme !== "file" || document.isClosed || isAnnotationDocument(document)) continue;
        const folder = vscode.workspace.getWorkspaceFolder(document.uri);
        if (!folder) {
            skipped.push(document.uri.fsPath);
            continue;
        }
        const relative = vscode.workspace.asRelativePath(document.uri, false).replace(/\\/g, "/");
        documents.set(relative, document.getText().replace(/\r\n?/g, "\n"));
    }
    const sorted = [...documents].sort(([a], [b]) => a.localeCompare(b));
    return { documents: sorted.map(([path, content]) => ({ path, content })), skipped };
}

export async function buildSessionFromOpenDocuments(): Promise<SessionResult | { ok: false; message: string }> {
    const { documents, skipped } = sessionOfOpenDocuments();
    if (documents.length === 0) {
        return { ok: false, message: "No open text files inside the workspace folder to put in a session." };
    }
    const content = `${JSON.stringify({ documents }, null, 2)}\n`;
    const document = await vscode.workspace.openTextDocument({ language: "json", content });
    await vscode.window.showTextDocument(document, { preview: false });
    if (skipped.length > 0) {
        void vscode.window.showWarningMessage(
            `SourceCheck: left out ${skipped.length} open file(s) outside the workspace folder: ${skipped.join(", ")}`,
        );
    }
    return { ok: true, uri: document.uri.toString(), paths: documents.map((d) => d.path), skipped };
}
