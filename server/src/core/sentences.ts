/**
 * Sentences of a document and which of them no claim covers (docs/view.md, "Show Coverage"). Pure:
 * sentence boundaries come from the platform's Intl.Segmenter, per line, so a heading or a list
 * item without a full stop is a sentence of its own.
 */

export interface Span {
    start: number;
    end: number;
}

const segmenter = new Intl.Segmenter(undefined, { granularity: "sentence" });

/** Every sentence of the text with its surrounding blanks trimmed; blank lines have none. */
export function sentenceSpans(text: string): Span[] {
    const spans: Span[] = [];
    let lineStart = 0;
    for (const line of text.split("\n")) {
        for (const { segment, index } of segmenter.segment(line)) {
            const lead = segment.length - segment.trimStart().length;
            const trimmed = segment.trim();
            if (trimmed === "") continue;
            const start = lineStart + index + lead;
            spans.push({ start, end: start + trimmed.length });
        }
        lineStart += line.length + 1;
    }
    return spans;
}

/** The sentences no claim span overlaps (claims: [start, end) offsets, in any order). */
export function uncoveredSentences(text: string, claims: readonly Span[]): Span[] {
    const sorted = [...claims].sort((a, b) => a.start - b.start);
    return sentenceSpans(text).filter((sentence) => !overlapsAny(sentence, sorted));
}

function overlapsAny(sentence: Span, sorted: readonly Span[]): boolean {
    // Few claims per document: a linear scan that stops past the sentence is enough.
    for (const claim of sorted) {
        if (claim.start >= sentence.end) return false;
        if (claim.end > sentence.start) return true;
    }
    return false;
}
