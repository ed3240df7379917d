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

    /**
     * Paths deleted on disk while their buffer was open and unedited since: the document is gone, as
     * the CLI sees it, not kept alive by a buffer the editor marks deleted (docs/editor-features.md,
     * "One state"). Typing into the buffer, or the file coming back, makes the buffer count again.
     */
    private readonly deleted = new Set<string>();

    get(absolutePath: string): TextDocument | undefined {
        const uri = this.deleted.has(absolutePath) ? undefined : this.paths.get(absolutePath);
        return uri !== undefined ? this.documents.get(uri) : undefined;
    }

    /** The open buffer of a file with the URI the client knows it by (the agent tools' view). */
    buffer(absolutePath: string): { uri: string; text: string } | undefined {
        const uri = this.deleted.has(absolutePath) ? undefined : this.paths.get(absolutePath);
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
        this.kept(uri);
    }

    /** The file of an open buffer was deleted on disk. */
    fileDeleted(uri: string): void {
        const path = uriToPath(uri);
        if (path !== undefined && this.paths.has(path)) this.deleted.add(path);
    }

    /** The buffer was edited, or its file is back on disk: the buffer counts again. */
    kept(uri: string): void {
        const path = uriToPath(uri);
        if (path !== undefined) this.deleted.delete(path);
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
            buffers.kept(document.uri);
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
