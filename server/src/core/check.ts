/**
 * Checking a whole input: schema, then resolution of every readable ref. Produces the JSON report of
 * docs/contract.md section 5 and, beside it, the list of problems with the JSON pointer of the exact token each
 * is about (what the CLI's text/SARIF output and the editor's diagnostics point at).
 */

import { EXIT, type ReportExitStatus } from "../../../shared/exitCodes";
import type { CheckMemo } from "./checkMemo";
import { type InputParts, readInput } from "./input";
import type { NextStep } from "./nextStep";
import { type RefWarningSource, spanWarningSource } from "./refWarnings";
import { type RefResolution, resolveRef } from "./resolve";
import { MAX_LISTED_PROBLEMS, SchemaChecker } from "./schema";
import { type DocumentLookup, Session, SessionDocument } from "./session";
import { applySeverity, failsCheck, type SeverityPolicy } from "./severity";
import {
    type Annotation,
    type BoundaryName,
    type ErrorCode,
    isSchemaErrorCode,
    type Range,
    type Ref,
    type RefError,
    type RefWarning,
    type SchemaError,
    type WarningCode,
} from "./types";
import { type EntryVerdict, entryVerdict } from "./verdict";

export interface ValidSpanEntry {
    valid: true;
    path: string;
    text: string;
    range: Range;
    /**
     * Findings on a resolving ref (docs/contract.md, "Warnings"); absent when there are none. One with
     * `severity: "error"` (`check --locked`) makes the annotation invalid although the ref resolves.
     */
    warnings?: RefWarning[];
}

export interface InvalidSpanEntry {
    valid: false;
    path?: string;
    error: RefError;
}

export type SpanEntry = ValidSpanEntry | InvalidSpanEntry;

export type SourceEntry = SpanEntry & { polarity?: unknown; confidence?: unknown };

export interface ReportEntry {
    index: number;
    valid: boolean;
    /** supported, refuted, contested, broken, or none while it has no sources (core/verdict.ts). */
    verdict: EntryVerdict;
    claim: SpanEntry;
    sources: SourceEntry[];
}

export interface Report {
    ok: boolean;
    exitCode: ReportExitStatus;
    validCount: number;
    invalidCount: number;
    /** At most MAX_LISTED_PROBLEMS, syntax errors first. */
    schemaErrors: SchemaError[];
    /** Every schema error found, when more than are listed (docs/contract.md, "Bounds"). */
    schemaErrorCount?: number;
    /** One per readable annotation (but those left out); empty when checked with `keepEntries: false`. */
    entries: ReportEntry[];
    /**
     * Annotations failing the schema with an error past the listed ones get no entry: `[{},{},…]`
     * would otherwise report 50 bytes for every 3 read. How many, when any.
     */
    omittedEntryCount?: number;
}

/** One thing wrong, located by the JSON pointer of the token to mark. */
export interface Problem {
    code: ErrorCode | WarningCode | typeof MORE_PROBLEMS;
    message: string;
    /** Absent: an error. Findings on resolving refs are warnings or information (docs/contract.md). */
    severity?: "warning" | "information";
    pointer: string;
    /** Index of the annotation it belongs to, when it belongs to one. */
    annotation?: number;
    /** "claim" or the source index. */
    role?: "claim" | number;
    boundary?: BoundaryName;
    /** For boundary-ambiguous: where every occurrence is. */
    occurrences?: { path: string; line: number; columns: number[]; length: number };
    /** What to do about it, as data (docs/contract.md, "Next steps"); each front end words it. */
    next?: NextStep;
}

/** What a check found for one annotation that passed the schema, replayed while nothing it depends on changed. */
interface KeptAnnotation {
    problems: Problem[];
    item: CheckedAnnotation;
    valid: boolean;
    failed: boolean;
}

/** Per annotation: the ref values and their resolutions, for features that need more than the report. */
export interface CheckedAnnotation {
    index: number;
    pointer: string;
    /** It fails the schema (its errors may be past the listed ones, so not among the problems). */
    schemaFailed?: true;
    claim?: Ref;
    claimResolution?: RefResolution;
    sources: {
        pointer: string;
        ref?: Ref & { polarity?: unknown; confidence?: unknown };
        resolution?: RefResolution;
    }[];
}

/** A ref of the file's `unsourced` list (a claim searched with no source found) and its resolution. */
export interface CheckedUnsourced {
    /** `/unsourced/N`, N from 0 as in every pointer. */
    pointer: string;
    /** The ref, when it passes the schema. */
    ref?: Ref;
    resolution?: RefResolution;
}

export interface CheckResult {
    report: Report;
    /** The `unsourced` list, each ref resolved like a claim (a broken one is a problem, exit 1); always kept. */
    unsourced: CheckedUnsourced[];
    problems: Problem[];
    parts: InputParts;
    /** Empty when checked with `keepAnnotations: false`. */
    annotations: CheckedAnnotation[];
    /** What refs were resolved against: the embedded session, or the workspace given. */
    lookup: DocumentLookup;
    /** Schema and syntax errors found but not built (past MAX_LISTED_PROBLEMS): not in `problems`. */
    unlistedProblemCount: number;
}

const NO_DOCUMENTS: DocumentLookup = { get: () => undefined };

/**
 * Check a parsed input of any shape. In workspace mode refs resolve through `workspace`; embedded
 * sessions resolve against their own documents. `syntaxErrors` (from the parser) count as schema errors.
 */
export function checkInput(
    value: unknown,
    workspace?: DocumentLookup,
    syntaxErrors: SchemaError[] = [],
    options: CheckOptions = {},
): CheckResult {
    return runSteps(checkInputSteps(value, workspace, syntaxErrors, options));
}

export interface CheckOptions {
    /**
     * Keep `annotations` (every ref and its resolution) in the result: editors need it for their
     * features; a one-shot report (the CLI) does not, and saves holding it all. Default true.
     */
    keepAnnotations?: boolean;
    /**
     * Keep the report's `entries` (resolved text and ranges of every ref). Output that prints only
     * problems and counts (the CLI's text and SARIF) does not need them. Default true.
     */
    keepEntries?: boolean;
    /**
     * Called with each report entry as soon as it is made, in order: streaming output writes it and
     * lets it go (with `keepEntries: false`, memory does not grow with the report).
     */
    onEntry?: (entry: ReportEntry) => void;
    /** Checks run on every resolving ref (a lock's drift, and others): their findings go on the ref. */
    refWarnings?: readonly RefWarningSource[];
    /** Syntax errors the parser found but did not list (`ParsedText.unlistedSyntaxErrors`). */
    unlistedSyntaxErrors?: number;
    /**
     * The resolutions of this file's last check (an editor's re-check of an edited version): refs that
     * read the same into unchanged documents are not resolved again. The result is the same either way.
     */
    memo?: CheckMemo;
    /**
     * The level of each code (core/severity.ts): "off" problems are left out, and only errors fail
     * the check. Absent: every code at its own level.
     */
    severity?: SeverityPolicy;
}

/** evidex-compatible: resolve and validate annotations against a session; returns the report. */
export function validateAnnotations(session: DocumentLookup, annotations: readonly Annotation[] | unknown[]): Report {
    const checker = new SchemaChecker();
    const parts: InputParts = { shape: "workspace", annotations: [...annotations], annotationsPointer: "" };
    return checkParts(parts, session, checker, []).report;
}

export function checkParts(
    parts: InputParts,
    lookup: DocumentLookup,
    checker: SchemaChecker,
    syntaxErrors: SchemaError[],
    options: CheckOptions = {},
): CheckResult {
    return runSteps(checkPartsSteps(parts, lookup, checker, syntaxErrors, options));
}

/** Run steps to the end on this thread (nothing else waits). */
export function runSteps<T>(steps: Generator<void, T, void>): T {
    let next = steps.next();
    while (!next.done) next = steps.next();
    return next.value;
}

/** `checkInput` as steps: it yields after each annotation, so a server can answer others meanwhile. */
export function* checkInputSteps(
    value: unknown,
    workspace?: DocumentLookup,
    syntaxErrors: SchemaError[] = [],
    options: CheckOptions = {},
): Generator<void, CheckResult, void> {
    // One budget of listed errors per file: the parser's go first.
    const checker = new SchemaChecker(Math.max(0, MAX_LISTED_PROBLEMS - syntaxErrors.length));
    const parts = readInput(value, checker);
    const lookup = parts.documents
        ? new Session(parts.documents.map((d) => new SessionDocument(d.path, d.content)))
        : (workspace ?? NO_DOCUMENTS);
    return yield* checkPartsSteps(parts, lookup, checker, syntaxErrors, options);
}

/**
 * `checkParts` as steps: one after each annotation (its refs resolved, so the documents it cites
 * read), for a server to run cooperatively (agentTools/cooperative.ts).
 */
export function* checkPartsSteps(
    parts: InputParts,
    lookup: DocumentLookup,
    checker: SchemaChecker,
    syntaxErrors: SchemaError[],
    {
        keepAnnotations = true,
        keepEntries = true,
        onEntry,
        refWarnings: extraWarnings = [],
        unlistedSyntaxErrors = 0,
        memo,
        severity,
    }: CheckOptions = {},
): Generator<void, CheckResult, void> {
    memo?.begin(lookup);
    const resolve = (ref: Ref): RefResolution => (memo ? memo.resolve(lookup, ref) : resolveRef(lookup, ref));
    // Every check looks for self-citation and mid-word boundaries (docs/contract.md, "Warnings"),
    // whoever calls it: the CLI, the language server and MCP alike.
    const refWarnings: readonly RefWarningSource[] = [spanWarningSource(memo), ...extraWarnings];
    for (const source of refWarnings) source.start?.(parts.annotations, lookup);
    /** A finding made an error on a ref of the annotation being checked. */
    let flagged = false;
    const findings = (
        index: number,
        role: "claim" | number,
        ref: Ref,
        resolution: RefResolution,
        pointer: string,
        claimResolution?: RefResolution,
    ): SpanEntry => {
        const entry = spanEntry(resolution);
        if (!resolution.valid) return entry;
        const found = findingsOf(refWarnings, index, role, ref, resolution, claimResolution);
        if (!found) return entry;
        for (const warning of found) {
            if (warning.severity === "error") flagged = true;
            problems.push(findingProblem(warning, pointer, index, role));
        }
        return { ...entry, warnings: found } as SpanEntry;
    };
    const problems: Problem[] = [];
    const entries: ReportEntry[] = [];
    let validCount = 0;
    const checked: CheckedAnnotation[] = [];
    const reported = new Set<SchemaError>();
    let resolutionFailed = false;
    let omittedEntryCount = 0;

    // An editor's re-check replays what it found for an annotation whose value is the one it checked
    // (the same object: core/incrementalParse.ts) at the same place, into the same documents.
    const replayable = memo !== undefined && extraWarnings.length === 0 && keepAnnotations && !keepEntries && !onEntry;
    const checkOne = (value: unknown, index: number): void => {
        const kept = replayable ? memo.remembered<KeptAnnotation>(value, index) : undefined;
        if (kept) {
            for (const problem of kept.problems) problems.push(problem);
            checked.push(kept.item);
            if (kept.valid) validCount++;
            if (kept.failed) resolutionFailed = true;
            return;
        }
        const problemMark = problems.length;
        let failedHere = false;
        const pointer = `${parts.annotationsPointer}/${index}`;
        const listedMark = checker.errors.length;
        const foundMark = checker.errorCount;
        const read = checker.annotation(value, pointer);
        const ownSchemaErrors = checker.errors.length > listedMark ? checker.errors.slice(listedMark) : [];
        const schemaFailures = checker.errorCount - foundMark;
        for (const error of ownSchemaErrors) {
            problems.push({ ...error, annotation: index });
            reported.add(error);
        }
        const item: CheckedAnnotation | undefined = keepAnnotations ? { index, pointer, sources: [] } : undefined;
        if (item) checked.push(item);
        if (item && schemaFailures > 0) item.schemaFailed = true;
        if (!read.readable) return;

        let claim: SpanEntry;
        let claimResolution: RefResolution | undefined;
        if (read.claim) {
            const resolution = resolve(read.claim);
            if (item) {
                item.claim = read.claim;
                item.claimResolution = resolution;
            }
            failedHere = report(resolution, read.claim, `${pointer}/claim`, index, "claim", problems) || failedHere;
            claim = findings(index, "claim", read.claim, resolution, `${pointer}/claim`);
            claimResolution = resolution;
        } else {
            const error = read.claimErrors?.[0] ?? ownSchemaErrors[0];
            claim = { valid: false, path: read.claimPath, error: schemaRefError(error) };
        }

        const sources: SourceEntry[] = read.sources.map((source, sourceIndex) => {
            const meta = { polarity: source.raw.polarity, confidence: source.raw.confidence };
            const rawPath = typeof source.raw.path === "string" ? source.raw.path : undefined;
            // A source failing the schema anywhere (its metadata included) is reported as such, not
            // resolved: the editor's incremental re-checks follow only refs that are whole.
            if (!source.ref) {
                item?.sources.push({ pointer: source.pointer });
                return { valid: false, path: rawPath, error: schemaRefError(source.errors[0]), ...meta };
            }
            const resolution = resolve(source.ref);
            item?.sources.push({ pointer: source.pointer, ref: source.ref, resolution });
            failedHere = report(resolution, source.ref, source.pointer, index, sourceIndex, problems) || failedHere;
            const found = findings(index, sourceIndex, source.ref, resolution, source.pointer, claimResolution);
            return { ...found, ...meta };
        });

        const valid = schemaFailures === 0 && claim.valid && sources.every((s) => s.valid) && !flagged;
        if (flagged) failedHere = true;
        flagged = false;
        if (failedHere) resolutionFailed = true;
        if (valid) validCount++;
        if (replayable && item && schemaFailures === 0) {
            const paths = item.sources.map((source) => (source.ref as Ref).path);
            if (item.claim) paths.push(item.claim.path);
            const outcome = { problems: problems.slice(problemMark), item, valid, failed: failedHere };
            memo.remember<KeptAnnotation>(value, index, paths, outcome);
        }
        if (schemaFailures > ownSchemaErrors.length) {
            omittedEntryCount++;
            return;
        }
        if (keepEntries || onEntry) {
            const entry = entryOf(index, valid, claim, sources);
            if (keepEntries) entries.push(entry);
            onEntry?.(entry);
        }
    };
    for (let index = 0; index < parts.annotations.length; index++) {
        checkOne(parts.annotations[index], index);
        yield;
    }

    const unsourced = checkUnsourced(parts, checker, resolve, problems);
    if (unsourced.some((item) => item.resolution?.valid === false)) resolutionFailed = true;
    // File-level errors (shape, documents, unsourced refs) were not reported with an annotation.
    for (const error of checker.errors) if (!reported.has(error)) problems.push({ ...error });
    if (syntaxErrors.length > 0) problems.unshift(...syntaxErrors.map((error) => ({ ...error })));
    const counts = { validCount, omittedEntryCount, resolutionFailed, unlistedSyntaxErrors };
    memo?.end();
    return resultOf(parts, lookup, checker, syntaxErrors, { problems, entries, checked, unsourced, severity, counts });
}

/** The result once every annotation was checked: the configured levels applied, the report made. */
function resultOf(
    parts: InputParts,
    lookup: DocumentLookup,
    checker: SchemaChecker,
    syntaxErrors: SchemaError[],
    found: {
        problems: Problem[];
        entries: ReportEntry[];
        checked: CheckedAnnotation[];
        unsourced: CheckedUnsourced[];
        severity: SeverityPolicy | undefined;
        counts: {
            validCount: number;
            omittedEntryCount: number;
            resolutionFailed: boolean;
            unlistedSyntaxErrors: number;
        };
    },
): CheckResult {
    const { problems, severity, counts } = found;
    // The configured levels decide what is reported and what fails (docs/codes.md, "Severity per code").
    const shown = severity ? applySeverity(problems, severity) : problems;
    if (severity) counts.resolutionFailed = shown.some((p) => failsCheck(p) && !isSchemaErrorCode(p.code));
    const summary = reportOf(parts, checker, syntaxErrors, found.entries, counts);
    const unlistedProblemCount =
        (summary.schemaErrorCount ?? summary.schemaErrors.length) - summary.schemaErrors.length;
    return {
        report: summary,
        problems: shown,
        parts,
        annotations: found.checked,
        lookup,
        unlistedProblemCount,
        unsourced: found.unsourced,
    };
}

/**
 * The refs of the `unsourced` list, each checked as a claim ref is: its schema errors are the file's,
 * and a ref that does not resolve is a problem on its token (annotation undefined, pointer
 * `/unsourced/N/...`), so a stale "searched, nothing found" is reported as any broken ref is.
 */
function checkUnsourced(
    parts: InputParts,
    checker: SchemaChecker,
    resolve: (ref: Ref) => RefResolution,
    problems: Problem[],
): CheckedUnsourced[] {
    return (parts.unsourced ?? []).map((value, index) => {
        const pointer = `/unsourced/${index}`;
        const ref = checker.ref(value, pointer, "an unsourced claim");
        if (!ref) return { pointer };
        const resolution = resolve(ref);
        problems.push(...resolutionProblems(resolution, ref, pointer, undefined, undefined));
        return { pointer, ref, resolution };
    });
}

/** A report entry, its verdict read from its spans (core/verdict.ts). */
function entryOf(index: number, valid: boolean, claim: SpanEntry, sources: SourceEntry[]): ReportEntry {
    return { index, valid, verdict: entryVerdict({ valid, claim, sources }), claim, sources };
}

/** The report's verdict and counts once every annotation was checked. */
function reportOf(
    parts: InputParts,
    checker: SchemaChecker,
    syntaxErrors: SchemaError[],
    entries: ReportEntry[],
    counts: { validCount: number; omittedEntryCount: number; resolutionFailed: boolean; unlistedSyntaxErrors: number },
): Report {
    const schemaErrors = [...syntaxErrors, ...checker.errors];
    const schemaErrorCount = syntaxErrors.length + counts.unlistedSyntaxErrors + checker.errorCount;
    const exitCode = schemaErrorCount > 0 ? EXIT.usage : counts.resolutionFailed ? EXIT.findings : EXIT.clean;
    const report: Report = {
        ok: exitCode === EXIT.clean,
        exitCode,
        validCount: counts.validCount,
        invalidCount: parts.annotations.length - counts.validCount,
        schemaErrors,
        entries,
    };
    if (schemaErrorCount > schemaErrors.length) report.schemaErrorCount = schemaErrorCount;
    if (counts.omittedEntryCount > 0) report.omittedEntryCount = counts.omittedEntryCount;
    return report;
}

/** A file's problems as listed (docs/security.md, "Resource bounds"): at most MAX_LISTED_PROBLEMS, then a count. */
export interface ListedProblems<P extends Problem> {
    listed: P[];
    /** Problems not listed: past the cap here, or never built (`unlistedProblemCount`). */
    more: number;
}

/**
 * The problems an output shows of one file: the first MAX_LISTED_PROBLEMS of `problems`, and how
 * many more there are (`unlisted`: those the check counted without building them).
 */
export function listedProblems<P extends Problem>(problems: readonly P[], unlisted = 0): ListedProblems<P> {
    const listed = problems.length > MAX_LISTED_PROBLEMS ? problems.slice(0, MAX_LISTED_PROBLEMS) : [...problems];
    return { listed, more: problems.length - listed.length + unlisted };
}

/** The code of the note an output adds when it lists only some of a file's problems (docs/codes.md). */
export const MORE_PROBLEMS = "more-problems";

/** The note an output shows for problems not listed, on the file as a whole (its pointer ""). */
export function moreProblemsNote(more: number): Problem {
    const count = more.toLocaleString("en-US");
    return {
        code: MORE_PROBLEMS,
        severity: "information",
        pointer: "",
        message: `${count} more problem${more === 1 ? "" : "s"} not listed: at most ${MAX_LISTED_PROBLEMS.toLocaleString("en-US")} are listed per file`,
    };
}

export { MAX_LISTED_PROBLEMS };

/** A finding on a resolving ref as a problem on the ref (an editor re-resolving one ref makes the same). */
export function findingProblem(
    warning: RefWarning,
    pointer: string,
    annotation: number,
    role: "claim" | number,
): Problem {
    const error = warning.severity === "error";
    return {
        code: warning.code as WarningCode,
        message: warning.message,
        pointer,
        annotation,
        role,
        severity: error ? undefined : warning.severity === "information" ? "information" : "warning",
        ...(isNextStep(warning.next) ? { next: warning.next } : {}),
    };
}

export function findingsOf(
    sources: readonly RefWarningSource[],
    index: number,
    role: "claim" | number,
    ref: Ref,
    resolution: RefResolution,
    claim: RefResolution | undefined,
): RefWarning[] | undefined {
    let found: RefWarning[] | undefined;
    for (const source of sources) {
        const more = source.warningsFor(index, role, ref, resolution, claim);
        if (more && more.length > 0) found = found ? [...found, ...more] : more;
    }
    return found;
}

function spanEntry(resolution: RefResolution): SpanEntry {
    if (resolution.valid) {
        return { valid: true, path: resolution.path, text: resolution.text, range: resolution.range };
    }
    return { valid: false, path: resolution.path, error: resolution.errors[0] };
}

function schemaRefError(error: SchemaError | undefined): RefError {
    return error
        ? { code: error.code, message: error.message, pointer: error.pointer }
        : { code: "schema", message: "not a valid ref" };
}

/** Record the problems of a failed resolution; true if it failed. */
function report(
    resolution: RefResolution,
    ref: Ref,
    refPointer: string,
    annotation: number,
    role: "claim" | number,
    problems: Problem[],
): boolean {
    if (resolution.valid) return false;
    problems.push(...resolutionProblems(resolution, ref, refPointer, annotation, role));
    return true;
}

/**
 * The problems of one ref's resolution (none when valid), each on its token. Exported so an editor
 * can re-resolve only the refs into a document that changed and replace just their problems.
 */
export function resolutionProblems(
    resolution: RefResolution,
    ref: Ref,
    refPointer: string,
    annotation: number | undefined,
    role: "claim" | number | undefined,
): Problem[] {
    if (resolution.valid) return [];
    const problems: Problem[] = [];
    for (const error of resolution.errors) {
        problems.push({
            code: error.code,
            message: error.message,
            pointer: tokenPointer(refPointer, error),
            annotation,
            role,
            boundary: error.boundary,
            occurrences:
                error.occurrences && error.boundary
                    ? {
                          path: ref.path,
                          line: ref[error.boundary].line,
                          columns: error.occurrences,
                          length: ref[error.boundary].str.length,
                      }
                    : undefined,
        });
    }
    return problems;
}

/** The token an error is about: the path, a boundary's line or str, or the whole ref for order errors. */
export function tokenPointer(refPointer: string, error: RefError): string {
    switch (error.code) {
        case "unknown-path":
        case "path-outside-root":
        case "unreadable-document":
            return `${refPointer}/path`;
        case "line-out-of-range":
            return `${refPointer}/${error.boundary}/line`;
        case "boundary-not-found":
        case "boundary-ambiguous":
            return `${refPointer}/${error.boundary}/str`;
        default:
            return isSchemaErrorCode(error.code) && error.pointer ? error.pointer : refPointer;
    }
}

function isNextStep(value: unknown): value is NextStep {
    return typeof value === "object" && value !== null && typeof (value as { action?: unknown }).action === "string";
}
