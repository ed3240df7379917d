/**
 * Hovers on cited spans: who cites this text (claim text, polarity, confidence, annotation file and
 * index), each with a link that opens the citing ref in its annotation file.
 */
import * as path from "node:path";
import * as vscode from "vscode";
import type { CitedSpansStore } from "./citedSpans";
import { decorationsEnabled } from "./config";
import type { Citation, CitedSpan } from "./customRequestTypes";
import { toRange } from "./decorations";
import { annotationName, sourceName } from "./l10n";

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
        markdown.isTrusted = { enabledCommands: [OPEN_REF_COMMAND] };
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
    for (const citation of span.citations) markdown.appendMarkdown(`- ${describeCitation(citation)}\n`);
}

function describeCitation(citation: Citation): string {
    const file = path.posix.basename(vscode.Uri.parse(citation.annotationUri).path).replace(/`/g, "");
    // Numbered from 1, as everything a person reads (docs/contract.md section 5).
    const annotation = annotationName(citation.annotationIndex);
    const where =
        citation.role === "claim"
            ? vscode.l10n.t("{0} in {1}", annotation, `\`${file}\``)
            : vscode.l10n.t("{0} of {1} in {2}", sourceName(citation.role), annotation, `\`${file}\``);
    const parts: string[] = [];
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
