/**
 * What the quote commands (`trace`, `notes`, `report-check`, `convert`) share: TraceCite's exit
 * codes (for all but `convert`), diagnostic lines, and fetching pages with the strict guards
 * (docs/quotes.md).
 */
import * as nodePath from "node:path";
import type { PageText } from "../core/pageSources";
import { visible } from "../core/visible";
import { fetchSourceText } from "../fetch/fetchSource";
import type { QuoteDiagnostic } from "../quotes/diagnostics";
import type { LiveItem } from "../quotes/live";
import { traceCiteExits } from "./command";
import type { CliIo } from "./commands";
import { CliError, isCliError, readTextInput } from "./files";

/** TraceCite's exit statuses, kept by `trace`, `notes` and `report-check` (docs/cli.md, "Exit status"). */
export const TRACECITE_EXITS = {
    notes: traceCiteExits({
        pass: "every quote found",
        mismatch: "a quote missing or a page unavailable",
        usage: "bad usage or malformed notes",
    }),
    report: traceCiteExits({
        pass: "every quote found",
        mismatch: "a quote missing or a page unavailable",
        usage: "bad usage or report",
    }),
    trace: traceCiteExits({
        pass: "pass",
        mismatch: "a finding, a source unavailable or changed",
        usage: "bad usage or input",
    }),
};

/** Usage errors and unreadable input of the TraceCite commands exit 1, as TraceCite's do. */
export const USAGE_EXIT = TRACECITE_EXITS.trace.usage.code;

/** An input file as text; a missing, binary or non-UTF-8 file is bad input (exit 1). */
export function readQuoteInput(io: CliIo, file: string): string {
    try {
        return readTextInput(file === "-" ? "-" : nodePath.resolve(io.cwd, file), io.readStdin, file);
    } catch (error) {
        if (isCliError(error)) throw new CliError(error.message, USAGE_EXIT);
        throw error;
    }
}

/** The io's page fetcher, else the guarded one. */
export function pageFetcher(io: CliIo): PageFetcher {
    return io.fetchPage ?? guardedFetcher;
}

/** `FILE:LINE [CODE] message`, one per diagnostic. */
export function diagnosticLines(file: string, diagnostics: readonly QuoteDiagnostic[]): string {
    return diagnostics.map((d) => `  ${visible(file)}:${d.line} [${d.code}] ${visible(d.message)}\n`).join("");
}

/**
 * One item of a live check as the text report shows it (`notes`, `report-check`, `trace verify-urls`):
 * `  FILE:LINE PASS|FAIL URL`, then each diagnostic code, with the page's message after a page's code
 * (a claim's own code, `CODE:claim-N`, has none). `shownFile` is already made visible.
 */
export function liveItemText(shownFile: string, item: LiveItem): string {
    let text = `  ${shownFile}:${item.line} ${item.ok ? "PASS" : "FAIL"} ${visible(item.url)}\n`;
    for (const code of item.diagnostics) {
        const message = item.message && !code.includes(":") ? ` ${visible(item.message)}` : "";
        text += `    [${visible(code)}]${message}\n`;
    }
    return text;
}

export function printJson(io: CliIo, value: unknown): void {
    io.stdout(`${JSON.stringify(value, null, 2)}\n`);
}

/** How a command gets a page's visible text: the guarded fetcher, never anything looser (tests inject pages). */
export type PageFetcher = NonNullable<CliIo["fetchPage"]>;

export const guardedFetcher: PageFetcher = async (url) => {
    const result = await fetchSourceText(url);
    return result.ok ? { ok: true, text: result.text } : { ok: false, code: result.code, message: result.message };
};

/** Each distinct URL fetched once, a few at a time. */
export async function fetchPages(urls: Iterable<string>, fetcher: PageFetcher): Promise<Map<string, PageText>> {
    const unique = [...new Set(urls)];
    const pages = new Map<string, PageText>();
    let next = 0;
    const worker = async () => {
        while (next < unique.length) {
            const url = unique[next++];
            pages.set(url, await fetcher(url));
        }
    };
    await Promise.all(Array.from({ length: Math.min(4, unique.length) }, worker));
    return pages;
}
