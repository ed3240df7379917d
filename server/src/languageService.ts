/**
 * The language service behind the connection (docs/architecture.md), as vscode-markdown-languageservice's
 * `createLanguageService`: every editor feature over one workspace, answering in LSP types and holding
 * no `Connection`. Annotation files and quote files (TraceCite traces, notes, Markdown reports) are two
 * services behind the same registrations (server/src/lsp/); `target` is the one place that says which
 * of them a document belongs to. Pages are fetched only through `fetchPage`, documents read only
 * through the workspace.
 */
import type {
    CodeAction,
    CodeActionParams,
    CompletionItem,
    CompletionParams,
    DefinitionParams,
    DocumentDiagnosticReport,
    DocumentLink,
    Hover,
    HoverParams,
    InlayHint,
    InlayHintParams,
    Position,
    ReferenceParams,
} from "vscode-languageserver-protocol";
import { TextDocument } from "vscode-languageserver-textdocument";
import type { RefsCanFollowParams } from "../../shared/customProtocol";
import { Analysis, type AnalysisEvents } from "./features/analysis";
import { codeActions } from "./features/codeActions";
import { completion } from "./features/completion";
import { pullReport } from "./features/diagnostics";
import type { EvidenceFeature } from "./features/evidence";
import { EditFollower } from "./features/followEdits";
import { hover } from "./features/hover";
import { inlayHints } from "./features/inlayHints";
import { definition, documentLinks, references } from "./features/navigation";
import { offsetAt, positionAt } from "./features/positions";
import { type FetchPage, QuoteFiles } from "./features/quoteFiles";
import { schemaCompletion } from "./features/schemaCompletion";
import type { AnnotationFile } from "./workspace/annotationFile";
import { CONFIG_FILE_NAME } from "./workspace/projectConfig";
import { uriToPath } from "./workspace/uris";
import type { WorkspaceIndex } from "./workspace/workspaceIndex";

export interface Logger {
    error(message: string): void;
}

/** The open documents the service reads (the server's TextDocuments). */
export interface OpenDocuments {
    get(uri: string): TextDocument | undefined;
}

/** What the service tells whoever holds the connection: what the analysis tells it, and more. */
export interface ServiceEvents extends Omit<AnalysisEvents, "log"> {
    /** Refs that can follow edits of a cited document (docs/editor-features.md). */
    refsCanFollow(params: RefsCanFollowParams): void;
}

export interface LanguageServiceOptions {
    workspace: WorkspaceIndex;
    documents: OpenDocuments;
    logger: Logger;
    events: ServiceEvents;
    /**
     * How cited pages are re-fetched (the Node server: the strict policy and the system resolver). Absent
     * where pages cannot be fetched (a browser's CORS: docs/web.md): a re-fetch says so.
     */
    fetchPage?: FetchPage;
    /** Evidence search over the workspace (Find Sources); absent in the browser (docs/web.md). */
    evidence?: EvidenceFeature;
}

/** Said where a capability of the desktop is not there (VS Code for the Web: docs/web.md). */
export const NOT_IN_BROWSER = "is not available in VS Code for the Web (see docs/web.md)";

/** Which service a document belongs to. */
export type Target = { kind: "annotation"; file: AnnotationFile } | { kind: "quote" } | { kind: "none" };

/** What an open, change or close of a document was, for the diagnostics' bookkeeping. */
export type DocumentRole = "annotation" | "cited";

export function createLanguageService(options: LanguageServiceOptions): LanguageService {
    return new LanguageService(options);
}

export class LanguageService {
    readonly workspace: WorkspaceIndex;
    readonly analysis: Analysis;
    readonly follower: EditFollower;
    readonly quotes: QuoteFiles;
    readonly evidence: EvidenceFeature | undefined;
    private readonly documents: OpenDocuments;
    private readonly logger: Logger;

    constructor({ workspace, documents, logger, events, fetchPage, evidence }: LanguageServiceOptions) {
        this.workspace = workspace;
        this.evidence = evidence;
        this.documents = documents;
        this.logger = logger;
        this.analysis = new Analysis(workspace, documents, {
            changed: (files, citedUris) => events.changed(files, citedUris),
            removed: (uri) => events.removed(uri),
            log: (message) => logger.error(message),
        });
        this.follower = new EditFollower(workspace, {
            current: (uri) => this.analysis.current(uri),
            settle: () => this.analysis.settle(),
            openVersion: (uri) => documents.get(uri)?.version,
            notify: (params) => events.refsCanFollow(params),
        });
        const noFetch: FetchPage = async (url) => ({
            ok: false,
            url,
            code: "SOURCE_UNAVAILABLE",
            message: `re-fetching a page ${NOT_IN_BROWSER}`,
        });
        this.quotes = new QuoteFiles(documents, fetchPage ?? noFetch, () => workspace.folders);
    }

    /** The one dispatch by document kind: an annotation file first, else an open quote file, else neither. */
    target(uri: string): Target {
        const file = this.analysis.current(uri);
        if (file) return { kind: "annotation", file };
        return this.quotes.handles(uri) ? { kind: "quote" } : { kind: "none" };
    }

    /**
     * Resolves once the reads a check of this document asked for have arrived and it was checked again
     * with them (VS Code for the Web: docs/web.md); at once on Node, where nothing is pending.
     */
    async whenRead(uri: string): Promise<void> {
        await this.answerOnceRead(() => this.analysis.current(uri));
    }

    /**
     * An answer computed once nothing its computation asked to read is still on its way: computed again
     * after each round of reads arrives (VS Code for the Web: docs/web.md), so no answer comes from a
     * half-read workspace; computed once, at once, on Node, where nothing is pending.
     */
    answerOnceRead<R>(compute: () => R): R | Promise<R> {
        const first = compute();
        if (!this.workspace.reads.hasPending()) return first;
        return (async () => {
            let answer = first;
            for (let round = 0; round < 8 && this.workspace.reads.hasPending(); round++) {
                await this.workspace.reads.settle();
                answer = compute();
            }
            return answer;
        })();
    }

    /** The current analysis of an annotation file, if the document is one. */
    current(uri: string): AnnotationFile | undefined {
        return this.analysis.current(uri);
    }

    /** A document opened or changed: re-check it as an annotation file, or what cites it. */
    documentChanged(document: TextDocument): DocumentRole {
        if (this.workspace.isAnnotationFile(document.uri, document.languageId)) {
            this.analysis.fileChanged(document.uri);
            return "annotation";
        }
        this.analysis.citedChanged(document.uri);
        return "cited";
    }

    /**
     * A document closed: its unsaved edits are gone. An annotation file on disk under a folder is
     * checked again as saved; one that is not (untitled, outside every folder) is forgotten: "forgotten".
     */
    documentClosed(document: TextDocument): DocumentRole | "forgotten" {
        this.follower.closed(document.uri);
        this.quotes.closed(document.uri);
        if (!this.workspace.isAnnotationFile(document.uri, document.languageId)) {
            this.analysis.citedChanged(document.uri);
            return "cited";
        }
        const path = uriToPath(document.uri);
        if (path !== undefined && this.workspace.folderOf(path) !== undefined) {
            this.analysis.fileChanged(document.uri);
            return "annotation";
        }
        this.workspace.remove(document.uri);
        return "forgotten";
    }

    /** The pull report of a document, and the annotation file it was made from (none for quote files). */
    diagnostics(
        uri: string,
        previousResultId: string | undefined,
    ): { report: DocumentDiagnosticReport; file?: AnnotationFile } {
        const target = this.target(uri);
        if (target.kind === "quote") return { report: this.quotes.pullReport(uri) };
        if (target.kind === "none") return { report: pullReport(this.workspace, undefined, previousResultId) };
        return { report: pullReport(this.workspace, target.file, previousResultId), file: target.file };
    }

    hover(params: HoverParams): Hover | null {
        const target = this.target(params.textDocument.uri);
        if (target.kind === "annotation") return hover(this.workspace, target.file, params.position);
        return target.kind === "quote" ? this.quotes.hover(params) : null;
    }

    codeActions(params: CodeActionParams): CodeAction[] {
        const target = this.target(params.textDocument.uri);
        if (target.kind === "annotation") return codeActions(this.workspace, target.file, params);
        return target.kind === "quote" ? this.quotes.codeActions(params) : [];
    }

    definition(params: DefinitionParams, linkSupport: boolean) {
        const file = this.analysis.current(params.textDocument.uri);
        return file ? definition(this.workspace, file, params.position, linkSupport) : null;
    }

    references(params: ReferenceParams) {
        const file = this.analysis.current(params.textDocument.uri);
        return references(this.workspace, params.textDocument.uri, params.position, file);
    }

    inlayHints(params: InlayHintParams): InlayHint[] {
        if (!this.workspace.settings.inlayHintsEnabled) return [];
        const file = this.analysis.current(params.textDocument.uri);
        return file ? inlayHints(file, params.range) : [];
    }

    documentLinks(uri: string): DocumentLink[] {
        const file = this.analysis.current(uri);
        return file ? documentLinks(this.workspace, file) : [];
    }

    /**
     * Path values complete from the scan's list of files: at start-up, wait for it. A request whose
     * document changed meanwhile is stale (the client asks again): it gets nothing. Elsewhere in the
     * file (a property name, a new annotation): what the schema allows there.
     */
    async completion(params: CompletionParams): Promise<CompletionItem[]> {
        const uri = params.textDocument.uri;
        if (this.workspace.scanPending()) {
            const version = this.documents.get(uri)?.version;
            await this.workspace.whenScanned();
            if (this.documents.get(uri)?.version !== version) return [];
        }
        // From here on synchronous until the schema's turn: edits arriving meanwhile must not mix in.
        const own = this.ownCompletion(params);
        const open = this.documents.get(uri);
        if (open && isConfigFile(uri)) return this.configCompletion(open, params.position);
        const file = this.analysis.current(uri);
        if (own.length > 0 || !open || !file || file.text !== open.getText()) return own;
        const snapshot = TextDocument.create(open.uri, open.languageId, open.version, open.getText());
        const lines = {
            offsetAt: (position: Position) => offsetAt(file, position),
            positionAt: (offset: number) => positionAt(file, offset),
        };
        return schemaCompletion(snapshot, params.position, lines).catch((error: unknown) => {
            this.logger.error(`sourcecheck: schema completion failed: ${String(error)}`);
            return [];
        });
    }

    /** A sourcecheck.config.json: what its schema allows (its problems come from the configuration loader). */
    private configCompletion(open: TextDocument, position: Position): Promise<CompletionItem[]> {
        const snapshot = TextDocument.create(open.uri, open.languageId, open.version, open.getText());
        return schemaCompletion(snapshot, position, snapshot, "config").catch((error: unknown) => {
            this.logger.error(`sourcecheck: configuration completion failed: ${String(error)}`);
            return [];
        });
    }

    private ownCompletion(params: CompletionParams): CompletionItem[] {
        try {
            const file = this.analysis.current(params.textDocument.uri);
            return file ? completion(this.workspace, file, params.position) : [];
        } catch (error) {
            this.logger.error(
                `sourcecheck: completion failed: ${error instanceof Error ? error.stack : String(error)}`,
            );
            return [];
        }
    }
}

/** sourcecheck.config.json, by its name (docs/config.md). */
function isConfigFile(uri: string): boolean {
    return uri.slice(uri.lastIndexOf("/") + 1) === CONFIG_FILE_NAME;
}
