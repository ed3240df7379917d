/**
 * One annotation file checked into output pieces, in any format (docs/ci.md). The same function runs
 * in the main thread (one file, `--jobs 1`) and in worker threads, so the report is the same whatever
 * the number of jobs. JSON entries are written as they are made: memory does not grow with the report.
 */
import * as nodePath from "node:path";
import { EXIT, type ReportExitStatus } from "../../../shared/exitCodes";
import { annotationLabel, indexOfOrdinal } from "../../../shared/numbering";
import type { ReportEntry } from "../core/check";
import { changedDocuments, LockComparison, type LockError, UnchangedLock } from "../core/lock";
import { reportClose, reportEntry, reportHead, reportIndent, reportJson } from "../core/reportJson";
import { type DocumentFailure, type DocumentLookup, SessionDocument } from "../core/session";
import type { SeverityPolicy } from "../core/severity";
import type { SchemaError } from "../core/types";
import type { EntryVerdict } from "../core/verdict";
import { visible } from "../core/visible";
import { type CheckLockRead, checkOperation, type VerdictGate } from "../operations/check";
import { readDocumentUnderRoot } from "../workspace/diskDocuments";
import { entriesFor, hasLockBeside, isLockOnBasis, readLockOnBasis, sha256 } from "../workspace/lockFiles";
import { isCliError, readTextInput, readTextInputHashed } from "./files";
import { githubCommand } from "./github";
import { sarifResult } from "./sarif";
import {
    formatText,
    type LocatedProblem,
    locateProblems,
    NO_ANNOTATIONS,
    NO_ANNOTATIONS_MESSAGE,
    problemLine,
    singleSource,
    warningCount,
} from "./text";

export type OutputFormat = "text" | "json" | "sarif" | "github";

export interface FileJob {
    /** Absolute path, or "-" for stdin. */
    path: string;
    /** The name shown in output: as given, or relative to the current folder. */
    shown: string;
    /** Document root of its workspace-mode refs (absolute). */
    root: string;
    maxBytes?: number;
    /** One of many: the JSON report carries `file`, the text output a per-file summary. */
    named: boolean;
    /** `check --locked`: drift and refs missing from the lock are errors (docs/lock.md). */
    locked?: boolean;
    /** The repository root SARIF locations are relative to (absolute; sarif.ts). */
    sourceRoot: string;
    /** The level of each code, from the file's sourcecheck.config.json (docs/codes.md). */
    severity?: SeverityPolicy;
    /** `--fail-on`: verdicts that fail the check (docs/verdicts.md). */
    failOn?: EntryVerdict[];
}

export interface FileTotals {
    validCount: number;
    invalidCount: number;
    exitCode: ReportExitStatus;
}

/** Output of one file, piece by piece; `startsItem` marks the start of one array item (a comma before it). */
export type Emit = (text: string, startsItem: boolean) => void;

/**
 * Cited documents read once per run and shared by the files citing them, up to a budget of bytes;
 * past it the cache starts again (between files), so a corpus of many documents does not pile up.
 */
export class DocumentCache {
    private readonly byRoot = new Map<string, Map<string, SessionDocument | DocumentFailure>>();
    private bytes = 0;

    constructor(private readonly budget = 256 * 1024 * 1024) {}

    /** With `contentSha256`, documents read from now on carry their hash (a lock's basis is compared). */
    lookup(root: string, maxBytes: number | undefined, options: { contentSha256?: boolean } = {}): DocumentLookup {
        const key = `${maxBytes ?? ""}\0${root}`;
        let cache = this.byRoot.get(key);
        if (!cache) {
            cache = new Map();
            this.byRoot.set(key, cache);
        }
        const entries = cache;
        return {
            get: (path) => {
                let entry = entries.get(path);
                if (entry === undefined) {
                    const read = readDocumentUnderRoot(root, path, { maxBytes, contentSha256: options.contentSha256 });
                    entry = read.ok ? new SessionDocument(path, read.content, read.contentSha256) : read.failure;
                    if (read.ok) this.bytes += read.content.length;
                    entries.set(path, entry);
                }
                return entry;
            },
        };
    }

    /** Called between files: forget everything once over budget. */
    trim(): void {
        if (this.bytes <= this.budget) return;
        this.byRoot.clear();
        this.bytes = 0;
    }
}

/**
 * Check one file and emit its output. `text` is the file's content when already read (stdin). An
 * unreadable file is a CliError when it is the only one, else reported as its own `invalid-json`.
 */
export function checkFileInto(
    job: FileJob,
    format: OutputFormat,
    emit: Emit,
    documents: DocumentCache,
    given?: AnnotationInput,
): FileTotals {
    let content: string;
    let contentSha256: string | undefined;
    try {
        ({ text: content, sha256: contentSha256 } = given ?? readAnnotationInput(job.path, job.shown));
    } catch (error) {
        if (!job.named || !isCliError(error)) throw error;
        return unreadableFile(job, format, emit, error.message);
    }
    const indent = reportIndent(job.named);
    const lookup = documents.lookup(job.root, job.maxBytes);
    let entryCount = 0;
    if (format === "json") emit(reportHead(indent, job.named ? job.shown : undefined), true);
    const onEntry =
        format === "json" ? (entry: ReportEntry) => emit(reportEntry(entry, entryCount++, indent), false) : undefined;
    // The one check (operations/check.ts): its exit status is the file's, a lock's error included.
    const outcome = checkOperation(
        { text: content, locked: job.locked, severity: job.severity, failOn: job.failOn, coverage: format === "json" },
        { documents: lookup, lock: lockOf(job, content, contentSha256, documents), sha256, onEntry },
    );
    const { result } = outcome;
    const { report } = result;
    const totals: FileTotals = {
        validCount: outcome.validCount,
        invalidCount: outcome.invalidCount,
        exitCode: outcome.exitCode,
    };
    if (format === "json") {
        const summary = {
            ...totals,
            schemaErrors: report.schemaErrors,
            schemaErrorCount: report.schemaErrorCount,
            omittedEntryCount: report.omittedEntryCount,
        };
        emit(reportClose(entryCount > 0, summary, outcome.extras, indent), false);
        return totals;
    }
    const located = locateProblems(result, [singleSource(job.shown, content)]);
    const lockError = outcome.extras.lockError as (LockError & { file: string }) | undefined;
    if (lockError) {
        located.unshift({
            code: lockError.code,
            message: lockError.message,
            pointer: lockError.pointer ?? "",
            file: lockError.file,
            start: { line: 1, column: 1 },
            end: { line: 1, column: 1 },
        } as unknown as LocatedProblem);
    }
    const gate = gateLines(outcome.extras.gate as VerdictGate | undefined, job.shown);
    if (format === "text" && gate) emit(gate, false);
    emitProblems(job, format, emit, located, () => formatText(result, located, outcome.exitCode), totals);
    return totals;
}

/** What `--fail-on` found, one line per annotation, before the problems (text output only). */
function gateLines(gate: VerdictGate | undefined, file: string): string | undefined {
    if (!gate || gate.failed.length === 0) return undefined;
    const listed = gate.failOn.join(",");
    return gate.failed
        .map(
            (f) =>
                `${visible(file)}: ${annotationLabel(indexOfOrdinal(f.annotation))} is ${f.verdict} (--fail-on ${listed})\n`,
        )
        .join("");
}

function emitProblems(
    job: FileJob,
    format: OutputFormat,
    emit: Emit,
    located: LocatedProblem[],
    singleText: () => string,
    totals: FileTotals,
): void {
    if (format === "sarif") {
        for (const problem of located)
            emit(`      ${JSON.stringify(sarifResult(problem, job.path, job.sourceRoot))}`, true);
    } else if (format === "github") {
        for (const problem of located) emit(`${githubCommand(problem)}\n`, false);
    } else if (!job.named) {
        emit(singleText(), false);
    } else if (totals.validCount + totals.invalidCount === 0 && located.length === 0) {
        emit(`${visible(job.shown)}: warning: ${NO_ANNOTATIONS}: ${NO_ANNOTATIONS_MESSAGE}\n`, false);
    } else if (located.length > 0) {
        // Names and messages are shown, never acted on (docs/security.md, "Outputs").
        const lines = located.map(problemLine);
        const total = totals.validCount + totals.invalidCount;
        lines.push(
            `${visible(job.shown)}: ${total} annotation${total === 1 ? "" : "s"}: ${totals.validCount} valid, ` +
                `${totals.invalidCount} invalid${warningCount(located)} (exit ${totals.exitCode})`,
        );
        emit(`${lines.join("\n")}\n`, false);
    }
}

/** An annotation file's text, and its SHA-256 when a lock's basis will be compared (hashed from its bytes). */
export interface AnnotationInput {
    text: string;
    sha256?: string;
}

/** Read an annotation file to check (a CliError when it cannot be); hashed only with a lock beside it. */
export function readAnnotationInput(path: string, shown: string, maxBytes?: number): AnnotationInput {
    if (path !== "-" && hasLockBeside(path)) return readTextInputHashed(path, shown, maxBytes);
    return { text: readTextInput(path, () => Buffer.alloc(0), shown, maxBytes) };
}

/** The lock beside a file as check compares against it (operations/check.ts); stdin has none. */
export function lockOf(
    job: FileJob,
    content: string,
    contentSha256: string | undefined,
    documents: DocumentCache,
): CheckLockRead {
    let read = job.path === "-" ? undefined : readLockOnBasis(job.path, () => contentSha256 ?? sha256(content));
    if (!read) return {};
    // The lock's name as shown: beside the file as given.
    const shown = nodePath.join(nodePath.dirname(job.shown), nodePath.basename(read.path));
    if (isLockOnBasis(read)) {
        // Nothing the lock was taken over changed: no entry needs reading (docs/lock.md, "Basis").
        // Some documents changed: only the entries of refs into them.
        const hashing = documents.lookup(job.root, job.maxBytes, { contentSha256: true });
        const changed = changedDocuments(read.basis, hashing, sha256);
        if (changed.size === 0) return { path: shown, comparison: new UnchangedLock() };
        const lockFileName = nodePath.basename(read.path);
        const partial = entriesFor(read, changed, nodePath.basename(job.path));
        if (partial) {
            const options = { locked: job.locked === true, lockFileName, comparedPaths: changed };
            return { path: shown, comparison: new LockComparison(partial, sha256, options) };
        }
        read = read.load();
    }
    if (read.error) return { path: shown, error: read.error };
    return read.lock ? { path: shown, lock: read.lock } : {};
}

/** A file of many that cannot be read as text: a schema-class error of its own, the others still checked. */
function unreadableFile(job: FileJob, format: OutputFormat, emit: Emit, message: string): FileTotals {
    const totals: FileTotals = { validCount: 0, invalidCount: 0, exitCode: EXIT.usage };
    const error: SchemaError = { code: "invalid-json", pointer: "", message };
    if (format === "json") {
        const report = { ok: false, ...totals, schemaErrors: [error], entries: [] };
        emit(reportJson(report, "lines", { file: job.shown }, reportIndent(job.named)), true);
        return totals;
    }
    const problem: LocatedProblem = {
        code: "invalid-json",
        message,
        pointer: "",
        file: job.shown,
        start: { line: 1, column: 1 },
        end: { line: 1, column: 1 },
    };
    emitProblems(job, format, emit, [problem], () => "", totals);
    return totals;
}
