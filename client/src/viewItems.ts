/**
 * The SourceCheck view's nodes (a file, its annotations, a broken one's reasons, their sources) and
 * the tree item each shows (docs/view.md).
 */
import * as path from "node:path";
import * as vscode from "vscode";
import { VERDICT_CODICONS, verdictColorId } from "../../shared/legend";
import { ordinal } from "../../shared/numbering";
import type { AnnotationRefSummary, AnnotationSummary, FileSummary, Verdict } from "./customRequestTypes";
import { annotationName, counted, sourceNumbered, verdictWord } from "./l10n";

/**
 * The legend's shapes and colours (docs/verdicts.md, "One legend"): the codicon of the gutter's shape
 * (triangle, circled cross, half disc, tick), in the verdict's theme colour.
 */
const verdictIcon = (verdict: Verdict) =>
    new vscode.ThemeIcon(VERDICT_CODICONS[verdict], new vscode.ThemeColor(verdictColorId(verdict)));
const VERDICT_ICONS: Record<Verdict, vscode.ThemeIcon> = {
    supported: verdictIcon("supported"),
    contested: verdictIcon("contested"),
    refuted: verdictIcon("refuted"),
    broken: verdictIcon("broken"),
};

// Nodes are made once per load and kept: the tree view knows elements by identity (reveal needs it).
export interface FileNode {
    kind: "file";
    uri: string;
    annotations: AnnotationSummary[];
    /** Refs on their locked text, on other text, without an entry, when the file has a lock (docs/lock.md). */
    lock?: FileSummary["lock"];
    children?: AnnotationNode[];
}
export interface AnnotationNode {
    kind: "annotation";
    uri: string;
    annotation: AnnotationSummary;
    parent: FileNode;
    children?: (SourceNode | ReasonNode)[];
}
/** Why a broken annotation is broken, when its sources do not already say (a broken claim, no sources). */
export interface ReasonNode {
    kind: "reason";
    uri: string;
    text: string;
    parent: AnnotationNode;
}
export interface SourceNode {
    kind: "source";
    uri: string;
    ref: AnnotationRefSummary;
    parent: AnnotationNode;
}
export type ViewNode = FileNode | AnnotationNode | SourceNode | ReasonNode;

/** The tree item of a node: its label, icon, description and the command that reveals its span. */
export function treeItemOf(node: ViewNode): vscode.TreeItem {
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
        item.iconPath = new vscode.ThemeIcon("info", new vscode.ThemeColor(verdictColorId("broken")));
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
export function sourceLabel(ref: AnnotationRefSummary): string {
    const role = ref.role === "source" ? sourceNumbered(ref.source) : vscode.l10n.t("claim");
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

/** A file's lock in a few words: what needs attention first. */
function lockDescription(lock: NonNullable<FileSummary["lock"]>): string {
    if (lock.changed > 0) return vscode.l10n.t("{0} changed since locked", lock.changed);
    if (lock.unlocked > 0) return vscode.l10n.t("{0} not locked", lock.unlocked);
    return vscode.l10n.t("locked");
}
