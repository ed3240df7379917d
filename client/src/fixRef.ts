/**
 * The fix of one ref, reached from a hover on a cited span (docs/verdicts.md, "Hovers"): opens the ref
 * in its annotation file and offers the server's quick fixes for it, by their titles, the preferred
 * one first. The client computes no fix: the code actions are the language server's.
 */
import * as vscode from "vscode";
import type { LspRange } from "./customRequestTypes";
import { toRange } from "./decorations";
import { argsObject } from "./selection";

export const FIX_REF_COMMAND = "sourcecheck.fixRef";

export interface FixRefArgs {
    uri?: string;
    range?: LspRange;
    /** The title of the fix to apply without asking (tests, keybindings). */
    fix?: string;
    /** Only list the fixes offered (their titles), apply none. */
    list?: boolean;
}

export type FixRefResult =
    | { ok: true; applied?: string; offered: string[] }
    | { ok: false; message: string; offered?: string[] };

export async function fixRef(arg: unknown): Promise<FixRefResult> {
    const { uri, range, fix, list } = argsObject<FixRefArgs>(arg);
    if (typeof uri !== "string" || !range) return { ok: false, message: "fixRef needs { uri, range }." };
    const target = vscode.Uri.parse(uri, true);
    const selection = toRange(range);
    const document = await vscode.workspace.openTextDocument(target);
    await vscode.window.showTextDocument(document, { selection, preview: true });
    const actions =
        (await vscode.commands.executeCommand<(vscode.CodeAction | vscode.Command)[]>(
            "vscode.executeCodeActionProvider",
            target,
            selection,
            vscode.CodeActionKind.QuickFix.value,
        )) ?? [];
    const fixes = actions
        .filter((a): a is vscode.CodeAction => "title" in a && ("edit" in a || "kind" in a))
        .filter((a) => a.edit !== undefined || a.command !== undefined)
        .sort((a, b) => Number(b.isPreferred ?? false) - Number(a.isPreferred ?? false));
    const offered = fixes.map((f) => f.title);
    if (list) return { ok: true, offered };
    if (fixes.length === 0) {
        vscode.window.setStatusBarMessage(vscode.l10n.t("SourceCheck: no fix is known for this ref"), 5000);
        return { ok: true, offered };
    }
    const chosen =
        fix !== undefined
            ? fixes.find((f) => f.title === fix)
            : (
                  await vscode.window.showQuickPick(
                      fixes.map((f) => ({
                          label: f.title,
                          description: f.isPreferred ? vscode.l10n.t("preferred") : undefined,
                          fix: f,
                      })),
                      { placeHolder: vscode.l10n.t("Fix this ref") },
                  )
              )?.fix;
    if (!chosen) return fix !== undefined ? { ok: false, message: `no fix "${fix}"`, offered } : { ok: true, offered };
    if (chosen.edit && !(await vscode.workspace.applyEdit(chosen.edit)))
        return { ok: false, message: vscode.l10n.t("The fix could not be applied: the file changed."), offered };
    if (chosen.command)
        await vscode.commands.executeCommand(chosen.command.command, ...(chosen.command.arguments ?? []));
    return { ok: true, applied: chosen.title, offered };
}
