/**
 * The SourceCheck view in the Explorer (docs/view.md): annotation files, their annotations (claim
 * text and verdict) and sources, each revealing its span; the count of broken and contested
 * annotations in the view's badge; filters for broken and contested claims. The data comes from
 * the server (`sourcecheck/annotationFiles`, `sourcecheck/fileAnnotations`): the view lists the files
 * the server checks, and the client never resolves refs itself.
 */
import * as path from "node:path";
import * as vscode from "vscode";
import { ordinal } from "../../shared/numbering";
import { type CitedSpansStore, uriKey } from "./citedSpans";
import {
    type AnnotationRefSummary,
    type AnnotationSummary,
    annotationFilesRequest,
    coverageRequest,
    type FileSummary,
    fileAnnotationsRequest,
    fileSummaryRequest,
    type Verdict,
} from "./customRequestTypes";
import { toRange } from "./decorations";
import { annotationName, counted, sourceName, verdictWord } from "./l10n";
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

// Nodes are made once per load and kept: the tree view knows elements by identity (reveal needs it).
interface FileNode {
    kind: "file";
    uri: string;
    annotations: AnnotationSummary[];
    /** Refs on their locked text, on other text, without an entry, when the file has a lock (docs/lock.md). */
    lock?: FileSummary["lock"];
    children?: AnnotationNode[];
}
interface AnnotationNode {
    kind: "annotation";
    uri: string;
    annotation: AnnotationSummary;
    parent: FileNode;
    children?: (SourceNode | ReasonNode)[];
}
/** Why a broken annotation is broken, when its sources do not already say (a broken claim, no sources). */
interface ReasonNode {
    kind: "reason";
    uri: string;
    text: string;
    parent: AnnotationNode;
}
interface SourceNode {
    kind: "source";
    uri: string;
    ref: AnnotationRefSummary;
    parent: AnnotationNode;
}
type Node = FileNode | AnnotationNode | SourceNode | ReasonNode;

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
        }[];
    }[];
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
        if (node.kind === "file") {
            const uri = vscode.Uri.parse(node.uri);
            const item = new vscode.TreeItem(path.posix.basename(uri.path), vscode.TreeItemCollapsibleState.Expanded);
            item.resourceUri = uri;
            // A file's icon from the icon theme (an expandable item would otherwise get a folder's).
            item.iconPath = vscode.ThemeIcon.File;
            item.description =
                node.annotations.length === 1
                    ? vscode.l10n.t("1 annotation")
                    : vscode.l10n.t("{0} annotations", node.annotations.length);
            if (node.lock) {
                const { locked, changed, unlocked } = node.lock;
                item.description += ` · ${lockDescription(node.lock)}`;
                item.tooltip = counted(
                    locked,
                    vscode.l10n.t("Lock: 1 ref locked, {0} changed since locked, {1} not locked", changed, unlocked),
                    vscode.l10n.t(
                        "Lock: {0} refs locked, {1} changed since locked, {2} not locked",
                        locked,
                        changed,
                        unlocked,
                    ),
                );
            }
            item.contextValue = "annotationFile";
            item.command = { title: vscode.l10n.t("Open"), command: "vscode.open", arguments: [uri] };
            return item;
        }
        if (node.kind === "annotation") {
            const { annotation } = node;
            const claim = annotation.claim;
            const label = `${ordinal(annotation.index)}. ${claim?.text ?? claim?.error ?? vscode.l10n.t("(no claim)")}`;
            const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.Collapsed);
            item.description = verdictWord(annotation.verdict);
            item.iconPath = VERDICT_ICONS[annotation.verdict];
            item.tooltip = new vscode.MarkdownString().appendText(
                `${annotationName(annotation.index, true)}: ${verdictWord(annotation.verdict)}\n${claim?.error ?? claim?.text ?? ""}`,
            );
            item.contextValue = `annotation.${annotation.verdict}`;
            if (claim) item.command = revealCommand(node.uri, claim);
            return item;
        }
        if (node.kind === "reason") {
            const item = new vscode.TreeItem(node.text);
            item.iconPath = new vscode.ThemeIcon("info", new vscode.ThemeColor("sourcecheck.brokenForeground"));
            item.tooltip = node.text;
            item.contextValue = "reason";
            const claim = node.parent.annotation.claim;
            item.command = claim ? revealCommand(node.uri, claim) : undefined;
            return item;
        }
        const { ref } = node;
        const item = new vscode.TreeItem(sourceLabel(ref));
        item.description = [ref.polarity, ref.confidence !== undefined ? String(ref.confidence) : undefined]
            .filter(Boolean)
            .join(" · ");
        item.iconPath = !ref.valid
            ? VERDICT_ICONS.broken
            : ref.polarity === "refutes"
              ? VERDICT_ICONS.refuted
              : VERDICT_ICONS.supported;
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

/**
 * Why an annotation is broken, in words, for what its source items do not say themselves: a claim
 * that does not resolve, no sources at all, or (with neither) problems only the Problems panel lists.
 */
export function reasonsOf(annotation: AnnotationSummary): string[] {
    if (annotation.verdict !== "broken") return [];
    const reasons: string[] = [];
    const claim = annotation.claim;
    if (!claim) reasons.push(vscode.l10n.t("broken: the claim cannot be read (see the Problems panel)"));
    else if (!claim.valid)
        reasons.push(
            vscode.l10n.t("broken: the claim does not resolve: {0}", claim.error ?? vscode.l10n.t("unknown reason")),
        );
    if (annotation.sources.length === 0)
        reasons.push(vscode.l10n.t("broken: no sources yet; add a supporting or refuting source to give it a verdict"));
    if (reasons.length === 0 && annotation.sources.every((s) => s.valid))
        reasons.push(
            vscode.l10n.t("broken: {0} fails the schema (see the Problems panel)", annotationName(annotation.index)),
        );
    return reasons;
}

/** A source's line in the view: its resolved text, or why it does not resolve. */
function sourceLabel(ref: AnnotationRefSummary): string {
    const role = typeof ref.role === "number" ? sourceName(ref.role) : vscode.l10n.t("claim");
    return ref.valid ? (ref.text ?? "") : `${role}: ${ref.error ?? vscode.l10n.t("does not resolve")}`;
}

/** Reveal the span a ref resolves to, or the ref itself in the annotation file when it does not resolve. */
function revealCommand(annotationUri: string, ref: AnnotationRefSummary): vscode.Command {
    const target =
        ref.valid && ref.uri && ref.range
            ? { uri: ref.uri, range: ref.range }
            : { uri: annotationUri, range: ref.refRange };
    return { title: vscode.l10n.t("Reveal"), command: "sourcecheck.openRef", arguments: [target] };
}

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

/** A file's lock in a few words: what needs attention first. */
function lockDescription(lock: NonNullable<FileSummary["lock"]>): string {
    if (lock.changed > 0) return vscode.l10n.t("{0} changed since locked", lock.changed);
    if (lock.unlocked > 0) return vscode.l10n.t("{0} not locked", lock.unlocked);
    return vscode.l10n.t("locked");
}
