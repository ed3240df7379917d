/**
 * `sourcecheck notes [--json] NOTES` (docs/quotes.md, "Notes"): TraceCite's verify-notes. Each
 * record's quote must appear in its URL's page as fetched now (guarded). Exit 0 every quote found,
 * 2 a quote missing or a page unavailable, 1 bad usage or malformed notes.
 */

import { visible } from "../core/visible";
import { checkQuotesLive, liveSummary } from "../quotes/live";
import { type ParsedQuotes, parseNotes } from "../quotes/notes";
import type { CliCommand } from "./command";
import { parseCommandLine, printUsage, usageError } from "./commandLine";
import type { CliIo } from "./commands";
import {
    diagnosticLines,
    fetchPages,
    guardedFetcher,
    type PageFetcher,
    printJson,
    readQuoteInput,
    USAGE_EXIT,
} from "./quoteCli";
import { ChunkedWriter } from "./stdout";

const USAGE = `  sourcecheck notes [--json] NOTES
            check claim:/quote:/url: notes: each quote must appear in its page as fetched now`;

export const notesCommand: CliCommand = {
    name: "notes",
    usage: USAGE,
    exitCodes: "0 every quote found; 2 a quote missing or a page unavailable; 1 bad usage or notes (TraceCite's codes)",
    run: (argv, io) => runLiveQuotes("notes", USAGE, parseNotes, argv, io, guardedFetcher),
};

/** Shared by `notes` and `report-check`: parse, fetch each page once, find each quote, report. */
export async function runLiveQuotes(
    command: string,
    usage: string,
    parse: (text: string) => ParsedQuotes,
    argv: string[],
    io: CliIo,
    fetcher: PageFetcher,
): Promise<number> {
    const { values, positionals } = parseCommandLine({ name: command, usage: usage, exitCode: USAGE_EXIT }, argv, {
        json: { type: "boolean" },
    });
    const spec = { name: command, usage, exitCode: USAGE_EXIT };
    if (values.help) return printUsage(io, spec);
    if (positionals.length !== 1) throw usageError(spec, " takes one FILE");
    const file = positionals[0];
    const parsed = parse(readQuoteInput(io, file));
    if (parsed.diagnostics.length > 0) {
        if (values.json) {
            const diagnostics = parsed.diagnostics.map(({ line, code, message }) => ({ line, code, message }));
            printJson(io, { ok: false, exitCode: USAGE_EXIT, diagnostics });
        } else {
            io.stdout(`Invalid ${command === "notes" ? "citation note input" : "Markdown citations"}\n`);
            io.stdout(diagnosticLines(file, parsed.diagnostics));
        }
        return USAGE_EXIT;
    }
    const pages = await fetchPages(
        parsed.citations.map((c) => c.url),
        fetcher,
    );
    const { report } = checkQuotesLive(parsed.citations, pages);
    if (values.json) printJson(io, report);
    else {
        // In chunks: a million quotes were two million writes, most of the run.
        const out = new ChunkedWriter((text) => io.stdout(text));
        out.add(`${liveSummary(report, "quotes")}\n`);
        const shownFile = visible(file);
        for (const item of report.items) {
            out.add(`  ${shownFile}:${item.line} ${item.ok ? "PASS" : "FAIL"} ${visible(item.url)}\n`);
            for (const code of item.diagnostics)
                out.add(`    [${visible(code)}]${item.message ? ` ${visible(item.message)}` : ""}\n`);
        }
        out.flush();
    }
    return report.exitCode;
}
