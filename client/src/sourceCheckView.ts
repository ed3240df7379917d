/**
 * The SourceCheck view in the Explorer (docs/view.md): annotation files, their annotations (claim
 * text and verdict) and sources, each revealing its span; the count of broken and contested
 * annotations in the view's badge; filters for broken and contested claims. The data comes from
 * the server (`sourcecheck/fileAnnotations`): the client never resolves refs itself.
 */
import * as path from "node:path";
import * as vscode from "vscode";
import { findAnnotationFiles } from "./annotationFiles";
import { type CitedSpansStore, uriKey } from "./citedSpans";
import {
    type AnnotationRefSummary,
    type AnnotationSummary,
    coverageRequest,
    fileAnnotationsRequest,
    type Verdict,
} from "./customRequestTypes";
import { toRange } from "./decorations";
import type { SourceCheckClient } from "./languageClient";
import { ask } from "./requests";

export const VIEW_ID = "sourcecheck.annotations";
export type ViewFilter = "all" | "broken" | "contested";

const VERDICT_ICONS: Record<Verdict, vscode.ThemeIcon> = {
    supported: new vscode.ThemeIcon("pass", new vscode.ThemeColor("testing.iconPassed")),
    contested: new vscode.ThemeIcon("warning", new vscode.ThemeColor("list.warningForeground")),
    refuted: new vscode.ThemeIcon("error", new vscode.ThemeColor("list.errorForeground")),
    broken: new vscode.ThemeIcon("debug-disconnect", new vscode.ThemeColor("list.errorForeground")),
};

type Node =
    | { kind: "file"; uri: string; annotations: AnnotationSummary[] }
    | { kind: "annotation"; uri: string; annotation: AnnotationSummary }
    | { kind: "source"; uri: string; ref: AnnotationRefSummary };

/** What the view shows, for the e2e hook: one entry per visible annotation. */
export interface ViewSnapshot {
    filter: ViewFilter;
    badge: number | undefined;
    files: {
        uri: string;
        annotations: { index: number; verdict: Verdict; label: string; sources: number; reveal?: unknown[] }[];
    }[];
}

export class SourceCheckView implements vscode.TreeDataProvider<Node>, vscode.Disposable {
    private readonly changed = new vscode.EventEmitter<Node | undefined>();
    readonly onDidChangeTreeData = this.changed.event;
    private readonly view: vscode.TreeView<Node>;
    private readonly disposables: vscode.Disposable[] = [this.changed];
    private filter: ViewFilter = "all";
    private files: Promise<Node[]> | undefined;
    private timer: NodeJS.Timeout | undefined;

    constructor(
        private readonly sc: SourceCheckClient,
        store: CitedSpansStore,
    ) {
        this.view = vscode.window.createTreeView(VIEW_ID, { treeDataProvider: this, showCollapseAll: true });
        const watcher = vscode.workspace.createFileSystemWatcher("**/*.{sourcecheck,annotations}.json");
        this.disposables.push(
            this.view,
            watcher,
            watcher.onDidCreate(() => this.refresh()),
            watcher.onDidDelete(() => this.refresh()),
            // An annotation file was checked again (its diagnostics changed): counts and verdicts may have.
            vscode.languages.onDidChangeDiagnostics((event) => {
                if (event.uris.some((uri) => /\.(sourcecheck|annotations)\.json$/i.test(uri.path))) this.refresh();
            }),
            // The server restarted.
            store.onDidChangeCitedDocuments(() => this.refresh()),
            this.view.onDidChangeVisibility((event) => {
                if (event.visible) this.changed.fire(undefined);
            }),
        );
        void vscode.commands.executeCommand("setContext", "sourcecheck.viewFilter", this.filter);
        this.refresh();
    }

    setFilter(filter: ViewFilter): void {
        this.filter = filter;
        void vscode.commands.executeCommand("setContext", "sourcecheck.viewFilter", filter);
        this.view.description = filter === "all" ? undefined : `${filter} only`;
        this.changed.fire(undefined);
    }

    /** Throttled: a burst of server notifications reloads the view once. */
    refresh(): void {
        if (this.timer) return;
        this.timer = setTimeout(() => {
            this.timer = undefined;
            this.files = undefined;
            this.changed.fire(undefined);
            void this.updateBadge();
        }, 300);
    }

    private loadFiles(): Promise<Node[]> {
        this.files ??= (async () => {
            const uris = (await findAnnotationFiles()).sort((a, b) => a.path.localeCompare(b.path));
            const nodes = await Promise.all(
                uris.map(async (uri): Promise<Node> => {
                    const key = uriKey(uri);
                    try {
                        const result = await ask(this.sc, fileAnnotationsRequest, { uri: key });
                        return { kind: "file", uri: key, annotations: result.annotations ?? [] };
                    } catch {
                        return { kind: "file", uri: key, annotations: [] };
                    }
                }),
            );
            return nodes;
        })();
        return this.files;
    }

    private shown(annotations: AnnotationSummary[]): AnnotationSummary[] {
        return this.filter === "all" ? annotations : annotations.filter((a) => a.verdict === this.filter);
    }

    private async updateBadge(): Promise<void> {
        const files = await this.loadFiles();
        const all = files.flatMap((f) => (f.kind === "file" ? f.annotations : []));
        const broken = all.filter((a) => a.verdict === "broken").length;
        const contested = all.filter((a) => a.verdict === "contested").length;
        this.view.badge =
            broken + contested > 0
                ? {
                      value: broken + contested,
                      tooltip: `${broken} broken, ${contested} contested of ${all.length} annotations`,
                  }
                : undefined;
    }

    async getChildren(node?: Node): Promise<Node[]> {
        if (!node) {
            const files = await this.loadFiles();
            // Filtered, a file without a matching annotation is left out.
            return files.filter(
                (f) => f.kind === "file" && (this.filter === "all" || this.shown(f.annotations).length > 0),
            );
        }
        if (node.kind === "file") {
            return this.shown(node.annotations).map((annotation) => ({
                kind: "annotation",
                uri: node.uri,
                annotation,
            }));
        }
        if (node.kind === "annotation") {
            return node.annotation.sources.map((ref) => ({ kind: "source", uri: node.uri, ref }));
        }
        return [];
    }

    getTreeItem(node: Node): vscode.TreeItem {
        if (node.kind === "file") {
            const uri = vscode.Uri.parse(node.uri);
            const item = new vscode.TreeItem(path.posix.basename(uri.path), vscode.TreeItemCollapsibleState.Expanded);
            item.resourceUri = uri;
            item.description = `${node.annotations.length} annotation${node.annotations.length === 1 ? "" : "s"}`;
            item.contextValue = "annotationFile";
            item.command = { title: "Open", command: "vscode.open", arguments: [uri] };
            return item;
        }
        if (node.kind === "annotation") {
            const { annotation } = node;
            const claim = annotation.claim;
            const label = `${annotation.index + 1}. ${claim?.text ?? claim?.error ?? "(no claim)"}`;
            const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.Collapsed);
            item.description = annotation.verdict;
            item.iconPath = VERDICT_ICONS[annotation.verdict];
            item.tooltip = new vscode.MarkdownString().appendText(
                `Annotation ${annotation.index + 1}: ${annotation.verdict}\n${claim?.error ?? claim?.text ?? ""}`,
            );
            item.contextValue = `annotation.${annotation.verdict}`;
            if (claim) item.command = revealCommand(node.uri, claim);
            return item;
        }
        const { ref } = node;
        const role = typeof ref.role === "number" ? `source ${ref.role + 1}` : "claim";
        const item = new vscode.TreeItem(ref.valid ? (ref.text ?? "") : `${role}: ${ref.error ?? "does not resolve"}`);
        item.description = [ref.polarity, ref.confidence !== undefined ? String(ref.confidence) : undefined]
            .filter(Boolean)
            .join(" · ");
        item.iconPath = new vscode.ThemeIcon(
            !ref.valid ? "debug-disconnect" : ref.polarity === "refutes" ? "error" : "pass",
        );
        item.command = revealCommand(node.uri, ref);
        return item;
    }

    /** What the view shows now (the e2e hook). */
    async snapshot(): Promise<ViewSnapshot> {
        if (this.timer) await new Promise((resolve) => setTimeout(resolve, 400));
        const files = (await this.getChildren()).filter((n) => n.kind === "file");
        return {
            filter: this.filter,
            badge: this.view.badge?.value,
            files: await Promise.all(
                files.map(async (file) => ({
                    uri: file.uri,
                    annotations: (await this.getChildren(file)).flatMap((n) =>
                        n.kind === "annotation"
                            ? [
                                  {
                                      index: n.annotation.index,
                                      verdict: n.annotation.verdict,
                                      label: String(this.getTreeItem(n).label),
                                      sources: n.annotation.sources.length,
                                      reveal: this.getTreeItem(n).command?.arguments,
                                  },
                              ]
                            : [],
                    ),
                })),
            ),
        };
    }

    dispose(): void {
        if (this.timer) clearTimeout(this.timer);
        for (const d of this.disposables) d.dispose();
    }
}

/** Reveal the span a ref resolves to, or the ref itself in the annotation file when it does not resolve. */
function revealCommand(annotationUri: string, ref: AnnotationRefSummary): vscode.Command {
    const target =
        ref.valid && ref.uri && ref.range
            ? { uri: ref.uri, range: ref.range }
            : { uri: annotationUri, range: ref.refRange };
    return { title: "Reveal", command: "sourcecheck.openRef", arguments: [target] };
}

/** Uncovered sentences of a document, marked until the command is run again on it (docs/view.md). */
export class CoverageMarks implements vscode.Disposable {
    private readonly type = vscode.window.createTextEditorDecorationType({
        backgroundColor: new vscode.ThemeColor("sourcecheck.uncoveredBackground"),
        overviewRulerColor: new vscode.ThemeColor("sourcecheck.uncoveredOverviewRuler"),
        overviewRulerLane: vscode.OverviewRulerLane.Right,
    });
    private readonly shown = new Map<string, vscode.Range[]>();
    private readonly subscription = vscode.window.onDidChangeVisibleTextEditors((editors) => {
        for (const editor of editors) {
            const ranges = this.shown.get(uriKey(editor.document.uri));
            if (ranges) editor.setDecorations(this.type, ranges);
        }
    });

    constructor(private readonly sc: SourceCheckClient) {}

    /** Marks the sentences of the document no valid claim covers; the ranges marked (0-based). */
    async show(document: vscode.TextDocument): Promise<vscode.Range[]> {
        const key = uriKey(document.uri);
        const result = await ask(this.sc, coverageRequest, { uri: key });
        const ranges = (result.uncovered ?? []).map(toRange);
        this.shown.set(key, ranges);
        for (const editor of vscode.window.visibleTextEditors) {
            if (uriKey(editor.document.uri) === key) editor.setDecorations(this.type, ranges);
        }
        const percent = Math.round(result.ratio * 100);
        vscode.window.setStatusBarMessage(
            `SourceCheck: ${ranges.length} sentence${ranges.length === 1 ? "" : "s"} no claim covers (${percent}% of the text covered)`,
            5000,
        );
        return ranges;
    }

    hide(document: vscode.TextDocument): void {
        this.shown.delete(uriKey(document.uri));
        for (const editor of vscode.window.visibleTextEditors) {
            if (editor.document === document) editor.setDecorations(this.type, []);
        }
    }

    isShown(document: vscode.TextDocument): boolean {
        return this.shown.has(uriKey(document.uri));
    }

    dispose(): void {
        this.subscription.dispose();
        this.type.dispose();
    }
}
