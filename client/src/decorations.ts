/**
 * Gutter icons, backgrounds and overview-ruler marks on the cited spans of every visible editor.
 * Refreshes are throttled: bursts of edits, server notifications and editor switches collapse into
 * one pass per interval, and a pass for a document that changed meanwhile is redone, never applied stale.
 */
import * as vscode from "vscode";
import { type CitedSpansStore, uriKey } from "./citedSpans";
import { decorationsEnabled } from "./config";
import { type CitedSpan, type LspRange, SPAN_KINDS, type SpanKind } from "./customRequestTypes";

const THROTTLE_MS = 120;

export interface PlainRange {
    startLine: number;
    startCharacter: number;
    endLine: number;
    endCharacter: number;
}

export type AppliedDecorations = Record<SpanKind, PlainRange[]>;

const RULER_LANES: Record<SpanKind, vscode.OverviewRulerLane> = {
    claim: vscode.OverviewRulerLane.Left,
    supports: vscode.OverviewRulerLane.Center,
    refutes: vscode.OverviewRulerLane.Right,
};

export function toRange(range: LspRange): vscode.Range {
    return new vscode.Range(range.start.line, range.start.character, range.end.line, range.end.character);
}

function plain(range: vscode.Range): PlainRange {
    return {
        startLine: range.start.line,
        startCharacter: range.start.character,
        endLine: range.end.line,
        endCharacter: range.end.character,
    };
}

function emptyApplied(): AppliedDecorations {
    return { claim: [], supports: [], refutes: [] };
}

function createDecorationType(context: vscode.ExtensionContext, kind: SpanKind): vscode.TextEditorDecorationType {
    const icon = (variant: string) => vscode.Uri.joinPath(context.extensionUri, "media", `${kind}${variant}.svg`);
    return vscode.window.createTextEditorDecorationType({
        backgroundColor: new vscode.ThemeColor(`sourcecheck.${kind}Background`),
        // Transparent except in high-contrast themes, where a background alone is not enough.
        border: "1px solid",
        borderColor: new vscode.ThemeColor(`sourcecheck.${kind}Border`),
        overviewRulerColor: new vscode.ThemeColor(`sourcecheck.${kind}OverviewRuler`),
        overviewRulerLane: RULER_LANES[kind],
        gutterIconPath: icon(""),
        gutterIconSize: "contain",
        rangeBehavior: vscode.DecorationRangeBehavior.ClosedClosed,
        light: { gutterIconPath: icon("-light") },
    });
}

export class CitedSpanDecorations implements vscode.Disposable {
    private readonly types: Record<SpanKind, vscode.TextEditorDecorationType>;
    private readonly applied = new Map<string, AppliedDecorations>();
    private readonly pending = new Set<string>();
    private pendingAll = false;
    private timer: NodeJS.Timeout | undefined;
    private running: Promise<void> = Promise.resolve();
    private readonly disposables: vscode.Disposable[] = [];

    constructor(
        context: vscode.ExtensionContext,
        private readonly store: CitedSpansStore,
    ) {
        this.types = {
            claim: createDecorationType(context, "claim"),
            supports: createDecorationType(context, "supports"),
            refutes: createDecorationType(context, "refutes"),
        };
        this.disposables.push(
            ...Object.values(this.types),
            store.onDidChange((uris) => this.schedule(uris)),
            vscode.window.onDidChangeVisibleTextEditors(() => this.schedule(undefined)),
            vscode.workspace.onDidChangeConfiguration((event) => {
                if (event.affectsConfiguration("sourcecheck.decorations.enabled")) this.schedule(undefined);
            }),
        );
        this.schedule(undefined);
    }

    /** Queue a refresh of the visible editors showing these documents (all when undefined). */
    schedule(uris: string[] | undefined): void {
        if (uris === undefined) this.pendingAll = true;
        else for (const uri of uris) this.pending.add(uri);
        if (this.timer) return;
        this.timer = setTimeout(() => {
            this.timer = undefined;
            const all = this.pendingAll;
            const uris = new Set(this.pending);
            this.pendingAll = false;
            this.pending.clear();
            this.running = this.running.then(() => this.refresh(all ? undefined : uris));
        }, THROTTLE_MS);
    }

    /** Resolves once queued refreshes have been applied (for the e2e hook). */
    async settled(): Promise<void> {
        for (let round = 0; round < 20 && (this.timer || this.pendingAll || this.pending.size > 0); round++) {
            await new Promise((resolve) => setTimeout(resolve, THROTTLE_MS));
        }
        await this.running;
    }

    /** What is currently applied to the visible editor(s) of the document. */
    appliedTo(uri: string): AppliedDecorations {
        return this.applied.get(uriKey(uri)) ?? emptyApplied();
    }

    private async refresh(only: Set<string> | undefined): Promise<void> {
        const visibleKeys = new Set(vscode.window.visibleTextEditors.map((e) => uriKey(e.document.uri)));
        for (const key of [...this.applied.keys()]) if (!visibleKeys.has(key)) this.applied.delete(key);
        const documents = new Map<string, vscode.TextDocument>();
        for (const editor of vscode.window.visibleTextEditors) {
            const key = uriKey(editor.document.uri);
            if (only === undefined || only.has(key)) documents.set(key, editor.document);
        }
        await Promise.all([...documents].map(([key, document]) => this.refreshDocument(key, document)));
    }

    private async refreshDocument(key: string, document: vscode.TextDocument): Promise<void> {
        const version = document.version;
        const spans = decorationsEnabled() ? await this.store.spansOf(document) : [];
        if (document.version !== version) {
            // Edited while the server answered: these ranges belong to an older text.
            this.schedule([key]);
            return;
        }
        const byKind = groupByKind(spans);
        const editors = vscode.window.visibleTextEditors.filter((e) => uriKey(e.document.uri) === key);
        for (const editor of editors) {
            for (const kind of SPAN_KINDS) editor.setDecorations(this.types[kind], byKind[kind]);
        }
        const applied = emptyApplied();
        if (editors.length > 0) for (const kind of SPAN_KINDS) applied[kind] = byKind[kind].map(plain);
        this.applied.set(key, applied);
    }

    dispose(): void {
        if (this.timer) clearTimeout(this.timer);
        for (const d of this.disposables) d.dispose();
    }
}

function groupByKind(spans: CitedSpan[]): Record<SpanKind, vscode.Range[]> {
    const byKind: Record<SpanKind, vscode.Range[]> = { claim: [], supports: [], refutes: [] };
    for (const span of spans) {
        if (!SPAN_KINDS.includes(span.kind)) continue;
        byKind[span.kind].push(toRange(span.range));
    }
    return byKind;
}
