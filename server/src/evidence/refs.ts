/**
 * The SourceCheck ref of a hit (docs/evidence.md, "Refs"): to the sentence of the chunk that matches
 * the query best, else to the chunk's text below its heading, with word-aligned unique boundaries
 * (core/author.ts refForSpan). The ref always resolves inside the chunk.
 */
import { refForSpan } from "../core/author";
import type { SessionDocument } from "../core/session";
import type { Position, Ref } from "../core/types";
import { tokenize } from "./tokenizer";

const HEADING_LINE = /^ {0,3}#{1,6}(?:[ \t]|$)/;
const sentences = new Intl.Segmenter(undefined, { granularity: "sentence" });

interface Span {
    start: Position;
    end: Position;
}

/** `weights` gives each query term's weight (its idf); a sentence scores the weights of the terms it contains. */
export function refForHit(
    document: SessionDocument,
    startLine: number,
    endLine: number,
    weights: ReadonlyMap<string, number>,
    terms: (text: string) => string[] = tokenize,
): Ref | undefined {
    const body = bodySpan(document, startLine, endLine);
    if (!body) return undefined;
    const best = bestSentence(document, body, weights, terms);
    for (const span of best ? [best, body] : [body]) {
        const attempt = refForSpan(document, span.start, span.end);
        if (attempt.ok) return attempt.ref;
    }
    return undefined;
}

/** The chunk's lines without its heading line, trimmed of surrounding whitespace. */
function bodySpan(document: SessionDocument, startLine: number, endLine: number): Span | undefined {
    const lines = document.lines;
    let first = startLine;
    if (HEADING_LINE.test(lines.line(first)) && first < endLine) first++;
    while (first <= endLine && lines.line(first).trim() === "") first++;
    let last = endLine;
    while (last >= first && lines.line(last).trim() === "") last--;
    if (first > last) {
        // A lone heading (only possible at the very end of a file) is its own text.
        first = startLine;
        last = startLine;
    }
    const firstText = lines.line(first);
    const lastText = lines.line(last);
    return {
        start: { line: first, column: firstText.length - firstText.trimStart().length },
        end: { line: last, column: lastText.trimEnd().length },
    };
}

/** A list item's marker (`- `, `* `, `+ `, `1. `, `2) `) and the blank before its text. */
const LIST_MARKER = /^\s*(?:[-*+]|\d{1,9}[.)])\s+/;

/**
 * Units of the body that sentences never cross: each list item, and each run of other lines (a soft
 * line break does not end a sentence). A unit is [from, to) offsets into the content, markers left out.
 */
function units(document: SessionDocument, body: Span): [number, number][] {
    const lines = document.lines;
    const found: [number, number][] = [];
    let open: [number, number] | undefined;
    for (let line = body.start.line; line <= body.end.line; line++) {
        const text = lines.line(line);
        const lineStart = lines.lineStart(line);
        const from = lineStart + (line === body.start.line ? body.start.column : 0);
        const to = lineStart + (line === body.end.line ? body.end.column : text.length);
        const marker = LIST_MARKER.exec(text);
        if (text.trim() === "" || marker) {
            if (open) found.push(open);
            open = undefined;
            if (text.trim() === "") continue;
        }
        const start = marker ? Math.max(from, lineStart + marker[0].length) : from;
        if (open) open[1] = to;
        else open = [start, to];
    }
    if (open) found.push(open);
    return found.filter(([from, to]) => to > from);
}

function bestSentence(
    document: SessionDocument,
    body: Span,
    weights: ReadonlyMap<string, number>,
    terms: (text: string) => string[],
): Span | undefined {
    let best: { score: number; from: number; to: number } | undefined;
    let count = 0;
    for (const [from, to] of units(document, body)) {
        // Newlines as spaces (same length): a soft-wrapped line is not a sentence end.
        const text = document.content.slice(from, to).replace(/\n/g, " ");
        for (const segment of sentences.segment(text)) {
            const trimmed = segment.segment.trim();
            if (trimmed === "") continue;
            count++;
            let score = 0;
            for (const term of new Set(terms(trimmed))) score += weights.get(term) ?? 0;
            if (score > 0 && (best === undefined || score > best.score)) {
                const lead = segment.segment.length - segment.segment.trimStart().length;
                best = { score, from: from + segment.index + lead, to: from + segment.index + lead + trimmed.length };
            }
        }
    }
    if (best === undefined || count < 2) return undefined; // one sentence: the chunk's text is it
    return { start: document.lines.positionAt(best.from), end: document.lines.positionAt(best.to) };
}
