/**
 * `sourcecheck convert [--json] [-o OUT] TRACE.jsonl|NOTES` (docs/quotes.md, "convert"): quote-based
 * citations become one SourceCheck file (embedded session + annotations). A trace's quotes are cited
 * against its captured content; notes' quotes against their pages as fetched now (guarded).
 * SourceCheck's exit codes: 0 every citation converted, 1 some could not be (listed), 2 bad input.
 */
import * as nodePath from "node:path";
import { EXIT, type ExitStatus } from "../../../shared/exitCodes";
import { type ConvertedFile, convertQuotes, convertTrace } from "../quotes/convert";
import { parseNotes } from "../quotes/notes";
import { analyzeTrace } from "../quotes/trace";
import { sourceCheckExits } from "./command";
import { type CommandLine, type CommandSpec, defineCommand, inputError, usageError } from "./commandLine";
import type { CliIo } from "./commands";
import { readTextInput, writeFileAtomic } from "./files";
import { diagnosticLines, fetchPages, pageFetcher, printJson } from "./quoteCli";

const SPEC: CommandSpec = {
    name: "convert",
    usage: `  sourcecheck convert [--json] [-o OUT [--follow-symlinks]] TRACE.jsonl|NOTES
            turn quote-based citations into a SourceCheck file (session of captured sources, one
            claim per line, refs citing the quotes); stdout without -o`,
    // SourceCheck's own codes (a SourceCheck command), unlike the TraceCite commands it reads the files of.
    exits: sourceCheckExits({ clean: "all converted", findings: "some citations could not be (listed)" }),
};

const OPTIONS = {
    json: { type: "boolean" },
    output: { type: "string", short: "o" },
    "follow-symlinks": { type: "boolean" },
} as const;

export const convertCommand = defineCommand({ spec: SPEC, options: OPTIONS, run: runConvert });

/** A trace is JSONL: named .jsonl, or its first meaningful line is a JSON object. */
export function looksLikeTrace(file: string, text: string): boolean {
    if (file.endsWith(".jsonl")) return true;
    const first = text.split("\n").find((line) => line.trim() !== "" && !line.trim().startsWith("#"));
    return first?.trim().startsWith("{") ?? false;
}

async function runConvert({ values, positionals }: CommandLine<typeof OPTIONS>, io: CliIo): Promise<ExitStatus> {
    const bad = (message: string) => inputError(SPEC, message);
    if (positionals.length !== 1) throw usageError(SPEC, " takes one TRACE.jsonl or NOTES file");
    const file = positionals[0];
    const text = readTextInput(file === "-" ? "-" : nodePath.resolve(io.cwd, file), io.readStdin, file);
    let converted: ConvertedFile;
    if (looksLikeTrace(file, text)) {
        const analysis = analyzeTrace(text);
        if (analysis.malformed) throw bad(`${file} is not JSONL:\n${diagnosticLines(file, analysis.diagnostics)}`);
        converted = convertTrace(analysis);
    } else {
        const notes = parseNotes(text);
        if (notes.diagnostics.length > 0)
            throw bad(`${file} has malformed notes:\n${diagnosticLines(file, notes.diagnostics)}`);
        const pages = await fetchPages(
            notes.citations.map((c) => c.url),
            pageFetcher(io),
        );
        converted = convertQuotes(notes.citations, pages);
    }
    const exitCode = converted.unconverted.length > 0 ? EXIT.findings : EXIT.clean;
    const json = `${JSON.stringify(converted, null, 2)}\n`;
    if (values.output !== undefined)
        writeFileAtomic(
            nodePath.resolve(io.cwd, values.output),
            json,
            {
                inputs: file === "-" ? [] : [nodePath.resolve(io.cwd, file)],
                followSymlinks: values["follow-symlinks"] === true,
            },
            values.output,
        );
    const convertedCount = converted.annotations.reduce((sum, a) => sum + a.sources.length, 0);
    if (values.json) {
        printJson(io, {
            ok: exitCode === EXIT.clean,
            exitCode,
            output: values.output ?? null,
            annotationCount: converted.annotations.length,
            convertedCount,
            unconverted: converted.unconverted,
            ...(values.output === undefined ? { file: converted } : {}),
        });
        return exitCode;
    }
    if (values.output === undefined) io.stdout(json);
    const report = values.output === undefined ? io.stderr : io.stdout;
    report(
        `${convertedCount} citation${convertedCount === 1 ? "" : "s"} converted into ${converted.annotations.length} annotation${converted.annotations.length === 1 ? "" : "s"}` +
            `${values.output !== undefined ? ` in ${values.output}` : ""}; ${converted.unconverted.length} not converted\n`,
    );
    for (const item of converted.unconverted) {
        const where =
            item.citation !== undefined ? `claim ${item.claim} citation ${item.citation}` : `claim ${item.claim}`;
        report(`  ${file}:${item.line} ${where}: ${item.code}: ${item.message}\n`);
    }
    return exitCode;
}
