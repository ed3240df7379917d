/**
 * Open buffers by file-system path: a cited document's unsaved text wins over the disk. The language
 * service keeps them from the documents the editor opens, edits and closes (languageService.ts).
 */
import type { TextDocument } from "vscode-languageserver-textdocument";
import type { BufferStore } from "./documentSource";
import type { UriSpace } from "./uris";

/** The open documents, by URI (the server's TextDocuments). */
export interface OpenDocuments {
    get(uri: string): TextDocument | undefined;
}

export class OpenBuffers implements BufferStore {
    private readonly paths = new Map<string, string>();

    /** @param uris how URIs name paths, as the workspace index has it (it is set when the service starts). */
    constructor(
        private readonly documents: OpenDocuments,
        private readonly uris: () => UriSpace,
    ) {}

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
        const path = this.uris().uriToPath(uri);
        if (path !== undefined) this.paths.set(path, uri);
    }

    closed(uri: string): void {
        const path = this.uris().uriToPath(uri);
        if (path !== undefined) this.paths.delete(path);
        this.kept(uri);
    }

    /** The file of an open buffer was deleted on disk. */
    fileDeleted(uri: string): void {
        const path = this.uris().uriToPath(uri);
        if (path !== undefined && this.paths.has(path)) this.deleted.add(path);
    }

    /** The buffer was edited, or its file is back on disk: the buffer counts again. */
    kept(uri: string): void {
        const path = this.uris().uriToPath(uri);
        if (path !== undefined) this.deleted.delete(path);
    }
}
