/** A trace's analysis for people (`traceSummary`) and for machines (`trace --json`). */

import { type ExitStatus, TRACECITE_EXIT } from "../../../../shared/exitCodes";
import { count } from "../diagnostics";
import type { TraceAnalysis } from "./types";

/** The JSON report of `trace --json`: TraceCite's field names, plus ok/exitCode; no content, no quotes. */
export function traceReportJson(analysis: TraceAnalysis, exitCode: ExitStatus) {
    const citations = analysis.claims.flatMap((claim) => claim.citations);
    return {
        ok: exitCode === TRACECITE_EXIT.pass,
        exitCode,
        mode: analysis.evidence ? "evidence" : "structure",
        run_id: analysis.runId ?? null,
        event_count: analysis.eventCount,
        call_count: analysis.callCount,
        source_count: analysis.sources.length,
        claim_count: analysis.claims.length,
        citation_count: citations.length,
        quoted_citation_count: citations.filter((c) => c.quote !== undefined).length,
        verified_citation_count: citations.filter((c) => c.status === "matched").length,
        sources: analysis.sources.map((s) => ({
            id: s.id,
            uri: s.uri,
            ...(s.title !== undefined ? { title: s.title } : {}),
            call_id: s.callId,
            line: s.line,
            has_content: s.content !== undefined,
        })),
        citations: citations.map((c) => ({
            claim: c.claim,
            index: c.index,
            source_id: c.sourceId,
            line: c.line,
            evidence_status: c.status,
        })),
        diagnostics: analysis.diagnostics.map(({ line, code, message }) => ({ line, code, message })),
    };
}

/** `PASS run: 3 events, 1 call, 1 source, 1 claim, 1 citation, 1/1 matched`. */
export function traceSummary(analysis: TraceAnalysis): string {
    const citations = analysis.claims.flatMap((claim) => claim.citations);
    const quoted = citations.filter((c) => c.quote !== undefined).length;
    const matched = citations.filter((c) => c.status === "matched").length;
    const verdict = analysis.diagnostics.length === 0 ? "PASS" : "FAIL";
    return (
        `${verdict} ${analysis.runId ?? "(unknown run)"}: ${count(analysis.eventCount, "event")}, ` +
        `${count(analysis.callCount, "call")}, ${count(analysis.sources.length, "source")}, ` +
        `${count(analysis.claims.length, "claim")}, ${count(citations.length, "citation")}, ${matched}/${quoted} matched`
    );
}
