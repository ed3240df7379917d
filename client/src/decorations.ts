/**
 * Gutter icons, backgrounds and overview-ruler marks on the cited spans of every visible editor:
 * claims coloured by the verdict of the annotations citing them (docs/verdicts.md), sources by
 * polarity, and each line a broken ref names marked where it is (docs/editor-features.md).
 * Refreshes are throttled: bursts of edits, server notifications and editor switches collapse into
 * one pass per interval, and a pass for a document that changed meanwhile is redone, never applied stale.
 */
import * as vscode from "vscode";
import { annotationLabel, sourceLabel } from "../../shared/numbering";
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
    /** 0-based lines marked for broken refs into the document. */
    brokenLines: number[];
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
        brokenLines: [],
    };
}

const capitalized = (word: string) => word[0].toUpperCase() + word.slice(1);

/** The colour of a span: sources by polarity, claims by verdict (`sourcecheck.claimSupportedBackground`...). */
function createDecorationType(
    context: vscode.ExtensionContext,
    kind: SpanKind,
    verdict?: Verdict,
): vscode.TextEditorDecorationType {
    const icon = (variant: string) => vscode.Uri.joinPath(context.extensionUri, "media", `${kind}${variant}.svg`);
    const background = verdict ? `claim${capitalized(verdict)}Background` : `${kind}Background`;
    return vscode.window.createTextEditorDecorationType({
        backgroundColor: new vscode.ThemeColor(`sourcecheck.${background}`),
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

function brokenLineOptions(refs: BrokenRef[]): vscode.DecorationOptions[] {
    const byLine = new Map<number, BrokenRef[]>();
    for (const ref of refs) {
        const line = ref.range.start.line;
        byLine.set(line, [...(byLine.get(line) ?? []), ref]);
    }
    return [...byLine].map(([line, list]) => {
        const first = list[0];
        const more = list.length > 1 ? ` (and ${list.length - 1} more)` : "";
        const hover = new vscode.MarkdownString(undefined, true);
        hover.supportHtml = false;
        for (const ref of list) {
            const role = ref.role === "claim" ? "claim" : sourceLabel(ref.role);
            hover.appendMarkdown(`**SourceCheck · broken ${role}** of ${annotationLabel(ref.annotationIndex)}: `);
            hover.appendText(`${ref.message} (${ref.code})`);
            hover.appendMarkdown("\n\n");
        }
        return {
            range: new vscode.Range(line, 0, line, 0),
            hoverMessage: hover,
            renderOptions: { after: { contentText: `⚠ broken ref: ${first.code}${more}` } },
        };
    });
}

export class CitedSpanDecorations implements vscode.Disposable {
    private readonly types: Record<SpanKind, vscode.TextEditorDecorationType>;
    private readonly verdictTypes: Record<Verdict, vscode.TextEditorDecorationType>;
    private readonly brokenLineType = createBrokenLineType();
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
        this.verdictTypes = {
            supported: createDecorationType(context, "claim", "supported"),
            contested: createDecorationType(context, "claim", "contested"),
            refuted: createDecorationType(context, "claim", "refuted"),
            broken: createDecorationType(context, "claim", "broken"),
        };
        this.disposables.push(
            ...Object.values(this.types),
            ...Object.values(this.verdictTypes),
            this.brokenLineType,
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
        const none: CitedSpansResult = { uri: key, spans: [], brokenRefs: [] };
        const { spans, brokenRefs } = decorationsEnabled() ? await this.store.resultOf(document) : none;
        if (document.version !== version) {
            // Edited while the server answered: these ranges belong to an older text.
            this.schedule([key]);
            return;
        }
        const byKind = groupByKind(spans);
        const byVerdict = claimsByVerdict(spans);
        const brokenLines = brokenLineOptions(brokenRefs.filter((ref) => ref.range.start.line < document.lineCount));
        const editors = vscode.window.visibleTextEditors.filter((e) => uriKey(e.document.uri) === key);
        for (const editor of editors) {
            // Claims are drawn by verdict; the plain claim type stays empty.
            for (const kind of SPAN_KINDS)
                editor.setDecorations(this.types[kind], kind === "claim" ? [] : byKind[kind]);
            for (const verdict of VERDICTS_WORST_FIRST) {
                editor.setDecorations(this.verdictTypes[verdict], byVerdict[verdict]);
            }
            editor.setDecorations(this.brokenLineType, brokenLines);
        }
        const applied = emptyApplied();
        if (editors.length > 0) {
            for (const kind of SPAN_KINDS) applied[kind] = byKind[kind].map(plain);
            for (const verdict of VERDICTS_WORST_FIRST) applied.claimVerdicts[verdict] = byVerdict[verdict].map(plain);
            applied.brokenLines = brokenLines.map((o) => o.range.start.line);
        }
        this.applied.set(key, applied);
    }

    dispose(): void {
        if (this.timer) clearTimeout(this.timer);
        for (const d of this.disposables) d.dispose();
    }
}

/** Claim spans by the worst verdict among the annotations citing them. */
function claimsByVerdict(spans: CitedSpan[]): Record<Verdict, vscode.Range[]> {
    const byVerdict: Record<Verdict, vscode.Range[]> = { supported: [], contested: [], refuted: [], broken: [] };
    for (const span of spans) {
        if (span.kind !== "claim") continue;
        const verdicts = new Set(span.citations.map((c) => c.verdict));
        const verdict = VERDICTS_WORST_FIRST.find((v) => verdicts.has(v));
        if (verdict) byVerdict[verdict].push(toRange(span.range));
    }
    return byVerdict;
}

function groupByKind(spans: CitedSpan[]): Record<SpanKind, vscode.Range[]> {
    const byKind: Record<SpanKind, vscode.Range[]> = { claim: [], supports: [], refutes: [] };
    for (const span of spans) {
        if (!SPAN_KINDS.includes(span.kind)) continue;
        byKind[span.kind].push(toRange(span.range));
    }
    return byKind;
}
