/**
 * `sourcecheck notes [--json] NOTES` (docs/quotes.md, "Notes"): TraceCite's verify-notes. Each
 * record's quote must appear in its URL's page as fetched now (guarded). Exit 0 every quote found,
 * 2 a quote missing or a page unavailable, 1 bad usage or malformed notes.
 */

import type { ExitStatus } from "../../../shared/exitCodes";
import { visible } from "../core/visible";
import type { QuoteDiagnostic } from "../quotes/diagnostics";
import { type LiveItem, LiveQuoteFinder, liveCounts, liveItem, liveSummary } from "../quotes/live";
import { eachNote, type ParsedQuotes, type QuoteCitation } from "../quotes/notes";
import { type CommandLine, type CommandSpec, defineCommand, usageError } from "./commandLine";
import type { CliIo } from "./commands";
import {
    diagnosticLines,
    fetchPages,
    liveItemText,
    pageFetcher,
    printJson,
    readQuoteInput,
    TRACECITE_EXITS,
    USAGE_EXIT,
} from "./quoteCli";
import { ChunkedWriter } from "./stdout";

const SPEC: CommandSpec = {
    name: "notes",
    usage: `  sourcecheck notes [--json] NOTES
            check claim:/quote:/url: notes: each quote must appear in its page as fetched now`,
    exits: TRACECITE_EXITS.notes,
};

/** `--json`, the one option of `notes` and `report-check`. */
export const LIVE_OPTIONS = { json: { type: "boolean" } } as const;

export const notesCommand = defineCommand({
    spec: SPEC,
    options: LIVE_OPTIONS,
    run: (line, io) => runLiveQuotes(SPEC, eachNote, line, io),
});

/** Hands each citation of a text to `visit`, in order, and returns the diagnostics (notes.ts eachNote). */
export type EachQuote = (text: string, visit: (citation: QuoteCitation) => void) => QuoteDiagnostic[];

/** A parser that returns every citation at once, as an EachQuote. */
export function eachOf(parse: (text: string) => ParsedQuotes): EachQuote {
    return (text, visit) => {
        const parsed = parse(text);
        for (const citation of parsed.citations) visit(citation);
        return parsed.diagnostics;
    };
}

/**
 * Shared by `notes` and `report-check`: parse, fetch each page once, find each quote, report.
 * The citations are read three times from the text instead of being held: once for the pages to
 * fetch, once to find each quote (one bit kept per quote), once to write each item as it comes. A
 * million notes records were 0.9 GB held at once (docs/security.md, "Resource bounds").
 */
export async function runLiveQuotes(
    spec: CommandSpec,
    each: EachQuote,
    { values, positionals }: CommandLine<typeof LIVE_OPTIONS>,
    io: CliIo,
): Promise<ExitStatus> {
    const command = spec.name;
    if (positionals.length !== 1) throw usageError(spec, " takes one FILE");
    const file = positionals[0];
    const text = readQuoteInput(io, file);
    const urls = new Set<string>();
    let citationCount = 0;
    const diagnostics = each(text, (citation) => {
        urls.add(citation.url);
        citationCount++;
    });
    if (diagnostics.length > 0) {
        if (values.json) {
            const shown = diagnostics.map(({ line, code, message }) => ({ line, code, message }));
            printJson(io, { ok: false, exitCode: USAGE_EXIT, diagnostics: shown });
        } else {
            io.stdout(`Invalid ${command === "notes" ? "citation note input" : "Markdown citations"}\n`);
            io.stdout(diagnosticLines(file, diagnostics));
        }
        return USAGE_EXIT;
    }
    const pages = await fetchPages(urls, pageFetcher(io));
    const finder = new LiveQuoteFinder(pages);
    const found = new Uint8Array(citationCount);
    let index = 0;
    let matched = 0;
    each(text, (citation) => {
        if (finder.find(citation)) {
            found[index] = 1;
            matched++;
        }
        index++;
    });
    const counts = liveCounts(citationCount, matched, urls.size);
    const eachItem = (write: (item: LiveItem) => void) => {
        let at = 0;
        each(text, (citation) => write(liveItem(citation, pages.get(citation.url), found[at++] === 1)));
    };
    // In chunks: a million quotes were two million writes, most of the run.
    const out = new ChunkedWriter((chunk) => io.stdout(chunk));
    if (values.json) writeLiveReportJson(out, counts, eachItem);
    else {
        out.add(`${liveSummary({ ...counts, items: [] }, "quotes")}\n`);
        const shownFile = visible(file);
        eachItem((item) => out.add(liveItemText(shownFile, item)));
    }
    out.flush();
    return counts.exitCode;
}

/** The report as `JSON.stringify(report, null, 2)` writes it, one item at a time. */
export function writeLiveReportJson(
    out: ChunkedWriter,
    counts: object,
    eachItem: (write: (item: LiveItem) => void) => void,
): void {
    const head = JSON.stringify(counts, null, 2);
    out.add(`${head.slice(0, -2)},\n  "items": [`);
    let first = true;
    eachItem((item) => {
        out.add(`${first ? "" : ","}\n    ${JSON.stringify(item, null, 2).replaceAll("\n", "\n    ")}`);
        first = false;
    });
    out.add(first ? "]\n}\n" : "\n  ]\n}\n");
}
