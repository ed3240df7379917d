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
    it("draws a claim waiting for its sources as waiting (double underline, hourglass), never as broken", async () => {
        const waiting = wsUri("waiting.sourcecheck.json");
        const claim = { path: "answer.md", start: { line: 1, str: "Orbit" }, end: { line: 1, str: "changed" } };
        await vscode.workspace.fs.writeFile(
            waiting,
            new TextEncoder().encode(`${JSON.stringify({ annotations: [{ claim, sources: [] }] }, null, 2)}\n`),
        );
        try {
            const answer = await vscode.workspace.openTextDocument(wsUri("answer.md"));
            await vscode.window.showTextDocument(answer);
            interface Marks {
                claimVerdicts: Record<"supported" | "contested" | "refuted" | "broken", PlainRange[]>;
                claimsAwaiting: PlainRange[];
                gutterIcons: Record<number, string>;
            }
            const marks = await waitFor(
                "the waiting claim on line 1 of answer.md",
                () => vscode.commands.executeCommand<Marks>("sourcecheck._decorationsForEditor", answer.uri.toString()),
                (a) => a?.claimsAwaiting.some((r) => r.startLine === 0) === true,
            );
            const title = marks.claimsAwaiting.find((r) => r.startLine === 0);
            assert.deepEqual(title && show(title), showRange(new vscode.Range(0, 2, 0, 25)));
            assert.ok(
                !marks.claimVerdicts.broken.some((r) => r.startLine === 0),
                "the waiting claim is not painted broken",
            );
            assert.equal(marks.gutterIcons[0], "awaiting-sources");
            // The demo's broken claims stay broken: only the waiting one changed its mark.
            assert.ok(marks.claimVerdicts.broken.length > 0);
        } finally {
            await vscode.workspace.fs.delete(waiting);
        }
    });

    it("mark broken refs in words, an out-of-range ref on the last line, and one gutter icon per span", async () => {
        interface Marks {
            claim: PlainRange[];
            supports: PlainRange[];
            refutes: PlainRange[];
            brokenLines: number[];
            brokenLabels: string[];
            gutterLines: number[];
        }
        const marks = async (path: string) => {
            await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(wsUri(path)));
            return waitFor(
                `broken-ref marks on ${path}`,
                () =>
                    vscode.commands.executeCommand<Marks>("sourcecheck._decorationsForEditor", wsUri(path).toString()),
                (a) => a !== undefined && a.brokenLines.length > 0,
            );
        };
        // The release notes: "planned for 2.6." is not on line 16 (the notes say 2.5.).
        const notes = await marks("sources/release-notes.md");
        const at16 = notes.brokenLines.indexOf(15);
        assert.ok(at16 >= 0, `line 16 is marked: ${JSON.stringify(notes.brokenLines)}`);
        // Markdown wraps at the view's edge (VS Code's default), whose width no extension is told (80
        // columns assumed): line 16 (72 columns) leaves 4 after the label's margin, too few for words,
        // so only the glyph is drawn there, never a label past the edge; the hover has the words.
        assert.equal(notes.brokenLabels[at16], "⚠");
        for (const label of notes.brokenLabels) assert.doesNotMatch(label, /boundary-not-found|boundary-ambiguous/);
        // Without wrapping, a ruler at 140 is the view: the whole label fits after line 16 (72 + 4 + 58 ≤ 140).
        const markdown = vscode.workspace.getConfiguration("editor", { languageId: "markdown" });
        await markdown.update("wordWrap", "off", vscode.ConfigurationTarget.Global, true);
        await vscode.workspace.getConfiguration("editor").update("rulers", [140], vscode.ConfigurationTarget.Global);
        try {
            const wide = await waitFor(
                "the whole label of line 16 beside a ruler at 140",
                () =>
                    vscode.commands.executeCommand<Marks>(
                        "sourcecheck._decorationsForEditor",
                        wsUri("sources/release-notes.md").toString(),
                    ),
                (a) => a !== undefined && !a.brokenLabels[a.brokenLines.indexOf(15)]?.endsWith("…"),
            );
            assert.equal(
                wide.brokenLabels[wide.brokenLines.indexOf(15)],
                '⚠ broken ref: the end "planned for 2.6." is not on line 16',
            );
        } finally {
            await vscode.workspace
                .getConfiguration("editor")
                .update("rulers", undefined, vscode.ConfigurationTarget.Global);
            await markdown.update("wordWrap", undefined, vscode.ConfigurationTarget.Global, true);
        }
        // One gutter icon per span, on its first line: never one per line of a span.
        const starts = new Set([...notes.claim, ...notes.supports, ...notes.refutes].map((r) => r.startLine));
        assert.deepEqual(
            notes.gutterLines,
            [...starts].sort((a, b) => a - b),
        );
        // The benchmark has 4 lines; a ref to line 9 is marked on its last line, and says why.
        const bench = await marks("sources/benchmark.txt");
        const lastText =
            (await vscode.workspace.openTextDocument(wsUri("sources/benchmark.txt")))
                .getText()
                .replace(/\r?\n$/, "")
                .split(/\r?\n/).length - 1;
        assert.deepEqual(bench.brokenLines, [lastText]);
        // The count is the document's lines as SourceCheck counts them (a final newline ends an empty line).
        const counted = (await vscode.workspace.openTextDocument(wsUri("sources/benchmark.txt")))
            .getText()
            .split(/\r?\n/).length;
        assert.match(bench.brokenLabels[0], new RegExp(`^⚠ broken ref: line 9 is past the end \\(${counted} lines\\)`));
        await cleanSlate();
    });
});
