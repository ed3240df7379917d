// Issue 34.7: Find Sources with the cursor on a claim that two annotation files cite asks which,
// naming the files; it never says there is no claim under the cursor (docs/evidence.md, "Editor").
import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import { annotationsUri, cleanSlate, prepare, removeAnnotationFile } from "./demo";
import { waitFor, wsUri } from "./harness";

const SECOND = "second.sourcecheck.json";
const SECOND_TEXT = `${JSON.stringify(
    {
        annotations: [
            {
                claim: { path: "answer.md", start: { line: 3, str: "37%" }, end: { line: 3, str: "37%" } },
                sources: [
                    {
                        path: "sources/benchmark.txt",
                        start: { line: 4, str: "delta" },
                        end: { line: 4, str: "-37%" },
                        polarity: "supports",
                        confidence: 0.9,
                    },
                ],
            },
        ],
    },
    null,
    2,
)}\n`;

type Found =
    | { ok: true; annotationFile: string; annotation: number }
    | { ok: false; message: string; cancelled?: boolean; asked?: { title: string; choices: string[] } };

async function hoverText(uri: vscode.Uri, position: vscode.Position): Promise<string> {
    const hovers =
        (await vscode.commands.executeCommand<vscode.Hover[]>("vscode.executeHoverProvider", uri, position)) ?? [];
    return hovers
        .flatMap((h) => h.contents)
        .map((c) => (typeof c === "string" ? c : c.value))
        .join("\n");
}

describe("Find Sources: a claim two annotation files cite", () => {
    const second = () => wsUri(SECOND);
    before(async () => {
        await prepare();
        await vscode.workspace.fs.writeFile(second(), Buffer.from(SECOND_TEXT));
    });
    after(async () => {
        await cleanSlate();
        await removeAnnotationFile(second());
    });

    it("asks which file, naming both, and searches for the one chosen", async () => {
        const answer = await vscode.workspace.openTextDocument(wsUri("answer.md"));
        const editor = await vscode.window.showTextDocument(answer);
        const at = new vscode.Position(2, answer.lineAt(2).text.indexOf("37%") + 1);
        editor.selection = new vscode.Selection(at, at);
        await waitFor(
            "both files' citations of the claim",
            () => hoverText(answer.uri, at),
            (t) => t.includes(SECOND) && t.includes("answer.sourcecheck.json"),
            20_000,
        );

        const pending = Promise.resolve(
            vscode.commands.executeCommand<Found>("sourcecheck.findSourcesForClaim", {
                hit: "sources/benchmark.txt",
                polarity: "supports",
                confidence: 0.5,
            }),
        );
        let settled: Found | undefined;
        void pending.then((r) => {
            settled = r;
        });
        // The pick opens once the spans are in; dismissing it cancels the whole command.
        const dismissed = await waitFor(
            "the pick of annotation files, dismissed",
            async () => {
                await vscode.commands.executeCommand("workbench.action.closeQuickOpen");
                return settled;
            },
            (r) => r !== undefined,
        );
        assert.ok(dismissed && !dismissed.ok && dismissed.cancelled, JSON.stringify(dismissed));
        const asked = dismissed.asked;
        assert.ok(asked, `the pick asked which file: ${JSON.stringify(dismissed)}`);
        assert.doesNotMatch(asked.title, /no claim under the cursor/);
        assert.match(asked.title, /answer\.sourcecheck\.json \(annotation 1\)/);
        assert.match(asked.title, /second\.sourcecheck\.json \(annotation 1\)/);
        assert.deepEqual(asked.choices.sort(), [
            "answer.sourcecheck.json (annotation 1)",
            "second.sourcecheck.json (annotation 1)",
        ]);

        const found = await vscode.commands.executeCommand<Found>("sourcecheck.findSourcesForClaim", {
            hit: 0,
            polarity: "supports",
            confidence: 0.5,
            citingFile: SECOND,
        });
        assert.ok(found.ok, JSON.stringify(found));
        assert.equal(found.annotationFile, second().toString());
        assert.equal(found.annotation, 1);
        assert.notEqual(found.annotationFile, annotationsUri().toString());
    });
});
