import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import { cleanSlate, hoverText, openAnnotations, prepare, sourcecheckDiagnostics, tokenRange } from "./demo";
import { waitFor, wsUri } from "./harness";

async function hoverAt(uri: vscode.Uri, position: vscode.Position, want: string): Promise<string> {
    return waitFor(
        `a hover containing ${JSON.stringify(want)}`,
        async () =>
            hoverText(
                (await vscode.commands.executeCommand<vscode.Hover[]>("vscode.executeHoverProvider", uri, position)) ??
                    [],
            ),
        (text) => text.includes(want),
    );
}

describe("one numbering for people", () => {
    before(prepare);
    after(cleanSlate);

    it("hovers count annotations and sources from 1, and give the claim's verdict", async () => {
        const doc = await openAnnotations();
        const first = tokenRange(doc, ["annotations", 0, "claim", "start", "str"]).start.translate(0, 1);
        const text = await hoverAt(doc.uri, first, "Annotation 1");
        assert.ok(text.includes("**Annotation 1** · supported"), text);
        assert.ok(text.includes("**Source 1** · supports"), text);
        assert.ok(!text.includes("Annotation 0") && !text.includes("Source 0"), text);
        // The fifth annotation (index 4) is "Annotation 5": its claim's end is ambiguous, so broken.
        const fifth = tokenRange(doc, ["annotations", 4, "claim", "start", "str"]).start.translate(0, 1);
        assert.ok((await hoverAt(doc.uri, fifth, "Annotation 5")).includes("**Annotation 5** · broken"));
    });

    it("an ambiguity's message and its related information give the same 1-based columns", async () => {
        const doc = await openAnnotations();
        const ambiguous = await waitFor(
            "the boundary-ambiguous diagnostic",
            () =>
                sourcecheckDiagnostics(doc.uri).find(
                    (d) => (typeof d.code === "object" ? d.code.value : d.code) === "boundary-ambiguous",
                ),
            (d) => d !== undefined,
        );
        assert.ok(ambiguous);
        const said = /\(columns ([\d, ]+)\)/.exec(ambiguous.message)?.[1]?.split(", ").map(Number);
        assert.ok(said, ambiguous.message);
        // VS Code shows a related location at character c as column c + 1, as its status bar does.
        const shown = (ambiguous.relatedInformation ?? []).map((r) => r.location.range.start.character + 1);
        assert.deepEqual(said, shown);
    });

    it("the hover of a cited span names its annotation counting from 1", async () => {
        const answer = await vscode.workspace.openTextDocument(wsUri("answer.md"));
        await vscode.window.showTextDocument(answer);
        // Line 3, "37%": the claim of the first annotation.
        const at = new vscode.Position(2, answer.lineAt(2).text.indexOf("37%") + 1);
        const text = await hoverAt(answer.uri, at, "annotation 1 in");
        assert.ok(!text.includes("annotation 0 in"), text);
        // The claim's hover lists its sources from 1, each with polarity, confidence and verdict.
        assert.match(text, /source 1: \*supports\*, confidence [0-9.]+ — \S+ supported/);
        assert.ok(!text.includes("source 0:"), text);
    });
});
