/**
 * Choosing the annotation file a new claim goes to: the workspace's annotation files as the server
 * lists them (the one discovery: the files `sourcecheck check .` checks), most recently used
 * first, or a new one created next to the cited document.
 */
import * as path from "node:path";
import * as vscode from "vscode";
import { uriKey } from "./citedSpans";
import { isAnnotationDocument } from "./config";
import { annotationFilesRequest } from "./customRequestTypes";
import type { SourceCheckClient } from "./languageClient";
import { ask } from "./requests";

const LAST_FILE_KEY = "sourcecheck.lastAnnotationFile";

export async function findAnnotationFiles(sc: SourceCheckClient): Promise<vscode.Uri[]> {
    const found = (await ask(sc, annotationFilesRequest, undefined)).uris.map((uri) => vscode.Uri.parse(uri));
    const open = vscode.workspace.textDocuments.filter((d) => isAnnotationDocument(d)).map((d) => d.uri);
    const byKey = new Map<string, vscode.Uri>();
    for (const uri of [...open, ...found]) byKey.set(uriKey(uri), uri);
    return [...byKey.values()];
}

export function rememberAnnotationFile(context: vscode.ExtensionContext, uri: vscode.Uri): void {
    void context.workspaceState.update(LAST_FILE_KEY, uriKey(uri));
}

interface FileItem extends vscode.QuickPickItem {
    uri?: vscode.Uri;
}

/** Asks which annotation file to use; undefined when the user cancels. */
export async function pickAnnotationFile(
    sc: SourceCheckClient,
    context: vscode.ExtensionContext,
    citedDocument: vscode.Uri,
): Promise<vscode.Uri | undefined> {
    const last = context.workspaceState.get<string>(LAST_FILE_KEY);
    const files = (await findAnnotationFiles(sc)).sort((a, b) => {
        if (uriKey(a) === last) return -1;
        if (uriKey(b) === last) return 1;
        return vscode.workspace.asRelativePath(a).localeCompare(vscode.workspace.asRelativePath(b));
    });
    const items: FileItem[] = files.map((uri) => ({
        label: path.posix.basename(uri.path),
        description: vscode.workspace.asRelativePath(uri, true),
        detail: uriKey(uri) === last ? vscode.l10n.t("last used") : undefined,
        uri,
    }));
    items.push({ label: `$(new-file) ${vscode.l10n.t("New annotation file…")}`, alwaysShow: true });
    const picked = await vscode.window.showQuickPick(items, {
        title: vscode.l10n.t("SourceCheck: cite the selection as a claim in…"),
        placeHolder: vscode.l10n.t("Annotation file for the new claim"),
        matchOnDescription: true,
    });
    if (!picked) return undefined;
    return picked.uri ?? (await askNewAnnotationFile(citedDocument));
}

async function askNewAnnotationFile(citedDocument: vscode.Uri): Promise<vscode.Uri | undefined> {
    const folder = vscode.workspace.getWorkspaceFolder(citedDocument) ?? vscode.workspace.workspaceFolders?.[0];
    if (!folder) {
        void vscode.window.showErrorMessage(
            vscode.l10n.t("SourceCheck: open a folder to create an annotation file in it."),
        );
        return undefined;
    }
    const base = path.posix.basename(citedDocument.path).replace(/\.[^.]*$/, "") || "answer";
    const relativeDir = path.posix.dirname(path.posix.relative(folder.uri.path, citedDocument.path));
    const suggestion = path.posix.join(relativeDir.startsWith("..") ? "." : relativeDir, `${base}.sourcecheck.json`);
    const answer = await vscode.window.showInputBox({
        title: vscode.l10n.t("SourceCheck: new annotation file"),
        prompt: vscode.l10n.t("Path relative to {0}", folder.name),
        value: suggestion,
        valueSelection: [
            suggestion.length - `${base}.sourcecheck.json`.length,
            suggestion.length - ".sourcecheck.json".length,
        ],
        validateInput: (value) => validateNewFileName(value),
    });
    if (answer === undefined) return undefined;
    return vscode.Uri.joinPath(folder.uri, answer.trim());
}

function validateNewFileName(value: string): string | undefined {
    const name = value.trim();
    if (name === "") return vscode.l10n.t("Enter a file name.");
    if (path.posix.isAbsolute(name) || name.split(/[\\/]/).includes(".."))
        return vscode.l10n.t("Use a path inside the folder.");
    if (!/\.(sourcecheck|annotations)\.json$/.test(name)) {
        return vscode.l10n.t(
            "Annotation files are recognised by name: end it with .sourcecheck.json or .annotations.json.",
        );
    }
    return undefined;
}
