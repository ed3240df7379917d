/**
 * `sourcecheck report-check [--json] REPORT.md` (docs/quotes.md, "Markdown reports"): TraceCite's
 * check-report. Quotes followed by a source link, list-item quotes and blockquote pairs are each
 * looked up in the linked page as fetched now (guarded); output names the report line of each quote.
 */
import { parseReport } from "../quotes/report";
import { type CommandSpec, defineCommand } from "./commandLine";
import { eachOf, LIVE_OPTIONS, runLiveQuotes } from "./notesCommand";
import { TRACECITE_EXITS } from "./quoteCli";

const SPEC: CommandSpec = {
    name: "report-check",
    usage: `  sourcecheck report-check [--json] REPORT.md
            check the quotes of a Markdown report against the pages they link, fetched now`,
    exits: TRACECITE_EXITS.report,
};

export const reportCheckCommand = defineCommand({
    spec: SPEC,
    options: LIVE_OPTIONS,
    run: (line, io) => runLiveQuotes(SPEC, eachOf(parseReport), line, io),
});
