/**
 * Sentences of a document and which of them no claim covers (docs/view.md, "Show Coverage"; the
 * coverage of a check, docs/agents.md "Coverage": by line and by sentence on the line). Pure:
 * sentence boundaries are the platform's Intl.Segmenter's (UAX #29, ICU's rules), per line, so a
 * heading or a list item without a full stop is a sentence of its own. In ASCII text a small scanner
 * finds the same boundaries without it: the first sentence segmenter of a process loads ICU's break
 * rules, about a tenth of a bare `node -e 0` (docs/architecture.md, "CLI bundles").
 */

export interface Span {
    start: number;
    end: number;
}

/** A sentence as Intl.Segmenter gives it: its text, trailing spaces included, and where it starts. */
export interface SentenceSegment {
    segment: string;
    index: number;
}

/** Made on the first text that is not ASCII. */
let segmenter: Intl.Segmenter | undefined;

/** Printable ASCII, tab, LF and CR: the text the scanner below is held to Intl.Segmenter on. */
const ASCII_TEXT = /^[\t\n\r\x20-\x7e]*$/;

/** The sentences of `text`, in order, as Intl.Segmenter's sentence granularity cuts it. */
export function sentenceSegments(text: string): SentenceSegment[] {
    if (ASCII_TEXT.test(text)) {
        const segments: SentenceSegment[] = [];
        let index = 0;
        for (const end of asciiSentenceEnds(text)) {
            segments.push({ segment: text.slice(index, end), index });
            index = end;
        }
        return segments;
    }
    segmenter ??= new Intl.Segmenter(undefined, { granularity: "sentence" });
    return [...segmenter.segment(text)];
}

const CR = 0x0d;
const LF = 0x0a;
const isUpper = (c: number) => c >= 0x41 && c <= 0x5a;
const isLower = (c: number) => c >= 0x61 && c <= 0x7a;
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const isSpace = (c: number) => c === 0x20 || c === 0x09;
/** `.` (UAX #29 ATerm) and `!` `?` (STerm). */
const isATerm = (c: number) => c === 0x2e;
const isTerm = (c: number) => c === 0x2e || c === 0x21 || c === 0x3f;
/** Quotes and brackets (Close). */
const isClose = (c: number) =>
    c === 0x22 || c === 0x27 || c === 0x28 || c === 0x29 || c === 0x5b || c === 0x5d || c === 0x7b || c === 0x7d;
/** `,` `-` `:` `;` (SContinue): `etc., and` goes on. */
const isContinue = (c: number) => c === 0x2c || c === 0x2d || c === 0x3a || c === 0x3b;

/**
 * The end offset of each sentence of an ASCII text (the last is the text's length), by UAX #29's
 * sentence rules: a sentence ends at a line break, or after `.` `!` `?`, the quotes and brackets
 * closing it, the spaces and one line break after those; not after a `.` followed by a digit
 * (`3.14`), between letters and a capital (`U.S`), before a lower-case word (`e.g. this`), or before
 * `,` `-` `:` `;` or another terminator. test/unit/asciiSentences.test.ts holds it to Intl.Segmenter.
 */
export function asciiSentenceEnds(text: string): number[] {
    const ends: number[] = [];
    const at = (i: number) => (i < text.length ? text.charCodeAt(i) : -1);
    let i = 0;
    while (i < text.length) {
        const c = at(i++);
        if (c === CR || c === LF) {
            if (c === CR && at(i) === LF) i++;
            if (i < text.length) ends.push(i);
            continue;
        }
        if (!isTerm(c)) continue;
        if (isATerm(c) && (isDigit(at(i)) || ((isUpper(at(i - 2)) || isLower(at(i - 2))) && isUpper(at(i))))) {
            continue;
        }
        let end = i;
        while (isClose(at(end))) end++;
        while (isSpace(at(end))) end++;
        if (isATerm(c) && lowerCaseFollows(text, end)) continue;
        if (isContinue(at(end)) || isTerm(at(end))) continue;
        if (at(end) === CR) end += at(end + 1) === LF ? 2 : 1;
        else if (at(end) === LF) end++;
        if (end >= text.length) break;
        ends.push(end);
        i = end;
    }
    if (text.length > 0) ends.push(text.length);
    return ends;
}

/** Whether, from `from`, the first letter, line break or terminator is a lower-case letter. */
function lowerCaseFollows(text: string, from: number): boolean {
    for (let i = from; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (isLower(c)) return true;
        if (isUpper(c) || c === CR || c === LF || isTerm(c)) return false;
    }
    return false;
}

/** Every sentence of the text with its surrounding blanks trimmed; blank lines have none. */
export function sentenceSpans(text: string): Span[] {
    return sentencePlaces(text).map(({ start, end }) => ({ start, end }));
}

/**
 * A sentence and where a person finds it: its line (from 1), its number among the sentences of that
 * line (from 1) and how many sentences the line holds (`of`): "line 3, sentence 2 of 5".
 */
export interface SentencePlace extends Span {
    line: number;
    sentence: number;
    of: number;
}

/** Every sentence of the text, trimmed as `sentenceSpans` trims it, with its place on its line. */
export function sentencePlaces(text: string): SentencePlace[] {
    const places: SentencePlace[] = [];
    let lineStart = 0;
    let line = 0;
    for (const lineText of text.split("\n")) {
        line++;
        const first = places.length;
        for (const { segment, index } of sentenceSegments(lineText)) {
            const lead = segment.length - segment.trimStart().length;
            const trimmed = segment.trim();
            if (trimmed === "") continue;
            const start = lineStart + index + lead;
            places.push({ start, end: start + trimmed.length, line, sentence: places.length - first + 1, of: 0 });
        }
        for (let i = first; i < places.length; i++) places[i].of = places.length - first;
        lineStart += lineText.length + 1;
    }
    return places;
}

/**
 * The sentences of a claim document by what the annotation file says of them (docs/agents.md,
 * "Coverage"): `covered` when a claim overlaps them; else `unsourced` when a ref of the file's
 * `unsourced` list overlaps them (the author searched and found no source); else `uncovered`.
 */
export interface SentenceCoverage {
    /** How many sentences the document has. */
    sentences: number;
    /** How many a claim covers. */
    covered: number;
    unsourced: SentencePlace[];
    uncovered: SentencePlace[];
}

/** Each sentence of `text` as covered, searched with no source found, or neither (spans: [start, end) offsets). */
export function sentenceCoverage(
    text: string,
    claims: readonly Span[],
    unsourced: readonly Span[] = [],
): SentenceCoverage {
    const sortedClaims = [...claims].sort((a, b) => a.start - b.start);
    const sortedUnsourced = [...unsourced].sort((a, b) => a.start - b.start);
    const places = sentencePlaces(text);
    const result: SentenceCoverage = { sentences: places.length, covered: 0, unsourced: [], uncovered: [] };
    for (const place of places) {
        if (overlapsAny(place, sortedClaims)) result.covered++;
        else if (overlapsAny(place, sortedUnsourced)) result.unsourced.push(place);
        else result.uncovered.push(place);
    }
    return result;
}

/**
 * Sentences of one line: the line (from 1), how many sentences it holds (`of`) and which of them
 * are meant (from 1); `sentences` is absent when all of them are. At most MAX_LINE_SENTENCES are
 * listed, `more` counts the rest.
 */
export interface LineSentences {
    line: number;
    of: number;
    sentences?: number[];
    more?: number;
}

/** Sentence numbers listed per line at most. */
export const MAX_LINE_SENTENCES = 50;

/** Places (in document order) grouped by line: `{ line: 3, of: 5, sentences: [1, 3, 5] }`, `{ line: 4, of: 1 }`. */
export function sentencesByLine(places: readonly SentencePlace[]): LineSentences[] {
    const lines: LineSentences[] = [];
    let numbers: number[] = [];
    const close = () => {
        const last = lines.at(-1);
        if (!last || numbers.length === last.of) return;
        last.sentences = numbers.slice(0, MAX_LINE_SENTENCES);
        if (numbers.length > MAX_LINE_SENTENCES) last.more = numbers.length - MAX_LINE_SENTENCES;
    };
    for (const place of places) {
        if (lines.at(-1)?.line !== place.line) {
            close();
            lines.push({ line: place.line, of: place.of });
            numbers = [];
        }
        numbers.push(place.sentence);
    }
    close();
    return lines;
}

/**
 * Lines as a person reads them, the first `max`: `lines 1, 3 (sentences 1, 3, 5 of 5), 7-9`. A line
 * all of whose sentences are meant is named alone (runs of them as ranges); a line only some of whose
 * sentences are meant names those, by number on the line. `unlisted`: lines meant but not in `lines`.
 */
export function sentenceLinesText(lines: readonly LineSentences[], max = 12, unlisted = 0): string {
    const whole = (l: LineSentences) => l.sentences === undefined;
    const parts: string[] = [];
    let shown = 0;
    for (let i = 0; i < lines.length && shown < max; i++) {
        const line = lines[i];
        if (line.sentences !== undefined) {
            const more = line.more ? ` and ${line.more} more` : "";
            const which = `${line.sentences.join(", ")}${more}`;
            const many = line.sentences.length + (line.more ?? 0) > 1;
            parts.push(`${line.line} (sentence${many ? "s" : ""} ${which} of ${line.of})`);
            shown++;
            continue;
        }
        let j = i;
        while (j + 1 < lines.length && whole(lines[j + 1]) && lines[j + 1].line === lines[j].line + 1) j++;
        parts.push(j > i ? `${line.line}-${lines[j].line}` : `${line.line}`);
        shown += j - i + 1;
        i = j;
    }
    const rest = lines.length - shown + unlisted;
    const head = `line${lines.length + unlisted === 1 ? "" : "s"} ${parts.join(", ")}`;
    return rest > 0 ? `${head} and ${rest} more` : head;
}

/** The sentences no claim span overlaps (claims: [start, end) offsets, in any order). */
export function uncoveredSentences(text: string, claims: readonly Span[]): Span[] {
    return sentenceCoverage(text, claims).uncovered.map(({ start, end }) => ({ start, end }));
}

function overlapsAny(sentence: Span, sorted: readonly Span[]): boolean {
    // Few claims per document: a linear scan that stops past the sentence is enough.
    for (const claim of sorted) {
        if (claim.start >= sentence.end) return false;
        if (claim.end > sentence.start) return true;
    }
    return false;
}
