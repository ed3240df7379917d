/**
 * The SourceCheck language server: connection wiring only (docs/architecture.md). Every feature lives
 * in features/, documents and the index in workspace/, the format itself in core/. All state lives in
 * one call of `startLanguageServer`, so a test (or a second connection) gets a server of its own.
 */
import {
    type ClientCapabilities,
    type Connection,
    DidChangeConfigurationNotification,
    DidChangeWatchedFilesNotification,
    ErrorCodes,
    FileChangeType,
    type InitializeResult,
    type Position,
    ResponseError,
    TextDocumentSyncKind,
    TextDocuments,
} from "vscode-languageserver/node";
import { TextDocument } from "vscode-languageserver-textdocument";
import {
    agentToolRequest,
    annotationFilesRequest,
    citedDocumentsRequest,
    citedSpansChangedNotification,
    citedSpansRequest,
    coverageRequest,
    dismissFollowEditsNotification,
    fileAnnotationsRequest,
    fileSummaryRequest,
    findEvidenceRequest,
    followEditsRequest,
    lineIndexRequest,
    pathsForRenameRequest,
    refForSelectionRequest,
    refsCanFollowNotification,
} from "../../shared/requestTypes";
import { agentTool } from "./features/agentTools";
import { Analysis } from "./features/analysis";
import { CODE_ACTION_KINDS, codeActions } from "./features/codeActions";
import { completion } from "./features/completion";
import { publishConfigProblems } from "./features/configDiagnostics";
import { citedSpans, coverage, lineIndex, refForSelection } from "./features/customRequests";
import { clear, publish, pullReport } from "./features/diagnostics";
import { EvidenceFeature } from "./features/evidence";
import { fileAnnotations } from "./features/fileAnnotations";
import { EditFollower, pathsForRename } from "./features/followEdits";
import { hover } from "./features/hover";
import { inlayHints } from "./features/inlayHints";
import { definition, documentLinks, references } from "./features/navigation";
import { offsetAt, positionAt } from "./features/positions";
import { schemaCompletion } from "./features/schemaCompletion";
import { QUOTE_CODE_ACTION_KINDS, QuoteFiles } from "./quoteFiles";
import type { AnnotationFile } from "./workspace/annotationFile";
import type { BufferStore } from "./workspace/documentSource";
import { CONFIG_FILE_NAME } from "./workspace/projectConfig";
import { readSettings } from "./workspace/settings";
import { pathToUri, uriToPath } from "./workspace/uris";
import { WorkspaceIndex } from "./workspace/workspaceIndex";
import { enabledGlobs } from "./workspace/workspaceScan";

/** Wire every handler to a connection and start listening. */
/** The settings the server reads: its own, and the exclusions the workspace scan honours. */
const CONFIGURATION_SECTIONS = ["sourcecheck", "files.exclude", "search.exclude"];

export function startLanguageServer(connection: Connection): void {
    // Edits of cited documents are recorded as they are applied, so refs into them can follow (features/followEdits.ts).
    const documents: TextDocuments<TextDocument> = new TextDocuments<TextDocument>({
        create: TextDocument.create,
        update: (document, changes, version): TextDocument => follower.update(document, changes, version),
    });
    /** Open buffers by file-system path: a cited document's unsaved text wins over the disk. */
    const openPaths = new Map<string, string>();
    const buffers: BufferStore = {
        get: (absolutePath) => {
            const uri = openPaths.get(absolutePath);
            return uri !== undefined ? documents.get(uri) : undefined;
        },
    };
    const workspace = new WorkspaceIndex(buffers);
    let capabilities: ClientCapabilities = {};
    const follower: EditFollower = new EditFollower(workspace, {
        current: (uri): AnnotationFile | undefined => analysis.current(uri),
        settle: () => analysis.settle(),
        openVersion: (uri) => documents.get(uri)?.version,
        notify: (params) => void connection.sendNotification(refsCanFollowNotification, params),
    });
    let pullDiagnostics = false;
    /**
     * Pull mode: the URIs the client pulls (open documents, and tabs it pulls on its own) with the stamp
     * last served, to know when to ask for a refresh. Every other annotation file (found by the scan)
     * is pushed; a URI moves to pull the moment the client pulls it, and its pushed diagnostics are
     * cleared so nothing shows twice.
     */
    const pulled = new Map<string, number | undefined>();
    const pushed = new Set<string>();

    function push(file: AnnotationFile, version?: number): void {
        publish(connection, workspace, file, version);
        if (file.problems.length > 0) pushed.add(file.uri);
        else pushed.delete(file.uri);
    }

    function unpush(uri: string): void {
        if (pushed.delete(uri)) clear(connection, uri);
    }

    // TraceCite traces, notes and Markdown reports (docs/quotes.md): their own diagnostics, hovers, actions.
    const quoteFiles = new QuoteFiles(
        connection,
        documents,
        () => pullDiagnostics,
        () => {
            if (capabilities.workspace?.diagnostics?.refreshSupport) connection.languages.diagnostics.refresh();
        },
    );

    const analysis = new Analysis(workspace, documents, {
        changed: (files, citedUris) => afterChange(files, citedUris),
        removed: (uri) => {
            pushed.delete(uri);
            clear(connection, uri);
            if (pulled.has(uri) && capabilities.workspace?.diagnostics?.refreshSupport) {
                connection.languages.diagnostics.refresh();
            }
        },
        log: (message) => connection.console.error(message),
    });

    /** Run a handler; bad input must never take the server down, so failures are logged and answered empty. */
    function safe<P extends unknown[], R>(name: string, fallback: R, handler: (...args: P) => R): (...args: P) => R {
        return (...args: P) => {
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

    function isOpen(uri: string): boolean {
        return documents.get(uri) !== undefined;
    }

    function afterChange(files: AnnotationFile[], citedUris: string[]): void {
        let refreshPull = false;
        for (const file of files) {
            const open = documents.get(file.uri);
            if (open && open.version !== file.version) continue; // superseded: a newer check is pending
            if (pullDiagnostics && pulled.has(file.uri)) {
                if (pulled.get(file.uri) !== file.stamp) refreshPull = true;
            } else {
                push(file, open?.version);
            }
        }
        if (refreshPull && capabilities.workspace?.diagnostics?.refreshSupport) {
            connection.languages.diagnostics.refresh();
        }
        if (files.length > 0 && capabilities.workspace?.inlayHint?.refreshSupport) {
            connection.languages.inlayHint.refresh();
        }
        if (citedUris.length > 0) void connection.sendNotification(citedSpansChangedNotification, { uris: citedUris });
    }

    connection.onInitialize((params): InitializeResult => {
        capabilities = params.capabilities;
        pullDiagnostics = capabilities.textDocument?.diagnostic !== undefined;
        const folders = params.workspaceFolders?.map((f) => uriToPath(f.uri)) ?? [
            params.rootUri ? uriToPath(params.rootUri) : (params.rootPath ?? undefined),
        ];
        workspace.folders = folders.filter((f): f is string => typeof f === "string");
        workspace.configure(readSettings(params.initializationOptions));
        return {
            capabilities: {
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
                diagnosticProvider: pullDiagnostics
                    ? { identifier: "sourcecheck", interFileDependencies: true, workspaceDiagnostics: false }
                    : undefined,
                workspace: { workspaceFolders: { supported: true, changeNotifications: true } },
            },
            serverInfo: { name: "sourcecheck" },
        };
    });

    /** The latest scan-and-check of the workspace (start-up, or after roots or exclusions changed). */
    let indexing: Promise<void> | undefined;

    connection.onInitialized(async () => {
        if (capabilities.workspace?.didChangeWatchedFiles?.dynamicRegistration) {
            void connection.client.register(DidChangeWatchedFilesNotification.type, {
                watchers: [{ globPattern: "**/*" }],
            });
        }
        if (capabilities.workspace?.didChangeConfiguration?.dynamicRegistration) {
            void connection.client.register(DidChangeConfigurationNotification.type, {
                section: CONFIGURATION_SECTIONS,
            });
        }
        if (capabilities.workspace?.workspaceFolders) {
            connection.workspace.onDidChangeWorkspaceFolders(
                safe("workspace folders", undefined, (event) => {
                    const removed = new Set(event.removed.map((f) => uriToPath(f.uri)));
                    const added = event.added.map((f) => uriToPath(f.uri)).filter((f): f is string => f !== undefined);
                    workspace.folders = [...workspace.folders.filter((f) => !removed.has(f)), ...added];
                    void reindex();
                }),
            );
        }
        // Path completion waits for the scan's list of files; the scan needs the exclusion settings first.
        const scanned = loadConfiguration().then(() => workspace.scan());
        workspace.expectScan(scanned);
        indexing = indexWorkspace(scanned);
        await indexing;
    });

    async function loadConfiguration(): Promise<void> {
        if (!capabilities.workspace?.configuration) return;
        try {
            const folders = workspace.folders;
            const [section, ...excludes] = await connection.workspace.getConfiguration([
                { section: "sourcecheck" },
                ...folders.flatMap((folder) => [
                    { section: "files.exclude", scopeUri: pathToUri(folder) },
                    { section: "search.exclude", scopeUri: pathToUri(folder) },
                ]),
            ]);
            const settings = section !== null && section !== undefined ? readSettings(section) : undefined;
            if (settings && JSON.stringify(settings) !== JSON.stringify(workspace.settings)) {
                workspace.configure(settings);
            }
            const globs = (i: number) => [...enabledGlobs(excludes[2 * i]), ...enabledGlobs(excludes[2 * i + 1])];
            workspace.configureExcludes(new Map(folders.map((folder, i) => [folder, globs(i)])));
        } catch (error) {
            connection.console.error(`sourcecheck: reading settings failed: ${String(error)}`);
        }
    }

    /** Find (unless already under way) and check every annotation file of the workspace, with work-done progress. */
    async function indexWorkspace(scanned?: Promise<string[]>): Promise<void> {
        const progress = capabilities.window?.workDoneProgress
            ? await connection.window.createWorkDoneProgress().catch(() => undefined)
            : undefined;
        try {
            progress?.begin("SourceCheck: checking annotation files", 0, "finding annotation files", false);
            const found = await (scanned ?? workspace.scan());
            const files: AnnotationFile[] = [];
            const cited = new Set<string>();
            let slice = Date.now();
            for (const [index, path] of found.entries()) {
                // Let requests and edits in between files, so a large workspace never freezes the editor.
                if (Date.now() - slice > 30) {
                    await new Promise((resolve) => setImmediate(resolve));
                    slice = Date.now();
                }
                const uri = pathToUri(path);
                progress?.report(Math.round((index / Math.max(1, found.length)) * 100), path);
                const file = isOpen(uri) ? analysis.current(uri) : workspace.analyzeFromDisk(uri);
                if (!file) continue;
                files.push(file);
                for (const target of analysis.citedUris(file)) cited.add(target);
            }
            afterChange(files, [...cited]);
            publishConfigProblems((params) => void connection.sendDiagnostics(params), workspace, shownConfigProblems);
        } catch (error) {
            connection.console.error(
                `sourcecheck: indexing failed: ${error instanceof Error ? error.stack : String(error)}`,
            );
        } finally {
            progress?.done();
        }
    }

    /**
     * Settings changed: re-read them; scan and check again only when what they change needs it (what
     * is an annotation file, what is excluded, where documents are read from), never for others.
     */
    async function reconfigure(raw: unknown): Promise<void> {
        const section = (raw as { sourcecheck?: unknown } | null)?.sourcecheck;
        const before = {
            scan: workspace.scanKey(),
            resolution: resolutionKey(),
            inlay: workspace.settings.inlayHintsEnabled,
        };
        if (capabilities.workspace?.configuration) await loadConfiguration();
        else if (section !== undefined) workspace.configure(readSettings(section));
        follower.configured();
        if (workspace.scanKey() !== before.scan || resolutionKey() !== before.resolution) await reindex();
        else if (
            workspace.settings.inlayHintsEnabled !== before.inlay &&
            capabilities.workspace?.inlayHint?.refreshSupport
        ) {
            connection.languages.inlayHint.refresh();
        }
    }

    function resolutionKey(): string {
        return JSON.stringify([workspace.settings.documentRoot, workspace.settings.maxDocumentSize]);
    }

    /** Roots or recognition changed: forget closed files, scan again, clear what is no longer an annotation file. */
    async function reindex(): Promise<void> {
        const before = workspace.all().map((f) => f.uri);
        for (const uri of before) if (!isOpen(uri)) workspace.remove(uri);
        for (const document of documents.all()) {
            if (workspace.isAnnotationFile(document.uri, document.languageId)) analysis.fileChanged(document.uri);
            else if (workspace.get(document.uri)) workspace.remove(document.uri);
        }
        indexing = indexWorkspace();
        await indexing;
        for (const uri of before) {
            if (!workspace.get(uri)) {
                pushed.delete(uri);
                clear(connection, uri);
            }
        }
    }

    connection.onDidChangeConfiguration(
        safe("configuration", undefined, (params) => void reconfigure(params.settings)),
    );

    documents.onDidOpen(
        safe("open", undefined, ({ document }) => {
            const path = uriToPath(document.uri);
            if (path !== undefined) openPaths.set(path, document.uri);
            if (workspace.isAnnotationFile(document.uri, document.languageId)) {
                if (pullDiagnostics) {
                    // Open documents are pulled from now on: drop what was pushed.
                    pulled.set(document.uri, undefined);
                    unpush(document.uri);
                }
                analysis.fileChanged(document.uri);
            } else {
                analysis.citedChanged(document.uri);
            }
        }),
    );

    documents.onDidChangeContent(
        safe("change", undefined, ({ document }) => {
            if (workspace.isAnnotationFile(document.uri, document.languageId)) analysis.fileChanged(document.uri);
            else analysis.citedChanged(document.uri);
        }),
    );

    documents.onDidClose(
        safe("close", undefined, ({ document }) => {
            const path = uriToPath(document.uri);
            if (path !== undefined) openPaths.delete(path);
            pulled.delete(document.uri);
            follower.closed(document.uri);
            if (workspace.isAnnotationFile(document.uri, document.languageId)) {
                // Unsaved edits are gone; the file on disk (if it is one) is what stands now.
                if (path !== undefined && workspace.folderOf(path) !== undefined) {
                    analysis.fileChanged(document.uri);
                } else {
                    workspace.remove(document.uri);
                    pushed.delete(document.uri);
                    clear(connection, document.uri);
                }
            } else {
                analysis.citedChanged(document.uri);
            }
        }),
    );

    /** Configuration files whose problems are shown, so fixing one clears them. */
    const shownConfigProblems = new Set<string>();

    connection.onDidChangeWatchedFiles(
        safe("watched files", undefined, ({ changes }) => {
            let configChanged = false;
            for (const change of changes) {
                const path = uriToPath(change.uri);
                if (path === undefined) continue;
                if (path.split(/[\\/]/).pop() === CONFIG_FILE_NAME) configChanged = true;
                if (change.type === FileChangeType.Deleted) {
                    workspace.noteFileDeleted(path);
                    // A deleted folder comes as one event: every cited document below it changed too.
                    for (const below of workspace.citedUnder(path)) analysis.citedChanged(pathToUri(below));
                } else {
                    workspace.noteFileCreated(path);
                }
                if (isOpen(change.uri)) continue; // the buffer wins over the disk
                if (workspace.isAnnotationFile(change.uri) && !workspace.isSkipped(path)) {
                    if (change.type === FileChangeType.Deleted) {
                        workspace.remove(change.uri);
                        pushed.delete(change.uri);
                        clear(connection, change.uri);
                    } else {
                        analysis.fileChanged(change.uri);
                    }
                }
                analysis.citedChanged(change.uri);
            }
            // Document roots may have moved: check everything again against the new configuration.
            if (configChanged) {
                workspace.configs.clear();
                void reindex();
            }
        }),
    );

    connection.languages.diagnostics.on(
        safe("diagnostics", { kind: "full" as const, items: [] }, (params) => {
            const file = analysis.current(params.textDocument.uri);
            if (!file && quoteFiles.handles(params.textDocument.uri))
                return quoteFiles.pullReport(params.textDocument.uri);
            const report = pullReport(workspace, file, params.previousResultId);
            if (file) {
                pulled.set(file.uri, file.stamp);
                unpush(file.uri);
            }
            return report;
        }),
    );

    connection.onHover(
        safe("hover", null, (params) => {
            const file = analysis.current(params.textDocument.uri);
            return file ? hover(workspace, file, params.position) : quoteFiles.hover(params);
        }),
    );

    connection.onCodeAction(
        safe("code actions", [], (params) => {
            const file = analysis.current(params.textDocument.uri);
            return file ? codeActions(workspace, file, params) : quoteFiles.codeActions(params);
        }),
    );

    connection.onCompletion(async (params) => {
        // Path values complete from the scan's list of files: at start-up, wait for it. A request whose
        // document changed meanwhile is stale (the client asks again): it gets nothing.
        if (workspace.scanPending()) {
            const version = documents.get(params.textDocument.uri)?.version;
            await workspace.whenScanned();
            if (documents.get(params.textDocument.uri)?.version !== version) return [];
        }
        // From here on synchronous until the schema's turn: edits arriving meanwhile must not mix in.
        const own = safe("completion", [], () => {
            const file = analysis.current(params.textDocument.uri);
            return file ? completion(workspace, file, params.position) : [];
        })();
        const open = documents.get(params.textDocument.uri);
        const file = analysis.current(params.textDocument.uri);
        if (own.length > 0 || !open || !file || file.text !== open.getText()) return own;
        // Elsewhere in the file (a property name, a new annotation): what the schema allows there.
        const snapshot = TextDocument.create(open.uri, open.languageId, open.version, open.getText());
        const lines = {
            offsetAt: (position: Position) => offsetAt(file, position),
            positionAt: (offset: number) => positionAt(file, offset),
        };
        return schemaCompletion(snapshot, params.position, lines).catch((error: unknown) => {
            connection.console.error(`sourcecheck: schema completion failed: ${String(error)}`);
            return [];
        });
    });

    connection.onDefinition(
        safe("definition", null, (params) => {
            const file = analysis.current(params.textDocument.uri);
            const linkSupport = capabilities.textDocument?.definition?.linkSupport === true;
            return file ? definition(workspace, file, params.position, linkSupport) : null;
        }),
    );

    connection.onReferences(
        safe("references", [], (params) => {
            const file = analysis.current(params.textDocument.uri);
            return references(workspace, params.textDocument.uri, params.position, file);
        }),
    );

    connection.languages.inlayHint.on(
        safe("inlay hints", [], (params) => {
            if (!workspace.settings.inlayHintsEnabled) return [];
            const file = analysis.current(params.textDocument.uri);
            return file ? inlayHints(file, params.range) : [];
        }),
    );

    connection.onDocumentLinks(
        safe("document links", [], (params) => {
            const file = analysis.current(params.textDocument.uri);
            return file ? documentLinks(workspace, file) : [];
        }),
    );

    // Custom protocol (README "Language server protocol extensions").
    connection.onRequest(
        citedSpansRequest,
        safe("citedSpans", { uri: "", spans: [], brokenRefs: [] }, (params) => {
            analysis.settle();
            return citedSpans(workspace, params.uri);
        }),
    );

    connection.onRequest(
        citedDocumentsRequest,
        safe("citedDocuments", { uris: [] }, () => {
            analysis.settle();
            return { uris: workspace.citedPaths().map(pathToUri) };
        }),
    );

    connection.onRequest(
        refForSelectionRequest,
        safe("refForSelection", { ok: false as const, message: "the server could not compute a ref" }, (params) =>
            refForSelection(workspace, analysis.current(params.uri), params.uri, params.range),
        ),
    );

    connection.onRequest(annotationFilesRequest, async () => {
        // The list is whole only once the scan and the check of what it found are over.
        for (let seen: Promise<void> | undefined; seen !== indexing; ) {
            seen = indexing;
            await seen?.catch(() => undefined);
        }
        return safe("annotationFiles", { uris: [] }, () => {
            analysis.settle();
            return { uris: workspace.all().map((file) => file.uri) };
        })();
    });

    connection.onRequest(fileAnnotationsRequest, (params) => {
        const file = safe("fileAnnotations", undefined, () => analysis.current(params.uri))();
        if (!file) return new ResponseError(ErrorCodes.InvalidParams, `${params.uri} is not an annotation file`);
        return safe("fileAnnotations", { uri: params.uri, annotations: [] }, () => fileAnnotations(workspace, file))();
    });

    connection.onRequest(fileSummaryRequest, (params) => {
        const file = safe("fileSummary", undefined, () => analysis.current(params.uri))();
        if (!file) return new ResponseError(ErrorCodes.InvalidParams, `${params.uri} is not an annotation file`);
        return file.summary();
    });

    connection.onRequest(
        coverageRequest,
        safe("coverage", { coveredChars: 0, totalChars: 0, ratio: 0 }, (params) => {
            analysis.settle();
            return coverage(workspace, params.uri);
        }),
    );

    connection.onRequest(lineIndexRequest, (params) => {
        const result = safe("lineIndex", undefined, () => lineIndex(workspace, params.uri))();
        return result ?? new ResponseError(ErrorCodes.InvalidParams, `cannot read ${params.uri}`);
    });

    connection.onRequest(
        followEditsRequest,
        safe("followEdits", { edit: {}, refCount: 0, fileCount: 0 }, (params) => follower.take(params.uri)),
    );

    connection.onNotification(
        dismissFollowEditsNotification,
        safe("dismissFollowEdits", undefined, (params) => follower.dismiss(params.uri)),
    );

    connection.onRequest(
        pathsForRenameRequest,
        safe("pathsForRename", { edit: {}, refCount: 0, fileCount: 0 }, (params) => {
            analysis.settle();
            return pathsForRename(
                workspace,
                params,
                (uri) => analysis.current(uri),
                (uri) => documents.get(uri)?.version,
            );
        }),
    );

    const evidence = new EvidenceFeature();
    connection.onRequest(
        findEvidenceRequest,
        safe("findEvidence", { ok: false as const, message: "the server could not search for evidence" }, (params) =>
            evidence.find(analysis.current(params.annotationUri), params, (m) => connection.console.error(m)),
        ),
    );

    connection.onRequest(agentToolRequest, (params) =>
        agentTool(workspace, params, {
            buffer: (path) => {
                const uri = openPaths.get(path);
                const open = uri === undefined ? undefined : documents.get(uri);
                return uri !== undefined && open ? { uri, text: open.getText() } : undefined;
            },
            applyEdit: async (edit, label) => (await connection.workspace.applyEdit({ label, edit })).applied,
        }),
    );

    documents.listen(connection);
    connection.listen();
}
