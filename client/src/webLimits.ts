/**
 * What VS Code for the Web cannot do (docs/web.md, "What works and what does not"): there these commands
 * say why in an information message and answer `{ ok: false, unavailable: true }`, never an error.
 * Elsewhere (a Node extension host) they run as usual.
 */
import * as vscode from "vscode";

/** The commands that need what only a Node extension host has, with the reason a person reads. */
const NEEDS_NODE: Record<string, () => string> = {
    "sourcecheck.refetchCitedPages": () =>
        vscode.l10n.t("Re-fetching cited pages is not available in VS Code for the Web: the browser forbids it."),
    "sourcecheck.lockRefs": () =>
        vscode.l10n.t(
            "Writing a lock is not available in VS Code for the Web: run `sourcecheck lock` on a clone. Drift against an existing lock is still shown.",
        ),
    "sourcecheck.importCitations": () =>
        vscode.l10n.t(
            "Importing citations is not available in VS Code for the Web: run `sourcecheck import` on a clone.",
        ),
    "sourcecheck.acceptChangedText": () =>
        vscode.l10n.t(
            "Writing a lock is not available in VS Code for the Web: run `sourcecheck lock` on a clone. Drift against an existing lock is still shown.",
        ),
};

export interface Unavailable {
    ok: false;
    unavailable: true;
    message: string;
}

/** In the browser, a command that cannot run there: its message shown and its result; else undefined. */
export function unavailableHere(command: string): Unavailable | undefined {
    const reason = NEEDS_NODE[command];
    if (reason === undefined || !inWebWorkerHost()) return undefined;
    const message = reason();
    void vscode.window.showInformationMessage(vscode.l10n.t("SourceCheck: {0}", message));
    return { ok: false, unavailable: true, message };
}

/**
 * True in the web worker extension host (vscode.dev, github.dev), where there is no Node `process`. Not
 * the UI kind: a browser workbench on a remote Node host (code-server, Codespaces) is UI kind Web, and
 * there the extension runs in Node with everything available.
 */
export function inWebWorkerHost(): boolean {
    return typeof (globalThis as { process?: unknown }).process === "undefined";
}

/** The commands declared unavailable in the browser (docs/web.md lists them; the web leg runs each). */
export const COMMANDS_NEEDING_NODE = Object.keys(NEEDS_NODE);
