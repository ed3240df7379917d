/**
 * A finding about a quote-based input, with TraceCite's stable codes verbatim (docs/quotes.md,
 * "Diagnostic codes"). Messages name ids, lines and URIs, never a source's content or a quote.
 */
export interface QuoteDiagnostic {
    /** 1-based line of the input file. */
    line: number;
    code: string;
    message: string;
    /** 0-based UTF-16 columns on that line, when the finding has a narrower place than the whole line. */
    columns?: { start: number; end: number };
}

export function diagnostic(
    line: number,
    code: string,
    message: string,
    columns?: { start: number; end: number },
): QuoteDiagnostic {
    return columns ? { line, code, message, columns } : { line, code, message };
}

/** "1 call", "3 events". */
export function count(n: number, singular: string, plural = `${singular}s`): string {
    return `${n} ${n === 1 ? singular : plural}`;
}
