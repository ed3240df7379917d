/**
 * The extension's `browser` entry (VS Code for the Web: docs/web.md): the same activation as the desktop's
 * (activation.ts), built for a web worker extension host, where the language server runs in a web worker of
 * its own (web/serverConnection.ts, passed in here) and reads files through `vscode.workspace.fs`.
 */
import type * as vscode from "vscode";
import { activate as activateWith } from "./activation";
import { webServerConnection } from "./web/serverConnection";

export { deactivate } from "./activation";

export function activate(context: vscode.ExtensionContext): Promise<void> {
    return activateWith(context, webServerConnection);
}
