/**
 * The cited spans of documents, asked of the server (`sourcecheck/citedSpans`) and cached per document
 * version, shared by the decorations, the hovers and the language status so one edit costs one request.
 */
import * as vscode from "vscode";
import { extensionEnabled } from "./config";
import {
    type CitedSpan,
    type CitedSpansResult,
    citedDocumentsRequest,
    citedSpansChangedNotification,
    citedSpansRequest,
} from "./customRequestTypes";
import { type SourceCheckClient, workspaceScheme } from "./languageClient";
import { ask } from "./requests";

const CITABLE_SCHEMES = new Set(["file", "untitled"]);

/** Only real documents can be cited; virtual ones (line indexes, output, git) are never asked about. */
export function isCitable(uri: vscode.Uri): boolean {
    // In VS Code for the Web the workspace's own scheme is citable too (docs/web.md).
    return CITABLE_SCHEMES.has(uri.scheme) || uri.scheme === workspaceScheme();
}

interface Entry {
    version: number;
    result: Promise<CitedSpansResult>;
}

/** The same spelling as the client library uses on the wire, so server URIs compare equal to ours. */
export function uriKey(uri: vscode.Uri | string): string {
    return typeof uri === "string" ? vscode.Uri.parse(uri).toString() : uri.toString();
}

const CITED_DOCUMENTS_DELAY_MS = 100;

export class CitedSpansStore implements vscode.Disposable {
    private readonly cache = new Map<string, Entry>();
    private readonly changed = new vscode.EventEmitter<string[] | undefined>();
    private readonly citedChanged = new vscode.EventEmitter<void>();
    private readonly disposables: vscode.Disposable[] = [this.changed, this.citedChanged];
    /** URIs of the documents some annotation file cites; undefined until the server has said. */
    private cited: Set<string> | undefined;
    private citedTimer: NodeJS.Timeout | undefined;

    /** Fires with the URIs whose spans may have changed, or undefined for "any document". */
    readonly onDidChange = this.changed.event;
    /** Fires when the set of cited documents changed. */
    readonly onDidChangeCitedDocuments = this.citedChanged.event;

    constructor(
        private readonly sc: SourceCheckClient,
        private readonly output: vscode.OutputChannel,
    ) {
        this.disposables.push(
            sc.client.onNotification(citedSpansChangedNotification, (params) => {
                const uris = Array.isArray(params?.uris) ? params.uris.map(uriKey) : undefined;
                this.invalidate(uris);
                this.scheduleCitedDocuments();
            }),
            sc.onRunning(() => {
                this.invalidate(undefined);
                this.scheduleCitedDocuments();
            }),
            vscode.workspace.onDidChangeTextDocument((event) => {
                // Output channels are documents too and change with every log line (including our trace).
                if (event.contentChanges.length > 0 && isCitable(event.document.uri)) {
                    this.invalidate([uriKey(event.document.uri)]);
                }
            }),
            vscode.workspace.onDidCloseTextDocument((document) => this.cache.delete(uriKey(document.uri))),
        );
    }

    invalidate(uris: string[] | undefined): void {
        if (uris === undefined) this.cache.clear();
        else for (const uri of uris) this.cache.delete(uri);
        this.changed.fire(uris);
    }

    /** True when some annotation file cites the document (or the server has not said yet). */
    isCited(uri: vscode.Uri | string): boolean {
        return this.cited === undefined || this.cited.has(uriKey(uri));
    }

    /** The cited documents, when known. */
    citedDocuments(): string[] | undefined {
        return this.cited && [...this.cited];
    }

    private scheduleCitedDocuments(): void {
        if (this.citedTimer) return;
        this.citedTimer = setTimeout(() => {
            this.citedTimer = undefined;
            void this.refreshCitedDocuments();
        }, CITED_DOCUMENTS_DELAY_MS);
    }

    private async refreshCitedDocuments(): Promise<void> {
        let uris: string[];
        try {
            const result = await ask(this.sc, citedDocumentsRequest, undefined);
            uris = Array.isArray(result?.uris) ? result.uris.map(uriKey) : [];
        } catch (error) {
            this.output.appendLine(`[client] cited documents: ${(error as Error).message}`);
            return;
        }
        const next = new Set(uris);
        const previous = this.cited;
        if (previous && previous.size === next.size && uris.every((u) => previous.has(u))) return;
        this.cited = next;
        // Documents that became (un)cited: their cached answers are stale.
        const moved = previous
            ? [...uris.filter((u) => !previous.has(u)), ...[...previous].filter((u) => !next.has(u))]
            : undefined;
        this.citedChanged.fire();
        this.invalidate(moved);
    }

    /** The spans of the document as it is now; [] when the server cannot say (the reason is logged). */
    async spansOf(document: vscode.TextDocument): Promise<CitedSpan[]> {
        return (await this.resultOf(document)).spans;
    }

    /** The spans and the broken refs into the document as it is now. */
    resultOf(document: vscode.TextDocument): Promise<CitedSpansResult> {
        const key = uriKey(document.uri);
        const none: CitedSpansResult = { uri: key, spans: [], brokenRefs: [] };
        // Documents nobody cites are never asked about.
        if (!isCitable(document.uri) || !this.isCited(document.uri) || !extensionEnabled())
            return Promise.resolve(none);
        const cached = this.cache.get(key);
        if (cached && cached.version === document.version) return cached.result;
        const result = ask(this.sc, citedSpansRequest, { uri: key }).then(
            (answer) => ({
                uri: key,
                spans: Array.isArray(answer?.spans) ? answer.spans : [],
                brokenRefs: Array.isArray(answer?.brokenRefs) ? answer.brokenRefs : [],
            }),
            (error: Error) => {
                this.output.appendLine(`[client] cited spans of ${key}: ${error.message}`);
                // Forget the failure so the next look retries.
                if (this.cache.get(key)?.result === result) this.cache.delete(key);
                return none;
            },
        );
        this.cache.set(key, { version: document.version, result });
        return result;
    }

    dispose(): void {
        if (this.citedTimer) clearTimeout(this.citedTimer);
        for (const d of this.disposables) d.dispose();
    }
}
