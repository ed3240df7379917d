/**
 * `sourcecheck review`'s outputs (docs/review.md, "Formats"): text for people, the review as JSON
 * (also what `review --post --from-file` posts, docs/ci.md "Pull requests from forks"), rdjsonl (the
 * Reviewdog Diagnostic Format, one Diagnostic a line) and SARIF (cli/sarif.ts).
 */
import * as nodePath from "node:path";
import type { ReportExitStatus } from "../../../shared/exitCodes";
import { visible } from "../core/visible";
import { jsonEnvelope } from "./jsonEnvelope";
import type { ReviewedFile, ReviewFinding } from "./reviewFindings";
import { sarifLog, sarifResult } from "./sarif";
import type { LocatedProblem } from "./text";

/** Everything one review found: what `--format json` prints and `--post --from-file` reads. */
export interface ReviewReport {
    /** The shape's version: a poster refuses another. */
    sourcecheckReview: 1;
    /** The base commit and the head commit (null: the work tree, not a commit). */
    base: string;
    head: string | null;
    files: ReviewedFile[];
    findings: ReviewFinding[];
    exitCode: ReportExitStatus;
}

export type ReviewFormat = "text" | "json" | "rdjsonl" | "sarif";

const SOURCE = { name: "sourcecheck", url: "https://github.com/sourcecheck/sourcecheck-vscode" };
const CODES_DOC = `${SOURCE.url}/blob/main/docs/codes.md`;

/** Texts of the annotation files (for UTF-8 columns), by path relative to the repository root. */
export type FileTexts = ReadonlyMap<string, string>;

export function formatReview(
    report: ReviewReport,
    format: ReviewFormat,
    texts: FileTexts,
    context: { version: string; repository: string },
): string {
    switch (format) {
        case "json":
            return jsonEnvelope(report, report.exitCode);
        case "rdjsonl":
            return rdjsonLines(report.findings, texts);
        case "sarif":
            return reviewSarif(report, context);
        default:
            return reviewText(report);
    }
}

/** One Diagnostic a line; each file's text split into lines once. */
function rdjsonLines(findings: readonly ReviewFinding[], texts: FileTexts): string {
    const split = new Map<string, string[]>();
    const linesOf = (file: string) => {
        const known = split.get(file);
        if (known) return known;
        const lines = (texts.get(file) ?? "").split("\n");
        split.set(file, lines);
        return lines;
    };
    return findings.map((f) => `${JSON.stringify(rdjsonDiagnostic(f, linesOf(f.file)))}\n`).join("");
}

function reviewText(report: ReviewReport): string {
    const lines: string[] = [];
    for (const f of report.findings) {
        let line = `${visible(f.file)}:${f.range.start.line}:${f.range.start.column}: ${f.code}: ${visible(f.message)}`;
        if (f.next) line += `; next: ${visible(f.next)}`;
        lines.push(line);
        if (f.suggestion) {
            const { startLine, endLine } = f.suggestion;
            const where = startLine === endLine ? `line ${startLine} becomes` : `lines ${startLine}-${endLine} become`;
            lines.push(`  certain repair (${visible(f.suggestion.evidence)}): ${where}`);
            for (const text of f.suggestion.lines) lines.push(`    ${visible(text)}`);
        }
    }
    for (const file of report.files) {
        const why = [
            ...(file.changed ? [`${file.changed.status} in this change`] : []),
            ...file.documents.map((d) => `cites ${visible(d.previousPath ?? d.path)} (${describeChange(d)})`),
        ];
        lines.push(`${visible(file.file)}: affected: ${why.join("; ")} (exit ${file.exitCode})`);
    }
    const repairs = report.findings.filter((f) => f.suggestion).length;
    const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
    lines.push(
        `${plural(report.files.length, "affected annotation file")}, ${plural(report.findings.length, "finding")}, ` +
            `${repairs} with a certain repair (exit ${report.exitCode})`,
    );
    return `${lines.join("\n")}\n`;
}

function describeChange(change: { status: string; path: string; previousPath?: string }): string {
    return change.previousPath && change.status === "renamed" ? `renamed to ${visible(change.path)}` : change.status;
}

/** A column from 1 in UTF-16 code units on a line, as a column from 1 in UTF-8 bytes. */
export function utf8Column(lineText: string, column: number): number {
    return Buffer.byteLength(lineText.slice(0, column - 1), "utf8") + 1;
}

const SEVERITY = { error: "ERROR", warning: "WARNING", info: "INFO" } as const;

/**
 * One finding as a Reviewdog Diagnostic: lines and columns from 1, columns in UTF-8 bytes, the end
 * exclusive. A certain repair is a suggestion over whole lines (from the first column of its first
 * line to the end of its last, the line end kept), so reviewdog's `github-pr-review` reporter can make
 * it a ```suggestion block.
 */
export function rdjsonDiagnostic(f: ReviewFinding, lines: readonly string[]) {
    const lineText = (line: number) => (lines[line - 1] ?? "").replace(/\r$/, "");
    const position = (p: { line: number; column: number }) => ({
        line: p.line,
        column: utf8Column(lineText(p.line), p.column),
    });
    const diagnostic: Record<string, unknown> = {
        message: f.message,
        location: { path: f.file, range: { start: position(f.range.start), end: position(f.range.end) } },
        severity: SEVERITY[f.severity],
        source: SOURCE,
        code: { value: f.code, url: `${CODES_DOC}#${f.code}` },
    };
    if (f.suggestion) {
        const { startLine, endLine } = f.suggestion;
        diagnostic.suggestions = [
            {
                range: {
                    start: { line: startLine, column: 1 },
                    end: { line: endLine, column: Buffer.byteLength(lineText(endLine), "utf8") + 1 },
                },
                text: f.suggestion.lines.join("\n"),
            },
        ];
    }
    return diagnostic;
}

function reviewSarif(report: ReviewReport, context: { version: string; repository: string }): string {
    const log = sarifLog(context.version, context.repository);
    log.runs[0].results = report.findings.map((f) => {
        const problem = {
            file: f.file,
            code: f.code,
            message: f.message,
            pointer: f.pointer,
            severity: f.severity === "info" ? "information" : f.severity === "warning" ? "warning" : undefined,
            start: f.range.start,
            end: f.range.end,
        } as LocatedProblem;
        return sarifResult(problem, nodePath.join(context.repository, f.file), context.repository);
    });
    return `${JSON.stringify(log, null, 2)}\n`;
}
