/**
 * "SourceCheck: Fix All Certain Repairs in Workspace" (docs/editor.md): the server runs the repair
 * operation over every annotation file (`sourcecheck/repairWorkspace`, the certain repairs that
 * `sourcecheck repair --write` makes) and answers one edit; the client applies it as one edit, so one
 * undo takes every file back, and says how many repairs went into how many files. It never resolves a ref.
 */
import * as vscode from "vscode";
import { repairWorkspaceRequest } from "./customRequestTypes";
import { countedRefsInFiles } from "./l10n";
import type { SourceCheckClient } from "./languageClient";
import { showNotice } from "./notices";
import { ask } from "./requests";

export type RepairWorkspaceOutcome =
    | { ok: true; refCount: number; fileCount: number; checkedCount: number; skipped: number; message: string }
    | { ok: false; message: string };

export async function repairWorkspace(sc: SourceCheckClient): Promise<RepairWorkspaceOutcome> {
    const result = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Window, title: vscode.l10n.t("SourceCheck: repairing the workspace") },
        () => ask(sc, repairWorkspaceRequest, undefined),
    );
    if (!result.ok) return result;
    const { refCount, fileCount, checkedCount, skipped } = result;
    if (refCount > 0) {
        const edit = await sc.client.protocol2CodeConverter.asWorkspaceEdit(result.edit);
        // Not a refactoring: VS Code would save the files at once (files.refactoring.autoSave); they stay to review.
        if (!(await vscode.workspace.applyEdit(edit))) {
            return {
                ok: false,
                message: vscode.l10n.t(
                    "The repairs were not applied: an annotation file changed meanwhile. Run the command again.",
                ),
            };
        }
    }
    const message =
        refCount === 0
            ? vscode.l10n.t("No certain repair in {0} annotation files.", checkedCount)
            : vscode.l10n.t("Repaired {0}. One undo takes them all back.", countedRefsInFiles(refCount, fileCount));
    const notSkipped =
        skipped.length === 0
            ? message
            : `${message}\n${vscode.l10n.t("Not repaired:")}\n${skipped.map((s) => `${s.uri}: ${s.message}`).join("\n")}`;
    void showNotice(skipped.length > 0 ? "warning" : "information", notSkipped);
    return { ok: true, refCount, fileCount, checkedCount, skipped: skipped.length, message };
}
