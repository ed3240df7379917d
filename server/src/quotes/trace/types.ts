/** The shapes of a TraceCite Agent JSONL trace (docs/quotes.md, "Agent JSONL traces") and of its analysis. */
import type { QuoteDiagnostic } from "../diagnostics";

export interface TraceSource {
    id: string;
    uri: string;
    title?: string;
    content?: string;
    callId: string;
    /** 1-based line of the tool_result that captured it. */
    line: number;
}

export type EvidenceStatus = "matched" | "not-matched" | "unchecked" | "unknown-source" | "no-quote";

export interface TraceCitation {
    /** 1-based claim number and citation number within the claim. */
    claim: number;
    index: number;
    sourceId: string;
    /** Absent for the legacy `source_ids` form. */
    quote?: string;
    line: number;
    /** Columns of the quote string (or of the legacy source id) on the answer line. */
    columns?: { start: number; end: number };
    /** Columns of the source id string on the answer line. */
    sourceColumns?: { start: number; end: number };
    status: EvidenceStatus;
    /** Where the quote was found in its source's captured content (offsets). */
    found?: { start: number; end: number };
}

export interface TraceClaim {
    text: string;
    line: number;
    citations: TraceCitation[];
}

export interface TraceAnalysis {
    evidence: boolean;
    runId?: string;
    eventCount: number;
    callCount: number;
    sources: TraceSource[];
    claims: TraceClaim[];
    diagnostics: QuoteDiagnostic[];
    /** True when a line is not JSON at all: the input is malformed, not merely wrong. */
    malformed: boolean;
}

/** The events of one run, as parse.ts reads them (one per line). */
export interface CallEvent {
    kind: "tool_call";
    runId: string;
    callId: string;
    line: number;
}
export interface ResultEvent {
    kind: "tool_result";
    runId: string;
    callId: string;
    ok: boolean;
    sources: TraceSource[];
    line: number;
}
export interface AnswerEvent {
    kind: "answer";
    runId: string;
    claims: TraceClaim[];
    legacy: boolean;
    line: number;
}
export type TraceEvent = CallEvent | ResultEvent | AnswerEvent;
