/**
 * The language service over a memory workspace (docs/testing.md, "A feature test on the memory
 * workspace"): no disk, no connection, every file the service opens recorded. `reads()` gives the
 * paths read since it was last called, absolute (the root is `/workspace`), in order.
 */
import * as assert from "node:assert/strict";
import { TextDocument } from "vscode-languageserver-textdocument";
import type { FetchPage } from "../../server/src/features/quoteFiles";
import { createLanguageService } from "../../server/src/languageService";
import { createMemoryWorkspace } from "../../server/src/workspace/memoryWorkspace";
import { workspaceHost } from "../../server/src/workspace/workspaceHost";

export const ROOT = "/workspace";

export function serviceOver(files: Record<string, string>, options: { fetchPage?: FetchPage } = {}) {
    const workspace = createMemoryWorkspace(files, { root: ROOT });
    const open = new Map<string, TextDocument>();
    const changed: string[] = [];
    const service = createLanguageService({
        ...workspaceHost(workspace),
        documents: { get: (uri) => open.get(uri) },
        logger: { error: (message) => assert.fail(message) },
        events: { changed: (list) => changed.push(...list.map((f) => f.uri)), removed() {}, refsCanFollow() {} },
        fetchPage: options.fetchPage,
    });
    service.initialize({ rootUri: `file://${ROOT}` });
    /** The URI of a file of the workspace (a path relative to the root). */
    const uri = (name: string) => `file://${ROOT}/${name}`;
    /** Open a file in the editor: its text as given, else as the workspace has it; the service is told. */
    const openDocument = (name: string, languageId: string, text = workspace.files()[name]) => {
        const document = TextDocument.create(uri(name), languageId, 1, text);
        open.set(document.uri, document);
        service.documentOpened(document);
        return document;
    };
    /** Replace an open document's text, as an edit in the editor would. */
    const editDocument = (document: TextDocument, text: string) => {
        const next = TextDocument.update(document, [{ text }], document.version + 1);
        open.set(next.uri, next);
        service.documentEdited(next);
        return next;
    };
    const reads = () => workspace.reads.splice(0);
    return { workspace, service, uri, openDocument, editDocument, reads, changed };
}
