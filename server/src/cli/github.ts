/**
 * `--format github`: one GitHub Actions workflow command per problem (docs/ci.md), which the runner
 * turns into an annotation on the file, line and column (1-based) of the offending token.
 */

import { visible } from "../core/visible";
import type { LocatedProblem } from "./text";

/**
 * Escaping of a command's message, as the Actions toolkit does: `%`, CR and LF; every other control
 * or bidi character is first written visibly (core/visible.ts), so no field can end the command or
 * start another one, nor recolour the log.
 */
export function escapeData(text: string): string {
    return visible(text.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A"));
}

/** Escaping of a property value: also `:` and `,`, which separate properties. */
export function escapeProperty(text: string): string {
    return escapeData(text).replace(/:/g, "%3A").replace(/,/g, "%2C");
}

export function githubCommand(problem: LocatedProblem): string {
    const properties = [
        `file=${escapeProperty(problem.file.replace(/\\/g, "/"))}`,
        `line=${problem.start.line}`,
        `col=${problem.start.column}`,
        `endLine=${problem.end.line}`,
        `endColumn=${problem.end.column}`,
        `title=${escapeProperty(`sourcecheck ${problem.code}`)}`,
    ];
    const command =
        problem.severity === "warning" ? "warning" : problem.severity === "information" ? "notice" : "error";
    return `::${command} ${properties.join(",")}::${escapeData(problem.message)}`;
}
