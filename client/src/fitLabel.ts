/**
 * Labels that fit (issue 34, item 8; docs/editor.md, "Cited spans"): a label drawn after a line's
 * text is cut to the columns left on the line, at a word's edge, with "…"; the hover keeps the whole
 * text. Pure (no vscode), so its unit test runs without an editor.
 */

/** Characters drawn two columns wide in a monospace editor (CJK, Hangul, full-width forms). */
const WIDE =
    /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/u;

/** The columns one character takes: 2 for wide ones, `tabSize` for a tab, else 1. */
function columnsOfChar(char: string, tabSize: number): number {
    if (char === "\t") return tabSize;
    return WIDE.test(char) ? 2 : 1;
}

/** The columns a text takes on screen (tabs as `tabSize`, wide characters as two). */
export function columnsOf(text: string, tabSize = 4): number {
    let columns = 0;
    for (const char of text) columns += columnsOfChar(char, tabSize);
    return columns;
}

const ELLIPSIS = "…";

/**
 * `text` as it fits in `columns`: whole when it fits, else cut at the last word edge that leaves room
 * for "…" (before a space, or between two characters of a script written without spaces), never inside
 * a word. When not even its first word fits, only "…" (the hover has the text).
 */
export function fitToColumns(text: string, columns: number): string {
    if (columnsOf(text) <= columns) return text;
    const room = columns - 1;
    const chars = [...text];
    let used = 0;
    let cut = 0; // characters before the last edge that fits
    for (let i = 0; i < chars.length; i++) {
        const width = columnsOfChar(chars[i], 4);
        if (used + width > room) break;
        used += width;
        const next = chars[i + 1];
        const edge = next === undefined || /\s/.test(next) || WIDE.test(chars[i]) || WIDE.test(next);
        if (edge && !/\s/.test(chars[i])) cut = i + 1;
    }
    if (cut === 0) return ELLIPSIS;
    return `${chars.slice(0, cut).join("").trimEnd()}${ELLIPSIS}`;
}

/** The fewest columns worth words after a line: the glyph and a few words. */
export const MIN_LABEL_COLUMNS = 24;

/**
 * The columns a label after a line of `lineColumns` has inside a view `viewColumns` wide, the label's
 * margin (`marginColumns`) taken off; 0 when the line leaves none. A label is drawn after the text
 * and never wraps, so it gets no more than that: nothing is drawn past the editor's edge.
 */
export function labelColumns(viewColumns: number, lineColumns: number, marginColumns: number): number {
    return Math.max(0, viewColumns - lineColumns - marginColumns);
}

/**
 * A line's label in `columns`: the glyph and the words cut at a word edge when at least
 * MIN_LABEL_COLUMNS are left, the glyph alone when only a few are, nothing when none (the hover and
 * the line's background still say it).
 */
export function fitLineLabel(glyph: string, words: string, columns: number): string {
    if (columns >= MIN_LABEL_COLUMNS) return fitToColumns(`${glyph} ${words}`, columns);
    return columnsOf(glyph) <= columns ? glyph : "";
}

/** The columns of a notification's first line before VS Code cuts it (a toast is ~450 px wide). */
export const NOTICE_COLUMNS = 90;

/**
 * A message for a notification: the key fact first, whole when it all fits in `columns`; else its
 * first clause (up to the first "; " or sentence end), fitted at a word edge, with the whole message
 * as `details` (shown behind "Show details").
 */
export function leadAndDetails(message: string, columns = NOTICE_COLUMNS): { lead: string; details?: string } {
    if (columnsOf(message) <= columns) return { lead: message };
    const clause = /^(.+?)(?:;\s|\.\s|。)/su.exec(message)?.[1] ?? message;
    return { lead: fitToColumns(clause, columns), details: message };
}
