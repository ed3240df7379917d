/**
 * How the client reaches its language server, passed in by each entry (docs/web.md): a Node process
 * over IPC on the desktop (nodeServerConnection.ts, given by extension.ts), a web worker in VS Code
 * for the Web (web/serverConnection.ts, given by browserExtension.ts). Nothing is swapped at build time.
 */
import type * as vscode from "vscode";
import type { BaseLanguageClient, LanguageClientOptions } from "vscode-languageclient";

export interface ServerConnection {
    /** The language client of this host's server, not yet started. */
    createLanguageClient(context: vscode.ExtensionContext, clientOptions: LanguageClientOptions): BaseLanguageClient;
    /** The server's process id; undefined where the server is no process (a web worker). */
    serverProcessId(client: BaseLanguageClient): number | undefined;
}
