/**
 * `sourcecheck report-check [--json] REPORT.md` (docs/quotes.md, "Markdown reports"): TraceCite's
 * check-report. Quotes followed by a source link, list-item quotes and blockquote pairs are each
 * looked up in the linked page as fetched now (guarded); output names the report line of each quote.
 */
import { parseReport } from "../quotes/report";
import type { CliCommand } from "./command";
import { eachOf, runLiveQuotes } from "./notesCommand";
import { guardedFetcher } from "./quoteCli";

const USAGE = `  sourcecheck report-check [--json] REPORT.md
            check the quotes of a Markdown report against the pages they link, fetched now`;

export const reportCheckCommand: CliCommand = {
    name: "report-check",
    usage: USAGE,
    exitCodes:
        "0 every quote found; 2 a quote missing or a page unavailable; 1 bad usage or report (TraceCite's codes)",
    run: (argv, io) => runLiveQuotes("report-check", USAGE, eachOf(parseReport), argv, io, guardedFetcher),
};
