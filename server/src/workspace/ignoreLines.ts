/**
 * The lines of an ignore file kept within bounds (docs/security.md, "Resource bounds"), from chunks
 * of bytes (ignoreFile.ts, on Node) or a text the client read (the web worker): each line at most
 * MAX_IGNORE_LINE_BYTES, at most MAX_IGNORE_LINES of them and MAX_IGNORE_KEPT_BYTES in all, so memory
 * stays bounded whatever the bytes (16 MB of NUL bytes took 6 GB, a 99 MB file ran V8 out of memory)
 * and a 40,000-character line no longer reaches the pattern compiler ("Invalid regular expression:
 * too large", exit 3). Lines past a limit are ignored with a warning naming the file and counting them.
 */
/** git's PATTERN_MAX_FILE_SIZE (dir.c): a larger pattern file is ignored. */
export const MAX_IGNORE_BYTES = 100 * 1024 * 1024;
/** A longer pattern line is ignored (git's own paths are at most 4096 bytes: PATH_MAX). */
export const MAX_IGNORE_LINE_BYTES = 4096;
/** Pattern lines kept from one file; the rest are ignored with a warning. */
export const MAX_IGNORE_LINES = 10_000;
/** Bytes of pattern lines kept from one file (what the web worker reads of one: 1 MiB). */
export const MAX_IGNORE_KEPT_BYTES = 1024 * 1024;

/** The kept lines of an ignore file and what was passed over, worded for a warning. */
export interface IgnoreFileText {
    /** Line i + 1 of the file; a line that was passed over is empty (no pattern). */
    lines: string[];
    warnings: string[];
}

/** The same limits over a text already read (the web worker's, read through the client). */
export function ignoreLinesOf(text: string, path: string): IgnoreFileText {
    const collector = new IgnoreLines();
    collector.push(new TextEncoder().encode(text));
    return collector.end(path);
}

/** Splits bytes into lines as they come, keeping only what the limits allow; a line never grows past its cap. */
export class IgnoreLines {
    private readonly lines: string[] = [];
    private readonly decoder = new TextDecoder();
    private line: Uint8Array[] = [];
    private lineBytes = 0;
    private keptBytes = 0;
    private overLong = 0;
    private firstOverLong = 0;
    private lineNumber = 0;
    private full = false;

    /** Takes a chunk (valid during the call only); false once the file's limits are reached. */
    push(chunk: Uint8Array): boolean {
        let from = 0;
        while (from <= chunk.length && !this.full) {
            const newline = chunk.indexOf(10, from);
            const to = newline < 0 ? chunk.length : newline;
            this.append(chunk.subarray(from, to));
            if (newline < 0) break;
            this.endLine();
            from = newline + 1;
        }
        return !this.full;
    }

    end(path: string): IgnoreFileText {
        if (!this.full && this.lineBytes > 0) this.endLine();
        const warnings: string[] = [];
        if (this.overLong > 0)
            warnings.push(
                `${path}: ${this.overLong.toLocaleString("en-US")} line(s) over ${MAX_IGNORE_LINE_BYTES} bytes ignored (the first is line ${this.firstOverLong})`,
            );
        if (this.full)
            warnings.push(
                `${path}: only its first ${this.lines.length.toLocaleString("en-US")} lines are applied (at most ${MAX_IGNORE_LINES.toLocaleString("en-US")} lines and 1 MiB of patterns a file); the rest are ignored`,
            );
        return { lines: this.lines, warnings };
    }

    private append(bytes: Uint8Array): void {
        this.lineBytes += bytes.length;
        // An over-long line is counted, never held: 16 MB of NUL bytes is one such line.
        if (this.lineBytes <= MAX_IGNORE_LINE_BYTES && bytes.length > 0) this.line.push(bytes.slice());
    }

    private endLine(): void {
        this.lineNumber++;
        const bytes = this.lineBytes;
        const parts = this.line;
        this.line = [];
        this.lineBytes = 0;
        if (this.lines.length >= MAX_IGNORE_LINES) {
            this.full = true;
            return;
        }
        // An over-long line is kept as an empty one (no pattern), so that lines keep their numbers.
        if (bytes > MAX_IGNORE_LINE_BYTES) {
            if (this.overLong++ === 0) this.firstOverLong = this.lineNumber;
            this.lines.push("");
            return;
        }
        if (this.keptBytes + bytes > MAX_IGNORE_KEPT_BYTES) {
            this.full = true;
            return;
        }
        let text = "";
        for (const part of parts) text += this.decoder.decode(part, { stream: true });
        text += this.decoder.decode();
        this.keptBytes += bytes;
        this.lines.push(text);
    }
}
