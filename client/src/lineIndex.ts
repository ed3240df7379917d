/**
 * "SourceCheck: Show Line Index": a read-only virtual document with the numbered lines the server
 * resolves refs against (`sourcecheck/lineIndex`), kept up to date while the cited document changes.
 */
import * as path from "node:path";
import * as vscode from "vscode";
import { uriKey } from "./citedSpans";
import { lineIndexRequest } from "./customRequestTypes";
import type { SourceCheckClient } from "./languageClient";
import { ask, messageOf } from "./requests";

export const LINE_INDEX_SCHEME = "sourcecheck-index";
const REFRESH_MS = 300;

/** The index document's URI carries the indexed document's URI in its query. */
export function lineIndexUri(target: vscode.Uri): vscode.Uri {
    return vscode.Uri.from({
        scheme: LINE_INDEX_SCHEME,
        path: `/${path.posix.basename(target.path)} (line index)`,
        query: uriKey(target),
    });
}

export class LineIndexProvider implements vscode.TextDocumentContentProvider, vscode.Disposable {
    private readonly changed = new vscode.EventEmitter<vscode.Uri>();
    private readonly timers = new Map<string, NodeJS.Timeout>();
    private readonly disposables: vscode.Disposable[] = [this.changed];
    readonly onDidChange = this.changed.event;

    constructor(private readonly sc: SourceCheckClient) {
        this.disposables.push(
            vscode.workspace.onDidChangeTextDocument((event) => this.refreshLater(event.document.uri)),
            vscode.workspace.onDidSaveTextDocument((document) => this.refreshLater(document.uri)),
        );
    }

    private refreshLater(target: vscode.Uri): void {
        const indexUri = lineIndexUri(target);
        const key = indexUri.toString();
        const open = vscode.workspace.textDocuments.some((d) => d.uri.toString() === key);
        if (!open || this.timers.has(key)) return;
        this.timers.set(
            key,
            setTimeout(() => {
                this.timers.delete(key);
                this.changed.fire(indexUri);
            }, REFRESH_MS),
        );
    }

    async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
        try {
            const result = await ask(this.sc, lineIndexRequest, { uri: uri.query });
            return typeof result?.text === "string"
                ? result.text
                : vscode.l10n.t("(the server returned no line index)");
        } catch (error) {
            return `${vscode.l10n.t("SourceCheck could not index {0}:", uri.query)}\n${messageOf(error)}\n`;
        }
    }

    dispose(): void {
        for (const timer of this.timers.values()) clearTimeout(timer);
        for (const d of this.disposables) d.dispose();
    }
}

/** Opens the line index of the given document (default: the active editor's) beside it. */
export async function showLineIndex(
    arg: unknown,
): Promise<{ ok: true; uri: string; text: string } | { ok: false; message: string }> {
    const given =
        typeof arg === "string" ? arg : arg instanceof vscode.Uri ? arg : (arg as { uri?: unknown } | undefined)?.uri;
    let target: vscode.Uri | undefined;
    if (typeof given === "string") target = vscode.Uri.parse(given, true);
    else if (given instanceof vscode.Uri) target = given;
    else target = vscode.window.activeTextEditor?.document.uri;
    if (!target) return { ok: false, message: vscode.l10n.t("Open the document to index first.") };
    if (target.scheme === LINE_INDEX_SCHEME)
        return { ok: false, message: vscode.l10n.t("This is already a line index.") };
    const document = await vscode.workspace.openTextDocument(lineIndexUri(target));
    await vscode.window.showTextDocument(document, {
        viewColumn: vscode.ViewColumn.Beside,
        preview: true,
        preserveFocus: true,
    });
    return { ok: true, uri: document.uri.toString(), text: document.getText() };
}
