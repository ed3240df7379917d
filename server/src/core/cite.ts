/**
 * Quote -> ref (docs/cite.md): the ref that cites exactly one verbatim quote of a document, with
 * readable unique boundaries. Models quote well and count badly; this turns the one into the other.
 * Never guesses: a quote found more than once is ambiguous, with the line of every occurrence.
 */

import search from "approx-string-match";
import { diffArrays } from "diff";
import { refForSpan } from "./author";
import { type BoundaryStyle, spanEdges } from "./boundaries";
import { normalizeLineEndings } from "./lines";
import { fold, maxNearEdits, originalRange } from "./nearMatch";
import { splitsSurrogatePair } from "./occurrences";
import { midWordWarning, type SpanWarning } from "./refWarnings";
import { resolveInDocument } from "./resolve";
import type { SessionDocument } from "./session";
import type { Ref } from "./types";
import { isUnspaced, isWordChar } from "./words";

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
    /** `warnings`: `mid-word-boundary` when the quote starts or ends inside a word (with the whole-word ref). */
    | { ok: true; ref: Ref; text: string; warnings?: SpanWarning[] }
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

/** The line-number prefix `index` prints (`  7 | `), as copied into a quote with its line. */
const NUMBERED = /^[ \t]*\d+ \| ?/;

/**
 * The quote without the `N | ` prefixes of lines copied from `index`, or undefined when its first line
 * has none. Only lines carrying the prefix lose it (a copy may start in the middle of a line).
 */
export function withoutLineNumbers(quote: string): string | undefined {
    const lines = quote.split("\n");
    if (!NUMBERED.test(lines[0])) return undefined;
    return lines.map((line) => line.replace(NUMBERED, "")).join("\n");
}

export function citeQuote(document: SessionDocument, quote: string, options: CiteOptions = {}): CiteResult {
    let wanted = normalizeQuote(quote);
    const name = JSON.stringify(document.path);
    if (wanted.length === 0) {
        return failure("quote-not-found", "the quote is empty (or whitespace only): quote the text to cite", []);
    }
    const content = document.content;
    let first = content.indexOf(wanted);
    if (first === -1) {
        // A quote copied from `index` output with its line numbers: the numbers are not the text.
        const stripped = withoutLineNumbers(wanted)?.trim();
        if (stripped && content.includes(stripped)) {
            wanted = stripped;
            first = content.indexOf(wanted);
        }
    }
    if (first === -1) {
        const near = nearMatch(document, wanted, options);
        const message = `the quote does not occur verbatim in ${name}: copy it exactly from the document (use index to read it)`;
        if (near === undefined) return failure("quote-not-found", message, []);
        const where =
            near.ref.start.line === near.ref.end.line
                ? `line ${near.ref.start.line}`
                : `lines ${near.ref.start.line}-${near.ref.end.line}`;
        const differences = wordDifferences(wanted, near.text);
        return {
            ok: false,
            error: {
                code: "quote-not-found",
                message: `${message}; a near match on ${where} (uncertain): ${JSON.stringify(near.text)}${differences}`,
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
        const edge = attempt.message.startsWith("no string ending") ? "end" : "start";
        const line = edge === "start" ? start.line : end.line;
        const edgeText =
            edge === "start" ? lines.line(start.line).slice(start.column) : lines.line(end.line).slice(0, end.column);
        const extension = shortestExtension(document, first, first + wanted.length, options);
        const advice = extension
            ? `; the shortest quote that works adds ${JSON.stringify(extension.added)} ${extension.side === "start" ? "before" : "after"} it: ${JSON.stringify(shorten(extension.quote))}`
            : "; quote a little more or less at its ends";
        return failure(
            "quote-ambiguous",
            `the quote occurs once in ${name}, but its ${edge} (${JSON.stringify(shorten(edge === "start" ? edgeText.slice(0, wanted.length) : edgeText.slice(-wanted.length)))}) repeats on line ${line}, so no ref can mark exactly this span${advice}`,
            [start.line],
        );
    }
    const resolved = resolveInDocument(document, attempt.ref);
    if (!resolved.valid || resolved.text !== wanted) {
        throw new Error(`cite produced a ref that does not resolve to its quote in ${name}`);
    }
    const midWord = midWordWarning(document, first, first + wanted.length);
    return midWord
        ? { ok: true, ref: attempt.ref, text: resolved.text, warnings: [midWord] }
        : { ok: true, ref: attempt.ref, text: resolved.text };
}

/** Words tried either side when looking for a quote whose edges can be marked. */
const MAX_EXTENSION_WORDS = 12;

/**
 * The quote [from, to) grown by the fewest characters of whole words, before or after it on its
 * edge lines, such that a ref can mark it; undefined when no such growth within a few words works.
 */
function shortestExtension(
    document: SessionDocument,
    from: number,
    to: number,
    options: CiteOptions,
): { side: "start" | "end"; added: string; quote: string } | undefined {
    const lines = document.lines;
    const content = document.content;
    const start = lines.positionAt(from);
    const end = lines.positionAt(to);
    const tries: { side: "start" | "end"; at: number }[] = [];
    const startLine = lines.line(start.line);
    const before = spanEdges(startLine, "start")
        .filter((c) => c < start.column)
        .reverse();
    for (const column of before.slice(0, MAX_EXTENSION_WORDS))
        tries.push({ side: "start", at: lines.offsetAt(start.line, column) });
    const endLine = lines.line(end.line);
    const after = spanEdges(endLine, "end").filter((c) => c > end.column);
    for (const column of after.slice(0, MAX_EXTENSION_WORDS))
        tries.push({ side: "end", at: lines.offsetAt(end.line, column) });
    tries.sort(
        (a, b) => Math.abs(a.at - (a.side === "start" ? from : to)) - Math.abs(b.at - (b.side === "start" ? from : to)),
    );
    for (const attempt of tries) {
        const newFrom = attempt.side === "start" ? attempt.at : from;
        const newTo = attempt.side === "end" ? attempt.at : to;
        const made = refForSpan(document, lines.positionAt(newFrom), lines.positionAt(newTo), { style: options.style });
        if (!made.ok) continue;
        const added = attempt.side === "start" ? content.slice(newFrom, from) : content.slice(to, newTo);
        return { side: attempt.side, added, quote: content.slice(newFrom, newTo) };
    }
    return undefined;
}

/** `; it differs in "45%" (your quote) vs "42%" (the document)`: the whitespace-separated words that differ. */
export function wordDifferences(quote: string, found: string): string {
    const words = (text: string) => text.split(/\s+/).filter((w) => w.length > 0);
    const changes = diffArrays(words(quote), words(found));
    const pairs: string[] = [];
    for (let i = 0; i < changes.length && pairs.length < 3; i++) {
        const change = changes[i];
        if (!change.added && !change.removed) continue;
        const removed = change.removed ? change.value.join(" ") : "";
        const next = change.removed ? changes[i + 1] : undefined;
        const added = change.added ? change.value.join(" ") : next?.added ? next.value.join(" ") : "";
        if (next?.added) i++;
        if (removed && added)
            pairs.push(
                `${JSON.stringify(shorten(removed))} (your quote) vs ${JSON.stringify(shorten(added))} (the document)`,
            );
        else if (removed) pairs.push(`${JSON.stringify(shorten(removed))} (only in your quote)`);
        else pairs.push(`${JSON.stringify(shorten(added))} (only in the document)`);
    }
    if (pairs.length === 0) return "; it differs only in spacing or line breaks";
    return `; it differs in ${pairs.join(", ")}`;
}

function shorten(text: string): string {
    return text.length <= 80 ? text : `${text.slice(0, 38)}…${text.slice(-38)}`;
}

function failure(code: CiteErrorCode, message: string, lines: number[]): CiteResult {
    return { ok: false, error: { code, message, lines } };
}

/** Near matches are looked for in documents up to this size, for quotes up to this length. */
const MAX_NEAR_DOCUMENT = 2 * 1024 * 1024;
const MAX_NEAR_QUOTE = 2000;
/**
 * Shorter folded quotes match too much by chance to suggest anything: 12 characters (about two
 * words), or 6 in a script written without spaces, where each character is a word.
 */
const MIN_NEAR_QUOTE = 12;
const MIN_NEAR_UNSPACED_QUOTE = 6;

/**
 * The one place the quote was probably meant to cite: the quote compared as a person misquotes
 * (case, whitespace and line breaks, typographic quotes and dashes folded), then allowing a few edits.
 * Undefined unless exactly one region is the best match by a clear margin.
 */
function nearMatch(document: SessionDocument, quote: string, options: CiteOptions): CiteCandidate | undefined {
    if (document.content.length > MAX_NEAR_DOCUMENT || quote.length > MAX_NEAR_QUOTE) return undefined;
    const needle = fold(quote).text.trim();
    if (needle.length < (isUnspaced(needle) ? MIN_NEAR_UNSPACED_QUOTE : MIN_NEAR_QUOTE)) return undefined;
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
    // The one notion of near (core/nearMatch.ts): characters in unspaced scripts, about a word in eight elsewhere.
    const maxErrors = Math.max(1, maxNearEdits(needle));
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
    // In a script written without spaces every character is a word (words.ts): nothing to widen to.
    const word = (char: string | undefined) => char !== undefined && isWordChar(char) && !isUnspaced(char);
    while (start > 0 && word(content[start - 1]) && word(content[start])) start--;
    while (end < content.length && word(content[end - 1]) && word(content[end])) end++;
    while (start < end && /\s/.test(content[start])) start++;
    while (end > start && /\s/.test(content[end - 1])) end--;
    if (end <= start || splitsSurrogatePair(content, start) || splitsSurrogatePair(content, end)) return undefined;
    return { start, end };
}
