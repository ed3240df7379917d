/**
 * TraceCite's Agent JSONL traces (docs/quotes.md, "Agent JSONL traces"): one event a line
 * (`tool_call`, `tool_result`, `answer`) of one run. Structure checks always; quotes are checked
 * as verbatim substrings of the captured `content` whenever both are present; evidence mode also
 * requires every source to carry content and every claim to cite a quote.
 */
import { diagnostic, type QuoteDiagnostic } from "../diagnostics";
import { parseEvents } from "./parse";
import type { AnswerEvent, TraceAnalysis, TraceClaim, TraceSource } from "./types";

export function analyzeTrace(text: string, options: { evidence?: boolean } = {}): TraceAnalysis {
    const evidence = options.evidence === true;
    const diagnostics: QuoteDiagnostic[] = [];
    const { events, malformed } = parseEvents(text, diagnostics);
    const calls = new Map<string, number>();
    const results = new Map<string, number>();
    const sourcesById = new Map<string, TraceSource>();
    const sources: TraceSource[] = [];
    const callIds: string[] = [];
    let runId: string | undefined;
    let answer: AnswerEvent | undefined;
    let lastLine = 1;
    if (events.length === 0) diagnostics.push(diagnostic(1, "EMPTY_TRACE", "no valid events"));

    for (const event of events) {
        lastLine = event.line;
        if (runId === undefined) runId = event.runId;
        else if (event.runId !== runId) {
            diagnostics.push(
                diagnostic(event.line, "RUN_MISMATCH", `event belongs to run ${event.runId}; expected ${runId}`),
            );
            continue;
        }
        if (event.kind !== "answer" && answer !== undefined) {
            const what = event.kind === "tool_call" ? "tool call" : "tool result";
            diagnostics.push(diagnostic(event.line, "EVENT_AFTER_ANSWER", `${what} after final answer`));
            continue;
        }
        if (event.kind === "tool_call") {
            const first = calls.get(event.callId);
            if (first !== undefined) {
                diagnostics.push(
                    diagnostic(event.line, "DUPLICATE_CALL", `call_id ${event.callId} first appeared on line ${first}`),
                );
            } else {
                calls.set(event.callId, event.line);
                callIds.push(event.callId);
            }
        } else if (event.kind === "tool_result") {
            const first = results.get(event.callId);
            if (!calls.has(event.callId)) {
                diagnostics.push(diagnostic(event.line, "ORPHAN_RESULT", `unknown call_id: ${event.callId}`));
            } else if (first !== undefined) {
                diagnostics.push(
                    diagnostic(
                        event.line,
                        "DUPLICATE_RESULT",
                        `call_id ${event.callId} already has a result on line ${first}`,
                    ),
                );
            } else {
                results.set(event.callId, event.line);
                if (!event.ok && event.sources.length > 0) {
                    diagnostics.push(
                        diagnostic(event.line, "SOURCE_ON_FAILED_RESULT", "failed tool result cannot provide sources"),
                    );
                } else {
                    for (const source of event.sources) {
                        const kept = keepFirst(sourcesById, source.id, source, diagnostics, (earlier) =>
                            diagnostic(
                                event.line,
                                "DUPLICATE_SOURCE",
                                `source id ${source.id} first appeared on line ${earlier.line}`,
                            ),
                        );
                        if (kept) sources.push(source);
                    }
                }
            }
        } else if (answer !== undefined) {
            diagnostics.push(diagnostic(event.line, "DUPLICATE_ANSWER", "run already has a final answer"));
        } else {
            answer = event;
        }
    }
    for (const callId of callIds) {
        if (!results.has(callId))
            diagnostics.push(diagnostic(calls.get(callId) ?? 1, "MISSING_RESULT", `no result for call_id: ${callId}`));
    }
    if (answer === undefined && events.length > 0)
        diagnostics.push(diagnostic(lastLine, "MISSING_ANSWER", "run has no final answer"));

    if (evidence) checkEvidenceSources(sources, diagnostics);
    const claims = answer?.claims ?? [];
    if (answer) checkCitations(answer, sourcesById, evidence, diagnostics);
    diagnostics.sort((a, b) => a.line - b.line);
    return {
        evidence,
        runId,
        eventCount: events.length,
        callCount: callIds.length,
        sources,
        claims,
        diagnostics,
        malformed,
    };
}

function checkEvidenceSources(sources: TraceSource[], diagnostics: QuoteDiagnostic[]): void {
    const byUri = new Map<string, TraceSource>();
    for (const source of sources) {
        if (source.content === undefined) {
            diagnostics.push(
                diagnostic(source.line, "MISSING_SOURCE_CONTENT", `source ${source.id} has no captured content`),
            );
        }
        keepFirst(byUri, source.uri, source, diagnostics, (earlier) =>
            diagnostic(
                source.line,
                "DUPLICATE_URI",
                `source ${source.id} repeats the URI of source ${earlier.id} (line ${earlier.line})`,
            ),
        );
    }
}

/** Keeps `item` under `key` and returns true; when an earlier one is kept there, says so instead. */
function keepFirst<K, V>(
    kept: Map<K, V>,
    key: K,
    item: V,
    diagnostics: QuoteDiagnostic[],
    repeated: (earlier: V) => QuoteDiagnostic,
): boolean {
    const earlier = kept.get(key);
    if (earlier !== undefined) {
        diagnostics.push(repeated(earlier));
        return false;
    }
    kept.set(key, item);
    return true;
}

function checkCitations(
    answer: AnswerEvent,
    sources: Map<string, TraceSource>,
    evidence: boolean,
    diagnostics: QuoteDiagnostic[],
): void {
    if (evidence && answer.claims.length === 0)
        diagnostics.push(diagnostic(answer.line, "MISSING_CLAIM", "evidence mode needs at least one claim"));
    for (const claim of answer.claims) {
        if (evidence && claim.citations.length === 0) {
            diagnostics.push(
                diagnostic(answer.line, "MISSING_CITATION", `claim ${claimNumber(answer, claim)} cites nothing`),
            );
        }
        for (const citation of claim.citations) {
            const where = `claim ${citation.claim} citation ${citation.index}`;
            const source = sources.get(citation.sourceId);
            if (!source) {
                citation.status = "unknown-source";
                diagnostics.push(
                    diagnostic(
                        citation.line,
                        "UNKNOWN_SOURCE",
                        `${where} cites unknown source: ${citation.sourceId}`,
                        citation.sourceColumns ?? citation.columns,
                    ),
                );
                continue;
            }
            if (citation.quote === undefined) {
                citation.status = "no-quote";
                if (evidence) {
                    diagnostics.push(
                        diagnostic(
                            citation.line,
                            "MISSING_QUOTE",
                            `${where} names source ${citation.sourceId} without a quote (legacy source_ids)`,
                            citation.columns,
                        ),
                    );
                }
                continue;
            }
            if (source.content === undefined) {
                citation.status = "unchecked";
                continue;
            }
            const at = source.content.indexOf(citation.quote);
            if (at === -1) {
                citation.status = "not-matched";
                diagnostics.push(
                    diagnostic(
                        citation.line,
                        "QUOTE_NOT_IN_SOURCE",
                        `${where}: the quote is not a verbatim substring of the captured content of source ${citation.sourceId}`,
                        citation.columns,
                    ),
                );
            } else {
                citation.status = "matched";
                citation.found = { start: at, end: at + citation.quote.length };
            }
        }
    }
}

function claimNumber(answer: AnswerEvent, claim: TraceClaim): number {
    return answer.claims.indexOf(claim) + 1;
}
