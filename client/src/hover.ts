/**
 * Hovers on cited spans: who cites this text, the verdict of each citing annotation first (glyph and
 * word, docs/verdicts.md), and when that annotation is broken or a ref of it drifted, which ref and
 * why, with a link to its fix (`sourcecheck.fixRef`); then claim text, polarity, confidence, and a
 * link that opens the citing ref in its annotation file.
 */
import * as path from "node:path";
import * as vscode from "vscode";
import { VERDICT_GLYPHS } from "../../shared/legend";
import type { CitedSpansStore } from "./citedSpans";
import { decorationsEnabled } from "./config";
import type { Citation, CitationSource, CitedSpan, RefProblem } from "./customRequestTypes";
import { brokenRefReason, toRange } from "./decorations";
import { FIX_REF_COMMAND } from "./fixRef";
import { annotationNumbered, sourceNumbered, verdictWord } from "./l10n";

export const OPEN_REF_COMMAND = "sourcecheck.openRef";

function kindLabel(kind: string): string {
    if (kind === "claim") return vscode.l10n.t("Claim");
    if (kind === "supports") return vscode.l10n.t("Supporting source");
    if (kind === "refutes") return vscode.l10n.t("Refuting source");
    return kind;
}

export class CitedSpanHoverProvider implements vscode.HoverProvider {
    constructor(private readonly store: CitedSpansStore) {}

    async provideHover(document: vscode.TextDocument, position: vscode.Position): Promise<vscode.Hover | undefined> {
        if (!decorationsEnabled()) return undefined;
        const spans = (await this.store.spansOf(document)).filter((span) => toRange(span.range).contains(position));
        if (spans.length === 0) return undefined;
        const markdown = new vscode.MarkdownString(undefined, true);
        markdown.isTrusted = { enabledCommands: [OPEN_REF_COMMAND, FIX_REF_COMMAND] };
        markdown.supportHtml = false;
        spans.forEach((span, index) => {
            if (index > 0) markdown.appendMarkdown("\n\n---\n\n");
            appendSpan(markdown, span);
        });
        const range = spans.map((s) => toRange(s.range)).reduce((a, b) => a.intersection(b) ?? a);
        return new vscode.Hover(markdown, range);
    }
}

function appendSpan(markdown: vscode.MarkdownString, span: CitedSpan): void {
    const count = span.citations.length;
    markdown.appendMarkdown(`**SourceCheck · ${kindLabel(span.kind)}**`);
    markdown.appendMarkdown(count === 1 ? vscode.l10n.t(" — cited once") : vscode.l10n.t(" — cited {0} times", count));
    markdown.appendMarkdown("\n\n");
    for (const citation of span.citations) {
        markdown.appendMarkdown(`- ${describeCitation(citation)}\n`);
        for (const source of citation.sources ?? []) markdown.appendMarkdown(`    - ${describeSource(source)}\n`);
        for (const problem of citation.problems ?? [])
            markdown.appendMarkdown(`    - ${describeProblem(citation, problem)}\n`);
    }
}

/** A claim's source, numbered from 1: "source 1: *supports*, confidence 0.9 — ✔ supported". */
function describeSource(source: CitationSource): string {
    const polarity = source.polarity ?? vscode.l10n.t("unknown polarity");
    const confidence =
        typeof source.confidence === "number" ? vscode.l10n.t(", confidence {0}", source.confidence) : "";
    const verdict = `${VERDICT_GLYPHS[source.verdict] ?? ""} ${verdictWord(source.verdict)}`;
    return `${sourceNumbered(source.source)}: *${polarity}*${confidence} — ${verdict}`;
}

/** The verdict first, as the legend draws it: "⚠ **broken**". */
function verdictLead(citation: Citation): string {
    return `${VERDICT_GLYPHS[citation.verdict] ?? ""} **${verdictWord(citation.verdict)}**`;
}

/** Which ref and why, then the fix: "source 1 (`sources/notes.md`): the end "2.6." is not on line 16 · Fix…". */
function describeProblem(citation: Citation, problem: RefProblem): string {
    const ref = problem.role === "claim" ? vscode.l10n.t("the claim") : sourceNumbered(problem.source);
    const path = `\`${problem.path.replace(/`/g, "")}\``;
    const why =
        problem.code === "text-changed"
            ? vscode.l10n.t("the cited text changed since it was locked")
            : brokenRefReason(problem);
    const fix = `[${vscode.l10n.t("Fix…")}](${fixRefLink(citation, problem)} "${vscode.l10n.t("Open the ref and choose its fix")}")`;
    return `${ref} (${path}): ${escapeMarkdown(why)} · ${fix}`;
}

function fixRefLink(citation: Citation, problem: RefProblem): string {
    const args = [{ uri: citation.annotationUri, range: problem.refRange }];
    return `command:${FIX_REF_COMMAND}?${encodeURIComponent(JSON.stringify(args))}`;
}

function describeCitation(citation: Citation): string {
    const file = path.posix.basename(vscode.Uri.parse(citation.annotationUri).path).replace(/`/g, "");
    // Numbered from 1, as everything a person reads (docs/contract.md section 5).
    const annotation = annotationNumbered(citation.annotation);
    const where =
        citation.role === "claim"
            ? vscode.l10n.t("{0} in {1}", annotation, `\`${file}\``)
            : vscode.l10n.t("{0} of {1} in {2}", sourceNumbered(citation.source), annotation, `\`${file}\``);
    const parts: string[] = [`${verdictLead(citation)} —`];
    if (citation.role === "claim") {
        parts.push(vscode.l10n.t("claim of"));
    } else {
        const polarity = citation.polarity ?? vscode.l10n.t("unknown polarity");
        const confidence =
            typeof citation.confidence === "number" ? vscode.l10n.t(", confidence {0}", citation.confidence) : "";
        parts.push(`*${polarity}*${confidence} —`);
        if (citation.claimText)
            parts.push(vscode.l10n.t("claim “{0}” —", escapeMarkdown(truncate(citation.claimText, 160))));
    }
    parts.push(where);
    parts.push(`· [${vscode.l10n.t("Open ref")}](${openRefLink(citation)} "${vscode.l10n.t("Open the citing ref")}")`);
    return parts.join(" ");
}

function openRefLink(citation: Citation): string {
    const args = [{ uri: citation.annotationUri, range: citation.refRange }];
    return `command:${OPEN_REF_COMMAND}?${encodeURIComponent(JSON.stringify(args))}`;
}

function truncate(text: string, max: number): string {
    const oneLine = text.replace(/\s+/g, " ").trim();
    return oneLine.length > max ? `${oneLine.slice(0, max - 1)}…` : oneLine;
}

function escapeMarkdown(text: string): string {
    return text.replace(/[\\`*_{}[\]()#+\-.!|<>~]/g, "\\$&");
}
