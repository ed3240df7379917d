/**
 * Quote -> ref (docs/cite.md): the ref that cites exactly one verbatim quote of a document, with
 * readable unique boundaries. Models quote well and count badly; this turns the one into the other.
 * Never guesses: a quote found more than once is ambiguous, with the line of every occurrence.
 */
import search from "approx-string-match";
import { refForSpan } from "./author";
import type { BoundaryStyle } from "./boundaries";
import { normalizeLineEndings } from "./lines";
import { splitsSurrogatePair } from "./occurrences";
import { fold, originalRange } from "./repair/normalize";
import { resolveInDocument } from "./resolve";
import type { SessionDocument } from "./session";
import type { Ref } from "./types";

export type CiteErrorCode = "quote-not-found" | "quote-ambiguous";

export interface CiteError {
    code: CiteErrorCode;
    message: string;
    /** 1-based line of every occurrence found (for `quote-ambiguous`), at most MAX_REPORTED_LINES. */
    lines: number[];
}

/** A near match of a quote not found verbatim (docs/cite.md): never certain, never used unasked. */
export interface CiteCandidate {
    ref: Ref;
    text: string;
    reason: "misquote";
    certain: false;
}

export type CiteResult =
    | { ok: true; ref: Ref; text: string }
    | { ok: false; error: CiteError; candidates?: CiteCandidate[] };

export interface CiteOptions {
    style?: BoundaryStyle;
}

/** An ambiguity report lists this many occurrences at most (a one-letter quote may occur millions of times). */
export const MAX_REPORTED_LINES = 100;

/**
 * The quote as it is searched for: line endings as in documents (LF), and without surrounding
 * whitespace, which no span can start or end with usefully (a span cannot end at a line start).
 */
export function normalizeQuote(quote: string): string {
    return normalizeLineEndings(quote).trim();
}

export function citeQuote(document: SessionDocument, quote: string, options: CiteOptions = {}): CiteResult {
    const wanted = normalizeQuote(quote);
    const name = JSON.stringify(document.path);
    if (wanted.length === 0) {
        return failure("quote-not-found", "the quote is empty (or whitespace only): quote the text to cite", []);
    }
    const content = document.content;
    const first = content.indexOf(wanted);
    if (first === -1) {
        const near = nearMatch(document, wanted, options);
        const message = `the quote does not occur verbatim in ${name}: copy it exactly from the document (use index to read it)`;
        if (near === undefined) return failure("quote-not-found", message, []);
        const where =
            near.ref.start.line === near.ref.end.line
                ? `line ${near.ref.start.line}`
                : `lines ${near.ref.start.line}-${near.ref.end.line}`;
        return {
            ok: false,
            error: {
                code: "quote-not-found",
                message: `${message}; a near match on ${where} (uncertain): ${JSON.stringify(near.text)}`,
                lines: [],
            },
            candidates: [near],
        };
    }
    const lines = document.lines;
    const second = content.indexOf(wanted, first + 1);
    if (second !== -1) {
        const found: number[] = [];
        let count = 0;
        for (let at = first; at !== -1; at = content.indexOf(wanted, at + 1)) {
            count++;
            if (found.length < MAX_REPORTED_LINES) found.push(lines.positionAt(at).line);
        }
        const shown = found.length < count ? `${found.join(", ")}, …` : found.join(", ");
        return failure(
            "quote-ambiguous",
            `the quote occurs ${count} times in ${name} (lines ${shown}); quote more of the surrounding text until it occurs once`,
            found,
        );
    }
    if (splitsSurrogatePair(content, first) || splitsSurrogatePair(content, first + wanted.length)) {
        return failure("quote-not-found", `the quote begins or ends inside a character of ${name}`, []);
    }
    const start = lines.positionAt(first);
    const end = lines.positionAt(first + wanted.length);
    const attempt = refForSpan(document, start, end, { style: options.style });
    if (!attempt.ok) {
        // The quote is unique in the document, but an edge of it is not unique on its line (the rest
        // of its first line repeats there, say): no ref can point at exactly this span.
        return failure(
            "quote-ambiguous",
            `the quote occurs once in ${name}, but the text at one of its edges repeats on its line (${start.line === end.line ? `line ${start.line}` : `line ${start.line} or ${end.line}`}), so no ref can mark exactly this span; quote a little more or less at its ends`,
            [start.line],
        );
    }
    const resolved = resolveInDocument(document, attempt.ref);
    if (!resolved.valid || resolved.text !== wanted) {
        throw new Error(`cite produced a ref that does not resolve to its quote in ${name}`);
    }
    return { ok: true, ref: attempt.ref, text: resolved.text };
}

function failure(code: CiteErrorCode, message: string, lines: number[]): CiteResult {
    return { ok: false, error: { code, message, lines } };
}

/** Near matches are looked for in documents up to this size, for quotes up to this length. */
const MAX_NEAR_DOCUMENT = 2 * 1024 * 1024;
const MAX_NEAR_QUOTE = 2000;
/** Shorter folded quotes match too much by chance to suggest anything. */
const MIN_NEAR_QUOTE = 12;
/** Edits allowed per character of the quote for an approximate match (a dropped or added word). */
const MAX_ERROR_RATE = 0.12;

/**
 * The one place the quote was probably meant to cite: the quote compared as a person misquotes
 * (case, whitespace and line breaks, typographic quotes and dashes folded), then allowing a few edits.
 * Undefined unless exactly one region is the best match by a clear margin.
 */
function nearMatch(document: SessionDocument, quote: string, options: CiteOptions): CiteCandidate | undefined {
    if (document.content.length > MAX_NEAR_DOCUMENT || quote.length > MAX_NEAR_QUOTE) return undefined;
    const needle = fold(quote).text.trim();
    if (needle.length < MIN_NEAR_QUOTE) return undefined;
    const folded = fold(document.content);
    const exact: number[] = [];
    for (let at = folded.text.indexOf(needle); at !== -1 && exact.length < 2; at = folded.text.indexOf(needle, at + 1))
        exact.push(at);
    let region: { start: number; end: number } | undefined;
    if (exact.length === 1) region = { start: exact[0], end: exact[0] + needle.length };
    else if (exact.length === 0) region = soleApproximateRegion(folded.text, needle);
    if (region === undefined) return undefined;
    const { start, end } = originalRange(folded, region.start, region.end);
    const span = snapToWords(document.content, start, end);
    if (span === undefined) return undefined;
    const lines = document.lines;
    const attempt = refForSpan(document, lines.positionAt(span.start), lines.positionAt(span.end), {
        style: options.style,
    });
    if (!attempt.ok) return undefined;
    const resolved = resolveInDocument(document, attempt.ref);
    if (!resolved.valid) return undefined;
    return { ref: attempt.ref, text: resolved.text, reason: "misquote", certain: false };
}

/** The region with the fewest edits, when no other region comes as close. */
function soleApproximateRegion(text: string, needle: string): { start: number; end: number } | undefined {
    const maxErrors = Math.max(1, Math.floor(needle.length * MAX_ERROR_RATE));
    const matches = search(text, needle, maxErrors);
    if (matches.length === 0) return undefined;
    // Variants of one region (an edge character more or less) overlap: keep the best of each.
    const regions: { start: number; end: number; errors: number }[] = [];
    for (const match of [...matches].sort((a, b) => a.start - b.start || a.end - b.end)) {
        const last = regions.at(-1);
        if (last && match.start < last.end) {
            if (match.errors < last.errors) regions[regions.length - 1] = match;
        } else regions.push(match);
    }
    regions.sort((a, b) => a.errors - b.errors);
    if (regions.length > 1 && regions[1].errors <= regions[0].errors + 1) return undefined;
    return regions[0];
}

/** The span widened to whole words and stripped of surrounding whitespace; undefined when empty. */
function snapToWords(content: string, start: number, end: number): { start: number; end: number } | undefined {
    const word = /[\p{L}\p{N}]/u;
    while (start > 0 && word.test(content[start - 1]) && word.test(content[start])) start--;
    while (end < content.length && word.test(content[end - 1]) && word.test(content[end])) end++;
    while (start < end && /\s/.test(content[start])) start++;
    while (end > start && /\s/.test(content[end - 1])) end--;
    if (end <= start || splitsSurrogatePair(content, start) || splitsSurrogatePair(content, end)) return undefined;
    return { start, end };
}
