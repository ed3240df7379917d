/**
 * The language service's answers to the standard LSP requests (hover, code actions, completion,
 * navigation, inlay hints, diagnostics), in LSP types. `target` is the one place that says whether a
 * document is an annotation file, a quote file (TraceCite traces, notes, Markdown reports) or neither.
 */
import type {
    CodeAction,
    CodeActionParams,
    CompletionItem,
    CompletionParams,
    DefinitionParams,
    Diagnostic,
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
import { CODE_ACTION_KINDS, codeActions } from "../features/codeActions";
import { completion } from "../features/completion";
import { diagnosticsOf, pullReport } from "../features/diagnostics";
import { hover } from "../features/hover";
import { inlayHints } from "../features/inlayHints";
import { definition, documentLinks, references } from "../features/navigation";
import { offsetAt, positionAt } from "../features/positions";
import { QUOTE_CODE_ACTION_KINDS } from "../features/quoteFiles";
import { schemaCompletion } from "../features/schemaCompletion";
import type { AnnotationFile } from "../workspace/annotationFile";
import { CONFIG_FILE_NAME } from "../workspace/projectConfig";
import { SYNCHRONOUS_READS } from "../workspace/workspaceFiles";
import type { ServiceCore } from "./core";

/** Which service a document belongs to. */
export type Target = { kind: "annotation"; file: AnnotationFile } | { kind: "quote" } | { kind: "none" };

/** Every kind of code action the service offers (the server's capabilities). */
export const ALL_CODE_ACTION_KINDS = [...CODE_ACTION_KINDS, ...QUOTE_CODE_ACTION_KINDS];

export function editorRequests(core: ServiceCore) {
    const { workspace, analysis, quotes } = core;
    const answerOnceRead = <R>(compute: () => R): R | Promise<R> => core.answerOnceRead(compute);
    /** The one dispatch by document kind: an annotation file first, else an open quote file, else neither. */
    const target = (uri: string): Target => {
        const file = analysis.current(uri);
        if (file) return { kind: "annotation", file };
        return quotes.handles(uri) ? { kind: "quote" } : { kind: "none" };
    };
    return {
        target,
        /** Reads a check asked for are still on their way (VS Code for the Web: docs/web.md). */
        readsPending: (): boolean => workspace.reads.hasPending(),
        /** Every read is answered at once (Node): nothing is ever pending, no request waits. */
        readsSynchronous: (): boolean => workspace.reads === SYNCHRONOUS_READS,
        answerOnceRead,
        /**
         * Resolves once the reads a check of this document asked for have arrived and it was checked again
         * with them (VS Code for the Web: docs/web.md); at once on Node, where nothing is pending.
         */
        async whenRead(uri: string): Promise<void> {
            await answerOnceRead(() => analysis.current(uri));
        },
        /** The pull report of a document, and the annotation file it was made from (none for quote files). */
        diagnostics(
            uri: string,
            previousResultId: string | undefined,
        ): { report: DocumentDiagnosticReport; file?: AnnotationFile } {
            const found = target(uri);
            if (found.kind === "quote") return { report: quotes.pullReport(uri) };
            if (found.kind === "none") return { report: pullReport(workspace, undefined, previousResultId) };
            return { report: pullReport(workspace, found.file, previousResultId, core.translate), file: found.file };
        },
        /** The diagnostics of a checked annotation file, to push. */
        annotationDiagnostics: (file: AnnotationFile): Diagnostic[] => diagnosticsOf(workspace, file, core.translate),
        /** The diagnostics of an open quote file, to push. */
        quoteDiagnostics: (uri: string): Diagnostic[] => quotes.diagnostics(uri),
        hover(params: HoverParams): Hover | null {
            const found = target(params.textDocument.uri);
            if (found.kind === "annotation") return hover(workspace, found.file, params.position, core.translate);
            return found.kind === "quote" ? quotes.hover(params) : null;
        },
        codeActions(params: CodeActionParams): CodeAction[] {
            const found = target(params.textDocument.uri);
            if (found.kind === "annotation") return codeActions(workspace, found.file, params, core.translate);
            return found.kind === "quote" ? quotes.codeActions(params, core.translate) : [];
        },
        definition(params: DefinitionParams, linkSupport: boolean) {
            const file = analysis.current(params.textDocument.uri);
            return file ? definition(workspace, file, params.position, linkSupport) : null;
        },
        references(params: ReferenceParams) {
            const file = analysis.current(params.textDocument.uri);
            return references(workspace, params.textDocument.uri, params.position, file);
        },
        inlayHints(params: InlayHintParams): InlayHint[] {
            if (!workspace.settings.inlayHintsEnabled) return [];
            const file = analysis.current(params.textDocument.uri);
            return file ? inlayHints(file, params.range) : [];
        },
        documentLinks(uri: string): DocumentLink[] {
            const file = analysis.current(uri);
            return file ? documentLinks(workspace, file) : [];
        },
        completion: (params: CompletionParams) => completionOf(core, params),
    };
}

/**
 * Path values complete from the scan's list of files: at start-up, wait for it. A request whose
 * document changed meanwhile is stale (the client asks again): it gets nothing. Elsewhere in the
 * file (a property name, a new annotation): what the schema allows there.
 */
async function completionOf(core: ServiceCore, params: CompletionParams): Promise<CompletionItem[]> {
    const { workspace, documents, analysis, logger } = core;
    const uri = params.textDocument.uri;
    if (workspace.scanPending()) {
        const version = documents.get(uri)?.version;
        await workspace.whenScanned();
        if (documents.get(uri)?.version !== version) return [];
    }
    // From here on synchronous until the schema's turn: edits arriving meanwhile must not mix in.
    const own = ownCompletion(core, params);
    const open = documents.get(uri);
    if (open && isConfigFile(uri)) return configCompletion(core, open, params.position);
    const file = analysis.current(uri);
    if (own.length > 0 || !open || !file || file.text !== open.getText()) return own;
    const snapshot = TextDocument.create(open.uri, open.languageId, open.version, open.getText());
    const lines = {
        offsetAt: (position: Position) => offsetAt(file, position),
        positionAt: (offset: number) => positionAt(file, offset),
    };
    return schemaCompletion(snapshot, params.position, lines).catch((error: unknown) => {
        logger.error(`sourcecheck: schema completion failed: ${String(error)}`);
        return [];
    });
}

/** A sourcecheck.config.json: what its schema allows (its problems come from the configuration loader). */
function configCompletion(core: ServiceCore, open: TextDocument, position: Position): Promise<CompletionItem[]> {
    const snapshot = TextDocument.create(open.uri, open.languageId, open.version, open.getText());
    return schemaCompletion(snapshot, position, snapshot, "config").catch((error: unknown) => {
        core.logger.error(`sourcecheck: configuration completion failed: ${String(error)}`);
        return [];
    });
}

function ownCompletion(core: ServiceCore, params: CompletionParams): CompletionItem[] {
    try {
        const file = core.analysis.current(params.textDocument.uri);
        return file ? completion(core.workspace, file, params.position) : [];
    } catch (error) {
        core.logger.error(`sourcecheck: completion failed: ${error instanceof Error ? error.stack : String(error)}`);
        return [];
    }
}

/** sourcecheck.config.json, by its name (docs/config.md). */
function isConfigFile(uri: string): boolean {
    return uri.slice(uri.lastIndexOf("/") + 1) === CONFIG_FILE_NAME;
}
