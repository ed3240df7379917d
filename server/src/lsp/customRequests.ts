/**
 * The custom protocol (docs/custom-protocol.md; shared/requestTypes.ts): the
 * requests and notifications the client sends, each answered by the language service.
 */
import { type CancellationToken, ErrorCodes, ResponseError } from "vscode-languageserver";
import type { AgentToolResult } from "../../../shared/agentToolProtocol";
import {
    agentToolRequest,
    annotationEditRequest,
    annotationFilesRequest,
    citedDocumentsRequest,
    citedSpansRequest,
    convertQuotesRequest,
    coverageRequest,
    dismissFollowEditsNotification,
    fileAnnotationsRequest,
    fileSummaryRequest,
    findEvidenceRequest,
    followEditsRequest,
    lineIndexRequest,
    lockRefsRequest,
    pathsForRenameRequest,
    refetchQuotesRequest,
    refForSelectionRequest,
} from "../../../shared/requestTypes";
import type { SearchStep } from "../evidence/steps";
import type { agentTool } from "../features/agentTools";
import { annotationEdit } from "../features/annotationEdit";
import { citedSpans, coverage, lineIndex, refForSelection } from "../features/customRequests";
import { fileAnnotations } from "../features/fileAnnotations";
import { pathsForRename } from "../features/followEdits";
import { lockRefs } from "../features/lockRefs";
import { NOT_IN_BROWSER } from "../languageService";
import { pathToUri } from "../workspace/uris";
import { onceRead, type ServerContext } from "./context";
import type { DiagnosticsChannel } from "./diagnostics";
import type { OpenBuffers } from "./documents";
import type { Indexer } from "./indexing";

function notAnnotationFile(uri: string): ResponseError<void> {
    return new ResponseError(ErrorCodes.InvalidParams, `${uri} is not an annotation file`);
}

/** What cited documents and annotation files hold: spans, refs for a selection, summaries, coverage. */
function registerCitationRequests({ connection, service, safe }: ServerContext, indexer: Indexer): void {
    const { workspace, analysis } = service;
    const indexed = () => indexer.settled();
    connection.onRequest(
        citedSpansRequest,
        onceRead(
            service,
            indexed,
            safe("citedSpans", { uri: "", spans: [], brokenRefs: [] }, (params) => {
                analysis.settle();
                return citedSpans(workspace, params.uri);
            }),
        ),
    );
    connection.onRequest(
        citedDocumentsRequest,
        onceRead(
            service,
            indexed,
            safe("citedDocuments", { uris: [] }, () => {
                analysis.settle();
                return { uris: workspace.citedPaths().map(pathToUri) };
            }),
        ),
    );
    connection.onRequest(
        refForSelectionRequest,
        onceRead(
            service,
            indexed,
            safe("refForSelection", { ok: false as const, message: "the server could not compute a ref" }, (params) =>
                refForSelection(workspace, analysis.current(params.uri), params.uri, params.range),
            ),
        ),
    );
    connection.onRequest(annotationFilesRequest, async () => {
        // The list is whole only once the scan and the check of what it found are over.
        await indexer.settled();
        return service.answerOnceRead(
            safe("annotationFiles", { uris: [] }, () => {
                analysis.settle();
                return { uris: workspace.all().map((file) => file.uri) };
            }),
        );
    });
    connection.onRequest(
        fileAnnotationsRequest,
        onceRead(service, indexed, (params) => {
            const file = safe("fileAnnotations", undefined, () => analysis.current(params.uri))();
            if (!file) return notAnnotationFile(params.uri);
            return safe("fileAnnotations", { uri: params.uri, annotations: [] }, () =>
                fileAnnotations(workspace, file),
            )();
        }),
    );
    connection.onRequest(
        fileSummaryRequest,
        onceRead(service, indexed, (params) => {
            const file = safe("fileSummary", undefined, () => analysis.current(params.uri))();
            return file ? file.summary() : notAnnotationFile(params.uri);
        }),
    );
    connection.onRequest(
        coverageRequest,
        onceRead(
            service,
            indexed,
            safe("coverage", { coveredChars: 0, totalChars: 0, ratio: 0 }, (params) => {
                analysis.settle();
                return coverage(workspace, params.uri);
            }),
        ),
    );
    connection.onRequest(
        lineIndexRequest,
        onceRead(service, indexed, (params) => {
            const result = safe("lineIndex", undefined, () => lineIndex(workspace, params.uri))();
            return result ?? new ResponseError(ErrorCodes.InvalidParams, `cannot read ${params.uri}`);
        }),
    );
}

/** Refs that follow edits and renames (docs/editor-features.md). */
function registerRefUpdateRequests({ connection, service, documents, safe }: ServerContext, indexer: Indexer): void {
    const { workspace, analysis, follower } = service;
    const indexed = () => indexer.settled();
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
        onceRead(
            service,
            indexed,
            safe("pathsForRename", { edit: {}, refCount: 0, fileCount: 0 }, (params) => {
                analysis.settle();
                return pathsForRename(
                    workspace,
                    params,
                    (uri) => analysis.current(uri),
                    (uri) => documents.get(uri)?.version,
                );
            }),
        ),
    );
}

/** The client's authoring writes: the server computes the edit, the client applies it (one undo). */
function registerAuthoringRequests({ connection, safe }: ServerContext): void {
    connection.onRequest(
        annotationEditRequest,
        safe("annotationEdit", { ok: false as const, message: "the server could not compute the edit" }, (params) =>
            annotationEdit(params),
        ),
    );
}

/** Locks kept by the editor (docs/lock.md, "In the editor"): the server computes and writes them. */
function registerLockRequests({ connection, service, safe }: ServerContext): void {
    const failed = { ok: false, message: "the server could not lock the refs", written: false, hadLock: false };
    connection.onRequest(
        lockRefsRequest,
        safe("lockRefs", { ...failed, locked: 0, changed: 0, unresolved: 0, accepted: 0 }, (params) => {
            const result = lockRefs(service.workspace, service.analysis.current(params.uri), params);
            // The new lock is read when the file is checked again: drift and its diagnostics update now.
            if (result.written) service.analysis.fileChanged(params.uri);
            return result;
        }),
    );
}

/** Reading the files is most of a cold search: 0-90 %; checking the best candidates the rest. */
function progressPercent(step: SearchStep): number {
    const share = step.total > 0 ? step.done / step.total : 1;
    return Math.round(step.phase === "reading" ? share * 90 : 90 + share * 10);
}

/** The line under the progress title (English, as everything the server says: docs/localization.md). */
function progressMessage(step: SearchStep): string {
    return step.phase === "reading"
        ? `${step.done} of ${step.total} files read`
        : `${step.done} of ${step.total} passages checked`;
}

/** The agent tools' handler (features/agentTools.ts), given by the Node server only (docs/web.md). */
export type AgentToolHandler = typeof agentTool;

/** Evidence search and the agent tools (docs/evidence.md, docs/agents.md); absent in the browser, they say so. */
function registerAgentRequests(
    { connection, service }: ServerContext,
    buffers: OpenBuffers,
    agentTool: AgentToolHandler | undefined,
): void {
    connection.onRequest(findEvidenceRequest, async (params, token: CancellationToken) => {
        const evidence = service.evidence;
        if (!evidence) return { ok: false as const, message: `Searching for evidence ${NOT_IN_BROWSER}` };
        // Progress under the client's token (none without one); cancellable: the search stops between steps.
        const reporter = connection.window.attachWorkDoneProgress(params.workDoneToken);
        reporter.begin("Searching for sources", 0, undefined, true);
        try {
            return await evidence.find(
                service.current(params.annotationUri),
                params,
                (m) => connection.console.error(m),
                {
                    cancelled: () => token.isCancellationRequested,
                    progress: (step) => reporter.report(progressPercent(step), progressMessage(step)),
                },
            );
        } catch (error) {
            connection.console.error(
                `sourcecheck: findEvidence failed: ${error instanceof Error ? error.stack : String(error)}`,
            );
            return { ok: false as const, message: "the server could not search for evidence" };
        } finally {
            reporter.done();
        }
    });
    connection.onRequest(agentToolRequest, async (params): Promise<AgentToolResult> => {
        if (!agentTool)
            return {
                ok: false,
                error: { code: "unavailable", message: `The SourceCheck agent tools ${NOT_IN_BROWSER}` },
            };
        // A tool called at start-up sees every file, as the CLI and MCP do ("did you mean" lists them).
        await service.workspace.whenScanned();
        return agentTool(service.workspace, params, {
            buffer: (path) => buffers.buffer(path),
            applyEdit: async (edit, label) => (await connection.workspace.applyEdit({ label, edit })).applied,
        });
    });
}

/** Quote files (docs/quotes.md): re-fetch the cited pages on request, convert to an annotation file. */
function registerQuoteRequests(
    { connection, service, documents, client }: ServerContext,
    diagnostics: DiagnosticsChannel,
): void {
    connection.onRequest(refetchQuotesRequest, async (params, token: CancellationToken) => {
        const controller = new AbortController();
        const cancel = token.onCancellationRequested(() => controller.abort());
        try {
            const result = await service.quotes.refetch(params.uri, controller.signal);
            const document = documents.get(params.uri);
            if (result.ok && client.pullDiagnostics) client.refreshDiagnostics();
            else if (result.ok && document) diagnostics.quoteChanged(document);
            return result;
        } finally {
            cancel.dispose();
        }
    });
    connection.onRequest(convertQuotesRequest, (params) => service.quotes.convert(params.uri));
}

export function registerCustomRequests(
    context: ServerContext,
    parts: { indexer: Indexer; buffers: OpenBuffers; diagnostics: DiagnosticsChannel; agentTool?: AgentToolHandler },
): void {
    registerCitationRequests(context, parts.indexer);
    registerRefUpdateRequests(context, parts.indexer);
    registerAuthoringRequests(context);
    registerLockRequests(context);
    registerAgentRequests(context, parts.buffers, parts.agentTool);
    registerQuoteRequests(context, parts.diagnostics);
}
