/**
 * The text a model reads of a `check` (docs/agents.md, "Brief check"): one line when every ref
 * resolves; otherwise only what failed, each failing ref with its JSON, every error of it and what
 * to do. The structured content keeps the whole report; `detail: "full"` puts it in the text too.
 */

import { annotationLabel, sourceLabel } from "../../../shared/numbering";
import { type CheckResult, MAX_LISTED_PROBLEMS, type Problem } from "../core/check";
import type { Ref } from "../core/types";

/** Failing refs listed in the text at most (the structured report has them all). */
const MAX_LISTED = 20;

const RECITE = "re-cite the exact words with cite (or write the annotation with annotate), or call repair on this file";

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
        case "text-changed":
            return "check the new text still says what the annotation means; then lock it, or repair the ref";
        default:
            return "fix the annotation JSON at the pointer";
    }
}

/** A finding's severity (warnings and notes on resolving refs); undefined for an error. */
function severityOf(problem: Problem): string | undefined {
    return (problem as { severity?: string }).severity;
}

function who(annotation: number | undefined, role: Problem["role"]): string {
    if (annotation === undefined) return "file";
    const part = role === undefined ? "" : role === "claim" ? ", claim" : `, ${sourceLabel(role)}`;
    return `${annotationLabel(annotation)}${part}`;
}

function refOf(result: CheckResult, problem: Problem): Ref | undefined {
    if (problem.annotation === undefined || problem.role === undefined) return undefined;
    const checked = result.annotations[problem.annotation];
    if (!checked) return undefined;
    if (problem.role === "claim") return checked.claim;
    const ref = checked.sources[problem.role]?.ref;
    if (!ref) return undefined;
    return { path: ref.path, start: ref.start, end: ref.end };
}

/** The brief text; `result` must have been checked with `keepAnnotations: true` (refs are shown). */
export function briefCheckText(
    result: CheckResult,
    file?: string,
    /** Existing paths near a path that names no file (the "did you mean" of a missing document). */
    nearest: (path: string) => string[] = () => [],
): string {
    const { report } = result;
    const total = report.validCount + report.invalidCount;
    const refs = result.annotations.reduce(
        (sum, a) => sum + (a.claim ? 1 : 0) + a.sources.filter((s) => s.ref).length,
        0,
    );
    const where = file ? `${file}: ` : "";
    const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
    const errors = result.problems.filter((p) => severityOf(p) === undefined);
    const notes = result.problems.filter((p) => severityOf(p) !== undefined);
    const lines: string[] = [];
    if (report.exitCode === 0) {
        lines.push(`${where}${plural(total, "annotation")}, ${plural(refs, "ref")}: all refs resolve (exit 0).`);
    } else {
        lines.push(
            `${where}${plural(total, "annotation")}: ${report.validCount} valid, ${report.invalidCount} invalid (exit ${report.exitCode}).`,
        );
    }
    // One block per failing ref (or file-level error), its errors in order.
    const groups = new Map<string, Problem[]>();
    for (const problem of [...errors, ...notes]) {
        const key = problem.annotation === undefined ? `p:${problem.pointer}` : `${problem.annotation}:${problem.role}`;
        const group = groups.get(key);
        if (group) group.push(problem);
        else groups.set(key, [problem]);
    }
    let listed = 0;
    for (const group of groups.values()) {
        if (listed === MAX_LISTED) break;
        listed++;
        const first = group[0];
        const ref = refOf(result, first);
        const kind = group.every((p) => severityOf(p) !== undefined)
            ? severityOf(first) === "information"
                ? "note"
                : "warning"
            : "failing";
        lines.push(`${who(first.annotation, first.role)} (${kind}): ${ref ? JSON.stringify(ref) : first.pointer}`);
        const hints = new Set<string>();
        for (const problem of group) {
            const edge = problem.boundary ? `${problem.boundary}: ` : "";
            let message = problem.message;
            if (problem.code === "unreadable-document" && ref && /^no file /.test(message)) {
                const near = nearest(ref.path);
                if (near.length > 0) message += `; did you mean ${near.map((p) => JSON.stringify(p)).join(" or ")}?`;
            }
            lines.push(`  ${edge}${problem.code}: ${message}`);
            hints.add(hintFor(problem.code));
        }
        for (const hint of hints) lines.push(`  to do: ${hint}`);
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
