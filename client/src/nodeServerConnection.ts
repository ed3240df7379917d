/**
 * The language server of the desktop extension: dist/server.js in a Node process, over IPC. The Node
 * entry (extension.ts) passes it in; the browser entry passes web/serverConnection.ts (a web worker: docs/web.md).
 */
import type * as vscode from "vscode";
import {
    type BaseLanguageClient,
    LanguageClient,
    type LanguageClientOptions,
    type ServerOptions,
    TransportKind,
} from "vscode-languageclient/node";
import type { ServerConnection } from "./serverConnection";

function createLanguageClient(
    context: vscode.ExtensionContext,
    clientOptions: LanguageClientOptions,
): BaseLanguageClient {
    const module = context.asAbsolutePath("dist/server.js");
    const serverOptions: ServerOptions = {
        run: { module, transport: TransportKind.ipc },
        debug: { module, transport: TransportKind.ipc, options: { execArgv: ["--nolazy", "--inspect=6011"] } },
    };
    // The id "sourcecheck" makes the client honour the `sourcecheck.trace.server` setting.
    return new LanguageClient("sourcecheck", "SourceCheck Language Server", serverOptions, clientOptions);
}

export const nodeServerConnection: ServerConnection = {
    createLanguageClient,
    /** The server's process id (the client library keeps its child process private). */
    serverProcessId: (client) => (client as unknown as { _serverProcess?: { pid?: number } })._serverProcess?.pid,
};
