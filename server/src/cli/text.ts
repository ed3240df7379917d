/** Human-readable output of `check`: one line per problem at `file:line:col` of its token, then a summary. */
import { ordinal } from "../../../shared/numbering";
import { type CheckResult, listedProblems, moreProblemsNote, type Problem } from "../core/check";
import { LineIndex } from "../core/lines";
import { locatePointers, type Span } from "../core/locate";
import { visible } from "../core/visible";
import { wordNext } from "../operations/nextWords";
import { refPlace } from "../operations/numbers";

export interface LocatedProblem extends Problem {
    file: string;
    start: { line: number; column: number };
    end: { line: number; column: number };
}

/**
 * Where in its file each problem's token is (1-based line and column). Pointers are located in one
 * pass per file (no parse tree) and offsets turned into lines through a line index, so a file with
 * many problems costs one scan, not one per problem. At most MAX_LISTED_PROBLEMS are located; the
 * rest are counted in a `more-problems` note on the first source (docs/security.md, "Resource bounds").
 */
export function locateProblems(result: CheckResult, sources: ProblemSource[]): LocatedProblem[] {
    const { listed, more } = listedProblems(result.problems, result.unlistedProblemCount);
    // The note is about the whole file: placed at its start, not over the whole text.
    if (more > 0) listed.push({ ...moreProblemsNote(more), offset: 0, length: 0 } as Problem);
    const owners = listed.map((problem) => sources.find((s) => s.owns(problem.pointer)) ?? sources[0]);
    const spans = new Map<ProblemSource, Map<string, Span>>();
    const lines = new Map<ProblemSource, LineIndex>();
    for (const source of new Set(owners)) {
        const wanted = listed
            .filter((problem, i) => owners[i] === source && !hasOffset(problem))
            .map((problem) => source.localPointer(problem.pointer));
        spans.set(source, locatePointers(source.text, wanted));
        lines.set(source, new LineIndex(source.text));
    }
    return listed.map((problem, i) => {
        const source = owners[i];
        const { offset, length } = hasOffset(problem)
            ? problem
            : (spans.get(source)?.get(source.localPointer(problem.pointer)) ?? { offset: 0, length: 0 });
        const index = lines.get(source)!;
        const start = index.positionAt(offset);
        const end = index.positionAt(offset + length);
        return {
            ...problem,
            file: source.file,
            start: { line: start.line, column: ordinal(start.column) },
            end: { line: end.line, column: ordinal(end.column) },
        };
    });
}

/** Syntax problems come from the parser with their offsets already. */
function hasOffset(problem: Problem): problem is Problem & Span {
    return (problem as Partial<Span>).offset !== undefined;
}

/** One input file a problem's pointer may belong to, and how to translate the pointer into it. */
export interface ProblemSource {
    file: string;
    text: string;
    owns(pointer: string): boolean;
    localPointer(pointer: string): string;
}

export function singleSource(file: string, text: string): ProblemSource {
    return { file, text, owns: () => true, localPointer: (pointer) => pointer };
}

import type { ReportExitStatus } from "../../../shared/exitCodes";
/** The warning code of a file that holds no annotations: it checks nothing, which is not a pass. */
import { NO_ANNOTATIONS, NO_ANNOTATIONS_MESSAGE } from "../operations/check";

export { NO_ANNOTATIONS, NO_ANNOTATIONS_MESSAGE };

/** A readable file with zero annotations and no schema error (exit 0, but nothing was checked). */
export function isEmptyReport(report: CheckResult["report"]): boolean {
    return report.validCount + report.invalidCount === 0 && report.schemaErrors.length === 0;
}

/**
 * One problem as a line, `file:line:col: code: message`, with its next step in the CLI's words
 * (operations/nextWords.ts) when it has one. Names and messages are shown, never acted on
 * (docs/security.md, "Outputs").
 */
export function problemLine(p: LocatedProblem): string {
    const line = `${visible(p.file)}:${p.start.line}:${p.start.column}: ${p.code}: ${visible(p.message)}`;
    if (!p.next) return line;
    // A next step comes with a finding on a ref, which always names its annotation.
    const place = refPlace(p.annotation ?? 0, p.role ?? "claim");
    return `${line}; next: ${wordNext(p.next, "cli", { file: visible(p.file), place })}`;
}

/** The text report; `exitCode` is the file's (operations/check.ts: 2 with an unusable lock), else the report's. */
export function formatText(
    result: CheckResult,
    problems: LocatedProblem[],
    exitCode: ReportExitStatus = result.report.exitCode,
): string {
    // Names and messages are shown, never acted on (docs/security.md, "Outputs").
    const lines = problems.map(problemLine);
    const { report } = result;
    const total = report.validCount + report.invalidCount;
    const schema = report.schemaErrorCount ?? report.schemaErrors.length;
    if (isEmptyReport(report)) lines.push(`warning: ${NO_ANNOTATIONS}: ${NO_ANNOTATIONS_MESSAGE}`);
    lines.push(
        `${total} annotation${total === 1 ? "" : "s"}: ${report.validCount} valid, ${report.invalidCount} invalid` +
            (schema > 0 ? `, ${schema} schema error${schema === 1 ? "" : "s"}` : "") +
            warningCount(problems) +
            ` (exit ${exitCode})`,
    );
    return `${lines.join("\n")}\n`;
}

/** ", 2 warnings" when findings on resolving refs were reported (docs/contract.md, "Warnings"); else "". */
export function warningCount(problems: readonly { severity?: string }[]): string {
    const count = problems.filter((p) => p.severity === "warning").length;
    return count > 0 ? `, ${count} warning${count === 1 ? "" : "s"}` : "";
}
