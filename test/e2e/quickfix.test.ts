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
    prepare,
    type Ref,
    readableEndingAt,
    restoreText,
    tokenRange,
    valueAt,
    waitForDiagnostics,
} from "./demo";
import { waitFor } from "./harness";

const END_STR: JsonPath = ["annotations", 4, "claim", "end", "str"];

/** The value a code action writes into the token at `token`, or undefined if it does not edit it. */
function writtenValue(action: vscode.CodeAction, uri: vscode.Uri, token: vscode.Range): string | undefined {
    const edits = action.edit?.get(uri) ?? [];
    if (edits.length !== 1) return undefined;
    const [edit] = edits;
    assert.ok(token.contains(edit.range), `quick fix "${action.title}" edits outside the token it fixes`);
    if (!edit.range.isEqual(token)) return undefined;
    return JSON.parse(edit.newText) as string;
}

describe("quick fix for an ambiguous boundary", () => {
    before(prepare);
    after(cleanSlate);

    it("offers a readable unique end boundary per occurrence for annotation 4 (none preferred), and applying it clears the diagnostic", async () => {
        const doc = await openAnnotations();
        const original = doc.getText();
        try {
            const token = tokenRange(doc, END_STR);
            const diagnostics = await waitForDiagnostics(
                annotationsUri(),
                (ds) => ds.some((d) => d.range.isEqual(token)),
                "the boundary-ambiguous diagnostic of annotation 4",
            );
            const diagnostic = diagnostics.find((d) => d.range.isEqual(token))!;
            assert.equal(codeOf(diagnostic), "boundary-ambiguous");

            const claim = valueAt<Ref>(doc, ["annotations", 4, "claim"]);
            const line = await lineOf(claim.path, claim.end.line);
            const expected = occurrences(line, claim.end.str)
                .map((c) => readableEndingAt(line, c + claim.end.str.length))
                .filter((s): s is string => s !== undefined);
            assert.ok(expected.length > 0, "the demo line should allow a unique end boundary");

            const actions = await waitFor(
                "quick fixes on annotation 4's end boundary",
                async () =>
                    (
                        (await vscode.commands.executeCommand<(vscode.CodeAction | vscode.Command)[]>(
                            "vscode.executeCodeActionProvider",
                            doc.uri,
                            token,
                        )) ?? []
                    ).filter(
                        // Quick fixes only: the refactors on the same ref (remove the annotation, flip a
                        // source) edit more than one token by design.
                        (a): a is vscode.CodeAction =>
                            "edit" in a &&
                            a.edit !== undefined &&
                            (a.kind === undefined || vscode.CodeActionKind.QuickFix.contains(a.kind)),
                    ),
                (as) => as.some((a) => writtenValue(a, doc.uri, token) !== undefined),
            );
            const offered = actions
                .map((a) => ({ action: a, value: writtenValue(a, doc.uri, token) }))
                .filter((a) => a.value !== undefined);
            for (const { action, value } of offered) {
                assert.ok(
                    expected.includes(value!),
                    `quick fix "${action.title}" writes ${JSON.stringify(value)}, not a readable unique boundary (${JSON.stringify(expected)})`,
                );
                assert.ok(
                    action.kind?.contains(vscode.CodeActionKind.QuickFix),
                    `"${action.title}" is not a quick fix`,
                );
                // Nothing decides between the occurrences: no fix may be applied without asking.
                assert.ok(!action.isPreferred, `"${action.title}" is preferred on an undecidable ambiguity`);
            }

            // The sentence's own end is the last occurrence: take the fix for it when offered.
            const last = expected[expected.length - 1];
            const chosen = offered.find((o) => o.value === last) ?? offered[0];
            assert.ok(await vscode.workspace.applyEdit(chosen.action.edit!), "applying the quick fix failed");
            if (chosen.action.command) {
                await vscode.commands.executeCommand(
                    chosen.action.command.command,
                    ...(chosen.action.command.arguments ?? []),
                );
            }
            assert.equal(valueAt(doc, END_STR), chosen.value);
            const fixed = tokenRange(doc, END_STR);
            const after = await waitForDiagnostics(
                annotationsUri(),
                (ds) => ds.length > 0 && !ds.some((d) => d.range.intersection(fixed) !== undefined),
                "the diagnostic on annotation 4 to clear",
            );
            assert.ok(
                !after.some((d) => codeOf(d) === "boundary-ambiguous"),
                "a boundary-ambiguous diagnostic is left after the fix",
            );
        } finally {
            await restoreText(doc, original);
        }
    });
});
