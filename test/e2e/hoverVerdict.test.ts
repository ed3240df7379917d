// Issue 34.2: the hover of a claim in the answer states its verdict and, when broken, which ref and
// why, with the fix as a command link that applies the server's fix (docs/verdicts.md, "Hovers").
import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import { annotationsUri, cleanSlate, openAnnotations, prepare, restoreText, valueAt } from "./demo";
import { screenshot, waitFor, wsUri } from "./harness";

const FIX_LINK = /\(command:sourcecheck\.fixRef\?([^ )]+)/;

/** The Markdown of every hover at `position` of `uri`, joined. */
async function hoverText(uri: vscode.Uri, position: vscode.Position): Promise<string> {
    const hovers =
        (await vscode.commands.executeCommand<vscode.Hover[]>("vscode.executeHoverProvider", uri, position)) ?? [];
    return hovers
        .flatMap((h) => h.contents)
        .map((c) => (typeof c === "string" ? c : c.value))
        .join("\n");
}

/** Where `text` starts on 1-based `line` of answer.md. */
async function positionOf(text: string, line: number): Promise<vscode.Position> {
    const answer = await vscode.workspace.openTextDocument(wsUri("answer.md"));
    const column = answer.lineAt(line - 1).text.indexOf(text);
    assert.ok(column >= 0, `"${text}" is on line ${line} of answer.md`);
    return new vscode.Position(line - 1, column + 1);
}

describe("hover of a claim in the answer: its verdict, and for a broken one which ref, why and the fix", () => {
    before(prepare);
    after(cleanSlate);

    it("says annotation 6 is broken because source 1's end is not on line 16, and its Fix link re-anchors it", async () => {
        const doc = await openAnnotations();
        const original = doc.getText();
        const answer = wsUri("answer.md");
        const claim = await positionOf("available", 8);
        try {
            const text = await waitFor(
                "the hover of annotation 6's claim",
                () => hoverText(answer, claim),
                (t) => t.includes("sourcecheck.fixRef"),
            );
            // The verdict leads, in the legend's glyph and word, then which ref and why.
            assert.match(text, /⚠ \*\*broken\*\* — claim of annotation 6/);
            assert.match(
                text,
                /source 1 \(`sources\/release-notes\.md`\): the end "planned for 2\\\.6\\\." is not on line 16/,
            );
            const supported = await hoverText(answer, await positionOf("37%", 3));
            assert.match(supported, /✓ \*\*supported\*\* — claim of annotation 1/);
            assert.doesNotMatch(supported, /sourcecheck\.fixRef/, "a supported claim has nothing to fix");

            const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(answer));
            editor.selection = new vscode.Selection(claim, claim);
            await vscode.commands.executeCommand("editor.action.showHover");
            await screenshot("hover-verdict", 1000, {
                waitForText: ["broken", "planned for 2.6."],
                within: ".monaco-workbench",
            });

            // The link's arguments, run as a click runs them, with the fix chosen by its title.
            const args = JSON.parse(decodeURIComponent(FIX_LINK.exec(text)?.[1] ?? "[]"))[0];
            assert.equal(args.uri, annotationsUri().toString());
            const offered = await vscode.commands.executeCommand<{ ok: boolean; offered: string[] }>(
                "sourcecheck.fixRef",
                { ...args, list: true },
            );
            assert.ok(offered.offered.length > 0, "the server offers a fix for the broken ref");
            const result = await vscode.commands.executeCommand<{ ok: boolean; applied?: string }>(
                "sourcecheck.fixRef",
                { ...args, fix: offered.offered[0] },
            );
            assert.equal(result.applied, offered.offered[0]);
            // Re-anchored to the text the source has, its sentence's period kept (issue 34.9).
            const end = valueAt<string>(doc, ["annotations", 5, "sources", 0, "end", "str"]);
            assert.ok(
                end.endsWith("2.5.") && "planned for 2.5.".endsWith(end),
                `the new end is ${JSON.stringify(end)}`,
            );
            const after = await waitFor(
                "the hover once the fix is in",
                () => hoverText(answer, claim),
                (t) => t.includes("refuted"),
            );
            assert.match(after, /⊗ \*\*refuted\*\* — claim of annotation 6/);
            assert.doesNotMatch(after, /sourcecheck\.fixRef/);
        } finally {
            await restoreText(doc, original);
        }
    });
});
