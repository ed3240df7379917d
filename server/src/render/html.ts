/**
 * The HTML report of `sourcecheck render` (docs/render.md): one self-contained page showing each
 * answer document with its claims highlighted and numbered, and per claim its sources' text,
 * polarity, confidence and errors. Pure: data in, a string out. Everything that comes from the
 * annotation file or a document is LLM output and is escaped, always; the page carries no script,
 * and its Content-Security-Policy forbids scripts and every load, so nothing in it can run or fetch.
 */

import { VERDICT_COLORS, VERDICT_GLYPHS } from "../../../shared/legend";
import { ordinal, pointerForPeople, sourceLabel } from "../../../shared/numbering";
import type { Report, ReportEntry, SourceEntry, SpanEntry } from "../core/check";
import { LineIndex } from "../core/lines";
import type { SchemaError } from "../core/types";
import { VERDICTS, type Verdict, verdictOf } from "../core/verdict";
import { BIDI_CONTROLS } from "../core/visible";

export interface RenderInput {
    /** The annotation file, as shown to the reader. */
    title: string;
    /** e.g. "sourcecheck 0.1.0". */
    generator: string;
    /** The check's report, with its entries. */
    report: Report;
    /** Answer documents (those claims cite) that could be read, LF-normalised. */
    documents: { path: string; content: string }[];
}

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/**
 * Text as HTML text or attribute value: the only way content reaches the page. A bidirectional
 * control (U+202E and its kin), which would silently reorder what a reviewer reads, is shown as
 * `[U+202E]` instead (docs/security.md, "Outputs").
 */
export function escapeHtml(text: string): string {
    return text
        .replace(/[&<>"']/g, (c) => ESCAPES[c])
        .replace(BIDI_CONTROLS, (c) => `[U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}]`);
}

/** A glyph as well as a colour: refuted and broken must differ in shape, not only in hue. */
const VERDICT_TEXT: Record<Verdict, string> = {
    supported: `${VERDICT_GLYPHS.supported} supported`,
    contested: `${VERDICT_GLYPHS.contested} contested`,
    refuted: `${VERDICT_GLYPHS.refuted} refuted`,
    broken: `${VERDICT_GLYPHS.broken} broken`,
};

/**
 * `work` counts the claims, segments and names the page is built from, for the linearity test
 * (docs/security.md, "Resource bounds"): doubling the claims at most doubles it, however they overlap.
 */
export function renderHtml(input: RenderInput, work: { steps: number } = { steps: 0 }): string {
    const { report } = input;
    // Each document is given only its own claims: per document, every claim was looked at again.
    const byPath = new Map<string, ReportEntry[]>();
    for (const entry of report.entries) {
        work.steps++;
        const claim = entry.claim;
        if (!claim.valid) continue;
        const list = byPath.get(claim.path);
        if (list) list.push(entry);
        else byPath.set(claim.path, [entry]);
    }
    const verdicts = new Map<number, Verdict>(report.entries.map((entry) => [entry.index, verdictOf(entry)]));
    const counts = VERDICTS.map((verdict) => {
        const count = [...verdicts.values()].filter((v) => v === verdict).length;
        return `<li class="count ${verdict}"><span class="badge ${verdict}">${VERDICT_TEXT[verdict]}</span> ${count}</li>`;
    }).join("");
    const documents = input.documents
        .map((document) => renderDocument(document, byPath.get(document.path) ?? [], verdicts, work))
        .join("\n");
    const claims = report.entries.map((entry) => renderClaim(entry, verdicts.get(entry.index) as Verdict)).join("\n");
    const total = report.validCount + report.invalidCount;
    return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src 'none'; base-uri 'none'; form-action 'none'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="${escapeHtml(input.generator)}">
<title>SourceCheck: ${escapeHtml(input.title)}</title>
<style>${STYLE}</style>
</head>
<body>
<header>
<h1>SourceCheck report <span class="file">${escapeHtml(input.title)}</span></h1>
<p class="summary">${total} annotation${total === 1 ? "" : "s"}: ${report.validCount} valid, ${report.invalidCount} invalid${
        report.schemaErrors.length > 0
            ? `, ${schemaErrorsText(report.schemaErrorCount ?? report.schemaErrors.length)}`
            : ""
    } (exit ${report.exitCode})</p>
<ul class="counts">${counts}</ul>
</header>
<main>
${renderSchemaErrors(report.schemaErrors)}
<section class="documents">
<h2>Answer</h2>
${documents || '<p class="none">No claim resolves into a readable document.</p>'}
</section>
<section class="claims">
<h2>Claims and sources</h2>
${claims || '<p class="none">No annotations.</p>'}
</section>
</main>
<footer>Made by ${escapeHtml(input.generator)}. Lines count from 1.</footer>
</body>
</html>
`;
}

interface Span {
    start: number;
    end: number;
    index: number;
}

/** A document's text with each resolved claim into it marked and numbered (overlaps split into segments). */
function renderDocument(
    document: { path: string; content: string },
    entries: ReportEntry[],
    verdicts: Map<number, Verdict>,
    work: { steps: number },
): string {
    const lines = new LineIndex(document.content);
    const spans: Span[] = [];
    for (const entry of entries) {
        const claim = entry.claim;
        if (!claim.valid || claim.path !== document.path) continue;
        const start = lines.offsetAt(claim.range.start.line, claim.range.start.column);
        const end = lines.offsetAt(claim.range.end.line, claim.range.end.column);
        if (end > start) spans.push({ start, end, index: entry.index });
    }
    // One sweep over the cut points: claims open and close as it passes, so the page is linear in
    // claims and text (a filter of every claim per segment was quadratic: 40,000 claims took 19 s).
    const cuts = new Set<number>([0, document.content.length]);
    const opening = new Map<number, number[]>();
    const closing = new Map<number, number[]>();
    for (const span of spans) {
        cuts.add(span.start);
        cuts.add(span.end);
        pushTo(opening, span.start, span.index);
        pushTo(closing, span.end, span.index);
    }
    const points = [...cuts].sort((a, b) => a - b);
    /** Claims covering the current segment, in the order they opened; counts per verdict for the worst. */
    const active = new Set<number>();
    const perVerdict = new Map<Verdict, number>();
    const parts: string[] = [];
    for (let i = 0; i + 1 < points.length; i++) {
        work.steps++;
        const from = points[i];
        const to = points[i + 1];
        for (const index of closing.get(from) ?? []) {
            work.steps++;
            active.delete(index);
            const verdict = verdicts.get(index) as Verdict;
            perVerdict.set(verdict, (perVerdict.get(verdict) ?? 0) - 1);
        }
        const starting = opening.get(from) ?? [];
        for (const index of starting) {
            work.steps++;
            active.add(index);
            const verdict = verdicts.get(index) as Verdict;
            perVerdict.set(verdict, (perVerdict.get(verdict) ?? 0) + 1);
        }
        const numbers = starting
            .map(
                (index) =>
                    `<a class="number ${verdicts.get(index)}" href="#claim-${ordinal(index)}">${ordinal(index)}</a>`,
            )
            .join("");
        const text = escapeHtml(document.content.slice(from, to));
        if (active.size === 0) {
            parts.push(numbers + text);
            continue;
        }
        const worst = [...VERDICTS].sort(byConcern).find((verdict) => (perVerdict.get(verdict) ?? 0) > 0) as Verdict;
        parts.push(
            `${numbers}<mark class="claim ${worst}" title="${escapeHtml(coveringTitle(active, verdicts, work))}">${text}</mark>`,
        );
    }
    const html = parts.join("");
    return `<article class="document"><h3 class="path">${escapeHtml(document.path)}</h3><pre>${html}</pre></article>`;
}

function pushTo(map: Map<number, number[]>, key: number, value: number): void {
    const list = map.get(key);
    if (list) list.push(value);
    else map.set(key, [value]);
}

/** The claims covering a segment, at most MAX_TITLED of them named (deep overlaps stay linear). */
const MAX_TITLED = 8;
function coveringTitle(active: Set<number>, verdicts: Map<number, Verdict>, work: { steps: number }): string {
    const named: string[] = [];
    for (const index of active) {
        work.steps++;
        if (named.length === MAX_TITLED) break;
        named.push(`claim ${ordinal(index)}: ${verdicts.get(index)}`);
    }
    const more = active.size - named.length;
    return more > 0 ? `${named.join(", ")} and ${more} more` : named.join(", ");
}

/** broken first, then refuted, contested, supported: an overlap shows the most concerning verdict. */
function byConcern(a: Verdict, b: Verdict): number {
    const order: Verdict[] = ["broken", "refuted", "contested", "supported"];
    return order.indexOf(a) - order.indexOf(b);
}

function renderClaim(entry: ReportEntry, verdict: Verdict): string {
    const number = ordinal(entry.index);
    const sources = entry.sources.map((source, i) => renderSource(source, i)).join("\n");
    return `<article class="annotation ${verdict}" id="claim-${number}">
<h3><span class="number ${verdict}">${number}</span> <span class="badge ${verdict}">${VERDICT_TEXT[verdict]}</span></h3>
<div class="ref claim-ref">${renderSpan(entry.claim, "claim")}</div>
<ol class="sources">${sources || '<li class="source broken-ref"><span class="error">no sources</span></li>'}</ol>
</article>`;
}

function renderSource(source: SourceEntry, index: number): string {
    const polarity = typeof source.polarity === "string" ? source.polarity : String(source.polarity ?? "?");
    const confidence =
        typeof source.confidence === "number" ? source.confidence.toFixed(2) : String(source.confidence ?? "?");
    const kind = polarity === "supports" || polarity === "refutes" ? polarity : "unknown";
    return `<li class="source ${source.valid ? kind : "broken-ref"}">
<p class="meta"><span class="polarity ${kind}">${escapeHtml(polarity)}</span> <span class="confidence">confidence ${escapeHtml(confidence)}</span> <span class="which">${sourceLabel(index)}</span></p>
${renderSpan(source, "source")}
</li>`;
}

function renderSpan(span: SpanEntry, role: "claim" | "source"): string {
    const path = span.path !== undefined ? escapeHtml(span.path) : "(no path)";
    if (span.valid) {
        const { start, end } = span.range;
        const where = start.line === end.line ? `line ${start.line}` : `lines ${start.line}\u2013${end.line}`;
        return `<p class="where"><span class="path">${path}</span>, ${where}</p><blockquote class="${role}-text">${escapeHtml(span.text)}</blockquote>`;
    }
    // An ambiguity's message already names its columns (1-based): not repeated here.
    return `<p class="where"><span class="path">${path}</span></p><p class="error"><strong>${escapeHtml(span.error.code)}</strong>: ${escapeHtml(span.error.message)}</p>`;
}

function renderSchemaErrors(errors: SchemaError[]): string {
    if (errors.length === 0) return "";
    const items = errors
        .map(
            (e) =>
                `<li><strong>${escapeHtml(e.code)}</strong> at <code>${escapeHtml(e.pointer || "/")}</code> (${escapeHtml(pointerForPeople(e.pointer))}): ${escapeHtml(e.message)}</li>`,
        )
        .join("\n");
    return `<section class="schema-errors"><h2>Schema errors</h2><ul>${items}</ul></section>`;
}

/** The legend's colours (shared/legend.ts) as the report's CSS variables, for a light or a dark page. */
function legendVariables(theme: "light" | "dark"): string {
    const c = (verdict: Verdict) => VERDICT_COLORS[verdict][theme];
    return `--supported: ${c("supported")}; --refuted: ${c("refuted")}; --contested: ${c("contested")}; --broken-bg: ${c("broken")};`;
}

// Text on a verdict's colour (badges of broken, annotation numbers): white on the light page's dark
// marks, the page's own dark on the dark page's bright ones, at least 4.5:1 either way.
const STYLE = `
:root { color-scheme: light dark; --bg: #fff; --fg: #1f2328; --muted: #59636e; --card: #f6f8fa; --line: #d1d9e0;
  ${legendVariables("light")} --on-mark: #ffffff;
  --supported-bg: #dafbe1; --refuted-bg: #fbefff; --contested-bg: #fff8c5; --broken-soft: #ffebe9; }
@media (prefers-color-scheme: dark) { :root { --bg: #0d1117; --fg: #e6edf3; --muted: #9198a1; --card: #161b22; --line: #3d444d;
  ${legendVariables("dark")} --on-mark: #0d1117;
  --supported-bg: #12361f; --refuted-bg: #2e1f47; --contested-bg: #3a2d0b; --broken-soft: #3c1618; } }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 72rem; padding: 1.5rem; background: var(--bg); color: var(--fg);
  font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; }
h1 { font-size: 1.4rem; margin: 0 0 .25rem; } h1 .file { font-weight: normal; color: var(--muted); font-family: ui-monospace, monospace; font-size: 1rem; }
h2 { font-size: 1.15rem; border-bottom: 1px solid var(--line); padding-bottom: .25rem; margin-top: 2rem; }
h3 { font-size: 1rem; margin: 0 0 .5rem; }
.summary { margin: 0; color: var(--muted); }
.counts { list-style: none; padding: 0; display: flex; gap: 1rem; flex-wrap: wrap; }
.badge { display: inline-block; padding: 0 .5rem; border-radius: 1rem; font-size: .8rem; font-weight: 600; }
.badge.supported { color: var(--supported); background: var(--supported-bg); }
.badge.refuted { color: var(--refuted); background: var(--refuted-bg); }
.badge.contested { color: var(--contested); background: var(--contested-bg); }
.badge.broken { color: var(--on-mark); background: var(--broken-bg); }
.document pre { white-space: pre-wrap; overflow-wrap: anywhere; background: var(--card); border: 1px solid var(--line);
  border-radius: 6px; padding: 1rem; font: 14px/1.7 ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; }
.path { font-family: ui-monospace, monospace; }
mark.claim { color: inherit; border-radius: 3px; padding: 0 1px; }
mark.supported { background: var(--supported-bg); border-bottom: 2px solid var(--supported); }
mark.refuted { background: var(--refuted-bg); text-decoration: line-through 2px var(--refuted); }
mark.contested { background: var(--contested-bg); border-bottom: 2px solid var(--contested); }
mark.broken { background: var(--broken-soft); text-decoration: underline wavy 1px var(--broken-bg); outline: 1px dashed var(--broken-bg); }
.number { display: inline-block; min-width: 1.4em; padding: 0 .3em; margin-right: 2px; border-radius: 4px; text-align: center;
  font: 600 .75rem/1.4 system-ui, sans-serif; vertical-align: super; text-decoration: none; color: var(--on-mark); }
h3 .number { vertical-align: baseline; font-size: .9rem; }
.number.supported { background: var(--supported); } .number.refuted { background: var(--refuted); }
.number.contested { background: var(--contested); } .number.broken { background: var(--broken-bg); }
.annotation { border: 1px solid var(--line); border-left: 4px solid var(--line); border-radius: 6px; padding: .75rem 1rem; margin: .75rem 0; background: var(--card); }
.annotation.supported { border-left-color: var(--supported); } .annotation.refuted { border-left-color: var(--refuted); }
.annotation.contested { border-left-color: var(--contested); } .annotation.broken { border-left-color: var(--broken-bg); }
.where { margin: .25rem 0; color: var(--muted); font-size: .85rem; }
blockquote { margin: .25rem 0 .5rem; padding: .25rem .75rem; border-left: 3px solid var(--line); white-space: pre-wrap; overflow-wrap: anywhere; }
.sources { padding-left: 1.25rem; }
.source { margin: .5rem 0; }
.polarity { font-weight: 600; } .polarity.supports { color: var(--supported); } .polarity.refutes { color: var(--refuted); }
.confidence, .which { color: var(--muted); font-size: .85rem; }
.meta { margin: 0; }
.error { margin: .25rem 0; padding: .35rem .6rem; border-radius: 4px; color: var(--on-mark); background: var(--broken-bg); overflow-wrap: anywhere; }
.source.broken-ref { outline: 2px solid var(--broken-bg); outline-offset: 4px; border-radius: 2px; }
.schema-errors { border: 2px solid var(--broken-bg); border-radius: 6px; padding: 0 1rem; }
.none { color: var(--muted); }
footer { margin-top: 2rem; color: var(--muted); font-size: .8rem; }
`;

function schemaErrorsText(count: number): string {
    return `${count.toLocaleString("en-US")} schema error${count === 1 ? "" : "s"}`;
}
