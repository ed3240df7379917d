/**
 * The check report's serializer cannot drop a field (core/reportJson.ts): every entry type with
 * every optional field set, and every summary and extra field, comes out of each layout as
 * JSON.stringify writes it. A serializer that leaves one field out fails `droppedFields` (proved
 * below with a writer that forgets the warnings of a resolving ref).
 */
import * as assert from "node:assert/strict";
import type { Report, ReportEntry, SpanEntry } from "../../server/src/core/check";
import { entryJson, reportIndent, reportJson, reportObject } from "../../server/src/core/reportJson";

const range = { start: { line: 3, column: 4 }, end: { line: 5, column: 9 } };
const valid: SpanEntry = {
    valid: true,
    path: "docs/a.md",
    text: 'the cited "text"\nacross lines',
    range,
    warnings: [
        { code: "text-changed", message: "m", severity: "error", lockedText: "was", next: { action: "accept-text" } },
    ],
};
const invalid: SpanEntry = {
    valid: false,
    path: "docs/b.md",
    error: {
        code: "boundary-ambiguous",
        message: "m",
        boundary: "start",
        occurrences: [1, 7],
        occurrenceCount: 2,
        pointer: "/annotations/0/claim/start/str",
    },
};
/** Every entry type: each span kind as claim and as source, sources with polarity and confidence. */
const ENTRIES: ReportEntry[] = [
    {
        index: 0,
        valid: true,
        verdict: "supported",
        claim: valid,
        sources: [{ ...valid, polarity: "supports", confidence: 0.95 }],
    },
    {
        index: 1,
        valid: false,
        verdict: "broken",
        claim: invalid,
        sources: [
            { ...invalid, polarity: "refutes", confidence: 0 },
            { ...valid, polarity: "supports", confidence: 1 },
        ],
    },
];
const REPORT: Report = {
    ok: false,
    exitCode: 2,
    validCount: 1,
    invalidCount: 1,
    schemaErrors: [{ code: "schema", pointer: "/annotations/2", message: "m" }],
    entries: ENTRIES,
};
const EXTRAS = {
    file: "a.sourcecheck.json",
    warnings: [{ code: "no-annotations", message: "m" }],
    lock: { locked: 3, changed: 1 },
    lockError: { code: "lock-invalid", message: "m" },
};

/** The JSON Pointers of every value in `expected` that `actual` lacks or holds otherwise. */
function droppedFields(expected: unknown, actual: unknown, at = ""): string[] {
    if (typeof expected !== "object" || expected === null)
        return Object.is(expected, actual) ? [] : [at === "" ? "/" : at];
    if (typeof actual !== "object" || actual === null) return [at === "" ? "/" : at];
    return Object.entries(expected).flatMap(([key, value]) =>
        droppedFields(value, (actual as Record<string, unknown>)[key], `${at}/${key}`),
    );
}

describe("the report serializer cannot drop a field", () => {
    it("each entry, every optional field set, is JSON.stringify's text", () => {
        for (const entry of ENTRIES) {
            assert.equal(entryJson(entry), JSON.stringify(entry));
            assert.deepEqual(droppedFields(entry, JSON.parse(entryJson(entry))), []);
        }
    });

    it("every layout holds every field of the report and of what the output adds", () => {
        const whole = { file: EXTRAS.file, ...reportObject(REPORT, EXTRAS), warnings: EXTRAS.warnings };
        for (const itemOfMany of [false, true]) {
            const lines = JSON.parse(reportJson(REPORT, "lines", EXTRAS, reportIndent(itemOfMany)));
            assert.deepEqual(droppedFields(whole, lines), [], `lines, item of many: ${itemOfMany}`);
            assert.deepEqual(droppedFields(lines, whole), [], "and nothing more");
        }
        for (const layout of ["indented", "compact"] as const) {
            const object = reportObject(REPORT, EXTRAS);
            assert.equal(
                reportJson(REPORT, layout, EXTRAS),
                JSON.stringify(object, null, layout === "indented" ? 2 : 0),
            );
        }
    });

    it("a field the report gains later comes out of the lines layout too", () => {
        const grown = { ...REPORT, coverage: { uncovered: [4, 9] } } as Report;
        const lines = JSON.parse(
            reportJson(grown, "lines", { lockError: { code: "x", message: "m" }, later: 1 } as object),
        );
        assert.deepEqual(lines.coverage, { uncovered: [4, 9] });
        assert.equal(lines.later, 1);
    });

    it("droppedFields finds a field a hand-written serializer leaves out (the check above can fail)", () => {
        // A field-by-field writer that knows no `warnings` on a resolving ref, as such writers drift.
        const forgetful = (entry: ReportEntry) =>
            JSON.stringify({
                ...entry,
                claim: entry.claim.valid ? { ...entry.claim, warnings: undefined } : entry.claim,
            });
        assert.deepEqual(droppedFields(ENTRIES[0], JSON.parse(forgetful(ENTRIES[0]))), ["/claim/warnings"]);
    });
});
