/**
 * `sourcecheck review`'s findings (docs/review.md): the affected annotation files checked as `check`
 * checks them (the lock beside each included), and each broken ref's certain repair (the repair
 * operation) as the whole lines that fix it. Everything is relative to the repository root.
 */
import * as nodePath from "node:path";
import { EXIT, type ReportExitStatus } from "../../../shared/exitCodes";
import { parseJsonText } from "../core/parse";
import type { RepairDocuments } from "../core/repair";
import { checkOperation } from "../operations/check";
import { wordNext } from "../operations/nextWords";
import { type RefPlace, refPlace } from "../operations/numbers";
import { type RepairItem, repairSteps, runSteps } from "../operations/repair";
import { type AffectedFile, citedRefPaths, type LineSuggestion, lineSuggestion } from "../operations/review";
import { lastCommitDocuments, revisionDocuments } from "../workspace/agentRevision";
import { DiskDocuments } from "../workspace/diskDocuments";
import { diskDocumentMoves } from "../workspace/documentMoves";
import { readLockBeside, sha256 } from "../workspace/lockFiles";
import { listCandidateDocuments } from "../workspace/nodeDiscovery";
import { formatConfigProblem, type ProjectConfigs, resolveDocumentRoot } from "../workspace/projectConfig";
import { type DocumentCache, type FileJob, lockOf, readAnnotationInput } from "./checkFile";
import { isCliError, readTextInput } from "./files";
import { type LocatedProblem, locateProblems, singleSource } from "./text";

/** One problem of an affected file, as every output format and the poster read it. */
export interface ReviewFinding {
    /** The annotation file, relative to the repository root, `/`-separated. */
    file: string;
    code: string;
    severity: "error" | "warning" | "info";
    message: string;
    pointer: string;
    /** The ref it is about (annotation and source from 1), when it is about one. */
    place?: RefPlace;
    /** The token to mark: lines and columns from 1, columns in UTF-16 code units, end exclusive. */
    range: { start: { line: number; column: number }; end: { line: number; column: number } };
    /** What to do next, in the CLI's words. */
    next?: string;
    /** The certain repair of its ref: these lines, replaced, make the ref resolve. */
    suggestion?: LineSuggestion & { evidence: string };
}

export interface ReviewedFile extends AffectedFile {
    /** Its exit status as `check` gives it: 0, 1 (a ref fails) or 2 (bad input). */
    exitCode: ReportExitStatus;
}

export interface ReviewContext {
    /** The repository root (absolute). */
    repository: string;
    cwd: string;
    /** `--root`, absolute, when given. */
    explicitRoot?: string;
    configs: ProjectConfigs;
    /** The base commit: the documents the refs of an unchanged file were written against. */
    base: string;
    documents: DocumentCache;
}

/** The findings of one affected file, with its text (for byte columns) and its exit status. */
export function reviewFile(
    affected: AffectedFile,
    context: ReviewContext,
): { findings: ReviewFinding[]; text: string; reviewed: ReviewedFile } {
    const absolute = nodePath.join(context.repository, affected.file);
    const resolution = resolveDocumentRoot(absolute, {
        explicitRoot: context.explicitRoot,
        fallback: context.cwd,
        configs: context.configs,
    });
    const fail = (message: string) => ({
        findings: [fileFinding(affected.file, "invalid-json", message)],
        text: "",
        reviewed: { ...affected, exitCode: EXIT.usage },
    });
    if (resolution.problem) return fail(formatConfigProblem(resolution.problem));
    let input: { text: string; sha256?: string };
    try {
        input = readAnnotationInput(absolute, affected.file);
    } catch (error) {
        if (isCliError(error)) return fail(error.message);
        throw error;
    }
    const job: FileJob = {
        path: absolute,
        shown: affected.file,
        root: resolution.root,
        maxBytes: resolution.config?.maxDocumentSize,
        named: true,
        sourceRoot: context.repository,
    };
    // The one check (operations/check.ts), as `check` runs it: the lock beside the file included.
    const outcome = checkOperation(
        { text: input.text },
        {
            documents: context.documents.lookup(job.root, job.maxBytes),
            lock: lockOf(job, input.text, input.sha256, context.documents),
            sha256,
        },
    );
    const located = locateProblems(outcome.result, [singleSource(affected.file, input.text)]);
    const findings = located.map((problem) => findingOf(problem));
    const lockError = outcome.extras.lockError as { code: string; message: string; file?: string } | undefined;
    if (lockError) findings.unshift(fileFinding(lockError.file ?? affected.file, lockError.code, lockError.message));
    const exitCode = outcome.exitCode;
    if (exitCode !== EXIT.clean || located.length > 0) attachSuggestions(findings, input.text, job, affected, context);
    return { findings, text: input.text, reviewed: { ...affected, exitCode } };
}

function findingOf(problem: LocatedProblem): ReviewFinding {
    const place = problem.annotation !== undefined ? refPlace(problem.annotation, problem.role ?? "claim") : undefined;
    const finding: ReviewFinding = {
        file: problem.file,
        code: problem.code,
        severity: problem.severity === "warning" ? "warning" : problem.severity === "information" ? "info" : "error",
        message: problem.message,
        pointer: problem.pointer,
        range: { start: problem.start, end: problem.end },
    };
    if (place) finding.place = place;
    if (problem.next && place) finding.next = wordNext(problem.next, "cli", { file: problem.file, place });
    return finding;
}

function fileFinding(file: string, code: string, message: string): ReviewFinding {
    const at = { line: 1, column: 1 };
    return { file, code, severity: "error", message, pointer: "", range: { start: at, end: at } };
}

/**
 * Each certain repair goes on the first finding of its ref. History: the base's documents for a file
 * the change did not touch (its refs were written against them), else the file's last commit.
 */
function attachSuggestions(
    findings: ReviewFinding[],
    text: string,
    job: FileJob,
    affected: AffectedFile,
    context: ReviewContext,
): void {
    const repairs = certainRepairs(text, job, affected.changed ? undefined : context.base);
    for (const repair of repairs) {
        const finding = findings.find(
            (f) => !f.suggestion && (f.pointer === repair.pointer || f.pointer.startsWith(`${repair.pointer}/`)),
        );
        const lines = finding && lineSuggestion(text, repair.pointer, repair.before, repair.after);
        if (finding && lines) finding.suggestion = { ...lines, evidence: repair.evidence };
    }
}

function certainRepairs(text: string, job: FileJob, since: string | undefined): RepairItem[] {
    const root = job.root;
    const disk = new DiskDocuments(root, { maxBytes: job.maxBytes });
    const documents: RepairDocuments = {
        get: (path) => disk.get(path),
        candidatePaths: () => listCandidateDocuments(root),
        moves: diskDocumentMoves(root, disk, sha256, () => since),
    };
    try {
        const plan = runSteps(
            repairSteps(
                { text, since, detail: "brief" },
                {
                    documents,
                    lock: () => readLockBeside(job.path),
                    history: {
                        at: (rev) => revisionDocuments(root, rev),
                        lastCommit: () => lastCommitDocuments(root, job.path),
                    },
                    sha256,
                },
            ),
        );
        return plan.result.repairs.filter((r) => r.certain);
    } catch {
        return []; // an unusable lock is already a finding; no suggestion then
    }
}

/** The document paths (relative to the repository root) an annotation file cites; none when unreadable. */
export function citedDocuments(absolute: string, context: Omit<ReviewContext, "base" | "documents">): string[] {
    const resolution = resolveDocumentRoot(absolute, {
        explicitRoot: context.explicitRoot,
        fallback: context.cwd,
        configs: context.configs,
    });
    let text: string;
    try {
        text = readTextInput(absolute, () => Buffer.alloc(0), absolute);
    } catch {
        return [];
    }
    return citedRefPaths(parseJsonText(text).value).map((path) =>
        nodePath.relative(context.repository, nodePath.resolve(resolution.root, path)).split(nodePath.sep).join("/"),
    );
}
