/**
 * Reading an ignore file (`.gitignore`, `.git/info/exclude`) for discovery.ts, as git reads one and
 * through the one safe reader (docs/security.md, "Reads"): opened without blocking and without
 * following a symlink (git opens `.gitignore` with O_NOFOLLOW too), only a regular file, and at most
 * MAX_IGNORE_BYTES (git ignores a pattern file over 100 MiB). Anything else counts as no file: a FIFO
 * once hung `check .` and the language server's scan, a symlink to a zero device aborted the process
 * and a 500 MB file ran V8 out of memory.
 */
import { readFileBytes } from "./safeFile";

/** git's PATTERN_MAX_FILE_SIZE (dir.c): a larger pattern file is ignored. */
export const MAX_IGNORE_BYTES = 100 * 1024 * 1024;

/** The text of an ignore file, or undefined when there is none that may be read. */
export function readIgnoreFile(path: string): string | undefined {
    const read = readFileBytes(path, { maxBytes: MAX_IGNORE_BYTES, noFollow: true });
    // Patterns are bytes to git: text that is not UTF-8 is read as it decodes, never refused whole.
    return read.ok ? read.bytes.toString("utf8") : undefined;
}
