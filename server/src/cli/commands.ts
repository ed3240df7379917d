/** The four commands of docs/contract.md section 5, as functions of arguments and I/O so tests run them in-process. */
import * as fs from "node:fs";
import * as nodePath from "node:path";
import type picomatchModule from "picomatch";
import { EXIT, type ExitStatus } from "../../../shared/exitCodes";
import { type CheckResult, checkInput } from "../core/check";
import { normalizeLineEndings } from "../core/lines";
import { numberedLines } from "../core/numberedLines";
import type { PageText } from "../core/pageSources";
import { parseJsonText } from "../core/parse";
import { reportJson } from "../core/reportJson";
import type { SchemaError } from "../core/types";
import type { EntryVerdict } from "../core/verdict";
import { visible, visibleLines } from "../core/visible";
import { nodeProjectConfigs } from "../workspace/nodeConfigs";
import { formatConfigProblem, type ProjectConfigs, resolveDocumentRoot } from "../workspace/projectConfig";
import { checkFileInto, DocumentCache, type FileJob, type OutputFormat, readAnnotationInput } from "./checkFile";
import { checkFiles, startWorkers } from "./checkMany";
import { discoverFiles, refuseLockFile, shardOf } from "./discovery";
import { CliError, MAX_JOBS, readTextInput, writeFileAtomic } from "./files";
import { githubCommand } from "./github";
import { RunWriter } from "./runWriter";
import { formatSarif, repositoryRoot } from "./sarif";
import { formatText, locateProblems, type ProblemSource } from "./text";

export interface CliIo {
    cwd: string;
    stdout(text: string): void;
    stderr(text: string): void;
    /** All of stdin, read when needed. */
    /** stdin, whole up to `maxBytes` (then one byte more, to tell it is over). */
    readStdin(maxBytes?: number): Buffer;
    /** True when stdin is a pipe or file, not a terminal. */
    stdinIsPiped: boolean;
    version: string;
    /** A page's visible text, for the commands that fetch (notes, report-check, convert, trace verify-urls); default the guarded fetcher of fetch/. */
    fetchPage?: (url: string) => Promise<PageText>;
}

export type { OutputFormat } from "./checkFile";

export interface CheckOptions {
    /** Files, folders and globs; none means stdin. (`file` is the one-file form of the first wave.) */
    paths?: string[];
    file?: string;
    format: OutputFormat;
    root?: string;
    maxBytes?: number;
    /** `--exclude` globs, relative to the current folder. */
    exclude?: string[];
    /** Worker threads; default the number of cores. */
    jobs?: number;
    shard?: { index: number; count: number };
    /** `--locked`: drift and refs missing from the lock are errors (docs/lock.md). */
    locked?: boolean;
    /** `--fail-on`: verdicts that fail the check (docs/verdicts.md). */
    failOn?: EntryVerdict[];
}

/**
 * `check`: one FILE (or stdin) gives the report of docs/contract.md section 5, synchronously; folders, globs,
 * several paths or `--shard` give the `files` report (docs/ci.md), checked on `--jobs` threads.
 */
export function runCheck(options: CheckOptions, io: CliIo): ExitStatus | Promise<ExitStatus> {
    const paths = options.paths ?? (options.file !== undefined ? [options.file] : []);
    if (paths.length === 0) {
        if (!io.stdinIsPiped)
            throw new CliError("no input: give an annotation FILE, or pipe one into stdin (see --help)");
        return runCheckOne("-", options, io);
    }
    if (paths.length === 1 && options.shard === undefined && namesOneFile(paths[0], io))
        return runCheckOne(paths[0], options, io);
    if (paths.includes("-")) throw new CliError("check: stdin (-) is checked alone, not with other paths");
    return runCheckMany(paths, options, io);
}

/** `-`, a file, or a path that is neither a folder nor a glob (reported as the missing file it is). */
function namesOneFile(arg: string, io: CliIo): boolean {
    if (arg === "-") return true;
    try {
        return !fs.statSync(nodePath.resolve(io.cwd, arg)).isDirectory();
    } catch {
        // Required here, on a name that is neither file nor folder: check of a file never evaluates it.
        return !(require("picomatch") as typeof picomatchModule).scan(arg).isGlob;
    }
}

function runCheckOne(file: string, options: CheckOptions, io: CliIo): ExitStatus {
    if (file !== "-") refuseLockFile(file);
    const input =
        file === "-"
            ? { text: readTextInput(file, io.readStdin, file, options.maxBytes) }
            : readAnnotationInput(resolveFile(io, file), file, options.maxBytes);
    // stdin is checked as if it were a file in the current folder (its configuration is found from there).
    const path = file === "-" ? nodePath.join(io.cwd, "-") : nodePath.resolve(io.cwd, file);
    const job = jobFor(path, file === "-" ? "<stdin>" : file, options, io, nodeProjectConfigs());
    const writer = new RunWriter(options.format, false, (t) => io.stdout(t), io.version, job.sourceRoot);
    const totals = checkFileInto(
        job,
        options.format,
        (t, starts) => writer.piece(t, starts),
        new DocumentCache(),
        input,
    );
    writer.fileDone(totals);
    return writer.end();
}

/** Discovery errors are thrown at once (a usage error); the checking itself is asynchronous. */
function runCheckMany(paths: string[], options: CheckOptions, io: CliIo): Promise<ExitStatus> {
    // With --jobs, workers load while the files are found (docs/ci.md); stopped if finding them fails.
    // Without it, threads start only once the files are known to be worth it (defaultJobs).
    let parallel = options.jobs ?? 1;
    let workers = options.jobs !== undefined ? startWorkers(parallel) : undefined;
    let jobs: FileJob[];
    try {
        const configs = nodeProjectConfigs();
        const found = discoverFiles(paths, {
            cwd: io.cwd,
            exclude: options.exclude ?? [],
            configs,
            warn: (message) => io.stderr(`sourcecheck: warning: ${visible(message)}\n`),
        });
        if (found.length === 0) throw new CliError(`no annotation files found in ${paths.join(" ")}`);
        const share = options.shard ? shardOf(found, options.shard) : found;
        jobs = share.map((file) => jobFor(file.path, file.shown, options, io, configs, true));
        if (options.jobs === undefined) {
            parallel = defaultJobs(jobs);
            workers = startWorkers(parallel);
        }
    } catch (error) {
        workers?.close();
        throw error;
    }
    const writer = new RunWriter(options.format, true, (t) => io.stdout(t), io.version, repositoryRoot(io.cwd));
    return checkFiles(jobs, options.format, parallel, writer, workers).then(() => writer.end());
}

/** Root and size cap of one file: --root and --max-size win, then its sourcecheck.config.json, then defaults. */
function jobFor(
    path: string,
    shown: string,
    options: CheckOptions,
    io: CliIo,
    configs: ProjectConfigs,
    named = false,
): FileJob {
    const resolution = resolveDocumentRoot(path, {
        explicitRoot: options.root !== undefined ? nodePath.resolve(io.cwd, options.root) : undefined,
        fallback: io.cwd,
        configs,
    });
    if (resolution.problem) {
        const shownConfig = nodePath.relative(io.cwd, resolution.problem.file) || resolution.problem.file;
        throw new CliError(formatConfigProblem(resolution.problem, shownConfig));
    }
    return {
        path,
        shown,
        root: resolution.root,
        maxBytes: options.maxBytes ?? resolution.config?.maxDocumentSize,
        named,
        locked: options.locked === true,
        sourceRoot: repositoryRoot(io.cwd),
        severity: resolution.config?.severity,
        failOn: options.failOn,
    };
}

/**
 * Below this many bytes of annotation files, the default is one thread: measured on 2 shared cores,
 * `--jobs 2` was 1.05x to 1.21x the time of `--jobs 1` from 2 files (23 KiB) up to 64 files (7.6 MiB),
 * worker start-up and warm-up costing more than they saved (docs/ci.md).
 */
export const DEFAULT_THREADS_FROM_BYTES = 8 * 1024 * 1024;

/** `--jobs` when not given: one thread for small runs, else one per core (at most MAX_JOBS, at most one per file). */
function defaultJobs(jobs: readonly FileJob[]): number {
    if (jobs.length < 2) return 1;
    let bytes = 0;
    for (const job of jobs) {
        try {
            bytes += fs.statSync(job.path).size;
        } catch {
            // A file that cannot be stat'ed is reported when it is checked.
        }
        if (bytes >= DEFAULT_THREADS_FROM_BYTES) return Math.min(availableParallelism(), MAX_JOBS, jobs.length);
    }
    return 1;
}

function availableParallelism(): number {
    const os = require("node:os") as typeof import("node:os");
    return typeof os.availableParallelism === "function" ? os.availableParallelism() : os.cpus().length;
}

export function runValidate(sessionFile: string, annotationsFile: string, format: OutputFormat, io: CliIo): ExitStatus {
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
        unlistedSyntaxErrors: session.unlistedSyntaxErrors + annotations.unlistedSyntaxErrors,
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
        io.stdout(`${reportJson(result.report, "indented")}\n`);
        return;
    }
    const located = locateProblems(result, sources);
    if (format === "github") io.stdout(located.map((p) => `${githubCommand(p)}\n`).join(""));
    else io.stdout(format === "sarif" ? formatSarif(located, io.version, io.cwd) : formatText(result, located));
}

/** `session FILE...`: an LF-normalised session, paths as given; written atomically with -o. */
export function runSession(files: string[], output: string | undefined, io: CliIo, followSymlinks = false): ExitStatus {
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
    else
        writeFileAtomic(
            resolveFile(io, output),
            json,
            { followSymlinks, inputs: files.filter((f) => f !== "-").map((f) => resolveFile(io, f)) },
            output,
        );
    return EXIT.clean;
}

/** `index FILE...`: each document with 1-based line numbers, for authoring refs by hand. */
export function runIndex(files: string[], io: CliIo): ExitStatus {
    if (files.length === 0) throw new CliError("index: give at least one FILE");
    const parts = files.map((file) => {
        const numbered = numberedLines(normalizeLineEndings(readTextInput(resolveFile(io, file), io.readStdin, file)));
        // Document text is shown, never acted on: controls escaped, no line read as a workflow command.
        return visibleLines(files.length > 1 ? `==> ${visible(file)} <==\n${numbered}` : numbered);
    });
    io.stdout(`${parts.join("\n\n")}\n`);
    return EXIT.clean;
}

function resolveFile(io: CliIo, file: string): string {
    return file === "-" ? "-" : nodePath.resolve(io.cwd, file);
}
