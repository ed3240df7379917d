/** Human-readable output of `check`: one line per problem at `file:line:col` of its token, then a summary. */
import type { CheckResult, Problem } from "../core/check";
import { LocatedText, lineColumnOf } from "../core/parse";

export interface LocatedProblem extends Problem {
    file: string;
    start: { line: number; column: number };
    end: { line: number; column: number };
}

/** Where in its file each problem's token is (1-based line and column). */
export function locateProblems(result: CheckResult, sources: ProblemSource[]): LocatedProblem[] {
    const located: LocatedProblem[] = [];
    const trees = new Map<ProblemSource, LocatedText>();
    for (const problem of result.problems) {
        const source = sources.find((s) => s.owns(problem.pointer)) ?? sources[0];
        const raw = problem as Problem & { offset?: number; length?: number };
        let offset: number;
        let length: number;
        if (raw.offset !== undefined) {
            offset = raw.offset;
            length = raw.length ?? 0;
        } else {
            let tree = trees.get(source);
            if (!tree) {
                tree = new LocatedText(source.text);
                trees.set(source, tree);
            }
            ({ offset, length } = tree.spanOf(source.localPointer(problem.pointer)));
        }
        located.push({
            ...problem,
            file: source.file,
            start: lineColumnOf(source.text, offset),
            end: lineColumnOf(source.text, offset + length),
        });
    }
    return located;
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

export function formatText(result: CheckResult, problems: LocatedProblem[]): string {
    const lines = problems.map((p) => `${p.file}:${p.start.line}:${p.start.column}: ${p.code}: ${p.message}`);
    const { report } = result;
    const total = report.validCount + report.invalidCount;
    const schema = report.schemaErrors.length;
    lines.push(
        `${total} annotation${total === 1 ? "" : "s"}: ${report.validCount} valid, ${report.invalidCount} invalid` +
            (schema > 0 ? `, ${schema} schema error${schema === 1 ? "" : "s"}` : "") +
            ` (exit ${report.exitCode})`,
    );
    return `${lines.join("\n")}\n`;
}
