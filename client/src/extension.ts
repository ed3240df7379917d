/**
 * The extension's Node entry (`main`): the activation of activation.ts with the language server in a
 * Node process over IPC (nodeServerConnection.ts). The browser entry is browserExtension.ts.
 */
import type * as vscode from "vscode";
import { activate as activateWith } from "./activation";
import { nodeServerConnection } from "./nodeServerConnection";

export { deactivate } from "./activation";

export function activate(context: vscode.ExtensionContext): Promise<void> {
    return activateWith(context, nodeServerConnection);
}
