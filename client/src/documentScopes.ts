/**
 * Which documents get which features (docs/editor-features.md):
 * - annotation files: every language feature of the server (the client's `documentSelector`);
 * - cited documents: hovers on cited spans and references to the citing refs, registered for the
 *   documents the server says are cited (`sourcecheck/citedDocuments`) and re-registered as that
 *   set changes;
 * - every other `file` document: text sync only, no feature. Any open document can be cited by
 *   the next authoring command or the next `path` typed, and the server must resolve it against
 *   its unsaved text, and see its edits so refs follow them.
 * Registered as a static feature of the client, so every (re)start registers them afresh.
 */
import * as vscode from "vscode";
import {
    DidChangeTextDocumentNotification,
    DidCloseTextDocumentNotification,
    DidOpenTextDocumentNotification,
    type FeatureState,
    type DocumentSelector as ProtocolSelector,
    ReferencesRequest,
    type StaticFeature,
    TextDocumentSyncKind,
} from "vscode-languageclient/node";
import type { CitedSpansStore } from "./citedSpans";
import { documentSchemes, type SourceCheckClient, workspaceScheme } from "./languageClient";
import { filterPattern } from "./uriPaths";

const SYNC_ID = "sourcecheck.syncEveryFile";
const CITED_REFERENCES_ID = "sourcecheck.citedDocumentReferences";
/** Files on disk, and in VS Code for the Web the workspace's own scheme (docs/web.md). */
function syncSelector(): ProtocolSelector {
    return documentSchemes().map((scheme) => ({ scheme }));
}

/** One filter per cited file: a pattern equal to its path (file system path for file:) matches that file only. */
function citedFilters(uris: string[]): { scheme: string; pattern: string }[] {
    const own = workspaceScheme();
    return uris
        .map((uri) => vscode.Uri.parse(uri))
        .filter((uri) => uri.scheme === "file" || uri.scheme === own)
        .map((uri) => ({ scheme: uri.scheme, pattern: filterPattern(uri) }));
}

export class DocumentScopes implements StaticFeature, vscode.Disposable {
    private hover: vscode.Disposable | undefined;
    private running = false;
    private readonly subscription: vscode.Disposable;
    private selector: { scheme: string; pattern: string }[] = [];

    constructor(
        private readonly sc: SourceCheckClient,
        private readonly store: CitedSpansStore,
        private readonly hoverProvider: vscode.HoverProvider,
    ) {
        this.subscription = store.onDidChangeCitedDocuments(() => this.registerCitedFeatures());
        sc.client.registerFeature(this);
    }

    /** The selector the cited-span features are registered for now (for the e2e hook). */
    citedSelector(): vscode.DocumentFilter[] {
        return this.selector;
    }

    fillClientCapabilities(): void {}

    getState(): FeatureState {
        return { kind: "static" };
    }

    /** Called by the client once its own features are initialised, on every start. */
    initialize(_capabilities: unknown, annotationFiles: ProtocolSelector | undefined): void {
        this.running = true;
        const client = this.sc.client;
        const sync = { documentSelector: syncSelector() };
        // Open and close are sent once per document whatever the number of matching registrations.
        client.getFeature(DidOpenTextDocumentNotification.method).register({ id: SYNC_ID, registerOptions: sync });
        client.getFeature(DidCloseTextDocumentNotification.method).register({ id: SYNC_ID, registerOptions: sync });
        // A change is sent once per matching registration: one registration covers annotation files
        // and every file document, so an annotation file's edit is not applied twice.
        const change = client.getFeature(DidChangeTextDocumentNotification.method);
        change.clear();
        change.register({
            id: SYNC_ID,
            registerOptions: {
                documentSelector: [...(annotationFiles ?? []), ...syncSelector()],
                syncKind: TextDocumentSyncKind.Incremental,
            },
        });
        this.registerCitedFeatures();
    }

    clear(): void {
        // The client clears its own features' registrations on stop; ours go with them.
        this.running = false;
    }

    private registerCitedFeatures(): void {
        const uris = this.store.citedDocuments();
        this.selector = uris === undefined ? [] : citedFilters(uris);
        this.hover?.dispose();
        this.hover = vscode.languages.registerHoverProvider(this.selector, this.hoverProvider);
        if (!this.running) return;
        const references = this.sc.client.getFeature(ReferencesRequest.method);
        references.unregister(CITED_REFERENCES_ID);
        if (this.selector.length === 0) return;
        references.register({ id: CITED_REFERENCES_ID, registerOptions: { documentSelector: this.selector } });
    }

    dispose(): void {
        this.subscription.dispose();
        this.hover?.dispose();
    }
}
