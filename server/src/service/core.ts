/**
 * What one language service holds (languageService.ts): the workspace index it builds over the open
 * buffers, the analysis, the edit follower and the quote files. Nothing outside the service sees it:
 * the registrations of lsp/ reach it only through the service's methods (docs/architecture.md).
 */
import type { RefsCanFollowParams } from "../../../shared/customProtocol";
import { Analysis, type AnalysisEvents } from "../features/analysis";
import type { EvidenceFinder } from "../features/evidenceClaim";
import type { AgentToolHandler } from "../features/featureWorkspace";
import { EditFollower } from "../features/followEdits";
import { ENGLISH, type Translate } from "../features/messages";
import { type FetchPage, QuoteFiles } from "../features/quoteFiles";
import type { HostReads } from "../workspace/hostReads";
import type { HostLocks } from "../workspace/lockPaths";
import { OpenBuffers, type OpenDocuments } from "../workspace/openBuffers";
import { FILE_URIS, type UriSpace } from "../workspace/uris";
import type { PendingReads } from "../workspace/workspaceFiles";
import { type WalkFileSystems, WorkspaceIndex } from "../workspace/workspaceIndex";

export interface Logger {
    error(message: string): void;
}

/** What the service tells whoever holds the connection: what the analysis tells it, and more. */
export interface ServiceEvents extends Omit<AnalysisEvents, "log"> {
    /** Refs that can follow edits of a cited document (docs/editor-features.md). */
    refsCanFollow(params: RefsCanFollowParams): void;
}

export type { AgentToolHandler };

export interface LanguageServiceOptions {
    /** The open documents (the server's TextDocuments): their unsaved text wins over the disk. */
    documents: OpenDocuments;
    /** Reads still on their way (the browser's files come from the client: docs/web.md); none on Node. */
    reads?: PendingReads;
    /**
     * Where a path leads once links are followed, or undefined when it leads nowhere: the host's
     * (workspace/fileStat.ts on Node, given by server.ts; in the browser every path is its own). An open
     * buffer of a link leading out of its document root is refused by it (docs/contract.md, section 3).
     */
    realPath: (path: string) => string | undefined;
    /**
     * The discovery walk's calls: the disk's on Node (workspace/nodeDiscovery.ts, given by server.ts),
     * the client's files in the browser (workspace/web/clientWalk.ts, given by browserHost.ts).
     */
    walk: WalkFileSystems;
    /** How locks are read and written: the disk's on Node (lockFiles.ts), the client's in the browser, writing none. */
    locks: HostLocks;
    /** How files and documents are read: the safe readers on Node (nodeHost.ts), the client's files in the browser. */
    readers: HostReads;
    /**
     * How URIs name paths, given the workspace folders' URIs when the service starts: on Node (the
     * default) `file:` URIs and the disk's paths; in the browser the first folder's scheme (docs/web.md).
     */
    uris?: (folderUris: string[]) => UriSpace;
    logger: Logger;
    events: ServiceEvents;
    /**
     * How cited pages are re-fetched (the Node server: the strict policy and the system resolver). Absent
     * where pages cannot be fetched (a browser's CORS: docs/web.md): a re-fetch says so.
     */
    fetchPage?: FetchPage;
    /** Evidence search over the workspace (Find Sources); absent in the browser (docs/web.md). */
    evidence?: EvidenceFinder;
    /** The agent tools (VS Code's language model tools); absent in the browser (docs/web.md). */
    agentTool?: AgentToolHandler;
}

/** Said where a capability of the desktop is not there (VS Code for the Web: docs/web.md). */
export const NOT_IN_BROWSER = "is not available in VS Code for the Web (see docs/web.md)";

export class ServiceCore {
    readonly workspace: WorkspaceIndex;
    readonly buffers: OpenBuffers;
    readonly analysis: Analysis;
    readonly follower: EditFollower;
    readonly quotes: QuoteFiles;
    readonly documents: OpenDocuments;
    readonly logger: Logger;
    readonly evidence: EvidenceFinder | undefined;
    readonly agentTool: AgentToolHandler | undefined;
    /** The space of URIs for the workspace folders' URIs (LanguageServiceOptions.uris). */
    readonly uriSpaceFor: (folderUris: string[]) => UriSpace;
    /** The editor's language for diagnostics and hovers (service/language.ts): English until `initialize` says otherwise. */
    translate: Translate = ENGLISH;

    constructor(options: LanguageServiceOptions) {
        const {
            documents,
            reads,
            realPath,
            walk,
            locks,
            readers,
            uris,
            logger,
            events,
            fetchPage,
            evidence,
            agentTool,
        } = options;
        this.documents = documents;
        this.uriSpaceFor = uris ?? (() => FILE_URIS);
        this.logger = logger;
        this.evidence = evidence;
        this.agentTool = agentTool;
        this.buffers = new OpenBuffers(documents, () => this.workspace.uris);
        const workspace = new WorkspaceIndex(this.buffers, { reads, realPath, walk, locks, readers });
        this.workspace = workspace;
        workspace.warn = (message) => logger.error(`warning: ${message}`);
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
        this.quotes = new QuoteFiles(
            documents,
            fetchPage ?? noFetch,
            () => workspace.folders,
            () => workspace.uris,
            (root, path) => workspace.readers.readDocument(root, path),
        );
    }

    /**
     * An answer computed once nothing its computation asked to read is still on its way: computed again
     * after each round of reads arrives (VS Code for the Web: docs/web.md), so no answer comes from a
     * half-read workspace; computed once, at once, on Node, where nothing is pending.
     */
    answerOnceRead<R>(compute: () => R): R | Promise<R> {
        const reads = this.workspace.reads;
        const first = compute();
        if (!reads.hasPending()) return first;
        return (async () => {
            let answer = first;
            for (let round = 0; round < 8 && reads.hasPending(); round++) {
                await reads.settle();
                answer = compute();
            }
            return answer;
        })();
    }
}
