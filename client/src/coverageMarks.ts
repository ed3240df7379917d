import * as vscode from "vscode";
import { type CitedSpansStore, uriKey } from "./citedSpans";
import { coverageRequest } from "./customRequestTypes";
import { toRange } from "./decorations";
import type { SourceCheckClient } from "./languageClient";
import { ask } from "./requests";

/** How long the coverage marks wait after the last change before asking the server again. */
const COVERAGE_REFRESH_MS = 300;

/**
 * Uncovered sentences of a document, marked until the command is run again on it (docs/view.md).
 * While shown they follow the document and its annotations: an edit of either (or a server restart)
 * asks the server again once things have been quiet for COVERAGE_REFRESH_MS.
 */
export class CoverageMarks implements vscode.Disposable {
    private readonly type = vscode.window.createTextEditorDecorationType({
        backgroundColor: new vscode.ThemeColor("sourcecheck.uncoveredBackground"),
        // A tint alone vanishes in high-contrast themes (transparent there) and is faint in light ones:
        // a dashed outline in teal, a shape and a colour no verdict uses (docs/verdicts.md).
        border: "1px dashed",
        borderColor: new vscode.ThemeColor("sourcecheck.uncoveredBorder"),
        overviewRulerColor: new vscode.ThemeColor("sourcecheck.uncoveredOverviewRuler"),
        overviewRulerLane: vscode.OverviewRulerLane.Right,
    });
    private readonly shown = new Map<string, vscode.Range[]>();
    /** The latest request per document: an older answer arriving late is dropped. */
    private readonly asked = new Map<string, number>();
    private readonly timers = new Map<string, NodeJS.Timeout>();
    private requests = 0;
    private readonly subscriptions: vscode.Disposable[];

    constructor(
        private readonly sc: SourceCheckClient,
        store: CitedSpansStore,
    ) {
        this.subscriptions = [
            vscode.window.onDidChangeVisibleTextEditors((editors) => {
                for (const editor of editors) {
                    const ranges = this.shown.get(uriKey(editor.document.uri));
                    if (ranges) editor.setDecorations(this.type, ranges);
                }
            }),
            // The store fires for edits of the document, for the server's "cited spans changed" (an
            // annotation file citing it was edited, created or deleted) and when the server restarts.
            store.onDidChange((uris) => {
                for (const key of uris ?? [...this.shown.keys()]) if (this.shown.has(key)) this.schedule(key);
            }),
        ];
    }

    /** Marks the sentences of the document no valid claim covers; the ranges marked (0-based). */
    async show(document: vscode.TextDocument): Promise<vscode.Range[]> {
        const key = uriKey(document.uri);
        const wasShown = this.shown.has(key);
        if (!wasShown) this.shown.set(key, []);
        let result: Awaited<ReturnType<CoverageMarks["ask"]>>;
        try {
            result = await this.ask(document);
        } catch (error) {
            if (!wasShown) this.shown.delete(key);
            throw error;
        }
        if (!result) return this.shown.get(key) ?? [];
        const percent = Math.round(result.ratio * 100);
        vscode.window.setStatusBarMessage(
            result.ranges.length === 1
                ? vscode.l10n.t("SourceCheck: 1 sentence no claim covers ({0}% of the text covered)", percent)
                : vscode.l10n.t(
                      "SourceCheck: {0} sentences no claim covers ({1}% of the text covered)",
                      result.ranges.length,
                      percent,
                  ),
            5000,
        );
        return result.ranges;
    }

    hide(document: vscode.TextDocument): void {
        const key = uriKey(document.uri);
        this.shown.delete(key);
        this.asked.delete(key);
        clearTimeout(this.timers.get(key));
        this.timers.delete(key);
        for (const editor of vscode.window.visibleTextEditors) {
            if (editor.document === document) editor.setDecorations(this.type, []);
        }
    }

    isShown(document: vscode.TextDocument): boolean {
        return this.shown.has(uriKey(document.uri));
    }

    /** The ranges marked now in a document (the e2e hook); undefined when coverage is not shown there. */
    marked(uri: string): vscode.Range[] | undefined {
        return this.shown.get(uriKey(uri));
    }

    private schedule(key: string): void {
        clearTimeout(this.timers.get(key));
        this.timers.set(
            key,
            setTimeout(() => {
                this.timers.delete(key);
                const document = vscode.workspace.textDocuments.find((d) => uriKey(d.uri) === key);
                // A closed document is asked again when it is shown again.
                if (document) void this.ask(document).catch(() => undefined);
            }, COVERAGE_REFRESH_MS),
        );
    }

    /** Asks the server and marks the answer, unless the marks were hidden or a newer request was made meanwhile. */
    private async ask(document: vscode.TextDocument): Promise<{ ranges: vscode.Range[]; ratio: number } | undefined> {
        const key = uriKey(document.uri);
        const request = ++this.requests;
        this.asked.set(key, request);
        const result = await ask(this.sc, coverageRequest, { uri: key });
        if (this.asked.get(key) !== request || !this.shown.has(key)) return undefined;
        const ranges = (result.uncovered ?? []).map(toRange);
        this.shown.set(key, ranges);
        for (const editor of vscode.window.visibleTextEditors) {
            if (uriKey(editor.document.uri) === key) editor.setDecorations(this.type, ranges);
        }
        return { ranges, ratio: result.ratio };
    }

    dispose(): void {
        for (const timer of this.timers.values()) clearTimeout(timer);
        for (const subscription of this.subscriptions) subscription.dispose();
        this.type.dispose();
    }
}
