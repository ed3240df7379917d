/**
 * Reading an ignore file (`.gitignore`, `.git/info/exclude`) for discovery.ts, as git reads one and
 * through the one safe reader (docs/security.md, "Reads" and "Resource bounds"): opened without
 * blocking and without following a symlink (git opens `.gitignore` with O_NOFOLLOW too), only a
 * regular file, at most MAX_IGNORE_BYTES (git ignores a pattern file over 100 MiB). Anything else
 * is passed over with a warning naming the file: a FIFO once hung `check .` and the language
 * server's scan, and later was skipped without a word. The file is read in chunks, keeping only the
 * lines ignoreLines.ts allows.
 */
import { type IgnoreFileText, IgnoreLines, MAX_IGNORE_BYTES } from "./ignoreLines";
import { readFileChunks } from "./safeFile";

export { MAX_IGNORE_BYTES };

/** The lines of an ignore file, or undefined when there is none; a file that may not be read is a warning. */
export function readIgnoreFile(path: string): IgnoreFileText | undefined {
    const collector = new IgnoreLines();
    const read = readFileChunks(path, { maxBytes: MAX_IGNORE_BYTES, noFollow: true }, (chunk) => collector.push(chunk));
    if (!read.ok) {
        if (read.reason === "missing") return undefined;
        return { lines: [], warnings: [`${path}: ${read.message}; its patterns are not applied`] };
    }
    return collector.end(path);
}
