/**
 * The SourceCheck view in the Explorer (docs/view.md): annotation files, their annotations (claim
 * text and verdict) and sources, each revealing its span; the count of broken and contested
 * annotations in the view's badge; filters for broken and contested claims. The data comes from
 * the server (`sourcecheck/annotationFiles`, `sourcecheck/fileAnnotations`): the view lists the files
 * the server checks, and the client never resolves refs itself.
 */
import * as vscode from "vscode";
import { type CitedSpansStore, uriKey } from "./citedSpans";
import {
    type AnnotationSummary,
    annotationFilesRequest,
    fileAnnotationsRequest,
    fileSummaryRequest,
    type Verdict,
} from "./customRequestTypes";
import type { SourceCheckClient } from "./languageClient";
import { ask } from "./requests";
import {
    type FileNode,
    type ViewNode as Node,
    type ReasonNode,
    reasonsOf,
    type SourceNode,
    sourceLabel,
    treeItemOf,
} from "./viewItems";

export const VIEW_ID = "sourcecheck.annotations";
export type ViewFilter = "all" | "broken" | "contested";

/** What the view shows, for the e2e hook: one entry per visible annotation. */
export interface ViewSnapshot {
    filter: ViewFilter;
    badge: number | undefined;
    /** The message shown above the tree (empty workspace, nothing matches the filter, no server). */
    message: string | undefined;
    files: {
        uri: string;
        label: string;
        description: string;
        tooltip: string | undefined;
        annotations: {
            index: number;
            verdict: Verdict;
            label: string;
            sources: number;
            sourceLabels: string[];
            /** The reasons a broken annotation shows as its first children. */
            reasons: string[];
            reveal?: unknown[];
            /** The item's icon: the codicon and its theme colour (docs/verdicts.md, "One legend"). */
            icon: IconSnapshot;
            /** Each source item's icon, in the order of `sourceLabels`. */
            sourceIcons: IconSnapshot[];
        }[];
    }[];
}

export interface IconSnapshot {
    codicon: string | undefined;
    color: string | undefined;
}

function iconOf(item: vscode.TreeItem): IconSnapshot {
    const icon = item.iconPath instanceof vscode.ThemeIcon ? item.iconPath : undefined;
    return { codicon: icon?.id, color: icon?.color?.id };
}

function noFiles(): string {
    return vscode.l10n.t(
        "No annotation files here. The view lists the files SourceCheck checks: *.sourcecheck.json, *.annotations.json and the annotationFiles globs, less what is excluded.",
    );
}

export class SourceCheckView implements vscode.TreeDataProvider<Node>, vscode.Disposable {
    private readonly changed = new vscode.EventEmitter<Node | undefined>();
    readonly onDidChangeTreeData = this.changed.event;
    private readonly view: vscode.TreeView<Node>;
    private readonly disposables: vscode.Disposable[] = [this.changed];
    private filter: ViewFilter = "all";
    private files: Promise<{ nodes: FileNode[]; error?: string }> | undefined;
    private timer: NodeJS.Timeout | undefined;
    /** What the view says above its tree, if anything. */
    private message: string | undefined;

    constructor(
        private readonly sc: SourceCheckClient,
        store: CitedSpansStore,
    ) {
        this.view = vscode.window.createTreeView(VIEW_ID, { treeDataProvider: this, showCollapseAll: true });
        const watcher = vscode.workspace.createFileSystemWatcher("**/*.{sourcecheck,annotations}.json");
        // A lock written or deleted changes a file's lock counts without changing its diagnostics.
        const locks = vscode.workspace.createFileSystemWatcher("**/*.lock.json");
        // A project configuration's exclude or annotationFiles changes which files the server checks.
        const configs = vscode.workspace.createFileSystemWatcher("**/sourcecheck.config.json");
        this.disposables.push(
            this.view,
            watcher,
            watcher.onDidCreate(() => this.refresh()),
            watcher.onDidChange(() => this.refresh()),
            watcher.onDidDelete(() => this.refresh()),
            locks,
            locks.onDidCreate(() => this.refresh()),
            locks.onDidChange(() => this.refresh()),
            locks.onDidDelete(() => this.refresh()),
            configs,
            configs.onDidCreate(() => this.refresh()),
            configs.onDidChange(() => this.refresh()),
            configs.onDidDelete(() => this.refresh()),
            // An annotation file was checked again (its diagnostics changed): counts and verdicts may have.
            vscode.languages.onDidChangeDiagnostics((event) => {
                if (event.uris.some((uri) => /\.(sourcecheck|annotations)\.json$/i.test(uri.path))) this.refresh();
            }),
            // The server restarted.
            store.onDidChangeCitedDocuments(() => this.refresh()),
            this.view.onDidChangeVisibility((event) => {
                if (!event.visible) return;
                this.changed.fire(undefined);
                // Re-sending the message makes the workbench lay out the tree it has just created (see
                // docs/view.md, "First display"); otherwise it does so only 2 s later.
                this.view.message = this.view.message;
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

    /** The files the server checks, each with its annotations; `error` when the server could not say. */
    private loadFiles(): Promise<{ nodes: FileNode[]; error?: string }> {
        this.files ??= (async () => {
            let uris: vscode.Uri[];
            try {
                const result = await ask(this.sc, annotationFilesRequest, undefined);
                uris = (Array.isArray(result?.uris) ? result.uris : []).map((uri) => vscode.Uri.parse(uri));
            } catch (error) {
                return { nodes: [], error: (error as Error).message };
            }
            uris.sort((a, b) => a.path.localeCompare(b.path));
            const nodes = await Promise.all(
                uris.map(async (uri): Promise<FileNode> => {
                    const key = uriKey(uri);
                    const [annotations, summary] = await Promise.all([
                        ask(this.sc, fileAnnotationsRequest, { uri: key }).then(
                            (result) => result.annotations ?? [],
                            () => [],
                        ),
                        ask(this.sc, fileSummaryRequest, { uri: key }).catch(() => undefined),
                    ]);
                    return { kind: "file", uri: key, annotations, lock: summary?.lock };
                }),
            );
            return { nodes };
        })();
        return this.files;
    }

    /** Says why the tree is empty, if it is; set only when it changes (each setting reaches the workbench). */
    private updateMessage(files: { nodes: FileNode[]; error?: string }, shown: Node[]): void {
        const message = files.error
            ? files.error
            : files.nodes.length === 0
              ? noFiles()
              : shown.length === 0
                ? this.filter === "broken"
                    ? vscode.l10n.t("No broken annotations: “Show All” lists every annotation again.")
                    : vscode.l10n.t("No contested annotations: “Show All” lists every annotation again.")
                : undefined;
        if (message === this.message) return;
        this.message = message;
        this.view.message = message;
    }

    private shown(annotations: AnnotationSummary[]): AnnotationSummary[] {
        return this.filter === "all" ? annotations : annotations.filter((a) => a.verdict === this.filter);
    }

    private async updateBadge(): Promise<void> {
        const all = (await this.loadFiles()).nodes.flatMap((f) => f.annotations);
        const broken = all.filter((a) => a.verdict === "broken").length;
        const contested = all.filter((a) => a.verdict === "contested").length;
        this.view.badge =
            broken + contested > 0
                ? {
                      value: broken + contested,
                      tooltip: vscode.l10n.t(
                          "{0} broken, {1} contested of {2} annotations",
                          broken,
                          contested,
                          all.length,
                      ),
                  }
                : undefined;
    }

    async getChildren(node?: Node): Promise<Node[]> {
        if (!node) {
            const files = await this.loadFiles();
            // Filtered, a file without a matching annotation is left out.
            const shown = files.nodes.filter((f) => this.filter === "all" || this.shown(f.annotations).length > 0);
            this.updateMessage(files, shown);
            return shown;
        }
        if (node.kind === "file") {
            node.children ??= node.annotations.map((annotation) => ({
                kind: "annotation",
                uri: node.uri,
                annotation,
                parent: node,
            }));
            return node.children.filter((child) => this.filter === "all" || child.annotation.verdict === this.filter);
        }
        if (node.kind === "annotation") {
            node.children ??= [
                ...reasonsOf(node.annotation).map(
                    (text): ReasonNode => ({ kind: "reason", uri: node.uri, text, parent: node }),
                ),
                ...node.annotation.sources.map(
                    (ref): SourceNode => ({ kind: "source", uri: node.uri, ref, parent: node }),
                ),
            ];
            return node.children;
        }
        return [];
    }

    getParent(node: Node): Node | undefined {
        return node.kind === "file" ? undefined : node.parent;
    }

    /** Shows an annotation in the view, its sources opened (the e2e hook; false when it is not listed). */
    async revealAnnotation(uri: string, index: number): Promise<boolean> {
        const file = (await this.loadFiles()).nodes.find((f) => f.uri === uriKey(uri));
        const annotation =
            file && (await this.getChildren(file)).find((n) => n.kind === "annotation" && n.annotation.index === index);
        if (!annotation) return false;
        await this.view.reveal(annotation, { expand: true, select: false, focus: false });
        return true;
    }

    getTreeItem(node: Node): vscode.TreeItem {
        return treeItemOf(node);
    }

    /** What the view shows now (the e2e hook). */
    async snapshot(): Promise<ViewSnapshot> {
        if (this.timer) await new Promise((resolve) => setTimeout(resolve, 400));
        const files = (await this.getChildren()).filter((n) => n.kind === "file");
        return {
            filter: this.filter,
            badge: this.view.badge?.value,
            message: this.message,
            files: await Promise.all(
                files.map(async (file) => ({
                    uri: file.uri,
                    label: String(this.getTreeItem(file).label),
                    description: String(this.getTreeItem(file).description),
                    tooltip: this.getTreeItem(file).tooltip?.toString(),
                    annotations: (await this.getChildren(file)).flatMap((n) =>
                        n.kind === "annotation"
                            ? [
                                  {
                                      index: n.annotation.index,
                                      verdict: n.annotation.verdict,
                                      label: String(this.getTreeItem(n).label),
                                      sources: n.annotation.sources.length,
                                      sourceLabels: n.annotation.sources.map(sourceLabel),
                                      reasons: reasonsOf(n.annotation),
                                      reveal: this.getTreeItem(n).command?.arguments,
                                      icon: iconOf(this.getTreeItem(n)),
                                      sourceIcons: n.annotation.sources.map((ref) =>
                                          iconOf(treeItemOf({ kind: "source", uri: n.uri, ref, parent: n })),
                                      ),
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
