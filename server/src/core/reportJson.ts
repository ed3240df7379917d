/**
 * The check report as JSON text (docs/contract.md, "The report"): the one serializer, used by
 * `check --json` (streamed a piece at a time: `reportHead`, `reportEntry`, `reportClose`), by
 * `validate SESSION ANNOTATIONS --json` and by the `check` agent tool (MCP and the editor's
 * language model tools). Each output keeps the layout it has always had:
 *
 * - `lines`: `check FILE --json`; `file` (one of many), `entries` one per line, then `ok`,
 *   `exitCode`, `validCount`, `invalidCount`, `schemaErrors`, `warnings`, `lock`, `lockError`, `gate`,
 *   `coverage`;
 * - `indented`: `validate SESSION ANNOTATIONS --json`, the report object indented by two spaces;
 * - `compact`: the agent tool's `detail: "full"` text, the report object on one line.
 *
 * Pure: no fs. `test/unit/reportJson.test.ts` holds every path to this function's bytes.
 */

import { EXIT } from "../../../shared/exitCodes";
import type { Report, ReportEntry } from "./check";
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
    /** `--fail-on`: the verdicts listed and the annotations (from 1) that have one (docs/verdicts.md). */
    gate?: object;
    /** The claim documents' sentences and the unsourced list (core/coverage.ts), when counted. */
    coverage?: object;
}

/** The fields after `entries`: the report's counts and verdict (`ok` is `exitCode === 0`). */
export type ReportSummary = Pick<
    Report,
    "exitCode" | "validCount" | "invalidCount" | "schemaErrors" | "schemaErrorCount" | "omittedEntryCount"
>;

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
    if (extras.gate) object.gate = extras.gate;
    if (extras.coverage) object.coverage = extras.coverage;
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

/** The fields after `entries`, in the order `check --json` has always written them; any other field follows. */
const SUMMARY_ORDER = [
    "exitCode",
    "validCount",
    "invalidCount",
    "schemaErrors",
    "schemaErrorCount",
    "omittedEntryCount",
] as const;
/** What the output adds, in order, after the summary. */
const EXTRAS_ORDER = ["warnings", "lock", "lockError", "gate", "coverage"] as const;

/**
 * A `lines` report's end: the `entries` list closed, then the fields after it, closing its object.
 * Every field of `summary` and `extras` is written (none can be dropped: a field added to the
 * report comes out here too); an empty `warnings` is left out, as `file` (written by reportHead).
 */
export function reportClose(
    hadEntries: boolean,
    summary: ReportSummary,
    extras: ReportExtras,
    indent: ReportIndent,
): string {
    const { key, entry, open } = indent;
    const list = (items: readonly unknown[]) =>
        items.length === 0 ? "[]" : `[\n${items.map((e) => `${entry}${JSON.stringify(e)}`).join(",\n")}\n${key}]`;
    const fields: [string, string][] = [["ok", String(summary.exitCode === EXIT.clean)]];
    const rest = summary as unknown as Record<string, unknown>;
    const summaryKeys = [...SUMMARY_ORDER, ...Object.keys(rest).filter((k) => !isOrdered(k, SUMMARY_ORDER))];
    for (const name of summaryKeys) {
        if (name === "ok" || name === "entries" || rest[name] === undefined) continue;
        fields.push([name, name === "schemaErrors" ? list(rest[name] as readonly SchemaError[]) : quote(rest[name])]);
    }
    const more = extras as Record<string, unknown>;
    const extraKeys = [...EXTRAS_ORDER, ...Object.keys(more).filter((k) => !isOrdered(k, EXTRAS_ORDER))];
    for (const name of extraKeys) {
        const value = more[name];
        if (name === "file" || value === undefined || (name === "warnings" && (value as unknown[]).length === 0))
            continue;
        if (name === "lock" || name === "lockError") {
            if (value) fields.push([name, quote(value)]);
        } else if (name === "warnings") {
            fields.push([name, `[${(value as unknown[]).map((w) => quote(w)).join(",")}]`]);
        } else fields.push([name, quote(value)]);
    }
    return `${hadEntries ? `\n${key}` : ""}]${fields.map(([name, value]) => `,\n${key}${quote(name)}: ${value}`).join("")}\n${open}}`;
}

function isOrdered(name: string, order: readonly string[]): boolean {
    return order.includes(name);
}

const quote = JSON.stringify;

/**
 * One entry of a `lines` report: `JSON.stringify(entry)`, so every field of every entry type is
 * written (a hand-written serializer silently dropped fields added later). V8's JSON.stringify is
 * as fast as the field-by-field writer it replaced on these shapes (docs/benchmarks.md, the
 * `check --json` row).
 */
export function entryJson(entry: ReportEntry): string {
    return JSON.stringify(entry);
}
