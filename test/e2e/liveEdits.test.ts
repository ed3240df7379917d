import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as vscode from "vscode";
import {
    annotationsUri,
    cleanSlate,
    codeOf,
    diagnosticKeys,
    occurrences,
    openAnnotations,
    prepare,
    type Ref,
    showRange,
    tokenRange,
    valueAt,
    waitForDiagnostics,
} from "./demo";
import { waitFor, wsUri } from "./harness";

/** Replaces the `nth` occurrence of `from` on 1-based `line` of the open editor, without saving. */
async function editLine(editor: vscode.TextEditor, line: number, from: string, to: string, nth = 0): Promise<void> {
    const text = editor.document.lineAt(line - 1).text;
    const at = occurrences(text, from)[nth];
    assert.ok(at !== undefined, `${JSON.stringify(from)} not on line ${line}`);
    const ok = await editor.edit((b) => b.replace(new vscode.Range(line - 1, at, line - 1, at + from.length), to));
    assert.ok(ok, "the edit was not applied");
    assert.ok(editor.document.isDirty, "the cited document should be unsaved");
}

async function revert(editor: vscode.TextEditor): Promise<void> {
    await vscode.window.showTextDocument(editor.document, { preview: false });
    await vscode.commands.executeCommand("workbench.action.files.revert");
    await waitFor(
        "the revert",
        () => editor.document.isDirty,
        (dirty) => dirty === false,
    );
}

describe("unsaved edits to a cited document", () => {
    before(prepare);
    afterEach(cleanSlate);

    async function setup() {
        const annotations = await openAnnotations();
        const baseline = await waitForDiagnostics(annotationsUri(), (ds) => ds.length >= 5, "the demo's diagnostics");
        const keys = diagnosticKeys(annotationsUri());
        const answer = wsUri("answer.md");
        const onDisk = fs.readFileSync(answer.fsPath, "utf8");
        const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(answer), {
            preview: false,
            viewColumn: vscode.ViewColumn.Beside,
        });
        return { annotations, baseline, keys, answer, onDisk, editor };
    }

    it("breaking a cited claim in the buffer makes its annotation fail, reverting restores it", async () => {
        const { annotations, keys, answer, onDisk, editor } = await setup();
        const claim = valueAt<Ref>(annotations, ["annotations", 0, "claim"]);
        assert.equal(claim.path, "answer.md");
        const tokens = [
            tokenRange(annotations, ["annotations", 0, "claim", "start", "str"]),
            tokenRange(annotations, ["annotations", 0, "claim", "end", "str"]),
        ];
        try {
            await editLine(editor, claim.start.line, claim.start.str, "(a third)");
            const broken = await waitForDiagnostics(
                annotationsUri(),
                (ds) => ds.some((d) => tokens.some((t) => t.isEqual(d.range))),
                "a diagnostic on annotation 0's claim after the unsaved edit",
            );
            const d = broken.find((x) => tokens.some((t) => t.isEqual(x.range)))!;
            assert.equal(codeOf(d), "boundary-not-found", `got ${codeOf(d)} at ${showRange(d.range)}`);
            assert.equal(fs.readFileSync(answer.fsPath, "utf8"), onDisk, "the edit must not reach the disk");
        } finally {
            await revert(editor);
        }
        await waitFor(
            "the original diagnostics after the revert",
            () => diagnosticKeys(annotationsUri()),
            (k) => JSON.stringify(k) === JSON.stringify(keys),
        );
    });

    it("making an ambiguous boundary unique in the buffer clears its diagnostic, reverting brings it back", async () => {
        const { annotations, keys, editor } = await setup();
        const claim = valueAt<Ref>(annotations, ["annotations", 4, "claim"]);
        const token = tokenRange(annotations, ["annotations", 4, "claim", "end", "str"]);
        assert.ok(keys.some((k) => k.startsWith(`boundary-ambiguous@${showRange(token)}`)));
        try {
            // Rename the first occurrence, so the end boundary occurs once.
            await editLine(editor, claim.end.line, claim.end.str, "version", 0);
            await waitForDiagnostics(
                annotationsUri(),
                (ds) => ds.length > 0 && !ds.some((d) => d.range.isEqual(token)),
                "annotation 4's ambiguity to clear after the unsaved edit",
            );
            // Everything else is as before.
            assert.deepEqual(
                diagnosticKeys(annotationsUri()),
                keys.filter((k) => !k.startsWith(`boundary-ambiguous@${showRange(token)}`)),
            );
        } finally {
            await revert(editor);
        }
        await waitFor(
            "the original diagnostics after the revert",
            () => diagnosticKeys(annotationsUri()),
            (k) => JSON.stringify(k) === JSON.stringify(keys),
        );
    });
});
