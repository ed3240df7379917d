/**
 * A document split into lines once (docs/contract.md section 2: split on `\n`, 1-based, a trailing newline
 * yields a final empty line). Only line starts are stored, so a line costs a slice when asked for.
 */
export class LineIndex {
    /**
     * starts[i] is the offset of line i + 1; the content length closes the last line. A typed array:
     * 4 bytes a line, where a grown JS array of numbers costs up to 12 (it matters at 200 MB of text).
     */
    private readonly starts: Uint32Array;

    constructor(readonly content: string) {
        let count = 1;
        for (let at = content.indexOf("\n"); at !== -1; at = content.indexOf("\n", at + 1)) count++;
        const starts = new Uint32Array(count);
        let line = 1;
        for (let at = content.indexOf("\n"); at !== -1; at = content.indexOf("\n", at + 1)) starts[line++] = at + 1;
        this.starts = starts;
    }

    get lineCount(): number {
        return this.starts.length;
    }

    hasLine(line: number): boolean {
        return Number.isInteger(line) && line >= 1 && line <= this.starts.length;
    }

    /** Offset of the first character of a 1-based line. */
    lineStart(line: number): number {
        return this.starts[line - 1];
    }

    /** Offset just past the last character of a line (before its `\n`). */
    lineEnd(line: number): number {
        return line < this.starts.length ? this.starts[line] - 1 : this.content.length;
    }

    /** The text of a 1-based line, without its `\n`. */
    line(line: number): string {
        return this.content.slice(this.lineStart(line), this.lineEnd(line));
    }

    /** Offset -> 1-based line and 0-based column (binary search over line starts). */
    positionAt(offset: number): { line: number; column: number } {
        const index = lastAtMost(this.starts, offset);
        return { line: index + 1, column: offset - this.starts[index] };
    }

    offsetAt(line: number, column: number): number {
        return this.lineStart(line) + column;
    }
}

/** Normalise CRLF and lone CR to LF, as the spec asks callers to do before building a session. */
export function normalizeLineEndings(content: string): string {
    return content.includes("\r") ? content.replace(/\r\n?/g, "\n") : content;
}

/**
 * The index of the last of `sorted` (ascending, not empty) that is at most `value`; 0 when none is.
 * A binary search: which line or piece an offset falls in, given where each starts.
 */
export function lastAtMost(sorted: ArrayLike<number>, value: number): number {
    let low = 0;
    let high = sorted.length - 1;
    while (low < high) {
        const mid = (low + high + 1) >> 1;
        if (sorted[mid] <= value) low = mid;
        else high = mid - 1;
    }
    return low;
}
