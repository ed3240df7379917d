/**
 * TraceCite's lightweight citation notes (docs/quotes.md, "Notes"): records of one `claim:`, one
 * `quote:` and one `url:` line each, in any order, separated by blank lines or `---`; `#` starts a
 * comment line. Values are single lines, trimmed.
 */
import { diagnostic, type QuoteDiagnostic } from "./diagnostics";

/** One quote to find in a page, wherever it came from (a notes record or a Markdown report). */
export interface QuoteCitation {
    /** What a person reads the quote as supporting (a notes claim, or the report's heading). */
    claim: string;
    quote: string;
    url: string;
    /** 1-based line of the quote, and its columns there. */
    line: number;
    columns: { start: number; end: number };
    /** 1-based line of the claim (notes) or of the quote (reports). */
    claimLine: number;
}

export interface ParsedQuotes {
    citations: QuoteCitation[];
    diagnostics: QuoteDiagnostic[];
}

interface Field {
    value: string;
    line: number;
    columns: { start: number; end: number };
}

export function parseNotes(text: string): ParsedQuotes {
    const citations: QuoteCitation[] = [];
    const diagnostics = eachNote(text, (citation) => citations.push(citation));
    return { citations, diagnostics };
}

/**
 * Each well-formed record's citation handed to `visit` as soon as it is read, in order; returns the
 * diagnostics, by line. Lines are walked in place (no array of every line), so a caller that keeps
 * only what it needs of each citation holds one record at a time: `notes` on a million records
 * (docs/security.md, "Resource bounds").
 */
export function eachNote(text: string, visit: (citation: QuoteCitation) => void): QuoteDiagnostic[] {
    const diagnostics: QuoteDiagnostic[] = [];
    let citationCount = 0;
    let fields = new Map<string, Field>();
    let recordLine = 1;
    let invalid = false;

    const finish = () => {
        if (fields.size === 0 && !invalid) return;
        for (const key of ["claim", "quote", "url"]) {
            if (!fields.has(key))
                diagnostics.push(diagnostic(recordLine, "MISSING_NOTE_FIELD", `missing ${key} field`));
        }
        const claim = fields.get("claim");
        const quote = fields.get("quote");
        const url = fields.get("url");
        if (!invalid && claim && quote && url) {
            citationCount++;
            visit({
                claim: claim.value,
                quote: quote.value,
                url: url.value,
                line: quote.line,
                columns: quote.columns,
                claimLine: claim.line,
            });
        }
    };

    for (let lineStart = 0, lineNumber = 1; lineStart <= text.length; lineNumber++) {
        const newline = text.indexOf("\n", lineStart);
        const lineEnd = newline === -1 ? text.length : newline;
        const whole = text.slice(lineStart, lineEnd);
        lineStart = lineEnd + 1;
        const raw = whole.endsWith("\r") ? whole.slice(0, -1) : whole;
        const line = raw.trim();
        if (line === "" || line === "---") {
            finish();
            fields = new Map();
            recordLine = lineNumber + 1;
            invalid = false;
            continue;
        }
        if (line.startsWith("#")) continue;
        if (fields.size === 0 && !invalid) recordLine = lineNumber;
        const colon = raw.indexOf(":");
        if (colon === -1) {
            diagnostics.push(diagnostic(lineNumber, "INVALID_NOTE_LINE", "expected claim:, quote:, or url:"));
            invalid = true;
            continue;
        }
        const key = raw.slice(0, colon).trim();
        const after = raw.slice(colon + 1);
        const value = after.trim();
        const start = colon + 1 + (after.length - after.trimStart().length);
        if (value === "") {
            diagnostics.push(diagnostic(lineNumber, "EMPTY_NOTE_FIELD", `field value cannot be empty: ${key}`));
            invalid = true;
            continue;
        }
        if (key !== "claim" && key !== "quote" && key !== "url") {
            diagnostics.push(diagnostic(lineNumber, "UNKNOWN_NOTE_FIELD", `unknown note field: ${key}`));
            invalid = true;
            continue;
        }
        if (fields.has(key)) {
            diagnostics.push(diagnostic(lineNumber, "DUPLICATE_NOTE_FIELD", `duplicate ${key} field`));
            invalid = true;
            continue;
        }
        fields.set(key, { value, line: lineNumber, columns: { start, end: start + value.length } });
    }
    finish();
    if (citationCount === 0 && diagnostics.length === 0)
        diagnostics.push(diagnostic(1, "EMPTY_NOTE_INPUT", "no citation notes found"));
    diagnostics.sort((a, b) => a.line - b.line);
    return diagnostics;
}
