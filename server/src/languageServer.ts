/**
 * The SourceCheck language server: the language service (languageService.ts) bound to a connection by
 * one registration per LSP area (server/src/lsp/, docs/architecture.md). All state lives in one call of
 * `startLanguageServer`, so a test (or a second connection) gets a server of its own.
 */
import { type Connection, type InitializeResult, TextDocumentSyncKind, TextDocuments } from "vscode-languageserver";
import { TextDocument } from "vscode-languageserver-textdocument";
import { citedSpansChangedNotification, refsCanFollowNotification } from "../../shared/requestTypes";
import { CODE_ACTION_KINDS } from "./features/codeActions";
import type { EvidenceFeature } from "./features/evidence";
import type { FetchPage } from "./features/quoteFiles";
import { QUOTE_CODE_ACTION_KINDS } from "./features/quoteFiles";
import { createLanguageService, type LanguageService } from "./languageService";
import { registerCodeActions } from "./lsp/codeActions";
import { registerCompletion } from "./lsp/completion";
import { askForConfigurationChanges, loadConfiguration, registerConfiguration } from "./lsp/configuration";
import { ClientState, guardWith, type ServerContext } from "./lsp/context";
import { type AgentToolHandler, registerCustomRequests } from "./lsp/customRequests";
import { DiagnosticsChannel, registerDiagnostics } from "./lsp/diagnostics";
import { OpenBuffers, registerDocuments } from "./lsp/documents";
import { registerHover } from "./lsp/hover";
import { Indexer, watchWorkspaceFolders } from "./lsp/indexing";
import { registerWatchedFiles, watchFiles } from "./lsp/watchedFiles";
import type { AnnotationFile } from "./workspace/annotationFile";
import { readSettings } from "./workspace/settings";
import { uriToPath } from "./workspace/uris";
import type { PendingReads } from "./workspace/workspaceFiles";
import { WorkspaceIndex } from "./workspace/workspaceIndex";

/**
 * What differs between the Node server (server.ts) and the web worker (browserServer.ts): how files
 * are read, and the capabilities only Node has (docs/web.md). Absent ones answer with a sentence
 * saying they are not available in VS Code for the Web.
 */
export interface ServerHost {
    /** Reads still on their way (the browser's files come from the client); none on Node. */
    reads?: PendingReads;
    /** The workspace folders' URIs, once known (the browser maps that scheme's URIs to paths). */
    folders?(uris: string[]): void;
    fetchPage?: FetchPage;
    evidence?: EvidenceFeature;
    agentTool?: AgentToolHandler;
}

/** What the server offers, given what the client can do. */
function serverCapabilities(client: ClientState): InitializeResult["capabilities"] {
    return {
        textDocumentSync: TextDocumentSyncKind.Incremental,
        hoverProvider: true,
        codeActionProvider: {
            codeActionKinds: [...CODE_ACTION_KINDS, ...QUOTE_CODE_ACTION_KINDS],
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
export function startLanguageServer(connection: Connection, host: ServerHost = {}): void {
    // Edits of cited documents are recorded as they are applied, so refs into them can follow (features/followEdits.ts).
    const documents: TextDocuments<TextDocument> = new TextDocuments<TextDocument>({
        create: TextDocument.create,
        update: (document, changes, version): TextDocument => service.follower.update(document, changes, version),
    });
    const buffers = new OpenBuffers(documents);
    const client = new ClientState(connection);
    const service: LanguageService = createLanguageService({
        workspace: new WorkspaceIndex(buffers, host.reads),
        fetchPage: host.fetchPage,
        evidence: host.evidence,
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
        const uris = params.workspaceFolders?.map((f) => f.uri) ?? (params.rootUri ? [params.rootUri] : []);
        host.folders?.(uris);
        const folders = params.workspaceFolders?.map((f) => uriToPath(f.uri)) ?? [
            params.rootUri ? uriToPath(params.rootUri) : (params.rootPath ?? undefined),
        ];
        service.workspace.folders = folders.filter((f): f is string => typeof f === "string");
        service.workspace.configure(readSettings(params.initializationOptions));
        return { capabilities: serverCapabilities(client), serverInfo: { name: "sourcecheck" } };
    });
    connection.onInitialized(async () => {
        watchFiles(context);
        askForConfigurationChanges(context);
        watchWorkspaceFolders(context, indexer);
        // Path completion waits for the scan's list of files; the scan needs the exclusion settings first.
        const scanned = loadConfiguration(context).then(() => service.workspace.scan());
        service.workspace.expectScan(scanned);
        await indexer.index(scanned);
    });
    registerConfiguration(context, indexer);
    registerDocuments(context, buffers, diagnostics);
    registerWatchedFiles(context, diagnostics, indexer, buffers);
    registerDiagnostics(context, diagnostics);
    registerHover(context);
    registerCodeActions(context);
    registerCompletion(context);
    registerCustomRequests(context, { indexer, buffers, diagnostics, agentTool: host.agentTool });
    documents.listen(connection);
    connection.listen();
}
