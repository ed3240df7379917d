/**
 * Quote -> ref (docs/cite.md): the ref that cites exactly one verbatim quote of a document, with
 * readable unique boundaries. Models quote well and count badly; this turns the one into the other.
 * Never guesses: a quote found more than once is ambiguous, with the line of every occurrence.
 */
import { refForSpan } from "./author";
import type { BoundaryStyle } from "./boundaries";
import { normalizeLineEndings } from "./lines";
import { splitsSurrogatePair } from "./occurrences";
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

export type CiteResult = { ok: true; ref: Ref; text: string } | { ok: false; error: CiteError };

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
        return failure(
            "quote-not-found",
            `the quote does not occur verbatim in ${name}: copy it exactly from the document (use index to read it)`,
            [],
        );
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
