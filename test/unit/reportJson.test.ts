/**
 * One report serializer (server/src/core/reportJson.ts): every output of the check report is this
 * function's bytes, and each layout is the one that output always had. The paths compared: `check FILE
 * --json` (streamed), `check A B --json` (items of `files`), `validate SESSION ANNOTATIONS --json`,
 * and the `check` agent tool's `detail: "full"` text (MCP over the disk). The oracle for the `lines`
 * layout is independent: the report object indented by JSON.stringify, with each entry, each schema
 * error, the warnings, the lock, the lock error and the coverage put back on one line.
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import fc from "fast-check";
import { runTool } from "../../server/src/agentTools/tools";
import { DocumentCache } from "../../server/src/cli/checkFile";
import { checkInput, type Report } from "../../server/src/core/check";
import { parseJsonText } from "../../server/src/core/parse";
import { reportIndent, reportJson, reportObject } from "../../server/src/core/reportJson";
import { diskToolContext } from "../../server/src/mcp/diskContext";
import { checkOperation } from "../../server/src/operations/check";
import { runCli, runCliAsync } from "./cliRun";

const NOTES =
    "Orbit 2.4 ships today.\nIt starts in 40 ms, down from 90 ms.\nPlugins load lazily.\nSame line twice. Same line twice.\n";
const STRINGS = [
    "Orbit",
    "today.",
    "It starts",
    "90 ms.",
    "Plugins",
    "lazily.",
    "Same line",
    "twice.",
    "nowhere",
    "40",
];

/** An oracle of the `lines` layout: JSON.stringify's indentation, with these values written compactly. */
function linesOracle(object: Record<string, unknown>, depth = 0): string {
    const compact: string[] = [];
    const hold = (value: unknown) => `\u0000${compact.push(JSON.stringify(value)) - 1}\u0000`;
    const held: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(object)) {
        if (key === "entries" || key === "schemaErrors") held[key] = (value as unknown[]).map(hold);
        else if (key === "warnings" || key === "lock" || key === "lockError" || key === "coverage")
            held[key] = hold(value);
        else held[key] = value;
    }
    const pad = " ".repeat(depth);
    const text = JSON.stringify(held, null, 2).replace(/\n/g, `\n${pad}`);
    return pad + text.replace(/"\\u0000(\d+)\\u0000"/g, (_, i: string) => compact[Number(i)]);
}

/** The `lines` report's fields in the order the CLI writes them. */
function cliOrder(report: Report, extras: Record<string, unknown>): Record<string, unknown> {
    const { entries, ok, exitCode, validCount, invalidCount, schemaErrors } = report;
    const head = extras.file === undefined ? {} : { file: extras.file };
    const tail = Object.fromEntries(
        ["warnings", "lock", "lockError", "coverage"].filter((k) => extras[k] !== undefined).map((k) => [k, extras[k]]),
    );
    return { ...head, entries, ok, exitCode, validCount, invalidCount, schemaErrors, ...tail };
}

const boundaryArb = fc.record({ line: fc.integer({ min: 0, max: 6 }), str: fc.constantFrom(...STRINGS) });
const refFields = { path: fc.constantFrom("notes.md", "missing.md"), start: boundaryArb, end: boundaryArb };
const sourceArb = fc.record({
    ...refFields,
    polarity: fc.constantFrom("supports", "refutes"),
    confidence: fc.constantFrom(0.95, 0.7),
});
const annotationArb = fc.oneof(
    {
        weight: 8,
        arbitrary: fc.record({ claim: fc.record(refFields), sources: fc.array(sourceArb, { maxLength: 2 }) }),
    },
    { weight: 1, arbitrary: fc.constant({ claim: 3 }) },
);
const fileArb = fc
    .array(annotationArb, { maxLength: 4 })
    .map((annotations) => JSON.stringify({ annotations }, null, 1));

describe("one report serializer, every output", () => {
    let root: string;
    before(() => {
        root = fs.mkdtempSync(path.join(os.tmpdir(), "sc-report-"));
        fs.writeFileSync(path.join(root, "notes.md"), NOTES);
    });
    after(() => fs.rmSync(root, { recursive: true, force: true }));

    const checked = (text: string) => {
        const parsed = parseJsonText(text);
        // The documents as the CLI reads them (a missing one is its unreadable-document).
        return checkInput(parsed.value, new DocumentCache().lookup(root, undefined), parsed.syntaxErrors).report;
    };
    /** The claim documents' sentences, as the check operation counts them for `check --json` (core/coverage.ts). */
    const coverageOf = (text: string) =>
        checkOperation(
            { text, coverage: true },
            { documents: new DocumentCache().lookup(root, undefined), sha256: () => "" },
        ).coverage;
    const noAnnotations = (report: Report) =>
        report.validCount + report.invalidCount === 0 && report.schemaErrors.length === 0
            ? [{ code: "no-annotations", message: "the file holds no annotations: nothing was checked" }]
            : undefined;

    it("property: check FILE --json and check A B --json print reportJson's bytes, laid out as the oracle says", async () => {
        let cases = 0;
        let invalid = 0;
        await fc.assert(
            fc.asyncProperty(fileArb, fileArb, async (one, two) => {
                cases++;
                fs.writeFileSync(path.join(root, "a.sourcecheck.json"), one);
                fs.writeFileSync(path.join(root, "b.sourcecheck.json"), two);
                const report = checked(one);
                if (report.exitCode !== 0) invalid++;
                const extras = { warnings: noAnnotations(report), coverage: coverageOf(one) };
                const alone = runCli(["check", "a.sourcecheck.json", "--json"], { cwd: root });
                assert.equal(alone.stdout, `${reportJson(report, "lines", extras)}\n`);
                assert.equal(alone.stdout, `${linesOracle(cliOrder(report, extras))}\n`);

                const both = await runCliAsync(
                    ["check", "a.sourcecheck.json", "b.sourcecheck.json", "--json", "--jobs", "1"],
                    {
                        cwd: root,
                    },
                );
                const reports = [one, two].map(checked);
                const items = reports.map((r, i) => {
                    const named = {
                        file: `${"ab"[i]}.sourcecheck.json`,
                        warnings: noAnnotations(r),
                        coverage: coverageOf([one, two][i]),
                    };
                    const text = reportJson(r, "lines", named, reportIndent(true));
                    assert.equal(text, linesOracle(cliOrder(r, named), 4));
                    return text;
                });
                const exitCode = Math.max(...reports.map((r) => r.exitCode));
                const sum = (key: "validCount" | "invalidCount") => reports[0][key] + reports[1][key];
                assert.equal(
                    both.stdout,
                    `{\n  "files": [\n${items.join(",\n")}\n  ],\n  "validCount": ${sum("validCount")},\n  "invalidCount": ${sum("invalidCount")},\n  "ok": ${exitCode === 0},\n  "exitCode": ${exitCode}\n}\n`,
                );
            }),
            { numRuns: 60 },
        );
        assert.equal(cases, 60);
        assert.ok(invalid > 5 && invalid < 60, `${invalid} of 60 files had a failing ref or a schema error`);
    });

    it("validate SESSION ANNOTATIONS --json prints the report indented (its layout) from reportJson", () => {
        const session = { documents: [{ path: "notes.md", content: NOTES }] };
        const source = {
            path: "notes.md",
            start: { line: 1, str: "Orbit" },
            end: { line: 1, str: "today." },
            polarity: "supports",
            confidence: 0.95,
        };
        const claim = (line: number, start: string, end: string) => ({
            claim: { path: "notes.md", start: { line, str: start }, end: { line, str: end } },
            sources: [source],
        });
        const annotations = [claim(2, "It starts", "90 ms."), claim(4, "Same line", "twice.")];
        fs.writeFileSync(path.join(root, "s.json"), JSON.stringify(session));
        fs.writeFileSync(path.join(root, "a.json"), JSON.stringify(annotations));
        const run = runCli(["validate", "s.json", "a.json", "--json"], { cwd: root });
        const report = checkInput({ ...session, annotations }, undefined, [], { keepAnnotations: false }).report;
        assert.equal(run.stdout, `${reportJson(report, "indented")}\n`);
        assert.equal(run.stdout, `${JSON.stringify(report, null, 2)}\n`);
        assert.equal(report.invalidCount, 1, "one ref is ambiguous");
    });

    it("the check agent tool's full text (MCP over the disk) is reportJson's compact bytes of its structured report", async () => {
        const text = JSON.stringify({
            annotations: [
                {
                    claim: { path: "notes.md", start: { line: 1, str: "Orbit" }, end: { line: 1, str: "today." } },
                    sources: [],
                },
                {
                    claim: { path: "notes.md", start: { line: 9, str: "Orbit" }, end: { line: 9, str: "today." } },
                    sources: [],
                },
            ],
        });
        fs.writeFileSync(path.join(root, "m.sourcecheck.json"), text);
        const outcome = (await runTool(
            "check",
            { file: "m.sourcecheck.json", detail: "full" },
            diskToolContext(root),
        )) as {
            ok: true;
            structured: Record<string, unknown>;
            text: string;
        };
        assert.equal(outcome.ok, true);
        const report = checked(text);
        // A model reads entries by `annotation` from 1, never by check --json's 0-based `index` (docs/agents.md, "Numbers").
        const numbered = (object: Record<string, unknown>) => ({
            ...object,
            entries: (object.entries as { index: number }[]).map(({ index, ...entry }) => ({
                annotation: index + 1,
                ...entry,
            })),
        });
        const coverage = coverageOf(text);
        assert.deepEqual(outcome.structured, numbered(reportObject(report, { coverage })));
        assert.equal(outcome.text, JSON.stringify(numbered(JSON.parse(reportJson(report, "compact", { coverage })))));
        // Same content as the CLI's layout, in another order, numbered for a model.
        const cli = JSON.parse(runCli(["check", "m.sourcecheck.json", "--json"], { cwd: root }).stdout);
        assert.deepEqual(numbered(cli), JSON.parse(outcome.text));
    });
});
