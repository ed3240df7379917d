/**
 * Reading a trace: one JSON event a line, each field checked (INVALID_JSON, INVALID_EVENT,
 * INVALID_FIELD, UNKNOWN_EVENT); the claims' quotes located by column on the answer line.
 */
import { findNodeAtLocation, type Node, parseTree } from "jsonc-parser";
import { diagnostic, type QuoteDiagnostic } from "../diagnostics";
import type { TraceCitation, TraceClaim, TraceEvent, TraceSource } from "./types";

export function parseEvents(
    text: string,
    diagnostics: QuoteDiagnostic[],
): { events: TraceEvent[]; malformed: boolean } {
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
