/**
 * Quotes in Markdown reports (docs/quotes.md, "Markdown reports"): a verbatim quote in curly or
 * straight double quotes followed, in the same sentence, by a Markdown link to its source; the list
 * forms `- [title](url) - "quote"` and `"quote" - [source](url)`; and explicit blockquote pairs
 * (`> Quote:` / `> 原文：` / `> 引文：` then `> Source:` / `> 来源：`). Fenced code is skipped. A link
 * without a quote is never read as evidence.
 */
import { diagnostic, type QuoteDiagnostic } from "./diagnostics";
import type { ParsedQuotes, QuoteCitation } from "./notes";

/** Text allowed between a closing quote and its link: short, and within the same sentence. */
const MAX_GAP = 80;
const SENTENCE_BREAK = /[.;。；“"]/;

interface PendingQuote {
    quote: string;
    line: number;
    columns: { start: number; end: number };
}

/**
 * `work` counts the characters the parser steps over, for the linearity test (docs/security.md):
 * every line is read a bounded number of times whatever quotes and links it holds.
 */
export function parseReport(text: string, work: { steps: number } = { steps: 0 }): ParsedQuotes {
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
        work.steps += raw.length + 1;
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
            heading = headingText(line) || heading;
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
        collectInline(raw, lineNumber, heading, citations, diagnostics, work);
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

/** An ATX heading's text: the marks before it and a closing run of `#` after it left out. */
function headingText(line: string): string {
    let text = line.replace(/^#+/, "").trimStart();
    const closing = text.trimEnd();
    let end = closing.length;
    while (end > 0 && closing[end - 1] === "#") end--;
    // A closing sequence counts only after whitespace (CommonMark), or when it is all there is.
    if (end < closing.length && (end === 0 || /\s/.test(closing[end - 1]))) text = closing.slice(0, end).trimEnd();
    return text;
}

/** `[title](url)` or a bare URL; undefined unless it is http(s). */
function linkOrUrl(value: string): string | undefined {
    const link = linkAt(value, 0, new NextIndex(value, { steps: 0 }));
    const url = link ? link.url : value.split(/\s/)[0];
    return /^https?:\/\//i.test(url) ? url : undefined;
}

type Stop = "]" | ")" | '"' | "`" | "(" | "space-end" | "url-end";

/**
 * Where the next character of a kind is, from any position of a line, each kind found in one backward
 * pass: parsing stays linear however many quotes and brackets a line holds (a regular expression
 * scanning ahead from every quote made a 1.4 MB line take 77 s).
 */
class NextIndex {
    private readonly tables = new Map<Stop, Int32Array>();

    constructor(
        private readonly text: string,
        private readonly work: { steps: number },
    ) {}

    /** The first index at or after `from` holding a character of `kind`, or -1. */
    next(kind: Stop, from: number): number {
        if (from >= this.text.length) return -1;
        let table = this.tables.get(kind);
        if (!table) {
            table = new Int32Array(this.text.length + 1);
            table[this.text.length] = -1;
            for (let i = this.text.length - 1; i >= 0; i--) table[i] = matches(kind, this.text[i]) ? i : table[i + 1];
            this.work.steps += this.text.length;
            this.tables.set(kind, table);
        }
        return table[from];
    }

    /** The first index at or after `from` that is not whitespace (the line's length when none). */
    skipSpace(from: number): number {
        const at = this.next("space-end", from);
        return at === -1 ? this.text.length : at;
    }
}

function matches(kind: Stop, ch: string): boolean {
    if (kind === "space-end") return !/\s/.test(ch);
    if (kind === "url-end") return ch === ")" || ch === ">" || /\s/.test(ch);
    if (kind === "(") return ch === "(" || ch === "（";
    return ch === kind;
}

/** `[title](<url> "title")` starting at `at`: its URL (possibly "") and where it ends. */
function linkAt(raw: string, at: number, index: NextIndex): { url: string; end: number } | undefined {
    if (raw[at] !== "[") return undefined;
    const close = index.next("]", at + 1);
    if (close === -1 || raw[close + 1] !== "(") return undefined;
    let from = index.skipSpace(close + 2);
    if (raw[from] === "<") from++;
    const urlEnd = index.next("url-end", from);
    if (urlEnd === -1) return undefined;
    const url = raw.slice(from, urlEnd);
    let after = raw[urlEnd] === ">" ? urlEnd + 1 : urlEnd;
    const titleAt = index.skipSpace(after);
    if (raw[titleAt] === '"' && titleAt > after) {
        const titleEnd = index.next('"', titleAt + 1);
        if (titleEnd !== -1) after = titleEnd + 1;
    }
    const end = index.skipSpace(after);
    return raw[end] === ")" ? { url, end: end + 1 } : undefined;
}

/** Spans of inline code and link destinations, where no `"` or `“` opens or closes a quote; sorted. */
function maskedSpans(raw: string, index: NextIndex, work: { steps: number }): Array<[number, number]> {
    const spans: Array<[number, number]> = [];
    let i = 0;
    while (i < raw.length) {
        work.steps++;
        const end =
            raw[i] === "`"
                ? index.next("`", i + 1)
                : raw[i] === "]" && raw[i + 1] === "("
                  ? index.next(")", i + 2)
                  : -1;
        if (end === -1) {
            i++;
            continue;
        }
        spans.push([i, end + 1]);
        i = end + 1;
    }
    return spans;
}

/** Whether `at` lies in one of the sorted, disjoint spans (binary search). */
function inSpans(spans: Array<[number, number]>, at: number): boolean {
    let low = 0;
    let high = spans.length - 1;
    while (low <= high) {
        const middle = (low + high) >> 1;
        const [from, to] = spans[middle];
        if (at < from) high = middle - 1;
        else if (at >= to) low = middle + 1;
        else return true;
    }
    return false;
}

function collectInline(
    raw: string,
    lineNumber: number,
    heading: string,
    citations: QuoteCitation[],
    diagnostics: QuoteDiagnostic[],
    work: { steps: number },
): void {
    const index = new NextIndex(raw, work);
    const masked = maskedSpans(raw, index, work);
    const isMasked = (at: number) => inSpans(masked, at);
    const listPrefix = listLinkPrefix(raw, index);
    let from = 0;
    while (from < raw.length) {
        const open = nextOpening(raw, from, isMasked, work);
        if (open === -1) return;
        const closer = raw[open] === "“" ? "”" : '"';
        let close = raw.indexOf(closer, open + 1);
        while (close !== -1 && isMasked(close)) {
            work.steps++;
            close = raw.indexOf(closer, close + 1);
        }
        if (close === -1) return;
        work.steps += close - from;
        from = close + 1;
        const url = linkAfter(raw, close + 1, index) ?? (listPrefix?.end === open ? listPrefix.url : undefined);
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

function nextOpening(raw: string, from: number, isMasked: (at: number) => boolean, work: { steps: number }): number {
    for (let i = from; i < raw.length; i++) {
        work.steps++;
        // A quote mark inside inline code is an example, not a quotation (like fenced code).
        if ((raw[i] === "“" || raw[i] === '"') && !isMasked(i)) return i;
    }
    return -1;
}

const httpOrEmpty = (url: string) => (/^https?:\/\//i.test(url) ? url : "");

/**
 * The source link after a closing quote (at `from`): right after it (`([t](u))`, `（[t](u)）`,
 * `[t](u)`), after a list dash (`- [t](u)`), or a short same-sentence gap before `([t](u))`.
 * "" for a non-HTTP link.
 */
function linkAfter(raw: string, from: number, index: NextIndex): string | undefined {
    const start = index.skipSpace(from);
    if (start >= raw.length) return undefined;
    let rest: number | undefined;
    const first = raw[start];
    if (first === "(" || first === "（") {
        const at = index.skipSpace(start + 1);
        if (raw[at] === "[") rest = at;
    } else if (first === "[") rest = start;
    else {
        if (first === "-" || first === "—" || first === "–") {
            const at = index.skipSpace(start + 1);
            if (raw[at] === "[") rest = at;
        }
        if (rest === undefined) {
            // A short gap in the same sentence, then `(` and the link.
            const paren = index.next("(", start);
            if (paren !== -1 && paren - start <= MAX_GAP && !SENTENCE_BREAK.test(raw.slice(start, paren))) {
                const at = index.skipSpace(paren + 1);
                if (raw[at] === "[") rest = at;
            }
        }
    }
    if (rest === undefined) return undefined;
    const link = linkAt(raw, rest, index);
    return link ? httpOrEmpty(link.url) : undefined;
}

/**
 * The list form `- [title](url) - "quote"`: a list item whose first element is the linked title; its
 * URL and where the quote must open (the first character after the separator and its spaces).
 */
function listLinkPrefix(raw: string, index: NextIndex): { url: string; end: number } | undefined {
    const marker = index.skipSpace(0);
    if (!"-*+".includes(raw[marker] ?? "x") || !/\s/.test(raw[marker + 1] ?? "")) return undefined;
    const link = linkAt(raw, index.skipSpace(marker + 1), index);
    if (!link) return undefined;
    const separator = index.skipSpace(link.end);
    if (!"-—–:".includes(raw[separator] ?? "x")) return undefined;
    return { url: httpOrEmpty(link.url), end: index.skipSpace(separator + 1) };
}
