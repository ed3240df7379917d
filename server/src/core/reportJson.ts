/**
 * The check report as JSON text (docs/contract.md, "The report"): the one serializer, used by
 * `check --json` (streamed a piece at a time: `reportHead`, `reportEntry`, `reportClose`), by
 * `validate SESSION ANNOTATIONS --json` and by the `check` agent tool (MCP and the editor's
 * language model tools). Each output keeps the layout it has always had:
 *
 * - `lines`: `check FILE --json`; `file` (one of many), `entries` one per line, then `ok`,
 *   `exitCode`, `validCount`, `invalidCount`, `schemaErrors`, `warnings`, `lock`, `lockError`;
 * - `indented`: `validate SESSION ANNOTATIONS --json`, the report object indented by two spaces;
 * - `compact`: the agent tool's `detail: "full"` text, the report object on one line.
 *
 * Pure: no fs. `test/unit/reportJson.test.ts` holds every path to this function's bytes.
 */
import type { Report, ReportEntry, SpanEntry } from "./check";
import type { SchemaError } from "./types";

export type ReportLayout = "lines" | "indented" | "compact";

/** What an output adds to the report of `core/check.ts`. */
export interface ReportExtras {
    /** The file as given, in a report that is one of several (`lines` only). */
    file?: string;
    /** Warnings about the file as a whole (`lines` only: `no-annotations`). */
    warnings?: readonly { code: string; message: string }[];
    /** The lock's counts, when a lock was compared. */
    lock?: object;
    /** Why the lock beside the file cannot be used. */
    lockError?: object;
}

/** The fields after `entries`: the report's counts and verdict (`ok` is `exitCode === 0`). */
export type ReportSummary = Pick<Report, "exitCode" | "validCount" | "invalidCount" | "schemaErrors">;

/**
 * Indentation of a `lines` report: alone it is the whole output; one of many, an item of `files`.
 * Each entry is one line, so the output stays readable and greppable at any size.
 */
export interface ReportIndent {
    open: string;
    key: string;
    entry: string;
}

export function reportIndent(itemOfMany: boolean): ReportIndent {
    return itemOfMany ? { open: "    ", key: "      ", entry: "        " } : { open: "", key: "  ", entry: "    " };
}

/** The report with what the output adds, as the object the `indented` and `compact` layouts print. */
export function reportObject(report: Report, extras: ReportExtras = {}): Record<string, unknown> {
    const object: Record<string, unknown> = { ...report };
    if (extras.lock) object.lock = extras.lock;
    if (extras.lockError) object.lockError = extras.lockError;
    return object;
}

/** The whole report as JSON text in `layout`. */
export function reportJson(
    report: Report,
    layout: ReportLayout,
    extras: ReportExtras = {},
    indent: ReportIndent = reportIndent(false),
): string {
    if (layout === "compact") return JSON.stringify(reportObject(report, extras));
    if (layout === "indented") return JSON.stringify(reportObject(report, extras), null, 2);
    let out = reportHead(indent, extras.file);
    report.entries.forEach((entry, index) => {
        out += reportEntry(entry, index, indent);
    });
    return out + reportClose(report.entries.length > 0, report, extras, indent);
}

/** A `lines` report's opening, up to its `entries` list. */
export function reportHead(indent: ReportIndent, file?: string): string {
    const named = file === undefined ? "" : `\n${indent.key}"file": ${JSON.stringify(file)},`;
    return `${indent.open}{${named}\n${indent.key}"entries": [`;
}

/** Entry number `index` (0-based) of a `lines` report, on its own line. */
export function reportEntry(entry: ReportEntry, index: number, indent: ReportIndent): string {
    return `${index === 0 ? "\n" : ",\n"}${indent.entry}${entryJson(entry)}`;
}

/** A `lines` report's end: the `entries` list closed, then the fields after it, closing its object. */
export function reportClose(
    hadEntries: boolean,
    summary: ReportSummary,
    extras: ReportExtras,
    indent: ReportIndent,
): string {
    const { key, entry, open } = indent;
    const list = (items: readonly unknown[]) =>
        `[\n${items.map((e) => `${entry}${JSON.stringify(e)}`).join(",\n")}\n${key}]`;
    const errors: readonly SchemaError[] = summary.schemaErrors;
    const warnings = extras.warnings;
    return (
        `${hadEntries ? `\n${key}` : ""}]` +
        `,\n${key}"ok": ${summary.exitCode === 0},\n${key}"exitCode": ${summary.exitCode},` +
        `\n${key}"validCount": ${summary.validCount},\n${key}"invalidCount": ${summary.invalidCount},` +
        `\n${key}"schemaErrors": ${errors.length === 0 ? "[]" : list(errors)}` +
        (warnings && warnings.length > 0
            ? `,\n${key}"warnings": [${warnings.map((w) => JSON.stringify(w)).join(",")}]`
            : "") +
        (extras.lock ? `,\n${key}"lock": ${JSON.stringify(extras.lock)}` : "") +
        (extras.lockError ? `,\n${key}"lockError": ${JSON.stringify(extras.lockError)}` : "") +
        `\n${open}}`
    );
}

const quote = JSON.stringify;

/**
 * `JSON.stringify(entry)`, several times faster for the common shapes (a 100k-annotation report
 * spends most of its output time here): resolved spans are written field by field, anything else
 * falls back to JSON.stringify. Same text, byte for byte (a property test holds it to that).
 */
export function entryJson(entry: ReportEntry): string {
    let out = `{"index":${entry.index},"valid":${entry.valid},"claim":${spanJson(entry.claim)},"sources":[`;
    for (let i = 0; i < entry.sources.length; i++) {
        const source = entry.sources[i];
        if (i > 0) out += ",";
        if (!source.valid) {
            out += quote(source);
            continue;
        }
        out += spanJson(source).slice(0, -1);
        if (source.polarity !== undefined) out += `,"polarity":${quote(source.polarity)}`;
        if (source.confidence !== undefined) out += `,"confidence":${quote(source.confidence)}`;
        out += "}";
    }
    return `${out}]}`;
}

function spanJson(span: SpanEntry): string {
    if (!span.valid) return quote(span);
    const { start, end } = span.range;
    return (
        `{"valid":true,"path":${quote(span.path)},"text":${quote(span.text)},"range":{"start":{"line":${start.line},` +
        `"column":${start.column}},"end":{"line":${end.line},"column":${end.column}}}` +
        `${span.warnings ? `,"warnings":${quote(span.warnings)}` : ""}}`
    );
}
