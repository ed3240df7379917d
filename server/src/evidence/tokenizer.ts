/**
 * Search terms of a text (docs/evidence-internals.md, "Tokenizer"): case-folded words of spaced scripts minus
 * a few English stop words, and overlapping character bigrams of runs of the scripts written without
 * spaces (a lone character stays one term). Words and those scripts are core/words.ts's, as for
 * boundaries and repair (an identifier with `_` is one term). Bigrams were chosen over `Intl.Segmenter` words by the
 * evaluation in docs/evidence.md: they find the same passages on the seed's cases, need no
 * dictionary, match partial words of a query, and tokenize about ten times faster.
 */

import { STOP_WORDS, UNSPACED_CHAR_CLASS, WEAK_WORDS, WORD_CHAR_CLASS } from "../core/words";

export { STOP_WORDS, WEAK_WORDS };

/**
 * Other forms of an English word a document may use instead (`citations` for `citation`, `policy`
 * for `policies`): tried, in order, for a query term no chunk holds. Not a stemmer: only the plural.
 */
export function termVariants(term: string): string[] {
    if (!/^[a-z]{3,}$/.test(term)) return [];
    if (term.endsWith("ies")) return [`${term.slice(0, -3)}y`];
    if (term.endsWith("es")) return [term.slice(0, -1), term.slice(0, -2)];
    if (term.endsWith("s") && !term.endsWith("ss")) return [term.slice(0, -1)];
    return [`${term}s`];
}

/**
 * A run of an unspaced script (bigrammed), or a word of any other letters, marks and digits (a set
 * difference: `memory证据` is a word and a run). Built from a string: the `v` flag is newer than our
 * TypeScript target, not than Node 20.
 */
const TOKEN = new RegExp(`[${UNSPACED_CHAR_CLASS}]+|[[${WORD_CHAR_CLASS}]--[${UNSPACED_CHAR_CLASS}]]+`, "gv");
const UNSPACED = new RegExp(`^[${UNSPACED_CHAR_CLASS}]`, "u");
/** Below the first unspaced script (Thai, U+0E00) no run is unspaced: the common case skips the test. */
const FIRST_UNSPACED = 0x0e00;

/**
 * TOKEN for ASCII text, where no script is unspaced and a word character is `[a-z0-9_]` once folded:
 * compiling TOKEN's Unicode classes costs a query about 2 ms of its start-up (core/words.ts says why).
 */
const ASCII_TOKEN = /[a-z0-9_]+/g;
const NOT_ASCII = /[\u0080-\uffff]/;

/** Calls `emit` for every term of `text`, in order (no array is built: indexing ten megabytes stays cheap). */
export function forEachTerm(text: string, emit: (term: string) => void): void {
    const folded = text.toLowerCase();
    const token = NOT_ASCII.test(folded) ? TOKEN : ASCII_TOKEN;
    token.lastIndex = 0;
    for (let match = token.exec(folded); match !== null; match = token.exec(folded)) {
        const run = match[0];
        const first = run.charCodeAt(0);
        if (first < FIRST_UNSPACED || !UNSPACED.test(run)) {
            if (!STOP_WORDS.has(run)) emit(run);
            continue;
        }
        const characters = Array.from(run);
        if (characters.length === 1) {
            emit(characters[0]);
            continue;
        }
        for (let i = 0; i + 1 < characters.length; i++) emit(characters[i] + characters[i + 1]);
    }
}

export type TokenizerName = "bigrams" | "words";
export type TermVisitor = (text: string, emit: (term: string) => void) => void;

/** Made on first use: a word segmenter for Chinese loads a dictionary of tens of megabytes. */
let wordSegmenter: Intl.Segmenter | undefined;

/**
 * The alternative the evaluation compared bigrams with (docs/evidence-internals.md, "Tokenizer"): the words of
 * `Intl.Segmenter` (dictionary segmentation for Chinese and Japanese), case-folded, minus stop words.
 */
export function forEachSegmentedTerm(text: string, emit: (term: string) => void): void {
    wordSegmenter ??= new Intl.Segmenter("zh", { granularity: "word" });
    for (const segment of wordSegmenter.segment(text.toLowerCase())) {
        if (segment.isWordLike && !STOP_WORDS.has(segment.segment)) emit(segment.segment);
    }
}

export function termVisitor(name: TokenizerName = "bigrams"): TermVisitor {
    return name === "words" ? forEachSegmentedTerm : forEachTerm;
}

/** The terms of `text` as an array (queries, tests). */
export function tokenize(text: string, name: TokenizerName = "bigrams"): string[] {
    const terms: string[] = [];
    termVisitor(name)(text, (term) => terms.push(term));
    return terms;
}
