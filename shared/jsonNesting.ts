/**
 * How deeply a JSON text nests, checked before parsing: used by the server's parser and by the
 * client's current-annotation tracker, which must refuse the same texts.
 */

/** Deeper than any annotation file needs (they nest 6 levels), shallow enough for a recursive parser. */
export const MAX_NESTING = 512;

/**
 * The offset of the first bracket nested deeper than `limit` (strings skipped), or -1. jsonc-parser
 * recurses per level, so text is checked with this before it is handed to it.
 */
export function nestingBeyond(text: string, limit: number): number {
    let depth = 0;
    for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (c === 0x22) i = stringEnd(text, i);
        else if (c === 0x5b || c === 0x7b) {
            if (++depth > limit) return i;
        } else if (c === 0x5d || c === 0x7d) depth--;
    }
    return -1;
}

/**
 * The offset of the quote that closes the string opened at `open` (the text's length if none). A
 * quote closes it when an even number of backslashes stands before it. Found with indexOf, which is
 * native: a session file's documents are a few strings of megabytes each (docs/benchmarks.md).
 */
function stringEnd(text: string, open: number): number {
    let quote = text.indexOf('"', open + 1);
    while (quote !== -1) {
        let before = quote - 1;
        while (text.charCodeAt(before) === 0x5c) before--;
        if ((quote - 1 - before) % 2 === 0) return quote;
        quote = text.indexOf('"', quote + 1);
    }
    return text.length;
}
