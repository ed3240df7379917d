/**
 * The language service's answers to the custom protocol (docs/custom-protocol.md;
 * shared/requestTypes.ts): cited spans, coverage, the view's lists, refs following edits and renames,
 * the client's authoring writes, locks, Find Sources, the agent tools, quote files. The registrations
 * (lsp/customRequests.ts) only bind these to the connection.
 */
import type { WorkspaceEdit } from "vscode-languageserver-protocol";
import type { AgentToolParams, AgentToolResult } from "../../../shared/agentToolProtocol";
import type {
    AnnotationEditParams,
    AnnotationEditResult,
    CitedSpansResult,
    CoverageResult,
    FileAnnotationsResult,
    FileSummary,
    LineIndexResult,
    LockRefsParams,
    LockRefsResult,
    LspRange,
    PathsForRenameParams,
    RefForSelectionResult,
    RefUpdate,
} from "../../../shared/customProtocol";
import type { FindEvidenceParams, FindEvidenceResult } from "../../../shared/evidenceProtocol";
import type { ConvertQuotesResult, RefetchQuotesResult } from "../../../shared/quoteProtocol";
import { OperationCancelled } from "../agentTools/cooperative";
import { annotationEdit } from "../features/annotationEdit";
import { citedSpans, coverage, lineIndex, refForSelection } from "../features/customRequests";
import type { SearchWork } from "../features/evidenceClaim";
import { fileAnnotations } from "../features/fileAnnotations";
import { pathsForRename } from "../features/followEdits";
import { lockRefs } from "../features/lockRefs";
import { NOT_IN_BROWSER, type ServiceCore } from "./core";
import { repairWorkspace } from "./repairWorkspace";

export function customRequests(core: ServiceCore) {
    const { workspace, analysis, follower, quotes, documents, buffers, logger } = core;
    return {
        /** The resolved spans inside a document and the refs into it that fail (once pending checks ran). */
        citedSpans(uri: string): CitedSpansResult {
            analysis.settle();
            return citedSpans(workspace, uri);
        },
        /** Every document some known annotation file cites. */
        citedDocuments(): { uris: string[] } {
            analysis.settle();
            return { uris: workspace.citedPaths().map((path) => workspace.uris.pathToUri(path)) };
        },
        refForSelection: (uri: string, range: LspRange): RefForSelectionResult =>
            refForSelection(workspace, analysis.current(uri), uri, range),
        /** Every known annotation file (whole once the caller waited for the scan and its checks). */
        annotationFiles(): { uris: string[] } {
            analysis.settle();
            return { uris: workspace.all().map((file) => file.uri) };
        },
        /** The annotations of an annotation file; undefined when the document is not one. */
        fileAnnotations(uri: string): FileAnnotationsResult | undefined {
            const file = analysis.current(uri);
            return file ? fileAnnotations(workspace, file) : undefined;
        },
        /** The verdicts of an annotation file; undefined when the document is not one. */
        fileSummary: (uri: string): FileSummary | undefined => analysis.current(uri)?.summary(),
        coverage(uri: string): CoverageResult {
            analysis.settle();
            return coverage(workspace, uri);
        },
        lineIndex: (uri: string): LineIndexResult | undefined => lineIndex(workspace, uri),
        /** The refs that can follow the edits of a cited document, taken (docs/editor-features.md). */
        followEdits: (uri: string): RefUpdate => follower.take(uri),
        dismissFollowEdits: (uri: string): void => follower.dismiss(uri),
        pathsForRename(params: PathsForRenameParams): RefUpdate {
            analysis.settle();
            return pathsForRename(
                workspace,
                params,
                (uri) => analysis.current(uri),
                (uri) => documents.get(uri)?.version,
            );
        },
        /** The client's authoring writes: the service computes the edit, the client applies it (one undo). */
        annotationEdit: (params: AnnotationEditParams): AnnotationEditResult => annotationEdit(params),
        /**
         * Locks kept by the editor (docs/lock.md, "In the editor"): computed and written here. Once
         * `cancelled` says so it throws OperationCancelled between annotations, before any write.
         */
        async lockRefs(params: LockRefsParams, cancelled?: () => boolean): Promise<LockRefsResult> {
            const result = await lockRefs(workspace, analysis.current(params.uri), params, cancelled);
            // The new lock is read when the file is checked again: drift and its diagnostics update now.
            if (result.written) analysis.fileChanged(params.uri);
            return result;
        },
        /** Find Sources (docs/evidence.md), reporting its steps and stopping when cancelled; in the browser it says it is not there. */
        async findEvidence(params: FindEvidenceParams, work: SearchWork = {}): Promise<FindEvidenceResult> {
            if (!core.evidence) return { ok: false, message: `Searching for evidence ${NOT_IN_BROWSER}` };
            // In the browser the annotation file and its claim's document may still be on their way.
            const file = await core.answerOnceRead(() => analysis.current(params.annotationUri));
            return core.evidence.find(file, params, (m) => logger.error(m), work);
        },
        /** Whether Find Sources is there (the Node server) or says it is not (the browser: docs/web.md). */
        canFindEvidence: (): boolean => core.evidence !== undefined,
        /**
         * The agent tools (docs/agents.md) over the workspace as the editor has it; a write is one edit the
         * client applies. Once `cancelled` says so, check, lock, repair and annotate stop between
         * annotations with OperationCancelled, before any write.
         */
        async agentTool(
            params: AgentToolParams,
            applyEdit: (edit: WorkspaceEdit, label: string) => Promise<boolean>,
            cancelled?: () => boolean,
        ): Promise<AgentToolResult> {
            if (!core.agentTool)
                return {
                    ok: false,
                    error: { code: "unavailable", message: `The SourceCheck agent tools ${NOT_IN_BROWSER}` },
                };
            // A tool called at start-up sees every file, as the CLI and MCP do ("did you mean" lists them).
            await workspace.whenScanned();
            const result = await core.agentTool(workspace, params, {
                buffer: (path) => buffers.buffer(path),
                applyEdit,
                cancelled,
            });
            if (!result.ok && result.error.code === "cancelled") throw new OperationCancelled();
            return result;
        },
        /**
         * Every certain repair of every annotation file, as one edit the client applies
         * (service/repairWorkspace.ts); OperationCancelled, and no edit, once `cancelled` says so.
         */
        repairWorkspace: (cancelled?: () => boolean) => repairWorkspace(core, cancelled),
        /** Re-fetch the pages a quote file cites (docs/quotes.md); `signal` cancels. */
        refetchQuotes: (uri: string, signal: AbortSignal): Promise<RefetchQuotesResult> => quotes.refetch(uri, signal),
        convertQuotes: (uri: string): ConvertQuotesResult => quotes.convert(uri),
    };
}
