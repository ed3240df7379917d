/**
 * Does a quote appear in a page's visible text? (docs/quotes.md, "Matching quotes".) Web text is
 * laid out by HTML, so whitespace is folded and typographic quote marks are ignored, while case and
 * punctuation are kept. An explicit elision (`…`, `...`, `(…)`, `[...]`) skips source text between
 * fragments that must each be long enough and appear in order. Positions map back to the original
 * text so the editor can show where a quote was found.
 */

/** Each fragment around an elision must be at least this long, or a quote would match anything. */
export const MIN_ELIDED_FRAGMENT = 12;

/** Straight and typographic quote marks and apostrophes: their glyph differs between a page and a report. */
const QUOTE_MARKS = new Set(["\u201c", "\u201d", "\u2018", "\u2019", "\u201e", "\u00ab", "\u00bb", "'", '"']);
/** Folded whitespace before these is dropped: HTML text extraction puts spaces before inline punctuation. */
const CLOSING = new Set([")", "]", ".", ",", ";", ":", "!", "?"]);
const OPENING = new Set(["(", "["]);
const ELISION = /\s*(?:\(\u2026\)|\(\.\.\.\)|\[\u2026\]|\[\.\.\.\]|\u2026|\.\.\.)\s*/;

export interface FoldedText {
    text: string;
    /** map[i] is the offset in the original text of folded character i. */
    map: number[];
}

/** Whitespace runs become one space (none at the ends, none before closing punctuation), quote marks vanish. */
export function foldText(input: string): FoldedText {
    let text = "";
    const map: number[] = [];
    let pendingSpace = -1;
    let afterOpening = false;
    for (let i = 0; i < input.length; i++) {
        const ch = input[i];
        if (QUOTE_MARKS.has(ch)) continue;
        if (/\s/.test(ch)) {
            if (text.length > 0 && pendingSpace === -1) pendingSpace = i;
            continue;
        }
        if (pendingSpace !== -1) {
            if (!afterOpening && !CLOSING.has(ch)) {
                text += " ";
                map.push(pendingSpace);
            }
            pendingSpace = -1;
        }
        text += ch;
        map.push(i);
        afterOpening = OPENING.has(ch);
    }
    return { text, map };
}

export interface QuoteMatch {
    /** Offsets in the original source text: from the first fragment's start to the last one's end. */
    start: number;
    end: number;
    /** True when the quote matched through an elision. */
    elided: boolean;
}

/** Where the quote appears in the source text after folding, or undefined. */
export function findQuote(source: string, quote: string): QuoteMatch | undefined {
    return findQuoteIn(foldText(source), quote);
}

/** As findQuote, over a source folded once (one page checked against many quotes). */
export function findQuoteIn(folded: FoldedText, quote: string): QuoteMatch | undefined {
    const wanted = foldText(quote).text;
    if (wanted.length === 0) return undefined;
    const whole = folded.text.indexOf(wanted);
    if (whole !== -1) return span(folded, whole, whole + wanted.length, false);
    const parts = wanted.split(ELISION);
    // A leading or trailing elision just marks the quote as an excerpt.
    while (parts.length > 0 && parts[0].trim() === "") parts.shift();
    while (parts.length > 0 && parts[parts.length - 1].trim() === "") parts.pop();
    if (parts.length < 2 && parts.join("") === wanted) return undefined;
    if (parts.length === 0 || parts.some((part) => part.trim().length < MIN_ELIDED_FRAGMENT)) return undefined;
    let from = 0;
    let first = -1;
    for (const part of parts) {
        const fragment = part.trim();
        const at = folded.text.indexOf(fragment, from);
        if (at === -1) return undefined;
        if (first === -1) first = at;
        from = at + fragment.length;
    }
    return span(folded, first, from, true);
}

function span(folded: FoldedText, start: number, end: number, elided: boolean): QuoteMatch {
    return { start: folded.map[start], end: folded.map[end - 1] + 1, elided };
}
