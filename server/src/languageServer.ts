/**
 * The SourceCheck language server: the language service (languageService.ts) bound to a connection by
 * one registration per LSP area (server/src/lsp/, docs/architecture.md). All state lives in one call of
 * `startLanguageServer`, so a test (or a second connection) gets a server of its own.
 */
import { type Connection, type InitializeResult, TextDocumentSyncKind, TextDocuments } from "vscode-languageserver";
import type { TextDocument } from "vscode-languageserver-textdocument";
import { citedSpansChangedNotification, refsCanFollowNotification } from "../../shared/requestTypes";
import {
    ALL_CODE_ACTION_KINDS,
    type AnnotationFile,
    createLanguageService,
    type LanguageService,
    type LanguageServiceOptions,
} from "./languageService";
import { registerCodeActions } from "./lsp/codeActions";
import { registerCompletion } from "./lsp/completion";
import { askForConfigurationChanges, loadConfiguration, registerConfiguration } from "./lsp/configuration";
import { ClientState, guardWith, type ServerContext } from "./lsp/context";
import { registerCustomRequests } from "./lsp/customRequests";
import { DiagnosticsChannel, registerDiagnostics } from "./lsp/diagnostics";
import { registerDocuments } from "./lsp/documents";
import { registerHover } from "./lsp/hover";
import { Indexer, watchWorkspaceFolders } from "./lsp/indexing";
import { registerWatchedFiles, watchFiles } from "./lsp/watchedFiles";

/**
 * What differs between the Node server (server.ts) and the web worker (browserServer.ts): how files
 * are read, how URIs name paths, and the capabilities only Node has (docs/web.md). Absent ones answer
 * with a sentence saying they are not available in VS Code for the Web.
 */
export type ServerHost = Pick<
    LanguageServiceOptions,
    "reads" | "realPath" | "walk" | "locks" | "readers" | "uris" | "fetchPage" | "evidence" | "agentTool"
>;

/** What the server offers, given what the client can do. */
function serverCapabilities(client: ClientState): InitializeResult["capabilities"] {
    return {
        textDocumentSync: TextDocumentSyncKind.Incremental,
        hoverProvider: true,
        codeActionProvider: {
            codeActionKinds: ALL_CODE_ACTION_KINDS,
            resolveProvider: false,
        },
        completionProvider: { triggerCharacters: ['"'], resolveProvider: false },
        definitionProvider: true,
        referencesProvider: true,
        inlayHintProvider: true,
        documentLinkProvider: { resolveProvider: false },
        diagnosticProvider: client.pullDiagnostics
            ? { identifier: "sourcecheck", interFileDependencies: true, workspaceDiagnostics: false }
            : undefined,
        workspace: { workspaceFolders: { supported: true, changeNotifications: true } },
    };
}

/** Wire every handler to a connection and start listening. */
export function startLanguageServer(connection: Connection, host: ServerHost): void {
    // Buffers hold their text in pieces, so an edit costs what changed (workspace/editedDocument.ts); edits
    // of cited documents are recorded as they are applied, so refs into them can follow (features/followEdits.ts).
    const documents: TextDocuments<TextDocument> = new TextDocuments<TextDocument>({
        create: (uri, languageId, version, text) => service.createDocument(uri, languageId, version, text),
        update: (document, changes, version): TextDocument => service.applyChanges(document, changes, version),
    });
    const client = new ClientState(connection);
    const service: LanguageService = createLanguageService({
        reads: host.reads,
        realPath: host.realPath,
        walk: host.walk,
        locks: host.locks,
        readers: host.readers,
        uris: host.uris,
        fetchPage: host.fetchPage,
        evidence: host.evidence,
        agentTool: host.agentTool,
        documents,
        logger: { error: (message) => connection.console.error(message) },
        events: {
            changed: (files, citedUris) => afterChange(files, citedUris),
            removed: (uri) => diagnostics.removed(uri),
            refsCanFollow: (params) => void connection.sendNotification(refsCanFollowNotification, params),
        },
    });
    const context: ServerContext = { connection, documents, service, client, safe: guardWith(connection) };
    const diagnostics = new DiagnosticsChannel(context);

    /** After files were checked: their diagnostics, the inlay hints, and the cited spans the client shows. */
    function afterChange(files: AnnotationFile[], citedUris: string[]): void {
        diagnostics.changed(files);
        if (files.length > 0) client.refreshInlayHints();
        if (citedUris.length > 0) void connection.sendNotification(citedSpansChangedNotification, { uris: citedUris });
    }
    const indexer = new Indexer(context, diagnostics, afterChange);

    connection.onInitialize((params): InitializeResult => {
        client.capabilities = params.capabilities;
        service.initialize(params);
        return { capabilities: serverCapabilities(client), serverInfo: { name: "sourcecheck" } };
    });
    connection.onInitialized(async () => {
        watchFiles(context);
        askForConfigurationChanges(context);
        watchWorkspaceFolders(context, indexer);
        // Path completion waits for the scan's list of files; the scan needs the exclusion settings first.
        const scanned = loadConfiguration(context).then(() => service.scan());
        service.expectScan(scanned);
        await indexer.index(scanned);
    });
    registerConfiguration(context, indexer);
    registerDocuments(context, diagnostics);
    registerWatchedFiles(context, diagnostics, indexer);
    registerDiagnostics(context, diagnostics);
    registerHover(context);
    registerCodeActions(context);
    registerCompletion(context);
    registerCustomRequests(context, { indexer, diagnostics });
    documents.listen(connection);
    connection.listen();
}
