/** Text shown to the user about refs: shortened spans, code fences, `path:line:col-line:col`. */
import { splitsSurrogatePair } from "../core/occurrences";
import type { RefResolution } from "../core/resolve";
import type { Range } from "../core/types";

/**
 * At most `max` characters: head and tail kept, the middle replaced by a count of what was cut; a
 * text only a little longer than `max` (the marker would be as long as the cut) is kept whole.
 */
export function shorten(text: string, max: number): string {
    if (text.length <= max) return text;
    let head = Math.ceil((max * 2) / 3);
    let tail = max - head;
    if (splitsSurrogatePair(text, head)) head--;
    if (splitsSurrogatePair(text, text.length - tail)) tail--;
    const cut = text.length - head - tail;
    const marker = `⋯ ${cut} characters cut ⋯`;
    // A marker no shorter than what it replaces saves nothing: the text is shown whole.
    if (marker.length >= cut) return text;
    return `${text.slice(0, head)}${marker}${text.slice(text.length - tail)}`;
}

/** One line for inlay hints and completion details: newlines and tabs made visible. */
export function oneLine(text: string, max: number): string {
    return shorten(text, max).replace(/\n/g, "⏎").replace(/\t/g, "→");
}

/** A markdown fence longer than any backtick run in the text, so the text cannot close it. */
export function codeBlock(text: string): string {
    const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
    const fence = "`".repeat(Math.max(3, longest + 1));
    return `${fence}text\n${text}\n${fence}`;
}

/** 1-based lines and columns, as the editor's status bar shows them; the end is the caret after the span. */
export function describeRange(path: string, range: Range): string {
    return `${path}:${range.start.line}:${range.start.column + 1}-${range.end.line}:${range.end.column + 1}`;
}

/** A short description of a resolution for titles and details. */
export function describeResolution(resolution: RefResolution, max = 60): string {
    if (!resolution.valid) return resolution.errors[0]?.message ?? "does not resolve";
    return `"${oneLine(resolution.text, max)}" (${describeRange(resolution.path, resolution.range)})`;
}
