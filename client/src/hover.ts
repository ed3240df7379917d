/**
 * Hovers on cited spans: who cites this text (claim text, polarity, confidence, annotation file and
 * index), each with a link that opens the citing ref in its annotation file.
 */
import * as path from "node:path";
import * as vscode from "vscode";
import { annotationLabel, sourceLabel } from "../../shared/numbering";
import type { CitedSpansStore } from "./citedSpans";
import { decorationsEnabled } from "./config";
import type { Citation, CitedSpan } from "./customRequestTypes";
import { toRange } from "./decorations";

export const OPEN_REF_COMMAND = "sourcecheck.openRef";

const KIND_LABELS = { claim: "Claim", supports: "Supporting source", refutes: "Refuting source" } as const;

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
    markdown.appendMarkdown(`**SourceCheck · ${KIND_LABELS[span.kind] ?? span.kind}**`);
    markdown.appendMarkdown(count === 1 ? " — cited once\n\n" : ` — cited ${count} times\n\n`);
    for (const citation of span.citations) markdown.appendMarkdown(`- ${describeCitation(citation)}\n`);
}

function describeCitation(citation: Citation): string {
    const file = path.posix.basename(vscode.Uri.parse(citation.annotationUri).path).replace(/`/g, "");
    // Numbered from 1, as everything a person reads (docs/contract.md section 5).
    const annotation = annotationLabel(citation.annotationIndex);
    const where =
        citation.role === "claim"
            ? `${annotation} in \`${file}\``
            : `${sourceLabel(citation.role)} of ${annotation} in \`${file}\``;
    const parts: string[] = [];
    if (citation.role === "claim") {
        parts.push("claim of");
    } else {
        const polarity = citation.polarity ?? "unknown polarity";
        const confidence = typeof citation.confidence === "number" ? `, confidence ${citation.confidence}` : "";
        parts.push(`*${polarity}*${confidence} —`);
        if (citation.claimText) parts.push(`claim “${escapeMarkdown(truncate(citation.claimText, 160))}” —`);
    }
    parts.push(where);
    parts.push(`· [Open ref](${openRefLink(citation)} "Open the citing ref")`);
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
