/**
 * What a word is, for every part that needs one (docs/architecture.md, "One definition of a word"):
 * boundaries and their edges, `mid-word-boundary`, cite, repair's readings and the evidence tokenizer.
 * A word is a run of letters, combining marks, digits and `_` (an identifier is one word); in a script written without spaces between
 * words (Han, Hiragana, Katakana with its prolonged sound mark, Thai, Lao, Khmer, Myanmar) every
 * character is a word of its own. Pure.
 */

/** Letters, combining marks, digits, `_`: the inside of a regular-expression character class (`u` or `v`). */
export const WORD_CHAR_CLASS = "\\p{L}\\p{M}\\p{N}_";

/** Scripts written without spaces between words: the inside of a character class (`u` or `v`). */
export const UNSPACED_CHAR_CLASS =
    "\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\u30FC\\p{Script=Thai}\\p{Script=Lao}\\p{Script=Khmer}\\p{Script=Myanmar}";

const WORD_CHAR = new RegExp(`[${WORD_CHAR_CLASS}]`, "u");
const WORD_CHARS = new RegExp(`[${WORD_CHAR_CLASS}]`, "gu");
/** Runs of word characters, global (for `matchAll`, which copies it, and `match`, which resets it). */
export const WORD_RUNS = new RegExp(`[${WORD_CHAR_CLASS}]+`, "gu");
const UNSPACED = new RegExp(`[${UNSPACED_CHAR_CLASS}]`, "u");

/** Whether `char` (one character) can be part of a word. */
export function isWordChar(char: string): boolean {
    return WORD_CHAR.test(char);
}

/** Whether `text` holds a character of a script written without spaces between words. */
export function isUnspaced(text: string): boolean {
    return UNSPACED.test(text);
}

/** The runs of word characters in `text`, in order (a run of an unspaced script is one run here). */
export function wordRuns(text: string): string[] {
    return text.match(WORD_RUNS) ?? [];
}

/** How many word characters `text` has. */
export function wordCharCount(text: string): number {
    return text.match(WORD_CHARS)?.length ?? 0;
}
