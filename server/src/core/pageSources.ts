/**
 * A cited page's text as the live quote check reads it (docs/quotes.md), and the local path a `file:`
 * source names. Pure: the workspace reads `file:` sources (workspace/fileSources.ts), the fetch reads
 * pages, and both hand their text to the quote check in this one shape.
 */
import { normalizeLineEndings } from "./lines";

/** A page's visible text, or why it is unavailable (a stable code and a sentence). */
export type PageText = { ok: true; text: string } | { ok: false; code: string; message: string };

/** A page's text tidied for matching: LF line breaks, runs of spaces folded, at most one blank line. */
export function tidyPageText(text: string): string {
    return normalizeLineEndings(text)
        .split("\n")
        .map((line) => line.replace(/[ \t\u00a0]+/g, " ").trim())
        .join("\n")
        .replace(/\n{3,}/g, "\n\n")
        .trim();
}

/** The path a `file:` URI names (`file:rel/path`, `file:///abs/path`), not percent-decoded; else undefined. */
export function fileUriPath(uri: string): string | undefined {
    if (uri.startsWith("file://")) {
        const rest = uri.slice("file://".length);
        // file://host/path names another machine; only an empty host (file:///...) is local.
        return rest.startsWith("/") ? rest : undefined;
    }
    if (uri.startsWith("file:")) return uri.slice("file:".length) || undefined;
    return undefined;
}
