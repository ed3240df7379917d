/**
 * TraceCite's Agent JSONL traces (docs/quotes.md, "Agent JSONL traces"): one event a line
 * (`tool_call`, `tool_result`, `answer`) of one run. Structure checks always; quotes are checked
 * as verbatim substrings of the captured `content` whenever both are present; evidence mode also
 * requires every source to carry content and every claim to cite a quote.
 */
import { findNodeAtLocation, type Node, parseTree } from "jsonc-parser";
import { count, diagnostic, type QuoteDiagnostic } from "./diagnostics";

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

interface CallEvent {
    kind: "tool_call";
    runId: string;
    callId: string;
    line: number;
}
interface ResultEvent {
    kind: "tool_result";
    runId: string;
    callId: string;
    ok: boolean;
    sources: TraceSource[];
    line: number;
}
interface AnswerEvent {
    kind: "answer";
    runId: string;
    claims: TraceClaim[];
    legacy: boolean;
    line: number;
}
type TraceEvent = CallEvent | ResultEvent | AnswerEvent;

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
                        const earlier = sourcesById.get(source.id);
                        if (earlier) {
                            diagnostics.push(
                                diagnostic(
                                    event.line,
                                    "DUPLICATE_SOURCE",
                                    `source id ${source.id} first appeared on line ${earlier.line}`,
                                ),
                            );
                        } else {
                            sourcesById.set(source.id, source);
                            sources.push(source);
                        }
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
        const earlier = byUri.get(source.uri);
        if (earlier) {
            diagnostics.push(
                diagnostic(
                    source.line,
                    "DUPLICATE_URI",
                    `source ${source.id} repeats the URI of source ${earlier.id} (line ${earlier.line})`,
                ),
            );
        } else byUri.set(source.uri, source);
    }
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

/** The JSON report of `trace --json`: TraceCite's field names, plus ok/exitCode; no content, no quotes. */
export function traceReportJson(analysis: TraceAnalysis, exitCode: number) {
    const citations = analysis.claims.flatMap((claim) => claim.citations);
    return {
        ok: exitCode === 0,
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

// ---- parsing ----

function parseEvents(text: string, diagnostics: QuoteDiagnostic[]): { events: TraceEvent[]; malformed: boolean } {
    const events: TraceEvent[] = [];
    let malformed = false;
    const lines = text.split("\n");
    for (let i = 0; i < lines.length; i++) {
        const raw = lines[i].endsWith("\r") ? lines[i].slice(0, -1) : lines[i];
        if (raw.trim() === "") continue;
        const line = i + 1;
        let value: unknown;
        try {
            value = JSON.parse(raw);
        } catch {
            diagnostics.push(diagnostic(line, "INVALID_JSON", "invalid JSON"));
            malformed = true;
            continue;
        }
        const event = parseEvent(value, raw, line, diagnostics);
        if (event) events.push(event);
    }
    return { events, malformed };
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
    return typeof value === "object" && value !== null && !Array.isArray(value);
}

class FieldReader {
    failed = false;
    constructor(
        private readonly line: number,
        private readonly diagnostics: QuoteDiagnostic[],
    ) {}

    fail(message: string): undefined {
        this.failed = true;
        this.diagnostics.push(diagnostic(this.line, "INVALID_FIELD", message));
        return undefined;
    }

    string(object: unknown, key: string, where = ""): string | undefined {
        const value = isObject(object) ? object[key] : undefined;
        if (typeof value === "string" && value !== "") return value;
        return this.fail(`expected nonempty string: ${where}${key}`);
    }

    optionalString(object: Json, key: string, where = ""): string | undefined {
        if (!(key in object)) return undefined;
        return this.string(object, key, where);
    }
}

function parseEvent(value: unknown, raw: string, line: number, diagnostics: QuoteDiagnostic[]): TraceEvent | undefined {
    if (!isObject(value)) {
        diagnostics.push(diagnostic(line, "INVALID_EVENT", "expected JSON object"));
        return undefined;
    }
    const read = new FieldReader(line, diagnostics);
    const type = read.string(value, "type");
    const runId = read.string(value, "run_id");
    if (type === undefined || runId === undefined) return undefined;
    if (type === "tool_call") {
        const callId = read.string(value, "call_id");
        read.string(value, "tool");
        return read.failed || callId === undefined ? undefined : { kind: "tool_call", runId, callId, line };
    }
    if (type === "tool_result") {
        const callId = read.string(value, "call_id");
        const ok = typeof value.ok === "boolean" ? value.ok : read.fail("expected boolean: ok");
        const sources = parseSources(value, callId ?? "", line, read);
        if (read.failed || callId === undefined || ok === undefined || sources === undefined) return undefined;
        return { kind: "tool_result", runId, callId, ok, sources, line };
    }
    if (type === "answer") {
        const parsed = parseClaims(value, raw, line, read);
        return parsed && !read.failed ? { kind: "answer", runId, line, ...parsed } : undefined;
    }
    diagnostics.push(diagnostic(line, "UNKNOWN_EVENT", `unknown event type: ${type}`));
    return undefined;
}

function parseSources(value: Json, callId: string, line: number, read: FieldReader): TraceSource[] | undefined {
    if (!("sources" in value)) return [];
    if (!Array.isArray(value.sources)) return read.fail("expected array: sources");
    const sources: TraceSource[] = [];
    value.sources.forEach((item, i) => {
        if (!isObject(item)) {
            read.fail(`expected object in sources (source ${i + 1})`);
            return;
        }
        const where = `sources[${i}].`;
        const id = read.string(item, "id", where);
        const uri = read.string(item, "uri", where);
        const title = read.optionalString(item, "title", where);
        const content = read.optionalString(item, "content", where);
        if (id !== undefined && uri !== undefined) {
            const source: TraceSource = { id, uri, callId, line };
            if (title !== undefined) source.title = title;
            if (content !== undefined) source.content = content;
            sources.push(source);
        }
    });
    return sources;
}

function parseClaims(
    value: Json,
    raw: string,
    line: number,
    read: FieldReader,
): { claims: TraceClaim[]; legacy: boolean } | undefined {
    if (!Array.isArray(value.claims)) return read.fail("expected array: claims");
    let tree: Node | undefined;
    const columnsOf = (path: (string | number)[]) => {
        tree ??= parseTree(raw);
        const node = tree ? findNodeAtLocation(tree, path) : undefined;
        return node ? { start: node.offset, end: node.offset + node.length } : undefined;
    };
    const claims: TraceClaim[] = [];
    let legacy = false;
    value.claims.forEach((item, c) => {
        if (!isObject(item)) {
            read.fail(`expected object in claims (claim ${c + 1})`);
            return;
        }
        const where = `claims[${c}].`;
        const text = read.string(item, "text", where) ?? "";
        const citations: TraceCitation[] = [];
        if (Array.isArray(item.citations)) {
            if ("source_ids" in item) {
                read.fail(`use citations or source_ids, not both (claim ${c + 1})`);
                return;
            }
            item.citations.forEach((entry, k) => {
                const at = `${where}citations[${k}].`;
                const sourceId = read.string(entry, "source_id", at);
                const quote = read.string(entry, "quote", at);
                if (sourceId === undefined || quote === undefined) return;
                citations.push({
                    claim: c + 1,
                    index: k + 1,
                    sourceId,
                    quote,
                    line,
                    columns: columnsOf(["claims", c, "citations", k, "quote"]),
                    sourceColumns: columnsOf(["claims", c, "citations", k, "source_id"]),
                    status: "unchecked",
                });
            });
        } else if (Array.isArray(item.source_ids)) {
            legacy = true;
            item.source_ids.forEach((id, k) => {
                if (typeof id !== "string" || id === "") {
                    read.fail(`expected nonempty string in ${where}source_ids`);
                    return;
                }
                citations.push({
                    claim: c + 1,
                    index: k + 1,
                    sourceId: id,
                    line,
                    columns: columnsOf(["claims", c, "source_ids", k]),
                    status: "no-quote",
                });
            });
        } else {
            read.fail(`expected array: ${where}citations or ${where}source_ids`);
            return;
        }
        claims.push({ text, line, citations });
    });
    return { claims, legacy };
}

// ---- verify-files and compare ----

/** The path a `file:` URI names (`file:rel/path`, `file:///abs/path`), not percent-decoded; else undefined. */
export function fileUriPath(uri: string): string | undefined {
    if (uri.startsWith("file://")) {
        const rest = uri.slice("file://".length);
        // file://host/path names another machine; only an empty host (file:///...) is local.
        return rest.startsWith("/") ? rest : undefined;
    }
    if (uri.startsWith("file:")) return uri.slice("file:".length) || undefined;
    return undefined;
}

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
