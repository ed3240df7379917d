import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import { annotationsUri, cleanSlate, prepare, type Ref, resolveRef, showRange, valueAt } from "./demo";
import { screenshot, waitFor, wsUri } from "./harness";

interface PlainRange {
    startLine: number;
    startCharacter: number;
    endLine: number;
    endCharacter: number;
}
type Applied = Record<"claim" | "supports" | "refutes", PlainRange[]>;

const show = (r: PlainRange) => showRange(new vscode.Range(r.startLine, r.startCharacter, r.endLine, r.endCharacter));

/** The demo's cited spans in `path`, by kind, from the annotation file and an independent resolver. */
async function expectedSpans(path: string): Promise<Record<keyof Applied, string[]>> {
    const doc = await vscode.workspace.openTextDocument(annotationsUri());
    const annotations = valueAt<{ claim: Ref; sources: (Ref & { polarity: "supports" | "refutes" })[] }[]>(doc, [
        "annotations",
    ]);
    const want: Record<keyof Applied, Set<string>> = { claim: new Set(), supports: new Set(), refutes: new Set() };
    for (const a of annotations) {
        const refs: [keyof Applied, Ref][] = [
            ["claim", a.claim],
            ...a.sources.map((s) => [s.polarity, s] as [keyof Applied, Ref]),
        ];
        for (const [kind, ref] of refs) {
            if (ref.path !== path) continue;
            const resolved = await resolveRef(ref);
            if (resolved) want[kind].add(showRange(resolved.range));
        }
    }
    return { claim: [...want.claim].sort(), supports: [...want.supports].sort(), refutes: [...want.refutes].sort() };
}

async function decorationsOf(path: string, accept: (a: Applied) => boolean): Promise<Record<keyof Applied, string[]>> {
    const uri = wsUri(path).toString();
    const applied = await waitFor(
        `decorations on ${path}`,
        () => vscode.commands.executeCommand<Applied>("sourcecheck._decorationsForEditor", uri),
        (a) => a !== undefined && accept(a),
    );
    return {
        claim: applied.claim.map(show).sort(),
        supports: applied.supports.map(show).sort(),
        refutes: applied.refutes.map(show).sort(),
    };
}

describe("decorations on cited spans", () => {
    before(prepare);
    after(cleanSlate);

    it("marks every resolved claim span of answer.md", async () => {
        const want = await expectedSpans("answer.md");
        assert.ok(want.claim.length > 0);
        await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(wsUri("answer.md")), {
            viewColumn: vscode.ViewColumn.One,
        });
        const got = await decorationsOf("answer.md", (a) => a.claim.length >= want.claim.length);
        assert.deepEqual(got, want);
        await screenshot("decorations-answer");
    });

    it("marks supporting and refuting spans of a source with their own kinds", async () => {
        const want = await expectedSpans("sources/release-notes.md");
        assert.ok(want.supports.length > 0 && want.refutes.length > 0, "the demo cites release-notes.md both ways");
        await vscode.window.showTextDocument(
            await vscode.workspace.openTextDocument(wsUri("sources/release-notes.md")),
            {
                viewColumn: vscode.ViewColumn.Beside,
            },
        );
        const got = await decorationsOf(
            "sources/release-notes.md",
            (a) => a.supports.length >= want.supports.length && a.refutes.length >= want.refutes.length,
        );
        assert.deepEqual(got, want);
        await screenshot("decorations-sources");
    });

    it("follow an unsaved edit of the cited document", async () => {
        const editor = await vscode.window.showTextDocument(
            await vscode.workspace.openTextDocument(wsUri("answer.md")),
        );
        const before = await expectedSpans("answer.md");
        try {
            // Shift everything cited on line 3 to the right, in the buffer only.
            assert.ok(await editor.edit((b) => b.insert(new vscode.Position(2, 0), "Today, ")));
            const want = await expectedSpans("answer.md");
            assert.notDeepEqual(want, before, "the edit should move cited spans");
            const got = await decorationsOf(
                "answer.md",
                (a) => JSON.stringify(a.claim.map(show).sort()) === JSON.stringify(want.claim),
            );
            assert.deepEqual(got, want);
        } finally {
            await cleanSlate();
        }
    });
});
