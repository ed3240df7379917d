/**
 * The language server in VS Code for the Web (docs/web.md), passed in by the browser entry
 * (browserExtension.ts): dist/web/server.js in a web worker, which
 * has no file system and reads the workspace through this client's `vscode.workspace.fs`
 * (shared/webProtocol.ts), on any scheme.
 */
import * as vscode from "vscode";
import {
    BaseLanguageClient,
    BrowserMessageReader,
    BrowserMessageWriter,
    type LanguageClientOptions,
    type MessageTransports,
} from "vscode-languageclient/browser";
import {
    type WebFileKind,
    type WebReadResult,
    webListRequest,
    webReadRequest,
    webStatRequest,
} from "../../../shared/webProtocol";
import type { ServerConnection } from "../serverConnection";

/** The web worker extension host's Worker, Blob and URL (the project compiles without the DOM library). */
type ServerWorker = ConstructorParameters<typeof BrowserMessageReader>[0];
declare const Worker: new (url: string) => ServerWorker;
declare const Blob: new (parts: Uint8Array[], options: { type: string }) => object;
declare const URL: { createObjectURL(blob: object): string };

function kindOf(type: vscode.FileType): WebFileKind {
    if (type & vscode.FileType.SymbolicLink) return "symlink";
    if (type & vscode.FileType.Directory) return "directory";
    if (type & vscode.FileType.File) return "file";
    return "other";
}

function isMissing(error: unknown): boolean {
    return error instanceof vscode.FileSystemError && error.code === "FileNotFound";
}

/** A file as text: strict UTF-8, no NUL bytes, nothing over the cap (as the desktop's safe reader). */
export async function readForServer(uri: vscode.Uri, maxBytes: number): Promise<WebReadResult> {
    try {
        const stat = await vscode.workspace.fs.stat(uri);
        if (stat.type & vscode.FileType.Directory) return { kind: "directory" };
        if (stat.size > maxBytes) return { kind: "too-large", size: stat.size };
        const bytes = await vscode.workspace.fs.readFile(uri);
        if (bytes.length > maxBytes) return { kind: "too-large", size: bytes.length };
        if (bytes.indexOf(0) !== -1) return { kind: "binary" };
        try {
            return { kind: "text", text: new TextDecoder("utf-8", { fatal: true }).decode(bytes) };
        } catch {
            return { kind: "not-utf8" };
        }
    } catch (error) {
        return isMissing(error) ? { kind: "missing" } : { kind: "error", message: String(error) };
    }
}

function answerFileRequests(client: BaseLanguageClient): void {
    client.onRequest(webReadRequest, (params) => readForServer(vscode.Uri.parse(params.uri, true), params.maxBytes));
    client.onRequest(webStatRequest, async (params) => {
        try {
            const stat = await vscode.workspace.fs.stat(vscode.Uri.parse(params.uri, true));
            return { stat: { kind: kindOf(stat.type), size: stat.size, mtime: stat.mtime } };
        } catch {
            return {};
        }
    });
    client.onRequest(webListRequest, async (params) => {
        try {
            const entries = await vscode.workspace.fs.readDirectory(vscode.Uri.parse(params.uri, true));
            return { entries: entries.map(([name, type]) => ({ name, kind: kindOf(type) })) };
        } catch {
            return {};
        }
    });
}

/**
 * The server's worker. vscode.dev serves the extension over https, and a Worker starts from its URL; a
 * browser workbench of a remote VS Code server (code-server, a Codespace in the browser) refuses workers
 * from `vscode-remote:` extensions, so there the script is read through `vscode.workspace.fs` and started
 * from a blob URL of the same origin.
 */
async function serverWorker(context: vscode.ExtensionContext): Promise<ServerWorker> {
    const script = vscode.Uri.joinPath(context.extensionUri, "dist/web/server.js");
    if (script.scheme !== "vscode-remote") return new Worker(script.toString(true));
    const bytes = await vscode.workspace.fs.readFile(script);
    return new Worker(URL.createObjectURL(new Blob([bytes], { type: "application/javascript" })));
}

/** The browser client, with its worker started when the connection opens (the script may need reading first). */
class WorkerLanguageClient extends BaseLanguageClient {
    constructor(
        clientOptions: LanguageClientOptions,
        private readonly context: vscode.ExtensionContext,
    ) {
        // The id "sourcecheck" makes the client honour the `sourcecheck.trace.server` setting.
        super("sourcecheck", "SourceCheck Language Server", clientOptions);
    }

    private worker: ServerWorker | undefined;

    protected async createMessageTransports(): Promise<MessageTransports> {
        // A restart starts a fresh worker: the last one's server may be the one that failed.
        (this.worker as { terminate?: () => void } | undefined)?.terminate?.();
        const worker = await serverWorker(this.context);
        this.worker = worker;
        return { reader: new BrowserMessageReader(worker), writer: new BrowserMessageWriter(worker) };
    }
}

export const webServerConnection: ServerConnection = {
    createLanguageClient: (context, clientOptions) => {
        const client = new WorkerLanguageClient(clientOptions, context);
        // Handlers registered before start are installed when the connection opens (and again on a restart).
        answerFileRequests(client);
        return client;
    },
    /** A web worker has no process id. */
    serverProcessId: () => undefined,
};
