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
    let inString = false;
    for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (inString) {
            if (c === 0x5c) i++;
            else if (c === 0x22) inString = false;
        } else if (c === 0x22) inString = true;
        else if (c === 0x5b || c === 0x7b) {
            if (++depth > limit) return i;
        } else if (c === 0x5d || c === 0x7d) depth--;
    }
    return -1;
}
