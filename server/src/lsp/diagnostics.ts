/**
 * Diagnostics over the connection (docs/editor-features.md): pulled (textDocument/diagnostic) when
 * the client supports it, else pushed. In pull mode the URIs the client pulls (open documents, and
 * tabs it pulls on its own) are kept with the stamp last served, to know when to ask for a refresh;
 * every other annotation file (found by the scan) is pushed. A URI moves to pull the moment the client
 * pulls it, and its pushed diagnostics are cleared so nothing shows twice.
 */
import type { TextDocument } from "vscode-languageserver-textdocument";
import type { AnnotationFile } from "../languageService";
import type { ServerContext } from "./context";

export class DiagnosticsChannel {
    private readonly pulled = new Map<string, number | undefined>();
    private readonly pushed = new Set<string>();
    /** Quote files whose diagnostics were pushed (push mode only). */
    private readonly quotesPushed = new Set<string>();

    constructor(private readonly context: ServerContext) {}

    /** Checked files: push those pushed, ask the client to pull again those it pulls at an older stamp. */
    changed(files: AnnotationFile[]): void {
        const { documents, client } = this.context;
        let refreshPull = false;
        for (const file of files) {
            const open = documents.get(file.uri);
            if (open && open.version !== file.version) continue; // superseded: a newer check is pending
            if (client.pullDiagnostics && this.pulled.has(file.uri)) {
                if (this.pulled.get(file.uri) !== file.stamp) refreshPull = true;
            } else {
                this.push(file, open?.version);
            }
        }
        if (refreshPull) client.refreshDiagnostics();
    }

    /** An annotation file that can no longer be read: its diagnostics go, pushed or pulled. */
    removed(uri: string): void {
        this.forget(uri);
        if (this.pulled.has(uri)) this.context.client.refreshDiagnostics();
    }

    /** No longer an annotation file (or gone): clear what was pushed for it. */
    forget(uri: string): void {
        this.pushed.delete(uri);
        void this.context.connection.sendDiagnostics({ uri, diagnostics: [] });
    }

    /** An annotation file opened: in pull mode the client pulls it from now on, so drop what was pushed. */
    opened(uri: string): void {
        if (!this.context.client.pullDiagnostics) return;
        this.pulled.set(uri, undefined);
        this.unpush(uri);
    }

    closed(uri: string): void {
        this.pulled.delete(uri);
        if (this.quotesPushed.delete(uri)) void this.context.connection.sendDiagnostics({ uri, diagnostics: [] });
    }

    /** Serve a pull; an annotation file pulled is the client's from now on. */
    pull(uri: string, previousResultId: string | undefined) {
        const { report, file } = this.context.service.diagnostics(uri, previousResultId);
        if (file) {
            this.pulled.set(file.uri, file.stamp);
            this.unpush(file.uri);
        }
        return report;
    }

    /** A quote file opened, changed or re-fetched: push its diagnostics (the client pulls them otherwise). */
    quoteChanged(document: TextDocument): void {
        const { service, client, connection } = this.context;
        if (!service.isQuoteFile(document.uri) || client.pullDiagnostics) return;
        const diagnostics = service.quoteDiagnostics(document.uri);
        if (diagnostics.length > 0 || this.quotesPushed.has(document.uri)) {
            void connection.sendDiagnostics({ uri: document.uri, version: document.version, diagnostics });
        }
        if (diagnostics.length > 0) this.quotesPushed.add(document.uri);
        else this.quotesPushed.delete(document.uri);
    }

    private push(file: AnnotationFile, version?: number): void {
        const diagnostics = this.context.service.annotationDiagnostics(file);
        void this.context.connection.sendDiagnostics({ uri: file.uri, version, diagnostics });
        if (file.problems.length > 0) this.pushed.add(file.uri);
        else this.pushed.delete(file.uri);
    }

    private unpush(uri: string): void {
        if (this.pushed.delete(uri)) void this.context.connection.sendDiagnostics({ uri, diagnostics: [] });
    }
}

export function registerDiagnostics(context: ServerContext, channel: DiagnosticsChannel): void {
    const answer = context.safe("diagnostics", { kind: "full" as const, items: [] }, (uri: string, previous?: string) =>
        channel.pull(uri, previous),
    );
    context.connection.languages.diagnostics.on(async (params) => {
        // Reads still on their way (the browser's files come from the client: docs/web.md) are waited for:
        // a pull never answers from a half-read check.
        await context.service.whenRead(params.textDocument.uri);
        return answer(params.textDocument.uri, params.previousResultId);
    });
}
