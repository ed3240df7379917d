/**
 * Notifications that fit (issue 34, item 8; docs/editor.md): the key fact first, whole or cut at a
 * word edge; a longer message keeps its details behind "Show details", a modal with every word.
 */
import * as vscode from "vscode";
import { leadAndDetails } from "./fitLabel";

/** Shows `message` as a notification of `severity`, details behind "Show details" when it is long. */
export async function showNotice(severity: "information" | "warning" | "error", message: string): Promise<void> {
    const { lead, details } = leadAndDetails(message);
    const show =
        severity === "error"
            ? vscode.window.showErrorMessage
            : severity === "warning"
              ? vscode.window.showWarningMessage
              : vscode.window.showInformationMessage;
    const title = vscode.l10n.t("SourceCheck: {0}", lead);
    if (details === undefined) {
        await show(title);
        return;
    }
    const more = vscode.l10n.t("Show details");
    if ((await show(title, more)) === more) await show(lead, { modal: true, detail: details });
}
