import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import {
    annotationsUri,
    cleanSlate,
    hoverText,
    openAnnotations,
    prepare,
    type Ref,
    resolveSimpleRef,
    showRange,
    tokenRange,
    valueAt,
} from "./demo";
import { screenshot, waitFor } from "./harness";

// Refs of the valid annotations 0-2: a source in a CRLF file, one in Markdown, one in Chinese.
const SOURCE_REFS = [
    ["annotations", 0, "sources", 0],
    ["annotations", 1, "sources", 0],
    ["annotations", 2, "sources", 0],
] as const;

/** A position inside the ref's start `str` token, where a user would point. */
function inRef(doc: vscode.TextDocument, refPath: readonly (string | number)[]): vscode.Position {
    const token = tokenRange(doc, [...refPath, "start", "str"]);
    return token.start.translate(0, 2);
}

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

describe("hover and go to definition", () => {
    before(prepare);
    after(cleanSlate);

    for (const refPath of SOURCE_REFS) {
        it(`hover on ${refPath.join("/")} shows the text it resolves to`, async () => {
            const doc = await openAnnotations();
            const ref = valueAt<Ref>(doc, [...refPath]);
            const { text } = await resolveSimpleRef(ref);
            await hoverAt(doc.uri, inRef(doc, refPath), text);
        });
    }

    it("hover on a claim shows the whole annotation: claim text and every source text", async () => {
        const doc = await openAnnotations();
        const claim = await resolveSimpleRef(valueAt<Ref>(doc, ["annotations", 1, "claim"]));
        const source = await resolveSimpleRef(valueAt<Ref>(doc, ["annotations", 1, "sources", 0]));
        const position = inRef(doc, ["annotations", 1, "claim"]);
        const text = await hoverAt(doc.uri, position, claim.text);
        assert.ok(
            text.includes(source.text),
            `the claim hover lacks the source text ${JSON.stringify(source.text)}:\n${text}`,
        );
        // For the README: the hover as a user sees it.
        const editor = await vscode.window.showTextDocument(doc, { preview: false });
        editor.selection = new vscode.Selection(position, position);
        editor.revealRange(new vscode.Range(position, position), vscode.TextEditorRevealType.InCenter);
        await vscode.commands.executeCommand("editor.action.showHover");
        await screenshot("hover");
    });

    for (const refPath of SOURCE_REFS) {
        it(`go to definition on ${refPath.join("/")} lands on the cited span`, async () => {
            const doc = await openAnnotations();
            const want = await resolveSimpleRef(valueAt<Ref>(doc, [...refPath]));
            const found = await waitFor(
                "a definition",
                () =>
                    vscode.commands.executeCommand<(vscode.Location | vscode.LocationLink)[]>(
                        "vscode.executeDefinitionProvider",
                        annotationsUri(),
                        inRef(doc, refPath),
                    ),
                (r) => Array.isArray(r) && r.length > 0,
            );
            assert.equal(found.length, 1, `expected one definition, got ${found.length}`);
            const hit = found[0];
            const uri = "uri" in hit ? hit.uri : hit.targetUri;
            const range = "uri" in hit ? hit.range : (hit.targetSelectionRange ?? hit.targetRange);
            assert.equal(uri.toString(), want.uri.toString());
            assert.equal(showRange(range), showRange(want.range));
        });
    }
});
