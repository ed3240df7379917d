/**
 * The check operation (docs/contract.md "Operations", docs/lock.md): one annotation file's text
 * checked against its documents and the lock beside it, into the report, the lock's verdict and the
 * exit status. `sourcecheck check` (text, `--json`, SARIF, GitHub), the MCP and VS Code `check`
 * tools, `render` and the library's `check` all run this one function and print what it returned:
 * an unusable lock is exit 2 on every front end, and no output names another exit.
 */
import { EXIT, type ReportExitStatus } from "../../../shared/exitCodes";
import { type CheckResult, checkInputSteps, type ReportEntry, runSteps } from "../core/check";
import type { CheckMemo } from "../core/checkMemo";
import { type ClaimSpans, type ReportCoverage, reportCoverage } from "../core/coverage";
import { LockComparison, type LockError, type LockFile, type UnchangedLock } from "../core/lock";
import { parseJsonText } from "../core/parse";
import { type ReportExtras, reportObject } from "../core/reportJson";
import type { Span } from "../core/sentences";
import { type DocumentLookup, isDocumentFailure } from "../core/session";
import type { SeverityPolicy } from "../core/severity";
import type { SchemaError } from "../core/types";
import type { EntryVerdict } from "../core/verdict";

/** A readable file with zero annotations and no schema error: it passes, with this warning. */
export const NO_ANNOTATIONS = "no-annotations";
export const NO_ANNOTATIONS_MESSAGE = "the file holds no annotations: nothing was checked";

export interface CheckRequest {
    /** The annotation file's text; or, for inline annotations (a tool's arguments), `value`. */
    text?: string;
    /** The input already parsed (any shape of docs/contract.md section 4), when there is no text. */
    value?: unknown;
    /** With `value`: the parser's errors, and how many more it found than it listed. */
    syntaxErrors?: SchemaError[];
    unlisted?: number;
    /** `--locked`: drift and refs missing from the lock are errors (docs/lock.md). */
    locked?: boolean;
    /** Keep every ref and its resolution, and the report's entries (editors and the brief text need them). */
    keep?: boolean;
    /** With `keep`: the refs only, not the report's entries (the editor shows refs, never the report). */
    refsOnly?: boolean;
    /** The level of each code, from the file's sourcecheck.config.json (docs/codes.md, "Severity per code"). */
    severity?: SeverityPolicy;
    /** `--fail-on`: the verdicts that fail the check (exit 1) when an entry has one (docs/verdicts.md). */
    failOn?: readonly EntryVerdict[];
    /**
     * Count the claim documents' sentences (core/coverage.ts): the report gets `coverage`. The outputs
     * a person or a model reads whole ask for it (`check --json`, the library, the check tool); an
     * editor's re-check on every keystroke does not.
     */
    coverage?: boolean;
}

/** The lock beside the file as its front end read it: none (no `path`), one, or why it cannot be used. */
export interface CheckLockRead {
    /** The lock file as the output names it. */
    path?: string;
    lock?: LockFile;
    error?: LockError;
    /** A comparison the front end made already (the CLI compares through the lock's basis: docs/lock.md). */
    comparison?: LockComparison | UnchangedLock;
}

export interface CheckCapabilities {
    /** The documents of workspace-mode refs (an embedded session brings its own). */
    documents: DocumentLookup;
    /** The lock beside the file; absent where the file has no place (stdin, inline annotations). */
    lock?: CheckLockRead;
    sha256: (text: string) => string;
    /** Each report entry as soon as it is made (streamed output; with `keep` false nothing piles up). */
    onEntry?: (entry: ReportEntry) => void;
    /** An editor's memo of the file's last check (core/checkMemo.ts): the same result, sooner. */
    memo?: CheckMemo;
}

export interface CheckOutcome {
    /** The core's result: the report (its `exitCode` the refs' alone), problems, and with `keep` the refs. */
    result: CheckResult;
    /** The file's exit status: the report's, or 2 when the lock beside it cannot be used. */
    exitCode: ReportExitStatus;
    validCount: number;
    invalidCount: number;
    /** What the JSON report adds to the core's report: `warnings`, `lock`, `lockError`. */
    extras: ReportExtras;
    /** The lock's counts when a lock was compared (`check --locked` compares even without one). */
    lockCounts?: LockComparison["counts"];
    /** With `coverage`: the claim documents' sentences (also in `extras`, so every output writes it). */
    coverage?: ReportCoverage;
}

/** The annotations (numbered from 1) whose verdict `--fail-on` lists. */
export interface VerdictGate {
    failOn: EntryVerdict[];
    failed: { annotation: number; verdict: EntryVerdict }[];
}

export function checkOperation(request: CheckRequest, capabilities: CheckCapabilities): CheckOutcome {
    return runSteps(checkSteps(request, capabilities));
}

/** The operation as steps: it yields after each annotation, so a server can answer others meanwhile. */
export function* checkSteps(
    request: CheckRequest,
    capabilities: CheckCapabilities,
): Generator<void, CheckOutcome, void> {
    const parsed =
        request.text !== undefined
            ? parseJsonText(request.text)
            : {
                  value: request.value,
                  syntaxErrors: request.syntaxErrors ?? [],
                  unlistedSyntaxErrors: request.unlisted ?? 0,
              };
    const lockRead = capabilities.lock;
    const comparison = lockComparison(request, lockRead, capabilities.sha256);
    const keep = request.keep === true;
    const gate = request.failOn ? { failOn: [...request.failOn], failed: [] } : undefined;
    const claims: ClaimPlaces | undefined = request.coverage ? new Map() : undefined;
    const passOn = gate ? gatedEntries(gate, capabilities.onEntry) : capabilities.onEntry;
    const result = yield* checkInputSteps(parsed.value, capabilities.documents, parsed.syntaxErrors, {
        keepAnnotations: keep,
        keepEntries: keep && request.refsOnly !== true,
        unlistedSyntaxErrors: parsed.unlistedSyntaxErrors,
        onEntry: claims ? claimEntries(claims, passOn) : passOn,
        refWarnings: comparison ? [comparison] : [],
        memo: capabilities.memo,
        severity: request.severity,
    });
    const { report } = result;
    // A lock that cannot be used is bad input (docs/lock.md), whatever the refs say; a verdict
    // `--fail-on` lists fails a check that would pass.
    const gated = report.exitCode === EXIT.clean && gate && gate.failed.length > 0 ? EXIT.findings : report.exitCode;
    const exitCode = lockRead?.error ? EXIT.usage : gated;
    const counted = comparison && (lockRead?.lock || lockRead?.comparison || request.locked);
    const extras: ReportExtras = {
        warnings: noAnnotations(report.validCount + report.invalidCount, report.schemaErrors),
        lock: counted
            ? { file: lockRead?.lock || lockRead?.comparison ? lockRead.path : undefined, ...comparison.counts }
            : undefined,
        lockError: lockRead?.error && { ...lockRead.error, file: lockRead.path },
        gate,
    };
    const coverage = claims
        ? reportCoverage(result.lookup, spansOf(claims, result.lookup), result.unsourced)
        : undefined;
    if (coverage) extras.coverage = coverage;
    return {
        result,
        exitCode,
        validCount: report.validCount,
        invalidCount: report.invalidCount,
        extras,
        lockCounts: comparison?.counts,
        coverage,
    };
}

/** Claim ranges noted per entry as it is made (streamed output keeps no entries): four numbers each. */
type ClaimPlaces = Map<string, number[]>;

/**
 * Entries passed on as they come, the claim of each valid one noted (start line, column, end line,
 * column: lines from 1, columns from 0), turned into offsets once its document is at hand (`spansOf`).
 * Every annotation's claim path is noted, so a document no valid claim covers is counted too.
 */
function claimEntries(claims: ClaimPlaces, next: ((entry: ReportEntry) => void) | undefined) {
    return (entry: ReportEntry): void => {
        const claim = entry.claim;
        if (claim.path !== undefined) {
            const list = claims.get(claim.path) ?? [];
            claims.set(claim.path, list);
            if (entry.valid && claim.valid) {
                const { start, end } = claim.range;
                list.push(start.line, start.column, end.line, end.column);
            }
        }
        next?.(entry);
    };
}

/** The noted claims as offsets into their documents. */
function spansOf(claims: ClaimPlaces, lookup: DocumentLookup): ClaimSpans {
    const spans: ClaimSpans = new Map();
    for (const [path, places] of claims) {
        const document = lookup.get(path);
        if (document === undefined || isDocumentFailure(document)) continue;
        const lines = document.lines;
        const list: Span[] = [];
        for (let i = 0; i < places.length; i += 4) {
            list.push({
                start: lines.offsetAt(places[i], places[i + 1]),
                end: lines.offsetAt(places[i + 2], places[i + 3]),
            });
        }
        spans.set(path, list);
    }
    return spans;
}

/** Entries passed on as they come, the ones whose verdict the gate lists noted on the way. */
function gatedEntries(gate: VerdictGate, next: ((entry: ReportEntry) => void) | undefined) {
    return (entry: ReportEntry): void => {
        if (gate.failOn.includes(entry.verdict))
            gate.failed.push({ annotation: entry.index + 1, verdict: entry.verdict });
        next?.(entry);
    };
}

function lockComparison(
    request: CheckRequest,
    read: CheckLockRead | undefined,
    sha256: (text: string) => string,
): LockComparison | UnchangedLock | undefined {
    if (read?.error) return undefined;
    if (read?.comparison) return read.comparison;
    if (!read?.lock && !request.locked) return undefined;
    return new LockComparison(read?.lock, sha256, {
        locked: request.locked === true,
        lockFileName: read?.lock && read.path !== undefined ? baseName(read.path) : undefined,
    });
}

/** A file with no annotations passes with a warning (docs/ci.md): the field appears only then. */
function noAnnotations(count: number, schemaErrors: readonly SchemaError[]) {
    return count === 0 && schemaErrors.length === 0
        ? [{ code: NO_ANNOTATIONS, message: NO_ANNOTATIONS_MESSAGE }]
        : undefined;
}

/**
 * The report of one file as `sourcecheck check FILE --json` prints it (and the MCP tool returns as its
 * structured content): the core's report with the file's exit status, and what the outcome adds.
 * Entries are those kept (`keep`); a streamed output writes them as they come instead.
 */
export function checkReport(outcome: CheckOutcome, file?: string): Record<string, unknown> {
    const report = { ...outcome.result.report, ok: outcome.exitCode === EXIT.clean, exitCode: outcome.exitCode };
    const object = reportObject(report, outcome.extras);
    if (outcome.extras.warnings) object.warnings = outcome.extras.warnings;
    return file === undefined ? object : { file, ...object };
}

function baseName(path: string): string {
    return path.slice(Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\")) + 1);
}
