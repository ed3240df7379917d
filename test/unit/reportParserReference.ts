/**
 * The regular-expression parser of Markdown reports as it was before it was made linear: the oracle
 * of the property test in reportLinear.test.ts (same citations and diagnostics on small inputs).
 *
 * Quotes in Markdown reports (docs/quotes.md, "Markdown reports"): a verbatim quote in curly or
 * straight double quotes followed, in the same sentence, by a Markdown link to its source; the list
 * forms `- [title](url) - "quote"` and `"quote" - [source](url)`; and explicit blockquote pairs
 * (`> Quote:` / `> 原文：` / `> 引文：` then `> Source:` / `> 来源：`). Fenced code is skipped. A link
 * without a quote is never read as evidence.
 */
import { diagnostic, type QuoteDiagnostic } from "../../server/src/quotes/diagnostics";
import type { ParsedQuotes, QuoteCitation } from "../../server/src/quotes/notes";

/** Text allowed between a closing quote and its link: short, and within the same sentence. */
const MAX_GAP = 80;
const SENTENCE_BREAK = /[.;。；“"]/;

interface PendingQuote {
    quote: string;
    line: number;
    columns: { start: number; end: number };
}

export function parseReport(text: string): ParsedQuotes {
    const citations: QuoteCitation[] = [];
    const diagnostics: QuoteDiagnostic[] = [];
    let heading = "Markdown report";
    let pending: PendingQuote | undefined;
    let fence: string | undefined;
    const unpaired = () => {
        if (pending)
            diagnostics.push(diagnostic(pending.line, "MISSING_REPORT_SOURCE", "quote has no following source"));
        pending = undefined;
    };

    const lines = text.split("\n");
    for (let i = 0; i < lines.length; i++) {
        const raw = lines[i].endsWith("\r") ? lines[i].slice(0, -1) : lines[i];
        const lineNumber = i + 1;
        const line = raw.trim();
        const fenceMark = /^(`{3,}|~{3,})/.exec(line)?.[1];
        if (fence !== undefined) {
            if (fenceMark && fenceMark[0] === fence[0] && fenceMark.length >= fence.length && line === fenceMark)
                fence = undefined;
            continue;
        }
        if (fenceMark) {
            fence = fenceMark;
            continue;
        }
        if (/^#{1,6}(\s|$)/.test(line)) {
            unpaired();
            heading = line.replace(/^#+\s*/, "").replace(/\s+#+$/, "") || heading;
            continue;
        }
        const labelled = blockLabel(raw);
        if (labelled?.kind === "quote") {
            unpaired();
            const cleaned = cleanQuote(stripMarks(labelled.value));
            if (cleaned === "") diagnostics.push(diagnostic(lineNumber, "EMPTY_REPORT_QUOTE", "quote is empty"));
            else pending = { quote: cleaned, line: lineNumber, columns: labelled.columns };
            continue;
        }
        if (labelled?.kind === "source") {
            const url = linkOrUrl(labelled.value);
            if (!pending) {
                diagnostics.push(diagnostic(lineNumber, "SOURCE_WITHOUT_QUOTE", "source has no preceding quote"));
            } else if (url === undefined) {
                diagnostics.push(diagnostic(lineNumber, "INVALID_REPORT_SOURCE", "source needs an HTTP URL"));
            } else {
                citations.push({ claim: heading, url, claimLine: pending.line, ...pending });
            }
            pending = undefined;
            continue;
        }
        if (pending && line !== "" && line !== ">") unpaired();
        collectInline(raw, lineNumber, heading, citations, diagnostics);
    }
    unpaired();
    if (citations.length === 0 && diagnostics.length === 0)
        diagnostics.push(diagnostic(1, "NO_REPORT_CITATIONS", "no quote/source blocks found"));
    diagnostics.sort((a, b) => a.line - b.line);
    return { citations, diagnostics };
}

function blockLabel(
    raw: string,
): { kind: "quote" | "source"; value: string; columns: { start: number; end: number } } | undefined {
    const match = /^(\s*>\s*)(原文|引文|Quote|来源|Source)\s*[：:]/.exec(raw);
    if (!match) return undefined;
    const kind = match[2] === "来源" || match[2] === "Source" ? "source" : "quote";
    const rest = raw.slice(match[0].length);
    const value = rest.trim();
    let start = match[0].length + (rest.length - rest.trimStart().length);
    let end = start + value.length;
    // The columns of a quote are those of its text, inside its quote marks.
    if (kind === "quote" && /^[“"]/.test(value)) start++;
    if (kind === "quote" && /[”"]$/.test(value) && end > start) end--;
    return { kind, value, columns: { start, end } };
}

function stripMarks(value: string): string {
    if (value.startsWith("“")) return value.slice(1).replace(/”$/, "");
    if (value.startsWith('"')) return value.slice(1).replace(/"$/, "");
    return value;
}

/** Inline-code backticks are Markdown formatting, not part of the rendered quote. */
function cleanQuote(raw: string): string {
    return raw.replace(/`/g, "").trim();
}

/** `[title](url)` or a bare URL; undefined unless it is http(s). */
function linkOrUrl(value: string): string | undefined {
    const link = /^\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/.exec(value);
    const url = link ? link[1] : value.split(/\s/)[0];
    return /^https?:\/\//i.test(url) ? url : undefined;
}

/** Spans of inline code and link destinations, where no `"` or `“` opens or closes a quote. */
function maskedSpans(raw: string): Array<[number, number]> {
    const spans: Array<[number, number]> = [];
    for (const match of raw.matchAll(/`[^`]*`|\]\([^)]*\)/g)) spans.push([match.index, match.index + match[0].length]);
    return spans;
}

function collectInline(
    raw: string,
    lineNumber: number,
    heading: string,
    citations: QuoteCitation[],
    diagnostics: QuoteDiagnostic[],
): void {
    const masked = maskedSpans(raw);
    const isMasked = (at: number) => masked.some(([from, to]) => at >= from && at < to);
    let from = 0;
    while (from < raw.length) {
        const open = nextOpening(raw, from, isMasked);
        if (open === -1) return;
        const closer = raw[open] === "“" ? "”" : '"';
        let close = raw.indexOf(closer, open + 1);
        while (close !== -1 && isMasked(close)) close = raw.indexOf(closer, close + 1);
        if (close === -1) return;
        from = close + 1;
        const url = linkAfter(raw.slice(close + 1)) ?? listLinkBefore(raw.slice(0, open));
        if (url === undefined) continue;
        if (url === "") {
            diagnostics.push(diagnostic(lineNumber, "INVALID_REPORT_SOURCE", "source needs an HTTP URL"));
            continue;
        }
        const quote = cleanQuote(raw.slice(open + 1, close));
        if (quote === "") {
            diagnostics.push(diagnostic(lineNumber, "EMPTY_REPORT_QUOTE", "quote is empty"));
            continue;
        }
        citations.push({
            claim: heading,
            quote,
            url,
            line: lineNumber,
            columns: { start: open + 1, end: close },
            claimLine: lineNumber,
        });
    }
}

function nextOpening(raw: string, from: number, isMasked: (at: number) => boolean): number {
    for (let i = from; i < raw.length; i++) {
        // A quote mark inside inline code is an example, not a quotation (like fenced code).
        if ((raw[i] === "“" || raw[i] === '"') && !isMasked(i)) return i;
    }
    return -1;
}

/**
 * The source link after a closing quote: right after it (`([t](u))`, `（[t](u)）`, `[t](u)`), after a
 * list dash (`- [t](u)`), or a short same-sentence gap before `([t](u))`. "" for a non-HTTP link.
 */
function linkAfter(tail: string): string | undefined {
    const trimmed = tail.trimStart();
    let rest: string | undefined;
    const paren = /^[(（]\s*\[/.exec(trimmed);
    if (paren) rest = trimmed.slice(paren[0].length - 1);
    else if (trimmed.startsWith("[")) rest = trimmed;
    else {
        const dash = /^[-—–]\s*\[/.exec(trimmed);
        if (dash) rest = trimmed.slice(dash[0].length - 1);
        else {
            const gap = /^([^(（]*?)[(（]\s*\[/.exec(trimmed);
            if (gap && gap[1].length <= MAX_GAP && !SENTENCE_BREAK.test(gap[1]))
                rest = trimmed.slice(gap[0].length - 1);
        }
    }
    if (rest === undefined) return undefined;
    const link = /^\[[^\]]*\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)/.exec(rest);
    if (!link) return undefined;
    return /^https?:\/\//i.test(link[1]) ? link[1] : "";
}

/** The list form `- [title](url) - "quote"`: a list item whose first element is the linked title. */
function listLinkBefore(head: string): string | undefined {
    const match = /^\s*[-*+]\s+\[[^\]]*\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)\s*[-—–:]\s*$/.exec(head);
    if (!match) return undefined;
    return /^https?:\/\//i.test(match[1]) ? match[1] : "";
}
