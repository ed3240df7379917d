/**
 * What every registration of server/src/lsp/ shares: the connection, the open documents, the language
 * service, what the client can do, and the handler guard. The registrations are the only code that
 * talks LSP over the connection; the features behind the service never see it.
 */
import type { ClientCapabilities, Connection, TextDocuments } from "vscode-languageserver";
import type { TextDocument } from "vscode-languageserver-textdocument";
import type { LanguageService } from "../languageService";

/** The client's capabilities (known from `initialize` on) and the refreshes they allow. */
export class ClientState {
    capabilities: ClientCapabilities = {};

    constructor(private readonly connection: Connection) {}

    /** The client pulls diagnostics (textDocument/diagnostic); otherwise they are pushed. */
    get pullDiagnostics(): boolean {
        return this.capabilities.textDocument?.diagnostic !== undefined;
    }

    refreshDiagnostics(): void {
        if (this.capabilities.workspace?.diagnostics?.refreshSupport)
            void this.connection.languages.diagnostics.refresh();
    }

    refreshInlayHints(): void {
        if (this.capabilities.workspace?.inlayHint?.refreshSupport) void this.connection.languages.inlayHint.refresh();
    }
}

/** Run a handler; bad input must never take the server down, so failures are logged and answered with `fallback`. */
export type Guard = <P extends unknown[], R>(
    name: string,
    fallback: R,
    handler: (...args: P) => R,
) => (...args: P) => R;

export function guardWith(connection: Connection): Guard {
    return (name, fallback, handler) =>
        (...args) => {
            try {
                return handler(...args);
            } catch (error) {
                connection.console.error(
                    `sourcecheck: ${name} failed: ${error instanceof Error ? error.stack : String(error)}`,
                );
                return fallback;
            }
        };
}

export interface ServerContext {
    connection: Connection;
    documents: TextDocuments<TextDocument>;
    service: LanguageService;
    client: ClientState;
    safe: Guard;
}

/**
 * A request about a document, answered once the reads its check asked for arrived and it was checked
 * again with them (VS Code for the Web: docs/web.md), so no answer comes from a half-read check. On
 * Node nothing is ever pending and it answers at once.
 */
export function afterReads<P extends { textDocument: { uri: string } }, R>(
    service: LanguageService,
    handler: (params: P) => R,
): (params: P) => R | Promise<R> {
    return (params) =>
        service.readsPending()
            ? service.whenRead(params.textDocument.uri).then(() => handler(params))
            : handler(params);
}

/**
 * A request about the workspace or a file that may not be open (cited spans, coverage, the view's lists):
 * where files arrive from the client (VS Code for the Web: docs/web.md) it waits for the index under way,
 * then answers once the reads its answer asked for arrived (`LanguageService.answerOnceRead`), so nothing
 * comes from a half-read workspace. On Node, where every read is synchronous, it answers at once.
 */
export function onceRead<P, R>(
    service: LanguageService,
    indexed: () => Promise<void>,
    handler: (params: P) => R,
): (params: P) => R | Promise<R> {
    return (params) =>
        service.readsSynchronous()
            ? handler(params)
            : indexed().then(() => service.answerOnceRead(() => handler(params)));
}
