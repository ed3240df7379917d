/**
 * The requests between the client and the language server for quote-based citations
 * (docs/quotes.md, "In the editor"): types and names only, compiled by both sides.
 */

/** Language ids of TraceCite's trace and notes files (recognised by name, see package.json). */
export const TRACE_LANGUAGE = "tracecite-trace";
export const NOTES_LANGUAGE = "tracecite-notes";

/** Fetch the pages cited by a notes file or Markdown report (only on the user's explicit request). */
export const REFETCH_QUOTES = "sourcecheck/refetchQuotes";
export interface RefetchQuotesParams {
    uri: string;
}
export type RefetchQuotesResult =
    | { ok: true; pageCount: number; failedCount: number; citationCount: number; matchedCount: number }
    | { ok: false; message: string; cancelled?: boolean };

/** The SourceCheck file converted from a trace, notes or report: the client writes and opens it. */
export const CONVERT_QUOTES = "sourcecheck/convertQuotes";
export interface ConvertQuotesParams {
    uri: string;
}
export type ConvertQuotesResult =
    | { ok: true; targetUri: string; content: string; convertedCount: number; unconvertedCount: number }
    | { ok: false; message: string };

/** The client command a "Convert to SourceCheck refs" code action runs, with `{ uri }`. */
export const CONVERT_QUOTES_COMMAND = "sourcecheck.convertQuotesToRefs";
/** The code action kind of "Convert to SourceCheck refs". */
export const CONVERT_QUOTES_KIND = "source.convertToSourceCheckRefs";
