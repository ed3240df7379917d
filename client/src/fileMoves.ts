/**
 * Paths that follow file moves (docs/follow-edits.md): before a file or folder is renamed or moved
 * (explorer, or a workspace edit), the server says which ref `path`s cite it and how they read
 * afterwards. Per `sourcecheck.updatePathsOnFileMove`: always, the edit joins the rename (one undo);
 * prompt, the user is asked once the rename is done; never, nothing happens.
 */
import * as path from "node:path";
import * as vscode from "vscode";
import { uriKey } from "./citedSpans";
import { pathsForRenameRequest, type RefUpdate } from "./customRequestTypes";
import { RefFollower, updateMode } from "./followEdits";
import { ask, messageOf } from "./requests";

type Renamed = readonly { oldUri: vscode.Uri; newUri: vscode.Uri }[];

function keyOf(files: Renamed): string {
    return files.map((f) => `${uriKey(f.oldUri)}>${uriKey(f.newUri)}`).join("|");
}

/** A URI after the rename: itself, or moved with a renamed file or folder it is (under). */
function movedUri(uri: string, files: Renamed): string {
    for (const { oldUri, newUri } of files) {
        const from = uriKey(oldUri);
        if (uri === from) return uriKey(newUri);
        if (uri.startsWith(`${from}/`)) return uriKey(newUri) + uri.slice(from.length);
    }
    return uri;
}

export class FileMoves extends RefFollower {
    /** Updates waiting for the rename to finish before the user is asked (prompt mode). */
    private readonly planned = new Map<string, RefUpdate>();

    protected listen(): vscode.Disposable[] {
        return [
            vscode.workspace.onWillRenameFiles((event) => {
                const mode = updateMode("updatePathsOnFileMove");
                if (mode === "never" || !this.sc.isRunning) return;
                event.waitUntil(this.plan(event.files, mode));
            }),
            vscode.workspace.onDidRenameFiles((event) => {
                const update = this.planned.get(keyOf(event.files));
                this.planned.delete(keyOf(event.files));
                if (update) void this.ask(update, event.files);
            }),
        ];
    }

    private async plan(files: Renamed, mode: "prompt" | "always"): Promise<vscode.WorkspaceEdit> {
        try {
            const update = await ask(this.sc, pathsForRenameRequest, {
                files: files.map((f) => ({ oldUri: uriKey(f.oldUri), newUri: uriKey(f.newUri) })),
            });
            if (update.refCount === 0) return new vscode.WorkspaceEdit();
            if (mode === "always") {
                this.updates.log.applied.push({ uri: keyOf(files), refCount: update.refCount, ok: true });
                return await this.updates.toWorkspaceEdit(update);
            }
            this.planned.set(keyOf(files), update);
        } catch (error) {
            this.output.appendLine(`[client] paths for a rename: ${messageOf(error)}`);
        }
        return new vscode.WorkspaceEdit();
    }

    private async ask(update: RefUpdate, files: Renamed): Promise<void> {
        const name = path.posix.basename(files[0].oldUri.path);
        const cited = files.length > 1 ? vscode.l10n.t("{0} and {1} more", name, files.length - 1) : name;
        const accepted = await this.updates.prompt(
            update.refCount === 1
                ? vscode.l10n.t("1 ref cites {0}. Update the paths?", cited)
                : vscode.l10n.t("{0} refs cite {1}. Update the paths?", update.refCount, cited),
        );
        if (!accepted) return;
        // An annotation file moved along with what it cites is edited where it now is.
        for (const change of update.edit.documentChanges ?? []) {
            if ("textDocument" in change) change.textDocument.uri = movedUri(change.textDocument.uri, files);
        }
        await this.updates.apply(update, "paths follow a file move");
    }
}
