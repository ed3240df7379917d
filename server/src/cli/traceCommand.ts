/**
 * `sourcecheck trace` (docs/quotes.md, "Agent JSONL traces"): TraceCite's trace checks with its
 * codes and exit statuses: 0 pass, 2 a structural or evidence finding, a source unavailable or
 * changed, 1 bad usage or input that is not JSONL at all.
 *
 *   trace [--evidence] [--json] TRACE.jsonl
 *   trace verify-files [--json] [--root DIR] TRACE.jsonl
 *   trace verify-urls [--json] TRACE.jsonl
 *   trace compare [--json] OLD.jsonl NEW.jsonl
 */
import * as nodePath from "node:path";
import { type ExitStatus, TRACECITE_EXIT } from "../../../shared/exitCodes";
import { normalizeLineEndings } from "../core/lines";
import { visible } from "../core/visible";
import { diagnostic, type QuoteDiagnostic } from "../quotes/diagnostics";
import { checkTraceLive, liveSummary } from "../quotes/live";
import {
    analyzeTrace,
    compareTraces,
    fileUriPath,
    type TraceAnalysis,
    traceReportJson,
    traceSummary,
} from "../quotes/trace";
import { readDocumentUnderRoot } from "../workspace/diskDocuments";
import { type CommandLine, type CommandSpec, defineCommand, subcommand, usageError } from "./commandLine";
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

const USAGE = `  sourcecheck trace [--evidence] [--json] TRACE.jsonl
            check an Agent JSONL trace (TraceCite): structure, and each quote against the captured
            content; --evidence also requires content on every source and a quote on every citation
  sourcecheck trace verify-files [--json] [--root DIR] TRACE.jsonl
            compare each file: source's captured content with the file as it is now (under --root)
  sourcecheck trace verify-urls [--json] TRACE.jsonl
            fetch each http(s) source (guarded) and find its quotes in the page as it is now
  sourcecheck trace compare [--json] OLD.jsonl NEW.jsonl
            captured content compared by URI: [added] / [removed] / [changed]`;

const SPEC: CommandSpec = { name: "trace", usage: USAGE, exits: TRACECITE_EXITS.trace };

const JSON_ONLY = { json: { type: "boolean" } } as const;
const VERIFY_FILES = { json: { type: "boolean" }, root: { type: "string" } } as const;
const CHECK = { evidence: { type: "boolean" }, json: { type: "boolean" } } as const;

export const traceCommand = defineCommand({
    spec: SPEC,
    options: CHECK,
    subcommands: {
        "verify-files": subcommand({ options: VERIFY_FILES, run: verifyFiles }),
        "verify-urls": subcommand({ options: JSON_ONLY, run: verifyUrls }),
        compare: subcommand({ options: JSON_ONLY, run: compare }),
    },
    run: check,
});

function oneFile(positionals: string[], what: string): string {
    if (positionals.length !== 1) throw usageError({ ...SPEC, name: what }, " takes one TRACE.jsonl");
    return positionals[0];
}

function exitOf(analysis: TraceAnalysis): ExitStatus {
    if (analysis.malformed) return USAGE_EXIT;
    return analysis.diagnostics.length > 0 ? TRACECITE_EXIT.mismatch : TRACECITE_EXIT.pass;
}

function check({ values, positionals }: CommandLine<typeof CHECK>, io: CliIo): ExitStatus {
    const file = oneFile(positionals, "trace");
    const analysis = analyzeTrace(readQuoteInput(io, file), { evidence: values.evidence === true });
    const exitCode = exitOf(analysis);
    if (values.json) printJson(io, traceReportJson(analysis, exitCode));
    else {
        const summary = traceSummary(analysis);
        const found = analysis.diagnostics.length;
        io.stdout(`${visible(summary)}${found > 0 ? `; ${found} diagnostic${found === 1 ? "" : "s"}` : ""}\n`);
        io.stdout(diagnosticLines(file, analysis.diagnostics));
    }
    return exitCode;
}

interface FileCheck {
    uri: string;
    line: number;
    status: "match" | "mismatch" | "unavailable" | "unsupported";
}

function verifyFiles({ values, positionals }: CommandLine<typeof VERIFY_FILES>, io: CliIo): ExitStatus {
    const file = oneFile(positionals, "trace verify-files");
    const analysis = analyzeTrace(readQuoteInput(io, file), { evidence: true });
    if (analysis.diagnostics.length > 0) return evidenceFailed(analysis, file, values.json === true, io);
    const root = nodePath.resolve(io.cwd, values.root ?? ".");
    const diagnostics: QuoteDiagnostic[] = [];
    const files: FileCheck[] = analysis.sources.map((source) => {
        const at = { uri: source.uri, line: source.line };
        const target = fileUriPath(source.uri);
        if (target === undefined) {
            diagnostics.push(
                diagnostic(
                    source.line,
                    "UNSUPPORTED_SOURCE_URI",
                    `source ${source.id}: ${source.uri} is not a file: URI`,
                ),
            );
            return { ...at, status: "unsupported" };
        }
        // Relative paths are relative to the root; absolute ones are read only when inside it.
        const relative = nodePath.isAbsolute(target) ? nodePath.relative(root, target) : target;
        const read = readDocumentUnderRoot(root, relative);
        if (!read.ok) {
            diagnostics.push(
                diagnostic(
                    source.line,
                    "SOURCE_UNAVAILABLE",
                    `source ${source.id}: ${source.uri}: ${read.failure.code}: ${read.failure.message}`,
                ),
            );
            return { ...at, status: "unavailable" };
        }
        if (read.content !== normalizeLineEndings(source.content ?? "")) {
            diagnostics.push(
                diagnostic(
                    source.line,
                    "SOURCE_FILE_MISMATCH",
                    `source ${source.id}: ${source.uri} differs from its captured content`,
                ),
            );
            return { ...at, status: "mismatch" };
        }
        return { ...at, status: "match" };
    });
    const exitCode = diagnostics.length > 0 ? TRACECITE_EXIT.mismatch : TRACECITE_EXIT.pass;
    if (values.json) {
        printJson(io, {
            ok: exitCode === TRACECITE_EXIT.pass,
            exitCode,
            source_count: files.length,
            matched_count: files.filter((f) => f.status === "match").length,
            files,
            diagnostics,
        });
    } else {
        const matched = files.filter((f) => f.status === "match").length;
        io.stdout(
            exitCode === TRACECITE_EXIT.pass
                ? `PASS: ${matched} source file${matched === 1 ? " matches" : "s match"} captured content\n`
                : `FAIL: ${matched}/${files.length} source files match captured content\n`,
        );
        io.stdout(diagnosticLines(file, diagnostics));
    }
    return exitCode;
}

async function verifyUrls({ values, positionals }: CommandLine<typeof JSON_ONLY>, io: CliIo): Promise<ExitStatus> {
    const file = oneFile(positionals, "trace verify-urls");
    const analysis = analyzeTrace(readQuoteInput(io, file), { evidence: true });
    if (analysis.diagnostics.length > 0) return evidenceFailed(analysis, file, values.json === true, io);
    const pages = await fetchPages(
        analysis.sources.map((s) => s.uri),
        pageFetcher(io),
    );
    const report = checkTraceLive(analysis, pages);
    if (values.json) printJson(io, report);
    else {
        io.stdout(`${liveSummary(report, "citations")}\n`);
        for (const item of report.items) io.stdout(liveItemText(visible(file), item));
    }
    return report.exitCode;
}

function evidenceFailed(analysis: TraceAnalysis, file: string, json: boolean, io: CliIo): ExitStatus {
    const exitCode = exitOf(analysis);
    if (json) printJson(io, traceReportJson(analysis, exitCode));
    else {
        io.stdout("FAIL: trace evidence validation failed\n");
        io.stdout(diagnosticLines(file, analysis.diagnostics));
    }
    return exitCode;
}

function compare({ values, positionals }: CommandLine<typeof JSON_ONLY>, io: CliIo): ExitStatus {
    if (positionals.length !== 2)
        throw usageError({ ...SPEC, name: "trace compare" }, " takes OLD.jsonl and NEW.jsonl");
    const [oldFile, newFile] = positionals;
    const comparison = compareTraces(readQuoteInput(io, oldFile), readQuoteInput(io, newFile));
    const ok = comparison.old_valid && comparison.new_valid && comparison.changes.length === 0;
    const exitCode = ok ? TRACECITE_EXIT.pass : TRACECITE_EXIT.mismatch;
    if (values.json) printJson(io, { ok, exitCode, ...comparison });
    else if (comparison.old_valid && comparison.new_valid) {
        io.stdout(`${comparison.changes.length} source changes; ${comparison.unchanged_count} unchanged\n`);
        for (const change of comparison.changes) io.stdout(`  [${change.kind}] ${visible(change.uri)}\n`);
    } else {
        io.stdout("Cannot compare: input evidence validation failed\n");
        io.stdout(diagnosticLines(oldFile, comparison.old_diagnostics));
        io.stdout(diagnosticLines(newFile, comparison.new_diagnostics));
    }
    return exitCode;
}
