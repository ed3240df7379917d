/**
 * The custom protocol (docs/custom-protocol.md; shared/requestTypes.ts): the
 * requests and notifications the client sends, each answered by the language service.
 */
import * as l10n from "@vscode/l10n";
import { type CancellationToken, ErrorCodes, LSPErrorCodes, ResponseError } from "vscode-languageserver";
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
    repairWorkspaceRequest,
} from "../../../shared/requestTypes";
import { OperationCancelled, type SearchStep } from "../languageService";
import { onceRead, type ServerContext } from "./context";
import type { DiagnosticsChannel } from "./diagnostics";
import type { Indexer } from "./indexing";

function notAnnotationFile(uri: string): ResponseError<void> {
    return new ResponseError(ErrorCodes.InvalidParams, `${uri} is not an annotation file`);
}

/**
 * A request that can run long, run with the client's token as the service's plain `cancelled`: once the
 * client cancels, the service stops between files or annotations, writes nothing, and the request
 * answers as LSP says, RequestCancelled. Any other failure is logged and answered with `fallback`.
 */
async function cancellable<R>(
    { connection }: ServerContext,
    name: string,
    token: CancellationToken,
    fallback: NoInfer<R>,
    run: (cancelled: () => boolean) => Promise<R>,
): Promise<R | ResponseError<void>> {
    try {
        return await run(() => token.isCancellationRequested);
    } catch (error) {
        if (error instanceof OperationCancelled)
            return new ResponseError(LSPErrorCodes.RequestCancelled, `${name} was cancelled: nothing was written`);
        connection.console.error(
            `sourcecheck: ${name} failed: ${error instanceof Error ? error.stack : String(error)}`,
        );
        return fallback;
    }
}

/** What cited documents and annotation files hold: spans, refs for a selection, summaries, coverage. */
function registerCitationRequests({ connection, service, safe }: ServerContext, indexer: Indexer): void {
    const indexed = () => indexer.settled();
    connection.onRequest(
        citedSpansRequest,
        onceRead(
            service,
            indexed,
            safe("citedSpans", { uri: "", spans: [], brokenRefs: [] }, (params) => service.citedSpans(params.uri)),
        ),
    );
    connection.onRequest(
        citedDocumentsRequest,
        onceRead(
            service,
            indexed,
            safe("citedDocuments", { uris: [] }, () => service.citedDocuments()),
        ),
    );
    connection.onRequest(
        refForSelectionRequest,
        onceRead(
            service,
            indexed,
            safe("refForSelection", { ok: false as const, message: "the server could not compute a ref" }, (params) =>
                service.refForSelection(params.uri, params.range),
            ),
        ),
    );
    connection.onRequest(annotationFilesRequest, async () => {
        // The list is whole only once the scan and the check of what it found are over.
        await indexer.settled();
        return service.answerOnceRead(safe("annotationFiles", { uris: [] }, () => service.annotationFiles()));
    });
    connection.onRequest(
        fileAnnotationsRequest,
        onceRead(service, indexed, (params) => {
            const result = safe("fileAnnotations", { uri: params.uri, annotations: [] }, () =>
                service.fileAnnotations(params.uri),
            )();
            return result ?? notAnnotationFile(params.uri);
        }),
    );
    connection.onRequest(
        fileSummaryRequest,
        onceRead(service, indexed, (params) => {
            const summary = safe("fileSummary", undefined, () => service.fileSummary(params.uri))();
            return summary ?? notAnnotationFile(params.uri);
        }),
    );
    connection.onRequest(
        coverageRequest,
        onceRead(
            service,
            indexed,
            safe("coverage", { coveredChars: 0, totalChars: 0, ratio: 0 }, (params) => service.coverage(params.uri)),
        ),
    );
    connection.onRequest(
        lineIndexRequest,
        onceRead(service, indexed, (params) => {
            const result = safe("lineIndex", undefined, () => service.lineIndex(params.uri))();
            return result ?? new ResponseError(ErrorCodes.InvalidParams, `cannot read ${params.uri}`);
        }),
    );
}

/** Refs that follow edits and renames (docs/editor-features.md). */
function registerRefUpdateRequests({ connection, service, safe }: ServerContext, indexer: Indexer): void {
    const indexed = () => indexer.settled();
    connection.onRequest(
        followEditsRequest,
        safe("followEdits", { edit: {}, refCount: 0, fileCount: 0 }, (params) => service.followEdits(params.uri)),
    );
    connection.onNotification(
        dismissFollowEditsNotification,
        safe("dismissFollowEdits", undefined, (params) => service.dismissFollowEdits(params.uri)),
    );
    connection.onRequest(
        pathsForRenameRequest,
        onceRead(
            service,
            indexed,
            safe("pathsForRename", { edit: {}, refCount: 0, fileCount: 0 }, (params) => service.pathsForRename(params)),
        ),
    );
}

/** The client's authoring writes: the server computes the edit, the client applies it (one undo). */
function registerAuthoringRequests({ connection, service, safe }: ServerContext): void {
    connection.onRequest(
        annotationEditRequest,
        safe("annotationEdit", { ok: false as const, message: "the server could not compute the edit" }, (params) =>
            service.annotationEdit(params),
        ),
    );
}

/**
 * "Fix All Certain Repairs in Workspace": once the scan is done, the service runs the repair operation
 * over every annotation file and answers one edit; the client applies it (one undo). Cancellable
 * between files: then no edit at all.
 */
function registerRepairWorkspaceRequest(context: ServerContext, indexer: Indexer): void {
    const failed = { ok: false as const, message: "the server could not repair the workspace" };
    context.connection.onRequest(repairWorkspaceRequest, async (_params, token: CancellationToken) => {
        await indexer.settled();
        return cancellable(context, "repairWorkspace", token, failed, (cancelled) =>
            context.service.repairWorkspace(cancelled),
        );
    });
}

/** Locks kept by the editor (docs/lock.md, "In the editor"): the server computes and writes them; cancellable. */
function registerLockRequests(context: ServerContext): void {
    const failed = { ok: false, message: "the server could not lock the refs", written: false, hadLock: false };
    const fallback = { ...failed, locked: 0, changed: 0, unresolved: 0, accepted: 0 };
    context.connection.onRequest(lockRefsRequest, (params, token: CancellationToken) =>
        cancellable(context, "lockRefs", token, fallback, (cancelled) => context.service.lockRefs(params, cancelled)),
    );
}

/** Reading the files is most of a cold search: 0-90 %; checking the best candidates the rest. */
function progressPercent(step: SearchStep): number {
    const share = step.total > 0 ? step.done / step.total : 1;
    return Math.round(step.phase === "reading" ? share * 90 : 90 + share * 10);
}

/** The line under the progress title, in the editor's language (docs/localization.md). */
function progressMessage(step: SearchStep): string {
    return step.phase === "reading"
        ? l10n.t("{0} of {1} files read", step.done, step.total)
        : l10n.t("{0} of {1} passages checked", step.done, step.total);
}

/** Evidence search and the agent tools (docs/evidence.md, docs/agents.md); absent in the browser, they say so. */
function registerAgentRequests(context: ServerContext, indexer: Indexer): void {
    const { connection, service } = context;
    connection.onRequest(findEvidenceRequest, async (params, token: CancellationToken) => {
        if (!service.canFindEvidence()) return service.findEvidence(params);
        // Where files come from the client (docs/web.md), the annotation file is known once the scan is done.
        if (!service.readsSynchronous()) await indexer.settled();
        // Progress under the client's token (none without one); cancellable: the search stops between steps.
        const reporter = connection.window.attachWorkDoneProgress(params.workDoneToken);
        reporter.begin(l10n.t("Searching for sources"), 0, undefined, true);
        try {
            return await service.findEvidence(params, {
                cancelled: () => token.isCancellationRequested,
                progress: (step) => reporter.report(progressPercent(step), progressMessage(step)),
            });
        } catch (error) {
            connection.console.error(
                `sourcecheck: findEvidence failed: ${error instanceof Error ? error.stack : String(error)}`,
            );
            return { ok: false as const, message: "the server could not search for evidence" };
        } finally {
            reporter.done();
        }
    });
    // Cancellable: check, lock, repair and annotate stop between annotations, before they write.
    const failed = { ok: false as const, error: { code: "internal-error", message: "the agent tool failed" } };
    connection.onRequest(agentToolRequest, (params, token: CancellationToken) =>
        cancellable(context, "agentTool", token, failed, (cancelled) =>
            service.agentTool(
                params,
                async (edit, label) => (await connection.workspace.applyEdit({ label, edit })).applied,
                cancelled,
            ),
        ),
    );
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
            const result = await service.refetchQuotes(params.uri, controller.signal);
            const document = documents.get(params.uri);
            if (result.ok && client.pullDiagnostics) client.refreshDiagnostics();
            else if (result.ok && document) diagnostics.quoteChanged(document);
            return result;
        } finally {
            cancel.dispose();
        }
    });
    connection.onRequest(convertQuotesRequest, (params) => service.convertQuotes(params.uri));
}

export function registerCustomRequests(
    context: ServerContext,
    parts: { indexer: Indexer; diagnostics: DiagnosticsChannel },
): void {
    registerCitationRequests(context, parts.indexer);
    registerRefUpdateRequests(context, parts.indexer);
    registerAuthoringRequests(context);
    registerLockRequests(context);
    registerRepairWorkspaceRequest(context, parts.indexer);
    registerAgentRequests(context, parts.indexer);
    registerQuoteRequests(context, parts.diagnostics);
}
