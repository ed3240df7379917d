import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import {
    annotationsUri,
    cleanSlate,
    codeOf,
    openAnnotations,
    prepare,
    type Ref,
    resolveRef,
    restoreText,
    showRange,
    tokenRange,
    valueAt,
    waitForDiagnostics,
} from "./demo";
import { screenshot, sleep, waitFor, wsUri } from "./harness";

// Issue 11: every problem once (3), features only where they belong (5), what is broken shows where
// people look (7), the current annotation follows every cursor move (8), restart (11).

/** The error codes SourceCheck reports (docs: README "Error codes"): anything else is another voice. */
const OUR_CODES = new Set([
    "invalid-json",
    "schema",
    "duplicate-path",
    "cr-in-content",
    "unknown-path",
    "line-out-of-range",
    "boundary-not-found",
    "boundary-ambiguous",
    "inverted-lines",
    "inverted-boundaries",
    "path-outside-root",
    "unreadable-document",
]);

type Verdict = "supported" | "contested" | "refuted" | "broken";
interface PlainRange {
    startLine: number;
    startCharacter: number;
    endLine: number;
    endCharacter: number;
}
interface Applied {
    claim: PlainRange[];
    claimVerdicts: Record<Verdict, PlainRange[]>;
    brokenLines: number[];
}
interface Annotation {
    claim: Ref;
    sources: (Ref & { polarity: string })[];
}

const show = (r: PlainRange) => showRange(new vscode.Range(r.startLine, r.startCharacter, r.endLine, r.endCharacter));

/** Every diagnostic on the file, from any source: each must be ours, and no two alike. */
function assertOneVoice(uri: vscode.Uri): vscode.Diagnostic[] {
    const all = vscode.languages.getDiagnostics(uri);
    for (const d of all) {
        assert.equal(d.source, "sourcecheck", `a diagnostic from ${d.source}: ${d.message}`);
        assert.ok(OUR_CODES.has(codeOf(d)), `not one of our codes (another voice?): ${codeOf(d)} ${d.message}`);
    }
    const keys = all.map((d) => `${showRange(d.range)} ${d.message}`);
    assert.equal(new Set(keys).size, keys.length, `a problem reported twice: ${keys.join(" | ")}`);
    return all;
}

/** The verdict of an annotation, from an independent resolver (docs/verdicts.md). */
async function verdictOf(annotation: Annotation): Promise<Verdict> {
    if (!Array.isArray(annotation.sources) || annotation.sources.length === 0) return "broken";
    for (const ref of [annotation.claim, ...annotation.sources]) if (!(await resolveRef(ref))) return "broken";
    const polarities = new Set(annotation.sources.map((s) => s.polarity));
    if (polarities.has("supports") && polarities.has("refutes")) return "contested";
    return polarities.has("refutes") ? "refuted" : "supported";
}

const WORST_FIRST: Verdict[] = ["broken", "refuted", "contested", "supported"];

describe("editor: one voice, features where they belong, verdicts and broken refs", () => {
    before(prepare);
    afterEach(cleanSlate);

    it("no other diagnostic source repeats ours on the demo, even on a schema error typed in", async () => {
        const doc = await openAnnotations();
        const original = doc.getText();
        await waitForDiagnostics(annotationsUri(), (ds) => ds.length >= 5, "the demo's diagnostics");
        // VS Code's JSON support would answer within the same time as ours: give it the chance.
        await sleep(2000);
        assertOneVoice(annotationsUri());
        // A confidence above 1: our `schema` error, once, on that token, and no JSON-schema twin.
        const token = tokenRange(doc, ["annotations", 0, "sources", 0, "confidence"]);
        const editor = await vscode.window.showTextDocument(doc);
        await editor.edit((b) => b.replace(token, "1.5"));
        const withError = await waitForDiagnostics(
            annotationsUri(),
            (ds) => ds.some((d) => codeOf(d) === "schema" && d.range.start.isEqual(token.start)),
            "our schema error on the confidence",
        );
        await sleep(1500);
        const all = assertOneVoice(annotationsUri());
        assert.equal(all.filter((d) => d.range.intersection(token) !== undefined).length, 1, "one problem, once");
        assert.ok(withError.length > 0);
        await restoreText(doc, original);
    });

    it("the empty sources Cite Selection as Claim writes is one information, not an error", async () => {
        const doc = await openAnnotations();
        const original = doc.getText();
        const editor = await vscode.window.showTextDocument(doc);
        const sources = tokenRange(doc, ["annotations", 0, "sources"]);
        await editor.edit((b) => b.replace(sources, "[]"));
        const ds = await waitForDiagnostics(
            annotationsUri(),
            (all) => all.some((d) => d.range.start.isEqual(sources.start)),
            "a diagnostic on the empty sources",
        );
        await sleep(1500);
        assertOneVoice(annotationsUri());
        const onSources = vscode.languages
            .getDiagnostics(annotationsUri())
            .filter((d) => d.range.start.isEqual(sources.start));
        assert.equal(onSources.length, 1, JSON.stringify(onSources.map((d) => d.message)));
        assert.equal(onSources[0].severity, vscode.DiagnosticSeverity.Information);
        assert.ok(ds.length > 0);
        await restoreText(doc, original);
    });

    it("language features go to annotation files and cited documents only, never to other files", async () => {
        const annotations = await openAnnotations();
        await waitForDiagnostics(annotationsUri(), (ds) => ds.length > 0, "the demo's diagnostics");
        const answer = wsUri("answer.md");
        const readme = wsUri("README.md");
        await waitFor(
            "answer.md among the cited documents, README.md not",
            () => vscode.commands.executeCommand<{ pattern: string }[]>("sourcecheck._citedDocumentSelector"),
            (filters) =>
                filters?.some((f) => f.pattern === answer.fsPath) === true &&
                !filters.some((f) => f.pattern === readme.fsPath),
        );
        await vscode.commands.executeCommand("sourcecheck._featureRequests"); // start a fresh log
        const other = await vscode.workspace.openTextDocument(readme);
        await vscode.window.showTextDocument(other);
        const at = new vscode.Position(0, 2);
        const whole = new vscode.Range(0, 0, other.lineCount, 0);
        await vscode.commands.executeCommand("vscode.executeHoverProvider", readme, at);
        await vscode.commands.executeCommand("vscode.executeCompletionItemProvider", readme, at, '"');
        await vscode.commands.executeCommand("vscode.executeLinkProvider", readme);
        await vscode.commands.executeCommand("vscode.executeInlayHintProvider", readme, whole);
        await vscode.commands.executeCommand("vscode.executeCodeActionProvider", readme, whole);
        await vscode.commands.executeCommand("vscode.executeReferenceProvider", readme, at);
        await vscode.commands.executeCommand("vscode.executeDefinitionProvider", readme, at);
        // The same requests on the annotation file do reach the server (the log works).
        await vscode.commands.executeCommand(
            "vscode.executeHoverProvider",
            annotations.uri,
            new vscode.Position(3, 30),
        );
        // And a cited document gets references to the refs citing it.
        const claim = valueAt<Ref>(annotations, ["annotations", 0, "claim"]);
        const resolved = await resolveRef(claim);
        assert.ok(resolved);
        const references = await waitFor(
            "references from the cited claim in answer.md",
            () =>
                vscode.commands.executeCommand<vscode.Location[]>(
                    "vscode.executeReferenceProvider",
                    answer,
                    resolved.range.start,
                ),
            (locations) => (locations ?? []).some((l) => l.uri.toString() === annotationsUri().toString()),
        );
        assert.ok(references.length > 0);
        await sleep(500);
        const sent = await vscode.commands.executeCommand<string[]>("sourcecheck._featureRequests");
        assert.ok(!sent.includes(readme.toString()), `requests went to the server for README.md: ${sent}`);
        assert.ok(sent.includes(annotationsUri().toString()), `no request logged for the annotation file: ${sent}`);
        assert.ok(sent.includes(answer.toString()), `no references request for the cited answer.md: ${sent}`);
    });

    it("claims look distinct by verdict, and a broken ref into a document is marked on the line it names", async () => {
        const doc = await vscode.workspace.openTextDocument(annotationsUri());
        const annotations = valueAt<Annotation[]>(doc, ["annotations"]);
        // Expected: each resolving claim span of answer.md with the worst verdict citing it.
        const byRange = new Map<string, Verdict[]>();
        const brokenRefLines: [number, number][] = [];
        for (const annotation of annotations) {
            const verdict = await verdictOf(annotation);
            for (const ref of [annotation.claim, ...annotation.sources]) {
                if (ref.path !== "answer.md") continue;
                const resolved = await resolveRef(ref);
                if (!resolved) brokenRefLines.push([ref.start.line - 1, ref.end.line - 1]);
                else if (ref === annotation.claim) {
                    const key = showRange(resolved.range);
                    byRange.set(key, [...(byRange.get(key) ?? []), verdict]);
                }
            }
        }
        const want: Record<Verdict, string[]> = { supported: [], contested: [], refuted: [], broken: [] };
        for (const [range, verdicts] of byRange) {
            const worst = WORST_FIRST.find((v) => verdicts.includes(v)) as Verdict;
            want[worst].push(range);
        }
        assert.ok(want.supported.length > 0 && want.refuted.length > 0, "the demo has supported and refuted claims");
        assert.ok(brokenRefLines.length > 0, "the demo has broken refs into answer.md");

        const answer = wsUri("answer.md");
        await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(answer));
        const applied = await waitFor(
            "verdict decorations on answer.md",
            () => vscode.commands.executeCommand<Applied>("sourcecheck._decorationsForEditor", answer.toString()),
            (a) => a !== undefined && a.claim.length > 0 && a.brokenLines.length > 0,
        );
        for (const verdict of WORST_FIRST) {
            assert.deepEqual(
                applied.claimVerdicts[verdict].map(show).sort(),
                want[verdict].sort(),
                `${verdict} claims`,
            );
        }
        // Each broken ref's line is marked: the start or the end line it names, and no other line.
        const marked = new Set(applied.brokenLines);
        for (const [start, end] of brokenRefLines) {
            assert.ok(
                marked.has(start) || marked.has(end),
                `lines ${start + 1}-${end + 1} of a broken ref are not marked`,
            );
        }
        const named = new Set(brokenRefLines.flat());
        for (const line of marked) assert.ok(named.has(line), `line ${line + 1} is marked but no broken ref names it`);
        await screenshot("verdicts-broken-refs");
    });

    it("the current annotation follows Go to Line and Problems-panel navigation, not edits", async () => {
        const doc = await openAnnotations();
        const editor = await vscode.window.showTextDocument(doc);
        // Go to Line sets the selection by command.
        const third = tokenRange(doc, ["annotations", 2, "claim", "path"]).start;
        editor.selection = new vscode.Selection(third, third);
        await waitFor(
            "annotation 2 current after Go to Line",
            () => vscode.commands.executeCommand<{ index: number }>("sourcecheck._currentAnnotation"),
            (t) => t?.index === 2,
        );
        // The Problems panel opens the file at the problem's range.
        const fifth = tokenRange(doc, ["annotations", 4, "claim", "end", "str"]);
        await vscode.window.showTextDocument(doc, { selection: fifth });
        await waitFor(
            "annotation 4 current after navigating to its problem",
            () => vscode.commands.executeCommand<{ index: number }>("sourcecheck._currentAnnotation"),
            (t) => t?.index === 4,
        );
        // Typing inside annotation 0 moves the cursor with the text: not a choice of annotation.
        const first = tokenRange(doc, ["annotations", 0, "claim", "path"]);
        await editor.edit((b) => b.replace(first, doc.getText(first)));
        await sleep(300);
        const current = await vscode.commands.executeCommand<{ index: number }>("sourcecheck._currentAnnotation");
        assert.equal(current?.index, 4);
    });
});
