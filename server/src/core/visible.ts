/**
 * Text a person reads in a terminal, a CI log or a report never carries characters that act instead
 * of showing (docs/security.md, "Outputs"): control characters (an escape sequence recolours or
 * rewrites the terminal; a newline in a file name starts a line of its own, which a CI runner may
 * read as a workflow command such as `::error`), and the bidirectional controls that reorder what is
 * shown (U+202E makes `txt.exe` read `exe.txt`). `visible` writes each as an escape: `\x1b`, `\n`,
 * `\u202e`. Pure.
 */

/**
 * C0 controls, DEL, C1 controls, line/paragraph separators and every format character (Unicode's
 * category Cf: the bidi embeddings, overrides, isolates and marks, zero-width characters, the BOM,
 * invisible operators, tags), each of which changes or hides what is shown instead of showing.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\p{Cf}]/gu;
const INVISIBLE_BUT_LINES =
    // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
    /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
/** Only the bidi controls (for the HTML report, where control characters are already harmless). */
export const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

const NAMED: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

export function escapeCharacter(character: string): string {
    const named = NAMED[character];
    if (named) return named;
    const code = character.codePointAt(0) ?? 0;
    if (code <= 0xff) return `\\x${code.toString(16).padStart(2, "0")}`;
    return code <= 0xffff ? `\\u${code.toString(16).padStart(4, "0")}` : `\\u{${code.toString(16)}}`;
}

/** A name, value or message printed on one line: every control and format character and newline escaped. */
export function visible(text: string): string {
    return text.replace(INVISIBLE, escapeCharacter);
}

/**
 * Whole lines of output (document text in `index` and `evidence`): as `visible`, but the newlines and
 * tabs that shape the output kept, and a line that would begin (after blanks) with `::`, which a CI
 * runner reads as a workflow command, written with its first colon escaped (`\x3a:error::`).
 */
export function visibleLines(text: string): string {
    return text.replace(INVISIBLE_BUT_LINES, escapeCharacter).replace(WORKFLOW_COMMAND, "$1\\x3a");
}
const WORKFLOW_COMMAND = /^([ \t]*):(?=:)/gm;

/** True when `text` holds a character `visible` would escape. */
export function hasInvisible(text: string): boolean {
    INVISIBLE.lastIndex = 0;
    const found = INVISIBLE.test(text);
    INVISIBLE.lastIndex = 0;
    return found;
}
