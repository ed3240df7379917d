/**
 * Indexing: find every annotation file of the workspace (the one discovery of workspace/discovery.ts)
 * and check it, with work-done progress, yielding between files so a large workspace never freezes the
 * editor; again when the folders, the recognition or the exclusions change.
 */
import * as l10n from "@vscode/l10n";
import type { AnnotationFile } from "../languageService";
import type { ServerContext } from "./context";
import type { DiagnosticsChannel } from "./diagnostics";

/** How long indexing works before it lets requests and edits in. */
const SLICE_MS = 30;
/** Rounds of reads a check may wait for: annotation file, configuration and lock, cited documents. */
const MAX_READ_ROUNDS = 8;

export class Indexer {
    /** The latest scan-and-check of the workspace (start-up, or after roots or exclusions changed). */
    private indexing: Promise<void> | undefined;
    /** Configuration files whose problems are shown, so fixing one clears them. */
    private readonly shownConfigProblems = new Set<string>();

    constructor(
        private readonly context: ServerContext,
        private readonly diagnostics: DiagnosticsChannel,
        /** After a check of files: diagnostics, inlay hints, cited spans (languageServer.ts). */
        private readonly afterChange: (files: AnnotationFile[], citedUris: string[]) => void,
    ) {}

    /** Find (unless `scanned` is already under way) and check every annotation file. */
    index(scanned?: Promise<string[]>): Promise<void> {
        this.indexing = this.run(scanned);
        return this.indexing;
    }

    /** Resolves once no scan-and-check is under way, including one started while waiting. */
    async settled(): Promise<void> {
        for (let seen: Promise<void> | undefined; seen !== this.indexing; ) {
            seen = this.indexing;
            await seen?.catch(() => undefined);
        }
    }

    /** Roots or recognition changed: forget closed files, scan again, clear what is no longer an annotation file. */
    async reindex(): Promise<void> {
        const { service, documents } = this.context;
        const before = service.beforeReindex(documents.all());
        await this.index();
        for (const uri of before) if (!service.isKnown(uri)) this.diagnostics.forget(uri);
    }

    private async run(scanned?: Promise<string[]>): Promise<void> {
        const { connection, client } = this.context;
        const progress = client.capabilities.window?.workDoneProgress
            ? await connection.window.createWorkDoneProgress().catch(() => undefined)
            : undefined;
        try {
            // In the editor's language (service/language.ts configured @vscode/l10n at initialize).
            progress?.begin(
                l10n.t("SourceCheck: checking annotation files"),
                0,
                l10n.t("finding annotation files"),
                false,
            );
            const found = await (scanned ?? this.context.service.scan());
            const report = (index: number, path: string) =>
                progress?.report(Math.round((index / Math.max(1, found.length)) * 100), path);
            let { files, cited } = await this.checkAll(found, report);
            // Reads still on their way (the browser's files come from the client: docs/web.md): each
            // round finds the next ones (configurations, locks, cited documents); nothing half-read is shown.
            const { service } = this.context;
            for (let round = 0; round < MAX_READ_ROUNDS && service.readsPending(); round++) {
                await service.settleReads();
                ({ files, cited } = await this.checkAll(found, report));
            }
            this.afterChange(files, cited);
            service.publishConfigProblems(
                (params) => void connection.sendDiagnostics(params),
                this.shownConfigProblems,
            );
        } catch (error) {
            connection.console.error(
                `sourcecheck: indexing failed: ${error instanceof Error ? error.stack : String(error)}`,
            );
        } finally {
            progress?.done();
        }
    }

    private async checkAll(
        found: string[],
        report: (index: number, path: string) => void,
    ): Promise<{ files: AnnotationFile[]; cited: string[] }> {
        const { service } = this.context;
        const files: AnnotationFile[] = [];
        const cited = new Set<string>();
        let slice = Date.now();
        for (const [index, path] of found.entries()) {
            // Let requests and edits in between files, so a large workspace never freezes the editor.
            if (Date.now() - slice > SLICE_MS) {
                // setTimeout, not setImmediate: a web worker has no setImmediate (docs/web.md).
                await new Promise((resolve) => setTimeout(resolve, 0));
                slice = Date.now();
            }
            report(index, path);
            const found = service.checkFound(path);
            if (!found.file) continue;
            files.push(found.file);
            for (const target of found.cited) cited.add(target);
        }
        return { files, cited: [...cited] };
    }
}

/** Once initialized: folders added or removed, the workspace is indexed again. */
export function watchWorkspaceFolders(context: ServerContext, indexer: Indexer): void {
    const { connection, client, service, safe } = context;
    if (!client.capabilities.workspace?.workspaceFolders) return;
    connection.workspace.onDidChangeWorkspaceFolders(
        safe("workspace folders", undefined, (event) => {
            service.changeFolders(
                event.added.map((f) => f.uri),
                event.removed.map((f) => f.uri),
            );
            void indexer.reindex();
        }),
    );
}
