/**
 * Offsets as providers count them, turned into the UTF-16 offsets of JavaScript strings. Anthropic and
 * Cohere do not document their unit (code points or UTF-16 units): each candidate is tried against the
 * text the provider says lies there. Gemini counts UTF-8 bytes (its API reference says so).
 */

/** The UTF-16 offset of the `points`-th code point of `text`, or undefined past its end. */
export function codePointOffset(text: string, points: number): number | undefined {
    let offset = 0;
    for (let seen = 0; seen < points; seen++) {
        if (offset >= text.length) return undefined;
        const code = text.charCodeAt(offset);
        offset += code >= 0xd800 && code <= 0xdbff && offset + 1 < text.length ? 2 : 1;
    }
    return offset;
}

/** The UTF-16 offset at the `bytes`-th byte of `text` in UTF-8, or undefined when it falls inside a character. */
export function utf8ByteOffset(text: string, bytes: number): number | undefined {
    let seen = 0;
    let offset = 0;
    while (seen < bytes) {
        if (offset >= text.length) return undefined;
        const code = text.codePointAt(offset) as number;
        seen += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
        offset += code >= 0x10000 ? 2 : 1;
    }
    return seen === bytes ? offset : undefined;
}

/**
 * The UTF-16 span [start, end) that offsets counted in some unit denote in `text`, when the text there
 * is `expected` (line endings compared as LF); undefined when neither unit gives it.
 */
export function verifiedSpan(
    text: string,
    start: number,
    end: number,
    expected: string,
): { start: number; end: number } | undefined {
    const want = expected.replace(/\r\n?/g, "\n");
    const same = (from: number | undefined, to: number | undefined) =>
        from !== undefined && to !== undefined && from <= to && text.slice(from, to).replace(/\r\n?/g, "\n") === want;
    if (same(start, end)) return { start, end };
    const from = codePointOffset(text, start);
    const to = codePointOffset(text, end);
    if (same(from, to)) return { start: from as number, end: to as number };
    return undefined;
}

/** [start, end) without the whitespace at its edges (a ref cannot start at a line's end). */
export function trimSpan(text: string, start: number, end: number): { start: number; end: number } {
    while (start < end && /\s/.test(text[start])) start++;
    while (end > start && /\s/.test(text[end - 1])) end--;
    return { start, end };
}
