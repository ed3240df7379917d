/**
 * Document sync: open, change and close of any document. An annotation file is re-checked, a cited
 * document re-resolves the refs into it, a quote file gets its own diagnostics; open buffers win over
 * the disk (their unsaved text is what refs resolve against).
 */
import type { ServerContext } from "./context";
import type { DiagnosticsChannel } from "./diagnostics";

export function registerDocuments(context: ServerContext, diagnostics: DiagnosticsChannel): void {
    const { documents, service, client, safe } = context;
    documents.onDidOpen(
        safe("open", undefined, ({ document }) => {
            if (service.isQuoteFile(document.uri)) {
                // A file whose language was just switched to a trace or notes (a configured glob) was
                // pulled under its old language: ask the client to pull again.
                if (client.pullDiagnostics && service.quoteLanguageSwitched(document)) client.refreshDiagnostics();
                diagnostics.quoteChanged(document);
            }
            if (service.isAnnotationFile(document.uri, document.languageId)) diagnostics.opened(document.uri);
            service.documentOpened(document);
        }),
    );
    documents.onDidChangeContent(
        safe("change", undefined, ({ document }) => {
            diagnostics.quoteChanged(document);
            service.documentEdited(document);
        }),
    );
    documents.onDidClose(
        safe("close", undefined, ({ document }) => {
            diagnostics.closed(document.uri);
            if (service.documentClosed(document) === "forgotten") diagnostics.forget(document.uri);
        }),
    );
}
