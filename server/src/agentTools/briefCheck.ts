/**
 * The text a model reads of a `check` (docs/agents.md, "Brief check"): what an agent needs to know
 * about a whole answer, in a few hundred characters. A status line; the verdict counts; coverage (the
 * sentences of each claim document no claim covers, by line and by sentence on the line, and those
 * searched with no source found, as the check operation counted them); then every ref whose cited text changed
 * since it was locked, with the words that changed; then the failing refs, each with its place, its
 * errors and what to do, as many as fit about 1,500 characters. The structured content keeps the
 * whole report; `detail: "full"` puts it in the text too.
 */

import { EXIT, type ReportExitStatus } from "../../../shared/exitCodes";
import { annotationLabel, sourceLabel } from "../../../shared/numbering";
import { type CheckResult, MAX_LISTED_PROBLEMS, type Problem } from "../core/check";
import type { ReportCoverage } from "../core/coverage";
import { type LockCounts, wordDiffLine } from "../core/lock";
import { didYouMean } from "../core/nearestPaths";
import { type LineSentences, sentenceLinesText } from "../core/sentences";
import { namesNoFile } from "../core/session";
import { isSchemaErrorCode, type Ref } from "../core/types";
import { VERDICTS, verdictOf } from "../core/verdict";
import { visible } from "../core/visible";

/** Failing refs listed in the text at most (the structured report has them all). */
const MAX_LISTED = 20;
/** The text of a failing check stays about this long: failing refs beyond it are counted, not shown. */
export const FAILING_BUDGET = 1500;
/** A line of a message longer than this is cut (a boundary string may be long). */
const MAX_LINE = 300;
/** Uncovered sentences named by line, per claim document, at most; claim documents listed at most. */
const MAX_UNCOVERED_LINES = 12;
const MAX_COVERAGE_DOCUMENTS = 3;

const RECITE = "re-cite the exact words with cite (or write the annotation with annotate), or call repair on this file";

/** What to do about a broken ref of the `unsourced` list (repair does not follow those). */
const UNSOURCED_HINT = (n: number) =>
    `record the claim again with annotate { claim, unsourced: true }, then annotate { remove: ${n}, unsourced: true }`;

/** What to do about an error, by code. */
function hintFor(code: string): string {
    switch (code) {
        case "boundary-not-found":
        case "boundary-ambiguous":
        case "line-out-of-range":
        case "inverted-lines":
        case "inverted-boundaries":
            return RECITE;
        case "unknown-path":
        case "unreadable-document":
            return "fix the path (relative to the document root), or cite another document";
        case "path-outside-root":
            return "use a path relative to the document root, without .. climbing out";
        case "self-citation":
            return "cite a passage of a source document, not the claim itself";
        case "mid-word-boundary":
            return "cite whole words (the alternative ref is in the warning)";
        case "unlocked":
            return "call lock with write: true to lock it";
        default:
            return "fix the annotation JSON at the pointer";
    }
}

/**
 * What to do about drift, after the changed refs, worded for each polarity: a source cited as refuting
 * (often just re-cited so, after its text changed) is accepted by `lock`, not re-cited again.
 */
function driftHint(result: CheckResult, drift: Problem[]): string[] {
    const refuting = new Set<number>();
    const others = new Set<number>();
    for (const problem of drift) {
        if (problem.annotation === undefined) continue;
        const source =
            typeof problem.role === "number"
                ? result.annotations[problem.annotation]?.sources[problem.role]
                : undefined;
        const polarity = (source?.ref as { polarity?: unknown } | undefined)?.polarity;
        (polarity === "refutes" ? refuting : others).add(problem.annotation + 1);
    }
    for (const number of refuting) others.delete(number);
    const list = (numbers: Set<number>) => `[${[...numbers].join(", ")}]`;
    const lines: string[] = [];
    if (refuting.size > 0)
        lines.push(
            `to do: ${[...refuting].map((n) => `annotation ${n}`).join(", ")} ${refuting.size === 1 ? "cites" : "cite"} the changed text as refuting: if it refutes the claim, call lock with accept: ${list(refuting)} and write: true`,
        );
    if (others.size > 0)
        lines.push(
            `to do: if the new text still says what the claim says, call lock with accept: ${list(others)} and write: true; ` +
                "otherwise re-cite that source (annotate with replace; polarity refutes if it now contradicts the claim) or remove it",
        );
    return lines;
}

/** A finding's severity (warnings and notes on resolving refs); undefined for an error. */
function severityOf(problem: Problem): string | undefined {
    return (problem as { severity?: string }).severity;
}

/** The number (from 1) of the unsourced claim a problem is about, from its pointer `/unsourced/N/...`. */
function unsourcedNumber(problem: Pick<Problem, "annotation" | "pointer">): number | undefined {
    const match = problem.annotation === undefined ? /^\/unsourced\/(\d+)/.exec(problem.pointer) : null;
    return match ? Number(match[1]) + 1 : undefined;
}

function who(annotation: number | undefined, role: Problem["role"], pointer = ""): string {
    const unsourced = unsourcedNumber({ annotation, pointer });
    if (unsourced !== undefined) return `unsourced claim ${unsourced}`;
    if (annotation === undefined) return "file";
    const part = role === undefined ? "" : role === "claim" ? ", claim" : `, ${sourceLabel(role)}`;
    return `${annotationLabel(annotation)}${part}`;
}

function refOf(result: CheckResult, problem: Problem): Ref | undefined {
    const unsourced = unsourcedNumber(problem);
    if (unsourced !== undefined) return result.unsourced[unsourced - 1]?.ref;
    if (problem.annotation === undefined || problem.role === undefined) return undefined;
    const checked = result.annotations[problem.annotation];
    if (!checked) return undefined;
    if (problem.role === "claim") return checked.claim;
    const ref = checked.sources[problem.role]?.ref;
    if (!ref) return undefined;
    return { path: ref.path, start: ref.start, end: ref.end };
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** A ref as `sourcecheck repair` prints it: `sources/notes.md:16 "Orbit 2.4 ships" … 16 "planned for 2.6."`. */
function refText(ref: Ref): string {
    const q = (text: string) => visible(JSON.stringify(text));
    return `${visible(ref.path)}:${ref.start.line} ${q(ref.start.str)} … ${ref.end.line} ${q(ref.end.str)}`;
}

function cut(line: string): string {
    return line.length <= MAX_LINE ? line : `${line.slice(0, MAX_LINE - 1)}…`;
}

/** What the brief text is told besides the check's result. */
export interface BriefExtras {
    /** Existing paths near a path that names no file (the "did you mean" of a missing document). */
    nearest?: (path: string) => string[];
    /** The lock's counts, when the file has a lock. */
    lock?: LockCounts;
    /** The file's exit status when it is not the report's (an unusable lock: operations/check.ts). */
    exitCode?: ReportExitStatus;
    /** The check's coverage (operations/check.ts with `coverage`); without it the text has no coverage line. */
    coverage?: ReportCoverage;
}

/** The brief text; `result` must have been checked with `keepAnnotations` and `keepEntries` (refs are shown). */
export function briefCheckText(
    result: CheckResult,
    file?: string,
    { nearest = () => [], lock, exitCode, coverage }: BriefExtras = {},
): string {
    const { report } = result;
    const drift = result.problems.filter((p) => p.code === "text-changed");
    const others = result.problems.filter((p) => p.code !== "text-changed");
    const lines = [
        statusLine(result, file, drift.length, lock, exitCode ?? result.report.exitCode),
        verdictLine(report),
        ...coverageLines(coverage),
    ];
    lines.push(...driftLines(result, drift));
    // One block per failing ref (or file-level error), its errors in order; errors before notes.
    const errors = others.filter((p) => severityOf(p) === undefined);
    const notes = others.filter((p) => severityOf(p) !== undefined);
    const groups = new Map<string, Problem[]>();
    for (const problem of [...errors, ...notes]) {
        const key = problem.annotation === undefined ? `p:${problem.pointer}` : `${problem.annotation}:${problem.role}`;
        const group = groups.get(key);
        if (group) group.push(problem);
        else groups.set(key, [problem]);
    }
    let listed = 0;
    let length = lines.reduce((sum, line) => sum + line.length + 1, 0);
    const hintsShown = new Set<string>();
    for (const group of groups.values()) {
        if (listed === MAX_LISTED) break;
        const block = groupLines(result, group, nearest, hintsShown);
        const size = block.reduce((sum, line) => sum + line.length + 1, 0);
        // The first failing ref is always shown; the rest while the text stays within its budget.
        if (listed > 0 && length + size > FAILING_BUDGET - 100) break;
        for (const line of block) if (line.startsWith("  to do: ")) hintsShown.add(line);
        lines.push(...block);
        length += size;
        listed++;
    }
    if (groups.size > listed) {
        lines.push(`… and ${groups.size - listed} more (the structured report has them; detail: "full" prints it)`);
    }
    if (result.unlistedProblemCount > 0) {
        // Past the listing cap the check counted errors without building them (docs/security.md).
        lines.push(
            `${result.unlistedProblemCount.toLocaleString("en-US")} more schema errors are not listed anywhere (at most ${MAX_LISTED_PROBLEMS.toLocaleString("en-US")} per file): fix those listed and check again`,
        );
    }
    return lines.join("\n");
}

function statusLine(
    result: CheckResult,
    file: string | undefined,
    drifted: number,
    lock: LockCounts | undefined,
    exitCode: ReportExitStatus,
): string {
    const { report } = result;
    const total = report.validCount + report.invalidCount;
    const where = file ? `${file}: ` : "";
    const unlocked = lock && lock.unlocked > 0 ? `; ${plural(lock.unlocked, "ref")} not in the lock` : "";
    if (exitCode !== EXIT.clean) {
        return `${where}${plural(total, "annotation")}: ${report.validCount} valid, ${report.invalidCount} invalid${unlocked} (exit ${exitCode}).`;
    }
    const refs = result.annotations.reduce(
        (sum, a) => sum + (a.claim ? 1 : 0) + a.sources.filter((s) => s.ref).length,
        0,
    );
    const changed = drifted > 0 ? `, but ${plural(drifted, "cited text")} changed since locked` : "";
    return `${where}${plural(total, "annotation")}, ${plural(refs, "ref")}: all refs resolve${changed}${unlocked} (exit 0).`;
}

/** `verdicts: 20 supported, 3 refuted, 2 contested, 1 broken` (broken only when there is one). */
function verdictLine(report: CheckResult["report"]): string {
    const counts = new Map(VERDICTS.map((verdict) => [verdict, 0]));
    for (const entry of report.entries) counts.set(verdictOf(entry), (counts.get(verdictOf(entry)) ?? 0) + 1);
    // Annotations too malformed to have an entry are broken too.
    const broken = Math.max(counts.get("broken") ?? 0, report.invalidCount);
    const parts = (["supported", "refuted", "contested"] as const).map((v) => `${counts.get(v)} ${v}`);
    if (broken > 0) parts.push(`${broken} broken`);
    return `verdicts: ${parts.join(", ")}.`;
}

/**
 * Per claim document: how many of its sentences no claim of a valid annotation covers, by line and,
 * on a line of several sentences, by sentence (docs/view.md, "Show Coverage": the editor's rule);
 * then those the file records as searched with no source found (`unsourced`), apart. The check
 * operation counted them (core/coverage.ts): this only words them.
 */
function coverageLines(coverage: ReportCoverage | undefined): string[] {
    if (!coverage) return [];
    const lines: string[] = [];
    for (const document of coverage.documents.slice(0, MAX_COVERAGE_DOCUMENTS)) {
        const name = visible(JSON.stringify(document.path));
        if (document.skipped !== undefined || document.sentences === undefined) {
            lines.push(`coverage: ${name}: not counted (${document.skipped ?? "not read"}).`);
            continue;
        }
        const total = document.sentences;
        const uncovered = document.uncovered ?? 0;
        const searched = document.unsourced ?? 0;
        if (uncovered === 0 && searched === 0) {
            lines.push(`coverage: ${name}: all ${plural(total, "sentence")} covered by claims.`);
            continue;
        }
        const where = (list: LineSentences[] | undefined, unlisted: number | undefined) =>
            sentenceLinesText(list ?? [], MAX_UNCOVERED_LINES, unlisted ?? 0);
        const parts: string[] = [];
        if (uncovered > 0)
            parts.push(
                `${uncovered} of ${plural(total, "sentence")} no claim covers, ${where(document.uncoveredLines, document.uncoveredUnlisted)}`,
            );
        else parts.push(`every sentence of ${total} covered or searched`);
        if (searched > 0)
            parts.push(
                `${searched} searched with no source found, ${where(document.unsourcedLines, document.unsourcedUnlisted)}`,
            );
        lines.push(`coverage: ${name}: ${parts.join("; ")}.`);
    }
    if (coverage.documents.length > MAX_COVERAGE_DOCUMENTS) {
        lines.push(
            `coverage: … and ${plural(coverage.documents.length - MAX_COVERAGE_DOCUMENTS, "more claim document")}.`,
        );
    }
    return lines;
}

/**
 * Every ref whose cited text changed since it was locked, one line each with the words that changed
 * (never hidden behind "… and N more": drift is what an agent must look at first). Past the budget,
 * the rest are named without their words.
 */
function driftLines(result: CheckResult, drift: Problem[]): string[] {
    if (drift.length === 0) return [];
    const lines: string[] = [];
    const unnamed: string[] = [];
    let length = 0;
    for (const problem of drift) {
        const place = who(problem.annotation, problem.role);
        const warning = driftWarning(result, problem);
        const words = warning ? wordDiffLine(warning.lockedText, warning.text, 200) : undefined;
        const line = `${place} (text-changed): ${words ?? cut(problem.message)}`;
        if (length + line.length > FAILING_BUDGET / 2 && lines.length > 0) unnamed.push(place);
        else {
            lines.push(line);
            length += line.length + 1;
        }
    }
    if (unnamed.length > 0) lines.push(`also changed: ${unnamed.join("; ")}`);
    lines.push(...driftHint(result, drift));
    return lines;
}

/** The `text-changed` warning (locked text and text now) of a problem's ref, from the report. */
function driftWarning(result: CheckResult, problem: Problem): { lockedText: string; text: string } | undefined {
    if (problem.annotation === undefined || problem.role === undefined) return undefined;
    const entry = result.report.entries.find((e) => e.index === problem.annotation);
    const span = problem.role === "claim" ? entry?.claim : entry?.sources[problem.role];
    if (!span?.valid) return undefined;
    const found = span.warnings?.find((w) => w.code === "text-changed") as
        | { lockedText?: unknown; text?: unknown }
        | undefined;
    return typeof found?.lockedText === "string" && typeof found.text === "string"
        ? { lockedText: found.lockedText, text: found.text }
        : undefined;
}

/** The lines of one failing ref: its place and JSON, each error, what to do (once per text). */
function groupLines(
    result: CheckResult,
    group: Problem[],
    nearest: (path: string) => string[],
    hintsShown: ReadonlySet<string>,
): string[] {
    const first = group[0];
    const ref = refOf(result, first);
    const kind = group.every((p) => severityOf(p) !== undefined)
        ? severityOf(first) === "information"
            ? "note"
            : "warning"
        : "failing";
    const lines = [
        `${who(first.annotation, first.role, first.pointer)} (${kind}): ${ref ? refText(ref) : first.pointer}`,
    ];
    const hints = new Set<string>();
    for (const problem of group) {
        const edge = problem.boundary ? `${problem.boundary}: ` : "";
        let message = problem.message;
        if (ref && namesNoFile(problem)) message += didYouMean(nearest(ref.path));
        lines.push(cut(`  ${edge}${problem.code}: ${message}`));
        const unsourced = unsourcedNumber(problem);
        hints.add(
            `  to do: ${unsourced !== undefined && !isSchemaErrorCode(problem.code) ? UNSOURCED_HINT(unsourced) : hintFor(problem.code)}`,
        );
    }
    for (const hint of hints) if (!hintsShown.has(hint)) lines.push(hint);
    return lines;
}
