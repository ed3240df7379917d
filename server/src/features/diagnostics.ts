/**
 * Diagnostics: every problem of docs/contract.md section 3 on its exact JSON token, code = the error code,
 * source "sourcecheck", severity Error (except a claim still waiting for its sources, and as the file's
 * severity policy says: docs/codes.md); ambiguity lists every occurrence as relatedInformation.
 * Served by pull (textDocument/diagnostic) when the client supports it, else pushed. Messages are the
 * core's English; `diagnosticsOf` and `pullReport` say them in the editor's language (messages.ts).
 */
import {
    type Diagnostic,
    type DiagnosticRelatedInformation,
    DiagnosticSeverity,
    type DocumentDiagnosticReport,
    DocumentDiagnosticReportKind,
} from "vscode-languageserver-protocol";
import { ordinal } from "../../../shared/numbering";
import { listedProblems, MORE_PROBLEMS, moreProblemsNote, type Problem } from "../core/check";
import { applySeverity } from "../core/severity";
import type { AnnotationFile } from "../workspace/annotationFile";
import type { FeatureWorkspace } from "./featureWorkspace";
import { EDITOR_TEXTS, ENGLISH, problemMessage, retellAs, type Translate } from "./messages";
import { locateSpan, rangeOfPointer, rangeOfSpan } from "./positions";

/**
 * What a diagnostic carries for code actions, numbered as every output is (docs/contract.md, Numbers):
 * `annotation` and `source` from 1, `role` a word; the 0-based places are in `pointer` alone.
 */
export interface DiagnosticData {
    pointer: string;
    annotation?: number;
    role?: "claim" | "source";
    source?: number;
    boundary?: "start" | "end";
}

export interface ProblemDiagnostic {
    problem: Problem;
    /** In English, as the core words its problems. */
    diagnostic: Diagnostic;
    /** A claim waiting for its sources (its message carries a hint). */
    awaiting: boolean;
}

const cache = new WeakMap<AnnotationFile, { stamp: number; levels: string; entries: ProblemDiagnostic[] }>();

/**
 * Each problem of the file with its diagnostic, at the level the file's severity policy gives its code
 * (core/severity.ts, as the CLI's outputs), cached per stamp and policy (code actions need both).
 */
export function problemDiagnostics(workspace: FeatureWorkspace, file: AnnotationFile): ProblemDiagnostic[] {
    const policy = workspace.severityOf?.(file);
    const levels = policy ? JSON.stringify(policy) : "";
    const cached = cache.get(file);
    if (cached && cached.stamp === file.stamp && cached.levels === levels) return cached.entries;
    const syntaxAt = new Set<number>();
    let kept: Problem[] = [];
    for (const problem of policy ? applySeverity(file.problems, policy) : file.problems) {
        // The parser may report one bad token twice ("property name expected", "value expected"): keep the first.
        const offset = (problem as { offset?: number }).offset;
        if (problem.code === "invalid-json" && offset !== undefined) {
            if (syntaxAt.has(offset)) continue;
            syntaxAt.add(offset);
        }
        kept.push(problem);
    }
    // At most MAX_LISTED_PROBLEMS are published, then a note of how many more (docs/security.md).
    const { listed, more } = listedProblems(kept, file.unlistedProblemCount);
    if (more > 0) listed.push(moreProblemsNote(more));
    kept = listed;
    // One pass over the text locates every token, rather than a lookup per problem.
    file.spansOf(kept.map((p) => p.pointer));
    const entries = kept.map((problem) => {
        const awaiting = awaitingSources(file, problem);
        return { problem, diagnostic: toDiagnostic(workspace, file, problem, awaiting), awaiting };
    });
    cache.set(file, { stamp: file.stamp, levels, entries });
    return entries;
}

/** Translated diagnostics, per list of entries (one per file stamp and policy) and language. */
const translations = new WeakMap<ProblemDiagnostic[], { t: Translate; diagnostics: Diagnostic[] }>();

/** The file's diagnostics, their messages in the editor's language (`t`; English by default). */
export function diagnosticsOf(workspace: FeatureWorkspace, file: AnnotationFile, t: Translate = ENGLISH): Diagnostic[] {
    const entries = problemDiagnostics(workspace, file);
    if (t === ENGLISH) return entries.map((e) => e.diagnostic);
    const known = translations.get(entries);
    if (known?.t === t) return known.diagnostics.slice();
    const diagnostics = entries.map((e) => translated(e, t));
    translations.set(entries, { t, diagnostics });
    return diagnostics;
}

/** A diagnostic said in another language: its message by its code's templates, its related places, its hint. */
function translated({ problem, diagnostic, awaiting }: ProblemDiagnostic, t: Translate): Diagnostic {
    const message = problemMessage(t, problem.code, problem.message);
    const related = diagnostic.relatedInformation?.map((r) => ({
        ...r,
        message: retellAs(t, [EDITOR_TEXTS.occurrence], r.message),
    }));
    return {
        ...diagnostic,
        message: awaiting ? t(EDITOR_TEXTS.awaitingSources, { message }) : message,
        ...(related ? { relatedInformation: related } : {}),
    };
}

function toDiagnostic(
    workspace: FeatureWorkspace,
    file: AnnotationFile,
    problem: Problem,
    awaiting: boolean,
): Diagnostic {
    const syntax = problem as Problem & { offset?: number; length?: number };
    const range =
        problem.code === "invalid-json" && syntax.offset !== undefined
            ? rangeOfSpan(file, { offset: syntax.offset, length: syntax.length ?? 0 })
            : problem.code === MORE_PROBLEMS
              ? rangeOfSpan(file, { offset: 0, length: 0 })
              : rangeOfPointer(file, problem.pointer);
    const data: DiagnosticData = {
        pointer: problem.pointer,
        annotation: problem.annotation === undefined ? undefined : problem.annotation + 1,
        role: problem.role === undefined ? undefined : problem.role === "claim" ? "claim" : "source",
        source: typeof problem.role === "number" ? problem.role + 1 : undefined,
        boundary: problem.boundary,
    };
    const diagnostic: Diagnostic = {
        range,
        severity: awaiting
            ? DiagnosticSeverity.Information
            : problem.severity === "warning"
              ? DiagnosticSeverity.Warning
              : problem.severity === "information"
                ? DiagnosticSeverity.Information
                : DiagnosticSeverity.Error,
        code: problem.code,
        source: "sourcecheck",
        message: awaiting ? ENGLISH(EDITOR_TEXTS.awaitingSources, { message: problem.message }) : problem.message,
        data,
    };
    const occurrences = problem.occurrences;
    if (occurrences) {
        const related: DiagnosticRelatedInformation[] = [];
        occurrences.columns.forEach((column, index) => {
            const location = locateSpan(workspace, file, occurrences.path, {
                start: { line: occurrences.line, column },
                end: { line: occurrences.line, column: column + occurrences.length },
            });
            if (location) {
                related.push({
                    location,
                    message: ENGLISH(EDITOR_TEXTS.occurrence, {
                        number: ordinal(index),
                        count: occurrences.columns.length,
                        line: occurrences.line,
                        column: column + 1,
                    }),
                });
            }
        });
        diagnostic.relatedInformation = related;
    }
    return diagnostic;
}

/**
 * `"sources": []` is what *Cite Selection as Claim* writes on purpose: a claim waiting for its
 * evidence. Still a schema error (the CLI fails on it), but in the editor an authoring state shown
 * as information, not an error (docs/editor-features.md, "Every problem once").
 */
function awaitingSources(file: AnnotationFile, problem: Problem): boolean {
    if (problem.code !== "schema" || !problem.pointer.endsWith("/sources")) return false;
    const token = file.spanOf(problem.pointer);
    return token !== undefined && /^\[\s*\]$/.test(file.text.slice(token.offset, token.offset + token.length));
}

/** A full pull report; `unchanged` when the client already has this stamp. */
export function pullReport(
    workspace: FeatureWorkspace,
    file: AnnotationFile | undefined,
    previousResultId: string | undefined,
    t: Translate = ENGLISH,
): DocumentDiagnosticReport {
    if (!file) return { kind: DocumentDiagnosticReportKind.Full, items: [] };
    const resultId = String(file.stamp);
    if (previousResultId === resultId) return { kind: DocumentDiagnosticReportKind.Unchanged, resultId };
    return { kind: DocumentDiagnosticReportKind.Full, resultId, items: diagnosticsOf(workspace, file, t) };
}
