/**
 * Document sync: open, change and close of any document. An annotation file is re-checked, a cited
 * document re-resolves the refs into it, a quote file gets its own diagnostics; open buffers win over
 * the disk (their unsaved text is what refs resolve against).
 */
import type { TextDocuments } from "vscode-languageserver";
import type { TextDocument } from "vscode-languageserver-textdocument";
import type { BufferStore } from "../workspace/documentSource";
import { uriToPath } from "../workspace/uris";
import type { ServerContext } from "./context";
import type { DiagnosticsChannel } from "./diagnostics";

/** Open buffers by file-system path: a cited document's unsaved text wins over the disk. */
export class OpenBuffers implements BufferStore {
    private readonly paths = new Map<string, string>();

    constructor(private readonly documents: TextDocuments<TextDocument>) {}

    get(absolutePath: string): TextDocument | undefined {
        const uri = this.paths.get(absolutePath);
        return uri !== undefined ? this.documents.get(uri) : undefined;
    }

    /** The open buffer of a file with the URI the client knows it by (the agent tools' view). */
    buffer(absolutePath: string): { uri: string; text: string } | undefined {
        const uri = this.paths.get(absolutePath);
        const open = uri === undefined ? undefined : this.documents.get(uri);
        return uri !== undefined && open ? { uri, text: open.getText() } : undefined;
    }

    opened(uri: string): void {
        const path = uriToPath(uri);
        if (path !== undefined) this.paths.set(path, uri);
    }

    closed(uri: string): void {
        const path = uriToPath(uri);
        if (path !== undefined) this.paths.delete(path);
    }
}

export function registerDocuments(context: ServerContext, buffers: OpenBuffers, diagnostics: DiagnosticsChannel): void {
    const { documents, service, client, safe } = context;
    documents.onDidOpen(
        safe("open", undefined, ({ document }) => {
            buffers.opened(document.uri);
            if (service.quotes.handles(document.uri)) {
                // A file whose language was just switched to a trace or notes (a configured glob) was
                // pulled under its old language: ask the client to pull again.
                if (client.pullDiagnostics && service.quotes.switchedLanguage(document)) client.refreshDiagnostics();
                diagnostics.quoteChanged(document);
            }
            if (service.workspace.isAnnotationFile(document.uri, document.languageId)) diagnostics.opened(document.uri);
            service.documentChanged(document);
        }),
    );
    documents.onDidChangeContent(
        safe("change", undefined, ({ document }) => {
            diagnostics.quoteChanged(document);
            service.documentChanged(document);
        }),
    );
    documents.onDidClose(
        safe("close", undefined, ({ document }) => {
            buffers.closed(document.uri);
            diagnostics.closed(document.uri);
            if (service.documentClosed(document) === "forgotten") diagnostics.forget(document.uri);
        }),
    );
}
