/** The four commands of DESIGN section 5, as functions of arguments and I/O so tests run them in-process. */
import * as nodePath from "node:path";
import { type CheckResult, checkInput } from "../core/check";
import { normalizeLineEndings } from "../core/lines";
import { numberedLines } from "../core/numberedLines";
import { parseJsonText } from "../core/parse";
import type { SchemaError } from "../core/types";
import { DiskDocuments } from "../workspace/diskDocuments";
import { CliError, readTextInput, writeFileAtomic } from "./files";
import { formatSarif } from "./sarif";
import { formatText, locateProblems, type ProblemSource, singleSource } from "./text";

export interface CliIo {
    cwd: string;
    stdout(text: string): void;
    stderr(text: string): void;
    /** All of stdin, read when needed. */
    readStdin(): Buffer;
    /** True when stdin is a pipe or file, not a terminal. */
    stdinIsPiped: boolean;
    version: string;
}

export type OutputFormat = "text" | "json" | "sarif";

export interface CheckOptions {
    file?: string;
    format: OutputFormat;
    root?: string;
    maxBytes?: number;
}

export function runCheck(options: CheckOptions, io: CliIo): number {
    const file = options.file ?? (io.stdinIsPiped ? "-" : undefined);
    if (file === undefined)
        throw new CliError("no input: give an annotation FILE, or pipe one into stdin (see --help)");
    const text = readTextInput(resolveFile(io, file), io.readStdin, file);
    const parsed = parseJsonText(text);
    const root = nodePath.resolve(io.cwd, options.root ?? ".");
    const workspace = new DiskDocuments(root, { maxBytes: options.maxBytes });
    const result = checkInput(parsed.value, workspace, parsed.syntaxErrors, {
        keepAnnotations: false,
        keepEntries: options.format === "json",
    });
    emit(result, [singleSource(file === "-" ? "<stdin>" : file, text)], options.format, io);
    return result.report.exitCode;
}

export function runValidate(sessionFile: string, annotationsFile: string, format: OutputFormat, io: CliIo): number {
    const sessionText = readTextInput(resolveFile(io, sessionFile), io.readStdin, sessionFile);
    const annotationsText = readTextInput(resolveFile(io, annotationsFile), io.readStdin, annotationsFile);
    const session = parseJsonText(sessionText);
    const annotations = parseJsonText(annotationsText);
    // Checked as one batch input; pointers under /session belong to the session file, the rest to the other.
    const sessionValue = session.value as { session?: { documents?: unknown }; documents?: unknown } | null;
    const nestedSession = typeof sessionValue === "object" && sessionValue !== null && "session" in sessionValue;
    const documents = nestedSession ? sessionValue?.session?.documents : sessionValue?.documents;
    const annotationsValue = annotations.value;
    const bareArray = Array.isArray(annotationsValue);
    const list = bareArray ? annotationsValue : (annotationsValue as { annotations?: unknown } | null)?.annotations;
    const combined: Record<string, unknown> = { session: { documents } };
    if (list !== undefined) combined.annotations = list;
    const syntaxErrors: SchemaError[] = [
        ...session.syntaxErrors.map((e) => ({ ...e, pointer: "/session" })),
        ...annotations.syntaxErrors.map((e) => ({ ...e, pointer: "/annotations" })),
    ];
    const result = checkInput(combined, undefined, syntaxErrors, {
        keepAnnotations: false,
        keepEntries: format === "json",
    });
    const sessionSource: ProblemSource = {
        file: sessionFile,
        text: sessionText,
        owns: (p) => p === "/session" || p.startsWith("/session/"),
        localPointer: (p) => (p === "/session" ? "" : nestedSession ? p : p.replace(/^\/session/, "")),
    };
    const annotationSource: ProblemSource = {
        file: annotationsFile,
        text: annotationsText,
        owns: () => true,
        localPointer: (p) =>
            p === "/annotations" ? (bareArray ? "" : p) : bareArray ? p.replace(/^\/annotations/, "") : p,
    };
    emit(result, [sessionSource, annotationSource], format, io);
    return result.report.exitCode;
}

function emit(result: CheckResult, sources: ProblemSource[], format: OutputFormat, io: CliIo): void {
    if (format === "json") {
        io.stdout(`${JSON.stringify(result.report, null, 2)}\n`);
        return;
    }
    const located = locateProblems(result, sources);
    io.stdout(format === "sarif" ? formatSarif(located, io.version) : formatText(result, located));
}

/** `session FILE...`: an LF-normalised session, paths as given; written atomically with -o. */
export function runSession(files: string[], output: string | undefined, io: CliIo): number {
    if (files.length === 0) throw new CliError("session: give at least one FILE");
    const seen = new Set<string>();
    const documents = files.map((file) => {
        if (seen.has(file)) throw new CliError(`session: ${file} is given twice (duplicate-path)`);
        seen.add(file);
        const content = readTextInput(resolveFile(io, file), io.readStdin, file);
        return { path: file, content: normalizeLineEndings(content) };
    });
    const json = `${JSON.stringify({ documents }, null, 2)}\n`;
    if (output === undefined) io.stdout(json);
    else writeFileAtomic(resolveFile(io, output), json);
    return 0;
}

/** `index FILE...`: each document with 1-based line numbers, for authoring refs by hand. */
export function runIndex(files: string[], io: CliIo): number {
    if (files.length === 0) throw new CliError("index: give at least one FILE");
    const parts = files.map((file) => {
        const numbered = numberedLines(normalizeLineEndings(readTextInput(resolveFile(io, file), io.readStdin, file)));
        return files.length > 1 ? `==> ${file} <==\n${numbered}` : numbered;
    });
    io.stdout(`${parts.join("\n\n")}\n`);
    return 0;
}

function resolveFile(io: CliIo, file: string): string {
    return file === "-" ? "-" : nodePath.resolve(io.cwd, file);
}
