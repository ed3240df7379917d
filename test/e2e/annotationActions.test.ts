/**
 * Code actions that edit an annotation, in a real VS Code (issue 45; docs/editor-features.md,
 * "Editing annotations"): the refactor menu on a source offers to flip its polarity, and applying it
 * turns the cited span into a refuting one in the source document; one undo brings everything back.
 */
import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import { cleanSlate, openAnnotations, prepare, restoreText, tokenRange, valueAt } from "./demo";
import { waitFor, wsUri } from "./harness";

interface Applied {
    supports: { startLine: number }[];
    refutes: { startLine: number }[];
}

describe("code actions that edit an annotation", () => {
    before(prepare);
    after(cleanSlate);

    it("flips a source's polarity from the refactor menu, and the source's span turns refuting; undo restores", async () => {
        const doc = await openAnnotations();
        const original = doc.getText();
        try {
            const source = valueAt<{ path: string; start: { line: number }; polarity: string }>(doc, [
                "annotations",
                0,
                "sources",
                0,
            ]);
            assert.equal(source.polarity, "supports");
            const caret = tokenRange(doc, ["annotations", 0, "sources", 0, "start", "str"]);
            const actions = await waitFor(
                "the annotation actions on annotation 1's source",
                async () =>
                    (await vscode.commands.executeCommand<vscode.CodeAction[]>(
                        "vscode.executeCodeActionProvider",
                        doc.uri,
                        caret,
                        vscode.CodeActionKind.Refactor.value,
                    )) ?? [],
                (list) => list.some((a) => a.title.startsWith("Make source 1 of annotation 1")),
            );
            const titles = actions.map((a) => a.title);
            for (const title of [
                "Remove annotation 1",
                "Remove source 1 of annotation 1",
                "Make source 1 of annotation 1 refutes the claim",
                "Set the confidence of source 1 of annotation 1 to 0.7",
            ])
                assert.ok(titles.includes(title), `${title} in ${JSON.stringify(titles)}`);
            const flip = actions.find((a) => a.title === "Make source 1 of annotation 1 refutes the claim")!;
            assert.ok(flip.edit && (await vscode.workspace.applyEdit(flip.edit)));
            assert.equal(valueAt<string>(doc, ["annotations", 0, "sources", 0, "polarity"]), "refutes");

            // The cited document shows the span as refuting now (the server's cited spans, drawn).
            const cited = await vscode.workspace.openTextDocument(wsUri(source.path));
            await vscode.window.showTextDocument(cited, { preview: false });
            const line = source.start.line - 1;
            await waitFor(
                "the flipped source drawn as refuting",
                () =>
                    vscode.commands.executeCommand<Applied>("sourcecheck._decorationsForEditor", cited.uri.toString()),
                (a) => a?.refutes.some((r) => r.startLine === line) === true,
            );
            await vscode.window.showTextDocument(doc, { preview: false });
            await vscode.commands.executeCommand("undo");
            assert.equal(doc.getText(), original, "one undo restores the file");
        } finally {
            await restoreText(doc, original);
        }
    });
});
