/**
 * "SourceCheck: Fix All Certain Repairs in Workspace" in a real VS Code (issue 45 item 3; docs/editor.md):
 * the palette command asks the server for every certain repair of every annotation file (the repair
 * operation, as `sourcecheck repair --write`) and applies them as one edit. The demo's annotation file
 * has broken refs of every kind; a second annotation file written here breaks two more. The refs are
 * judged by the suite's own resolver (demo.ts resolveRef), never by the server.
 */
import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import { ANNOTATIONS, annotationsUri, cleanSlate, prepare, type Ref, removeAnnotationFile, resolveRef } from "./demo";
import { waitFor, wsUri } from "./harness";

const COMMAND = "sourcecheck.repairWorkspace";
// Its own name: another suite's "second.sourcecheck.json" may still be loaded, with that suite's text.
const SECOND = "fix-all-second.sourcecheck.json";

interface Outcome {
    ok: boolean;
    message: string;
    refCount?: number;
    fileCount?: number;
    checkedCount?: number;
    skipped?: number;
}

interface Annotation {
    claim: Ref;
    sources: Ref[];
}

/** Every ref of an annotation file, claim first, in file order, named for messages. */
function refsOf(doc: vscode.TextDocument): { name: string; ref: Ref }[] {
    const { annotations } = JSON.parse(doc.getText()) as { annotations: Annotation[] };
    return annotations.flatMap((a, i) => [
        { name: `annotation ${i + 1} claim`, ref: a.claim },
        ...a.sources.map((ref, j) => ({ name: `annotation ${i + 1} source ${j + 1}`, ref })),
    ]);
}

async function brokenNames(doc: vscode.TextDocument): Promise<string[]> {
    const broken: string[] = [];
    for (const { name, ref } of refsOf(doc)) if ((await resolveRef(ref)) === undefined) broken.push(name);
    return broken;
}

/** A second annotation file: its claim holds, its sources cite a line that moved and a misspelt path. */
const secondFile = {
    annotations: [
        {
            claim: { path: "answer.md", start: { line: 4, str: "offline sync" }, end: { line: 4, str: "clients." } },
            sources: [
                {
                    path: "sources/release-notes.md",
                    start: { line: 6, str: "Offline sync" },
                    end: { line: 6, str: "reconnected." },
                    polarity: "supports",
                    confidence: 0.9,
                },
                {
                    path: "sources/benchmarks.txt",
                    start: { line: 4, str: "delta" },
                    end: { line: 4, str: "-37%" },
                    polarity: "supports",
                    confidence: 0.8,
                },
            ],
        },
    ],
};

describe("Fix All Certain Repairs in Workspace", () => {
    before(prepare);
    after(async () => {
        await cleanSlate();
        await removeAnnotationFile(wsUri(SECOND));
    });

    it("is in the palette under its title", async () => {
        const commands = await vscode.commands.getCommands(true);
        assert.ok(commands.includes(COMMAND));
        const pkg = vscode.extensions.all.find((e) =>
            e.packageJSON?.contributes?.commands?.some?.((c: { command: string }) => c.command === COMMAND),
        );
        const contributed = pkg?.packageJSON.contributes.commands.find(
            (c: { command: string }) => c.command === COMMAND,
        );
        assert.equal(
            `${contributed.category}: ${contributed.title}`,
            "SourceCheck: Fix All Certain Repairs in Workspace",
        );
    });

    it("repairs the demo's certain refs in one edit that one undo takes back; the ambiguous ref is left as written", async () => {
        const doc = await vscode.workspace.openTextDocument(annotationsUri());
        await vscode.window.showTextDocument(doc, { preview: false });
        const original = doc.getText();
        const before = refsOf(doc);
        const brokenBefore = await brokenNames(doc);
        // The demo's broken refs: a misquote, two shifted lines, a misspelt path, and an ambiguous end.
        assert.equal(brokenBefore.length, 5, `the demo's broken refs: ${brokenBefore.join(", ")}`);
        try {
            const outcome = await vscode.commands.executeCommand<Outcome>(COMMAND);
            assert.ok(outcome.ok, outcome.message);
            const after = refsOf(doc);
            const changed = after.filter((r, i) => JSON.stringify(r.ref) !== JSON.stringify(before[i].ref));
            // Only broken refs changed, each now resolves; the one with two readings stays broken as written.
            for (const { name, ref } of changed) {
                assert.ok(brokenBefore.includes(name), `${name} was valid: it must not change`);
                assert.ok(await resolveRef(ref), `${name} resolves after the repair: ${JSON.stringify(ref)}`);
            }
            assert.deepEqual(await brokenNames(doc), ["annotation 5 claim"]);
            assert.deepEqual(
                after.find((r) => r.name === "annotation 5 claim")?.ref,
                before.find((r) => r.name === "annotation 5 claim")?.ref,
            );
            assert.deepEqual([outcome.refCount, outcome.fileCount], [changed.length, 1]);
            assert.equal(changed.length, 4);

            // One undo takes every repair back.
            await vscode.window.showTextDocument(doc, { preview: false });
            await vscode.commands.executeCommand("undo");
            assert.equal(doc.getText(), original, "one undo restores the file");
        } finally {
            await cleanSlate();
        }
    });

    it("repairs two annotation files in one run, counting repairs and files from 1", async () => {
        await vscode.workspace.fs.writeFile(
            wsUri(SECOND),
            new TextEncoder().encode(`${JSON.stringify(secondFile, null, 2)}\n`),
        );
        const second = await vscode.workspace.openTextDocument(wsUri(SECOND));
        const demo = await vscode.workspace.openTextDocument(annotationsUri());
        await vscode.window.showTextDocument(second, { preview: false });
        assert.deepEqual(await brokenNames(second), ["annotation 1 source 1", "annotation 1 source 2"]);
        const demoBroken = await brokenNames(demo);
        // The server knows the new file before the command runs (it is open: the client sent it).
        await waitFor(
            "the server's diagnostics for the second file",
            () => vscode.languages.getDiagnostics(second.uri).filter((d) => d.source === "sourcecheck"),
            (ds) => ds.length >= 2,
            15_000,
        );
        try {
            const outcome = await vscode.commands.executeCommand<Outcome>(COMMAND);
            assert.ok(outcome.ok, outcome.message);
            assert.deepEqual(await brokenNames(second), [], "both broken refs of the second file resolve");
            assert.deepEqual(await brokenNames(demo), ["annotation 5 claim"]);
            assert.deepEqual(
                [outcome.refCount, outcome.fileCount, outcome.skipped],
                [2 + (demoBroken.length - 1), 2, 0],
            );
            assert.ok((outcome.checkedCount ?? 0) >= 2);
            assert.match(outcome.message, new RegExp(`^Repaired ${outcome.refCount} refs in 2 annotation files\\.`));
            // The repaired refs are what `sourcecheck repair` finds: the moved line, the existing path.
            const [moved, path] = refsOf(second)
                .slice(1)
                .map((r) => r.ref);
            assert.deepEqual([moved.start.line, moved.end.line], [5, 5]);
            assert.equal(path.path, "sources/benchmark.txt");
            assert.ok(second.isDirty && demo.isDirty, "both files carry the edit, unsaved");
            assert.equal(vscode.workspace.asRelativePath(demo.uri), ANNOTATIONS);
        } finally {
            await cleanSlate();
        }
    });

    it("says so when nothing is left that is certain, and changes nothing", async () => {
        const doc = await vscode.workspace.openTextDocument(annotationsUri());
        try {
            const fixed = await vscode.commands.executeCommand<Outcome>(COMMAND);
            assert.ok(fixed.ok && (fixed.refCount ?? 0) > 0, fixed.message);
            const repaired = doc.getText();
            // The demo's remaining broken ref has two readings: no certain repair, so a second run applies none.
            const again = await vscode.commands.executeCommand<Outcome>(COMMAND);
            assert.deepEqual([again.ok, again.refCount, again.fileCount], [true, 0, 0]);
            assert.match(again.message, /^No certain repair in \d+ annotation files\.$/);
            assert.equal(doc.getText(), repaired);
        } finally {
            await cleanSlate();
        }
    });
});
