/** Numbered lines for authoring refs (`evidex index`, `sourcecheck index`): "  7 | text". */
import { LineIndex } from "./lines";

/**
 * The document's lines `from`..`to` (1-based, inclusive; default all), numbered. The number width is
 * that of the document's last line, so a range reads the same as the whole.
 */
export function numberedLines(content: string | LineIndex, from = 1, to = Number.POSITIVE_INFINITY): string {
    const lines = typeof content === "string" ? new LineIndex(content) : content;
    const width = String(lines.lineCount).length;
    const out: string[] = [];
    const last = Math.min(to, lines.lineCount);
    for (let line = Math.max(1, from); line <= last; line++)
        out.push(`${String(line).padStart(width)} | ${lines.line(line)}`);
    return out.join("\n");
}
