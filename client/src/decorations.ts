/**
 * Gutter icons, backgrounds and overview-ruler marks on the cited spans of every visible editor:
 * claims coloured by the verdict of the annotations citing them (docs/verdicts.md), sources by
 * polarity, and each line a broken ref names marked where it is (docs/editor-features.md).
 * Refreshes are throttled: bursts of edits, server notifications and editor switches collapse into
 * one pass per interval, and a pass for a document that changed meanwhile is redone, never applied stale.
 */
import * as vscode from "vscode";
import { VERDICT_GLYPHS, verdictColorId } from "../../shared/legend";
import { type CitedSpansStore, uriKey } from "./citedSpans";
import { decorationsEnabled } from "./config";
import {
    type BrokenRef,
    type CitedSpan,
    type CitedSpansResult,
    type LspRange,
    SPAN_KINDS,
    type SpanKind,
    type Verdict,
} from "./customRequestTypes";
import { columnsOf, fitLineLabel, labelColumns } from "./fitLabel";
import { annotationNumbered, sourceNumbered } from "./l10n";

const THROTTLE_MS = 120;

export interface PlainRange {
    startLine: number;
    startCharacter: number;
    endLine: number;
    endCharacter: number;
}

/** Claims are drawn by the worst verdict among the annotations citing them, in this order. */
export const VERDICTS_WORST_FIRST: readonly Verdict[] = ["broken", "refuted", "contested", "supported"];

export type AppliedDecorations = Record<SpanKind, PlainRange[]> & {
    /** The claim spans again, by the verdict they are drawn with. */
    claimVerdicts: Record<Verdict, PlainRange[]>;
    /** Claims still waiting for their sources (`"sources": []`): drawn as waiting, never as broken. */
    claimsAwaiting: PlainRange[];
    /** 0-based lines marked for broken refs into the document. */
    brokenLines: number[];
    /** The label after each marked line, in words, in the order of `brokenLines`. */
    brokenLabels: string[];
    /** 0-based lines that carry a gutter icon: one per span, on its first line. */
    gutterLines: number[];
    /** The icon (media/<name>.svg) drawn on each of `gutterLines`, by line. */
    gutterIcons: Record<number, string>;
};

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
    return {
        claim: [],
        supports: [],
        refutes: [],
        claimVerdicts: { supported: [], contested: [], refuted: [], broken: [] },
        claimsAwaiting: [],
        brokenLines: [],
        brokenLabels: [],
        gutterLines: [],
        gutterIcons: {},
    };
}

const capitalized = (word: string) => word[0].toUpperCase() + word.slice(1);

/**
 * A claim's verdict is told by shape as well as colour (docs/verdicts.md): broken in the error colour
 * with a wavy underline, refuted struck through in purple, contested with a dotted underline in
 * amber, supported by a calm green tint only. Colours are the theme's `sourcecheck.claim*` colours,
 * reached as CSS variables so a theme can change them.
 */
const VERDICT_TEXT_DECORATION: Record<Verdict, string | undefined> = {
    broken: "underline wavy var(--vscode-sourcecheck-claimBrokenForeground) 1px",
    refuted: "line-through var(--vscode-sourcecheck-claimRefutedForeground) 2px",
    contested: "underline dotted var(--vscode-sourcecheck-claimContestedForeground) 2px",
    supported: undefined,
};

/**
 * A claim waiting for its sources (docs/verdicts.md, "Waiting for sources"): a double underline in a
 * quiet grey and an hourglass in the gutter, a shape no verdict and not Show Coverage's dashed outline uses.
 */
function createAwaitingType(): vscode.TextEditorDecorationType {
    return vscode.window.createTextEditorDecorationType({
        textDecoration: "underline double var(--vscode-sourcecheck-claimAwaitingForeground) 1px",
        overviewRulerColor: new vscode.ThemeColor("sourcecheck.claimAwaitingForeground"),
        overviewRulerLane: vscode.OverviewRulerLane.Left,
        rangeBehavior: vscode.DecorationRangeBehavior.ClosedClosed,
    });
}

/** The colour of a span: sources by polarity, claims by verdict (`sourcecheck.claimSupportedBackground`...). */
function createDecorationType(kind: SpanKind, verdict?: Verdict): vscode.TextEditorDecorationType {
    const background = verdict ? `claim${capitalized(verdict)}Background` : `${kind}Background`;
    return vscode.window.createTextEditorDecorationType({
        backgroundColor: new vscode.ThemeColor(`sourcecheck.${background}`),
        // Transparent except in high-contrast themes, where a background alone is not enough.
        border: "1px solid",
        borderColor: new vscode.ThemeColor(verdict ? verdictColorId(verdict) : `sourcecheck.${kind}Border`),
        textDecoration: verdict ? VERDICT_TEXT_DECORATION[verdict] : undefined,
        overviewRulerColor: new vscode.ThemeColor(
            verdict ? verdictColorId(verdict) : `sourcecheck.${kind}OverviewRuler`,
        ),
        overviewRulerLane: RULER_LANES[kind],
        rangeBehavior: vscode.DecorationRangeBehavior.ClosedClosed,
    });
}

/**
 * The gutter icon of a span, drawn on its first line only (an icon per wrapped or spanned line read
 * as many citations): the verdict's glyph for claims, the polarity's for sources.
 */
function createGutterType(context: vscode.ExtensionContext, name: string): vscode.TextEditorDecorationType {
    const icon = (variant: string) => vscode.Uri.joinPath(context.extensionUri, "media", `${name}${variant}.svg`);
    return vscode.window.createTextEditorDecorationType({
        gutterIconPath: icon(""),
        gutterIconSize: "contain",
        light: { gutterIconPath: icon("-light") },
    });
}

/** What a gutter icon marks: a verdict, a polarity, or a claim waiting for its sources. */
type GutterMark = "supports" | "refutes" | Verdict | "awaiting";

/** The gutter icon (media/<name>.svg and <name>-light.svg) of each verdict and polarity. */
const GUTTER_ICONS: Record<GutterMark, string> = {
    awaiting: "awaiting-sources",
    supports: "supports",
    refutes: "refutes",
    supported: "verdict-supported",
    contested: "verdict-contested",
    refuted: "verdict-refuted",
    broken: "verdict-broken",
};

/** Where a span's gutter icon goes: an empty range at the start of its first line. */
function gutterRanges(ranges: vscode.Range[]): vscode.Range[] {
    const lines = [...new Set(ranges.map((r) => r.start.line))].sort((a, b) => a - b);
    return lines.map((line) => new vscode.Range(line, 0, line, 0));
}

/**
 * What is wrong with a broken ref, in words for the line it names: `broken ref: the end "2.6." is
 * not on line 16`. The server's message says it at length; this keeps what fits after a line.
 */
export function brokenRefLabel(ref: Pick<BrokenRef, "code" | "message">): string {
    return vscode.l10n.t("broken ref: {0}", brokenRefReason(ref));
}

/** Why a ref is broken, short: `the end "2.6." is not on line 16` (hovers and line labels). */
export function brokenRefReason(ref: Pick<BrokenRef, "code" | "message">): string {
    const m = ref.message;
    const notFound = /^(start|end) boundary ("(?:[^"\\]|\\.)*") does not occur on line (\d+)/.exec(m);
    if (notFound)
        return notFound[1] === "start"
            ? vscode.l10n.t("the start {0} is not on line {1}", notFound[2], notFound[3])
            : vscode.l10n.t("the end {0} is not on line {1}", notFound[2], notFound[3]);
    const ambiguous = /^(start|end) boundary ("(?:[^"\\]|\\.)*") occurs (\d+) times on line (\d+)/.exec(m);
    if (ambiguous)
        return ambiguous[1] === "start"
            ? vscode.l10n.t("the start {0} occurs {1} times on line {2}", ambiguous[2], ambiguous[3], ambiguous[4])
            : vscode.l10n.t("the end {0} occurs {1} times on line {2}", ambiguous[2], ambiguous[3], ambiguous[4]);
    const range = /^(start|end) line (\d+) is out of range: .* has (\d+) lines?$/.exec(m);
    if (range)
        return Number(range[3]) === 1
            ? vscode.l10n.t("line {0} is past the end (1 line)", range[2])
            : vscode.l10n.t("line {0} is past the end ({1} lines)", range[2], range[3]);
    const order = /^start line (\d+) comes after end line (\d+)/.exec(m);
    if (order) return vscode.l10n.t("its start (line {0}) comes after its end (line {1})", order[1], order[2]);
    if (/do not enclose a span/.test(m)) return vscode.l10n.t("its start and end do not enclose a span");
    return m; // cut where it is shown (fitLabel.ts)
}

/** The whole line a broken ref names: a background and, after the text, what is wrong. */
function createBrokenLineType(): vscode.TextEditorDecorationType {
    return vscode.window.createTextEditorDecorationType({
        isWholeLine: true,
        backgroundColor: new vscode.ThemeColor("sourcecheck.brokenRefBackground"),
        overviewRulerColor: new vscode.ThemeColor("sourcecheck.brokenRefForeground"),
        overviewRulerLane: vscode.OverviewRulerLane.Full,
        after: { color: new vscode.ThemeColor("sourcecheck.brokenRefForeground"), margin: "0 0 0 2em" },
    });
}

/**
 * How many columns the editors of a document show, for labels after a line, and whether long lines
 * wrap there. VS Code tells an extension no editor's width: a bounded word wrap's column; with word
 * wrap at the view's edge (Markdown's default), WRAPPED_VIEW_COLUMNS; else the farthest ruler, else
 * VIEW_COLUMNS.
 */
function viewColumns(document: vscode.TextDocument): { columns: number; wraps: boolean } {
    const editor = vscode.workspace.getConfiguration("editor", document);
    const wrap = editor.get<string>("wordWrap");
    if (wrap === "wordWrapColumn" || wrap === "bounded")
        return { columns: editor.get<number>("wordWrapColumn") ?? WRAPPED_VIEW_COLUMNS, wraps: true };
    if (wrap === "on") return { columns: WRAPPED_VIEW_COLUMNS, wraps: true };
    const rulers = (editor.get<unknown[]>("rulers") ?? [])
        .map((r) => (typeof r === "number" ? r : (r as { column?: number })?.column))
        .filter((c): c is number => typeof c === "number" && c > 0);
    return { columns: rulers.length > 0 ? Math.max(...rulers) : VIEW_COLUMNS, wraps: false };
}

/** Columns of an editor beside the side bar in a 1080p window at the default font size. */
const VIEW_COLUMNS = 140;
/** Columns assumed when lines wrap at the view's edge: VS Code's default wrap column, about half a screen. */
const WRAPPED_VIEW_COLUMNS = 80;
/** The label's left margin (2em) in columns of a monospace font. */
const LABEL_MARGIN_COLUMNS = 4;

function brokenLineOptions(refs: BrokenRef[], document: vscode.TextDocument): vscode.DecorationOptions[] {
    const view = viewColumns(document);
    const tabSize = Number(vscode.workspace.getConfiguration("editor", document).get("tabSize")) || 4;
    const byLine = new Map<number, BrokenRef[]>();
    for (const ref of refs) {
        const line = ref.range.start.line;
        byLine.set(line, [...(byLine.get(line) ?? []), ref]);
    }
    return [...byLine].map(([line, list]) => {
        const first = list[0];
        const more = list.length > 1 ? vscode.l10n.t(" (and {0} more)", list.length - 1) : "";
        // Cut at a word edge to what the line leaves of the view; the hover has every word.
        // A wrapped line's label follows its last row.
        const lineColumns = columnsOf(document.lineAt(line).text, tabSize);
        const lastRow = view.wraps ? lineColumns % view.columns : lineColumns;
        const room = labelColumns(view.columns, lastRow, LABEL_MARGIN_COLUMNS);
        const label = fitLineLabel(VERDICT_GLYPHS.broken, `${brokenRefLabel(first)}${more}`, room);
        const hover = new vscode.MarkdownString(undefined, true);
        hover.supportHtml = false;
        for (const ref of list) {
            const title =
                ref.role === "claim"
                    ? vscode.l10n.t("**SourceCheck · broken claim** of {0}: ", annotationNumbered(ref.annotation))
                    : vscode.l10n.t(
                          "**SourceCheck · broken {0}** of {1}: ",
                          sourceNumbered(ref.source),
                          annotationNumbered(ref.annotation),
                      );
            hover.appendMarkdown(title);
            hover.appendText(`${ref.message} (${ref.code})`);
            hover.appendMarkdown("\n\n");
        }
        return {
            range: new vscode.Range(line, 0, line, 0),
            hoverMessage: hover,
            renderOptions: label === "" ? undefined : { after: { contentText: label } },
        };
    });
}

export class CitedSpanDecorations implements vscode.Disposable {
    private readonly types: Record<SpanKind, vscode.TextEditorDecorationType>;
    private readonly verdictTypes: Record<Verdict, vscode.TextEditorDecorationType>;
    private readonly brokenLineType = createBrokenLineType();
    private readonly awaitingType = createAwaitingType();
    private readonly gutterTypes: Record<GutterMark, vscode.TextEditorDecorationType>;
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
            claim: createDecorationType("claim"),
            supports: createDecorationType("supports"),
            refutes: createDecorationType("refutes"),
        };
        this.verdictTypes = {
            supported: createDecorationType("claim", "supported"),
            contested: createDecorationType("claim", "contested"),
            refuted: createDecorationType("claim", "refuted"),
            broken: createDecorationType("claim", "broken"),
        };
        this.gutterTypes = {
            supports: createGutterType(context, GUTTER_ICONS.supports),
            refutes: createGutterType(context, GUTTER_ICONS.refutes),
            supported: createGutterType(context, GUTTER_ICONS.supported),
            contested: createGutterType(context, GUTTER_ICONS.contested),
            refuted: createGutterType(context, GUTTER_ICONS.refuted),
            broken: createGutterType(context, GUTTER_ICONS.broken),
            awaiting: createGutterType(context, GUTTER_ICONS.awaiting),
        };
        this.disposables.push(
            ...Object.values(this.types),
            ...Object.values(this.verdictTypes),
            ...Object.values(this.gutterTypes),
            this.brokenLineType,
            this.awaitingType,
            store.onDidChange((uris) => this.schedule(uris)),
            vscode.window.onDidChangeVisibleTextEditors(() => this.schedule(undefined)),
            vscode.workspace.onDidChangeConfiguration((event) => {
                if (
                    event.affectsConfiguration("sourcecheck.decorations.enabled") ||
                    // The width labels are cut to (viewColumns).
                    ["editor.wordWrap", "editor.wordWrapColumn", "editor.rulers", "editor.tabSize"].some((key) =>
                        event.affectsConfiguration(key),
                    )
                )
                    this.schedule(undefined);
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
        const none: CitedSpansResult = { uri: key, spans: [], brokenRefs: [] };
        const { spans, brokenRefs } = decorationsEnabled() ? await this.store.resultOf(document) : none;
        if (document.version !== version) {
            // Edited while the server answered: these ranges belong to an older text.
            this.schedule([key]);
            return;
        }
        const byKind = groupByKind(spans);
        const { byVerdict, awaiting } = claimsByVerdict(spans);
        // A ref past the end of the document is marked on its last line of text, not dropped.
        let last = Math.max(0, document.lineCount - 1);
        if (last > 0 && document.lineAt(last).text === "") last--;
        const brokenLines = brokenLineOptions(
            brokenRefs.map((ref) =>
                ref.range.start.line <= last
                    ? ref
                    : { ...ref, range: { start: { line: last, character: 0 }, end: { line: last, character: 0 } } },
            ),
            document,
        );
        // One gutter icon per line, the most concerning first: a broken claim's glyph wins over a source's.
        const gutter = new Map<GutterMark, vscode.Range[]>();
        const taken = new Set<number>();
        for (const [name, ranges] of [
            ...VERDICTS_WORST_FIRST.map((v) => [v, byVerdict[v]] as const),
            ["awaiting", awaiting] as const,
            ["refutes", byKind.refutes] as const,
            ["supports", byKind.supports] as const,
        ]) {
            const free = gutterRanges(ranges).filter((r) => !taken.has(r.start.line));
            for (const r of free) taken.add(r.start.line);
            gutter.set(name, free);
        }
        const editors = vscode.window.visibleTextEditors.filter((e) => uriKey(e.document.uri) === key);
        for (const editor of editors) {
            // Claims are drawn by verdict; the plain claim type stays empty.
            for (const kind of SPAN_KINDS)
                editor.setDecorations(this.types[kind], kind === "claim" ? [] : byKind[kind]);
            for (const verdict of VERDICTS_WORST_FIRST) {
                editor.setDecorations(this.verdictTypes[verdict], byVerdict[verdict]);
            }
            editor.setDecorations(this.awaitingType, awaiting);
            editor.setDecorations(this.brokenLineType, brokenLines);
            for (const [name, type] of Object.entries(this.gutterTypes))
                editor.setDecorations(type, gutter.get(name as GutterMark) ?? []);
        }
        const applied = emptyApplied();
        if (editors.length > 0) {
            for (const kind of SPAN_KINDS) applied[kind] = byKind[kind].map(plain);
            for (const verdict of VERDICTS_WORST_FIRST) applied.claimVerdicts[verdict] = byVerdict[verdict].map(plain);
            applied.claimsAwaiting = awaiting.map(plain);
            applied.brokenLines = brokenLines.map((o) => o.range.start.line);
            applied.brokenLabels = brokenLines.map((o) => String(o.renderOptions?.after?.contentText ?? ""));
            applied.gutterLines = [...taken].sort((a, b) => a - b);
            for (const [name, ranges] of gutter)
                for (const r of ranges) applied.gutterIcons[r.start.line] = GUTTER_ICONS[name];
        }
        this.applied.set(key, applied);
    }

    dispose(): void {
        if (this.timer) clearTimeout(this.timer);
        for (const d of this.disposables) d.dispose();
    }
}

/**
 * Claim spans by the worst verdict among the annotations citing them; a claim whose annotations all
 * wait for their sources (the server says which) is waiting, not broken.
 */
function claimsByVerdict(spans: CitedSpan[]): { byVerdict: Record<Verdict, vscode.Range[]>; awaiting: vscode.Range[] } {
    const byVerdict: Record<Verdict, vscode.Range[]> = { supported: [], contested: [], refuted: [], broken: [] };
    const awaiting: vscode.Range[] = [];
    for (const span of spans) {
        if (span.kind !== "claim") continue;
        const judged = span.citations.filter((c) => !c.awaitingSources);
        if (judged.length === 0 && span.citations.length > 0) {
            awaiting.push(toRange(span.range));
            continue;
        }
        const verdicts = new Set(judged.map((c) => c.verdict));
        const verdict = VERDICTS_WORST_FIRST.find((v) => verdicts.has(v));
        if (verdict) byVerdict[verdict].push(toRange(span.range));
    }
    return { byVerdict, awaiting };
}

function groupByKind(spans: CitedSpan[]): Record<SpanKind, vscode.Range[]> {
    const byKind: Record<SpanKind, vscode.Range[]> = { claim: [], supports: [], refutes: [] };
    for (const span of spans) {
        if (!SPAN_KINDS.includes(span.kind)) continue;
        byKind[span.kind].push(toRange(span.range));
    }
    return byKind;
}
