import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import {
    annotationsUri,
    cleanSlate,
    codeOf,
    type JsonPath,
    lineOf,
    occurrences,
    openAnnotations,
    pointer,
    prepare,
    showRange,
    tokenRange,
    valueAt,
    waitForDiagnostics,
} from "./demo";
import { screenshot, wsUri } from "./harness";

// The demo's README documents what is broken on purpose in annotations 4-7; 0-3 are valid. Every
// offending boundary is reported, so a ref wrong at both ends has two diagnostics.
const EXPECTED: { path: JsonPath; code: string }[] = [
    { path: ["annotations", 4, "claim", "end", "str"], code: "boundary-ambiguous" },
    { path: ["annotations", 5, "sources", 0, "end", "str"], code: "boundary-not-found" },
    { path: ["annotations", 6, "sources", 0, "start", "str"], code: "boundary-not-found" },
    { path: ["annotations", 6, "sources", 0, "end", "str"], code: "boundary-not-found" },
    { path: ["annotations", 7, "sources", 0, "path"], code: "unreadable-document" },
    { path: ["annotations", 7, "sources", 1, "start", "line"], code: "line-out-of-range" },
    { path: ["annotations", 7, "sources", 1, "end", "line"], code: "line-out-of-range" },
];

describe("diagnostics", () => {
    before(prepare);
    after(cleanSlate);

    it("reports exactly the demo's broken refs, each on its offending JSON token", async () => {
        const doc = await openAnnotations();
        const expected = EXPECTED.map(
            (e) => `${e.code}@${showRange(tokenRange(doc, e.path))} (${pointer(e.path)})`,
        ).sort();
        const describe = (ds: vscode.Diagnostic[]) =>
            ds
                .map((d) => {
                    const hit = EXPECTED.find((e) => tokenRange(doc, e.path).isEqual(d.range));
                    return `${codeOf(d)}@${showRange(d.range)} (${hit ? pointer(hit.path) : "?"})`;
                })
                .sort();
        const diagnostics = await waitForDiagnostics(
            annotationsUri(),
            (ds) => ds.length >= EXPECTED.length,
            `${EXPECTED.length} sourcecheck diagnostics on ${annotationsUri().path}`,
        );
        assert.deepEqual(describe(diagnostics), expected);
        for (const d of diagnostics) {
            assert.equal(d.severity, vscode.DiagnosticSeverity.Error, `${codeOf(d)} is not an error`);
            assert.ok(d.message.length > 0);
        }
        // For the README: the same diagnostics in the Problems panel.
        await vscode.commands.executeCommand("workbench.actions.view.problems");
        await screenshot("problems-panel");
        await vscode.commands.executeCommand("workbench.action.closePanel");
    });

    it("lists every occurrence of an ambiguous boundary as related information in the cited document", async () => {
        const doc = await openAnnotations();
        const range = tokenRange(doc, ["annotations", 4, "claim", "end", "str"]);
        const [ambiguous] = await waitForDiagnostics(
            annotationsUri(),
            (ds) => ds.some((d) => d.range.isEqual(range)),
            "the boundary-ambiguous diagnostic of annotation 4",
        ).then((ds) => ds.filter((d) => d.range.isEqual(range)));
        assert.equal(codeOf(ambiguous), "boundary-ambiguous");
        const claim = valueAt<{ path: string; end: { line: number; str: string } }>(doc, ["annotations", 4, "claim"]);
        const columns = occurrences(await lineOf(claim.path, claim.end.line), claim.end.str);
        assert.ok(columns.length >= 2, "the demo's ambiguous boundary should occur at least twice");
        const related = (ambiguous.relatedInformation ?? []).map(
            (r) => `${r.location.uri.toString()}#${showRange(r.location.range)}`,
        );
        const want = columns.map(
            (c) =>
                `${wsUri(claim.path).toString()}#${showRange(new vscode.Range(claim.end.line - 1, c, claim.end.line - 1, c + claim.end.str.length))}`,
        );
        assert.deepEqual(related.sort(), want.sort());
    });
});
