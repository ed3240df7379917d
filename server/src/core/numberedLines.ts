/** Numbered lines for authoring refs (`evidex index`, `sourcecheck index`): "  7 | text". */
import { LineIndex } from "./lines";

export function numberedLines(content: string): string {
    const lines = new LineIndex(content);
    const width = String(lines.lineCount).length;
    const out: string[] = [];
    for (let line = 1; line <= lines.lineCount; line++)
        out.push(`${String(line).padStart(width)} | ${lines.line(line)}`);
    return out.join("\n");
}
