/**
 * What a hit shows and cites (docs/evidence-internals.md "Refs", evidence.md "Hit text"): the chunk's text below its
 * heading cut into sentences, the sentence that matches the query best, a passage of whole sentences
 * around it that fits a character limit, and refs with word-aligned unique boundaries
 * (core/author.ts refForSpan) to the sentence and to the passage. Every ref resolves inside the chunk.
 */
import { refForSpan } from "../core/author";
import { sentenceSegments } from "../core/sentences";
import type { SessionDocument } from "../core/session";
import type { Position, Ref } from "../core/types";
import { tokenize } from "./tokenizer";

const HEADING_LINE = /^ {0,3}#{1,6}(?:[ \t]|$)/;

interface Span {
    start: Position;
    end: Position;
}

/** [from, to) offsets into a document's content. */
export type Offsets = [number, number];

/** A chunk read for showing: its body, its sentences in order, and the one matching the query best. */
export interface Passage {
    document: SessionDocument;
    body: Offsets;
    /** Sentences of the body in order (list items and paragraphs are never crossed). */
    sentences: Offsets[];
    /** The index in `sentences` of the best sentence; -1 when the body is one sentence or none matched. */
    best: number;
}

/** `weights` gives each query term's weight (its idf); a sentence scores the weights of the terms it contains. */
export function passageOf(
    document: SessionDocument,
    startLine: number,
    endLine: number,
    weights: ReadonlyMap<string, number>,
    terms: (text: string) => string[] = tokenize,
): Passage | undefined {
    const body = bodySpan(document, startLine, endLine);
    if (!body) return undefined;
    const lines = document.lines;
    const bodyOffsets: Offsets = [
        lines.lineStart(body.start.line) + body.start.column,
        lines.lineStart(body.end.line) + body.end.column,
    ];
    const sentences: Offsets[] = [];
    let best = -1;
    let bestScore = 0;
    for (const [from, to] of units(document, body)) {
        // Newlines as spaces (same length): a soft-wrapped line is not a sentence end.
        const text = document.content.slice(from, to).replace(/\n/g, " ");
        for (const segment of sentenceSegments(text)) {
            const trimmed = segment.segment.trim();
            if (trimmed === "") continue;
            const lead = segment.segment.length - segment.segment.trimStart().length;
            const start = from + segment.index + lead;
            sentences.push([start, start + trimmed.length]);
            let score = 0;
            for (const term of new Set(terms(trimmed))) score += weights.get(term) ?? 0;
            if (score > bestScore) {
                bestScore = score;
                best = sentences.length - 1;
            }
        }
    }
    if (sentences.length < 2) best = -1; // one sentence: the chunk's text is it
    return { document, body: bodyOffsets, sentences, best };
}

/** The ref of a hit: to its best sentence, else (or when that has no unique boundary) to its body. */
export function refForHit(
    document: SessionDocument,
    startLine: number,
    endLine: number,
    weights: ReadonlyMap<string, number>,
    terms: (text: string) => string[] = tokenize,
): Ref | undefined {
    const passage = passageOf(document, startLine, endLine, weights, terms);
    return passage ? sentenceRef(passage) : undefined;
}

/** The ref to the best sentence, falling back to the whole body. */
export function sentenceRef(passage: Passage): Ref | undefined {
    const spans = passage.best >= 0 ? [passage.sentences[passage.best], passage.body] : [passage.body];
    for (const span of spans) {
        const ref = refForOffsets(passage.document, span);
        if (ref) return ref;
    }
    return undefined;
}

/** A ref to [from, to) of a document, or undefined when no unique word-aligned boundary exists. */
export function refForOffsets(document: SessionDocument, [from, to]: Offsets): Ref | undefined {
    const attempt = refForSpan(document, document.lines.positionAt(from), document.lines.positionAt(to));
    return attempt.ok ? attempt.ref : undefined;
}

/** What a hit shows of its chunk: whole sentences around the best one, within a character limit. */
export interface Excerpt {
    /** The shown span of the document (exact text), or of the best sentence when even it did not fit. */
    span: Offsets;
    /** The best sentence's part of `span` (undefined: the body is one sentence or none matched). */
    sentence?: Offsets;
    /** True when the span is less than the chunk's body. */
    partial: boolean;
    /** True when the span was cut inside a sentence (the best one was longer than the limit). */
    cutInside: boolean;
}

/**
 * The longest run of whole sentences containing the best one (the first when none is best) that
 * fits `limit` characters, growing forward first (a fact often follows the sentence that names its
 * subject), then backward. A best sentence longer than the limit is cut at the limit.
 */
export function excerptOf(passage: Passage, limit: number): Excerpt {
    const { body, sentences } = passage;
    const best = passage.best >= 0 ? passage.sentences[passage.best] : undefined;
    if (body[1] - body[0] <= limit) return { span: body, sentence: best, partial: false, cutInside: false };
    const center = Math.max(passage.best, 0);
    if (sentences.length === 0) {
        return { span: [body[0], cutPoint(passage.document.content, body[0], limit)], partial: true, cutInside: true };
    }
    let first = center;
    let last = center;
    const [start, end] = sentences[center];
    if (end - start > limit) {
        const span: Offsets = [start, cutPoint(passage.document.content, start, limit)];
        return { span, sentence: best && span, partial: true, cutInside: true };
    }
    let grown = true;
    while (grown) {
        grown = false;
        if (last + 1 < sentences.length && sentences[last + 1][1] - sentences[first][0] <= limit) {
            last++;
            grown = true;
        }
        if (first > 0 && sentences[last][1] - sentences[first - 1][0] <= limit) {
            first--;
            grown = true;
        }
    }
    return { span: [sentences[first][0], sentences[last][1]], sentence: best, partial: true, cutInside: false };
}

/** Where to cut text from `start` to hold at most `limit` characters: after a word when one ends past half of it. */
function cutPoint(content: string, start: number, limit: number): number {
    let end = start + limit;
    const space = content.slice(start, end + 1).search(/\s\S*$/);
    if (space > limit / 2) end = start + space;
    const code = content.charCodeAt(end - 1);
    return code >= 0xd800 && code <= 0xdbff ? end - 1 : end; // never split a surrogate pair
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
