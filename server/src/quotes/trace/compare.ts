/** Across traces: the local path a source's `file:` URI names (verify-files), and two runs compared (compare). */
import type { QuoteDiagnostic } from "../diagnostics";
import { analyzeTrace } from "./check";

export { fileUriPath } from "../../core/pageSources";

export interface SourceChange {
    kind: "added" | "removed" | "changed";
    uri: string;
}

export interface TraceComparison {
    old_run_id: string | null;
    new_run_id: string | null;
    old_valid: boolean;
    new_valid: boolean;
    unchanged_count: number;
    changes: SourceChange[];
    old_diagnostics: { line: number; code: string; message: string }[];
    new_diagnostics: { line: number; code: string; message: string }[];
}

/** Captured content compared by URI across two runs that each pass evidence mode. */
export function compareTraces(oldText: string, newText: string): TraceComparison {
    const before = analyzeTrace(oldText, { evidence: true });
    const after = analyzeTrace(newText, { evidence: true });
    const oldValid = before.diagnostics.length === 0;
    const newValid = after.diagnostics.length === 0;
    const changes: SourceChange[] = [];
    let unchanged = 0;
    if (oldValid && newValid) {
        const newByUri = new Map(after.sources.map((s) => [s.uri, s.content]));
        const oldUris = new Set(before.sources.map((s) => s.uri));
        for (const source of before.sources) {
            if (!newByUri.has(source.uri)) changes.push({ kind: "removed", uri: source.uri });
            else if (newByUri.get(source.uri) === source.content) unchanged++;
            else changes.push({ kind: "changed", uri: source.uri });
        }
        for (const source of after.sources) {
            if (!oldUris.has(source.uri)) changes.push({ kind: "added", uri: source.uri });
        }
    }
    const strip = (list: QuoteDiagnostic[]) => list.map(({ line, code, message }) => ({ line, code, message }));
    return {
        old_run_id: before.runId ?? null,
        new_run_id: after.runId ?? null,
        old_valid: oldValid,
        new_valid: newValid,
        unchanged_count: unchanged,
        changes,
        old_diagnostics: strip(before.diagnostics),
        new_diagnostics: strip(after.diagnostics),
    };
}
