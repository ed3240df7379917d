import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import {
    annotationsUri,
    cleanSlate,
    type JsonPath,
    lineOf,
    openAnnotations,
    pointer,
    prepare,
    type Ref,
    readableEndingAt,
    readableStartingAt,
    resolveRef,
    restoreText,
    sourcecheckDiagnostics,
    tokenRange,
    valueAt,
} from "./demo";
import { waitFor, wsUri } from "./harness";

// The command ids and argument shapes are the client's contract in client/E2E-HOOKS.md.
type Result<T> = ({ ok: true } & T) | { ok: false; message: string; cancelled?: boolean };
interface LspRange {
    start: { line: number; character: number };
    end: { line: number; character: number };
}

/** The LSP range of `text` on 1-based `line` of a workspace file (it must occur there once). */
async function selectionOf(
    path: string,
    line: number,
    text: string,
    endLine = line,
    endText = text,
): Promise<LspRange> {
    const first = await lineOf(path, line);
    const last = await lineOf(path, endLine);
    const s = first.indexOf(text);
    const e = last.indexOf(endText);
    assert.ok(s >= 0 && e >= 0, `${JSON.stringify(text)} not on line ${line} of ${path}`);
    return { start: { line: line - 1, character: s }, end: { line: endLine - 1, character: e + endText.length } };
}

/**
 * A correct ref for a selection: it resolves to exactly the selected span, and its boundaries are the
 * readable ones at the selection's ends: the shortest unique strings that end (start) or begin (end)
 * at a word edge (docs/boundaries.md), never a one-letter fragment of a word.
 */
async function assertRefFor(ref: Ref, path: string, selection: LspRange): Promise<void> {
    assert.equal(ref.path, path);
    assert.equal(ref.start.line, selection.start.line + 1);
    assert.equal(ref.end.line, selection.end.line + 1);
    const resolved = await resolveRef(ref);
    assert.ok(resolved, `the inserted ref ${JSON.stringify(ref)} does not resolve`);
    const r = resolved.range;
    assert.deepEqual(
        [r.start.line, r.start.character, r.end.line, r.end.character],
        [selection.start.line, selection.start.character, selection.end.line, selection.end.character],
        `the ref ${JSON.stringify(ref)} resolves to ${JSON.stringify(resolved.text)}, not the selection`,
    );
    const startLine = await lineOf(path, ref.start.line);
    const endLine = await lineOf(path, ref.end.line);
    const sameLine = ref.start.line === ref.end.line;
    assert.equal(
        ref.start.str,
        readableStartingAt(startLine, selection.start.character, sameLine ? selection.end.character : undefined),
        "start is not the shortest word-aligned unique string",
    );
    assert.equal(
        ref.end.str,
        readableEndingAt(endLine, selection.end.character, sameLine ? selection.start.character : undefined),
        "end is not the shortest word-aligned unique string",
    );
}

function run<T>(command: string, args: unknown): Promise<Result<T>> {
    return Promise.resolve(vscode.commands.executeCommand<Result<T>>(command, args));
}

function ok<T>(result: Result<T> | undefined, what: string): asserts result is { ok: true } & T {
    assert.ok(result, `${what} returned nothing`);
    assert.ok(result.ok, `${what} failed: ${result.ok ? "" : result.message}`);
}

describe("authoring commands", () => {
    let original = "";
    let doc: vscode.TextDocument;
    before(async () => {
        await prepare();
        doc = await openAnnotations();
        original = doc.getText();
    });
    afterEach(async () => {
        await restoreText(doc, original);
        await cleanSlate();
    });

    it("cite claim, add supporting and refuting sources: each inserts a correct ref, and the new annotation is valid", async () => {
        const count = valueAt<unknown[]>(doc, ["annotations"]).length;
        const claimSel = await selectionOf("answer.md", 8, "available for Linux, macOS and Windows");
        const claim = await run<{ annotationFile: string; annotation: number; ref: Ref }>(
            "sourcecheck.citeSelectionAsClaim",
            { annotationFile: annotationsUri().toString(), uri: wsUri("answer.md").toString(), range: claimSel },
        );
        ok(claim, "sourcecheck.citeSelectionAsClaim");
        assert.equal(claim.annotation, count + 1, "the annotation written, counted from 1");
        await assertRefFor(claim.ref, "answer.md", claimSel);
        assert.deepEqual(valueAt(doc, ["annotations", count]), { claim: claim.ref, sources: [] });

        const supportSel = await selectionOf("sources/release-notes.md", 16, "Orbit 2.4 ships for Linux and macOS.");
        const supports = await run<{ annotation: number; source: number; ref: Ref }>(
            "sourcecheck.addSelectionAsSupportingSource",
            {
                annotationFile: annotationsUri().toString(),
                annotation: count + 1,
                confidence: 0.95,
                uri: wsUri("sources/release-notes.md").toString(),
                range: supportSel,
            },
        );
        ok(supports, "sourcecheck.addSelectionAsSupportingSource");
        assert.deepEqual([supports.annotation, supports.source], [count + 1, 1]);
        await assertRefFor(supports.ref, "sources/release-notes.md", supportSel);

        const refuteSel = await selectionOf("sources/release-notes.md", 16, "Windows support is planned");
        const refutes = await run<{ annotation: number; source: number; ref: Ref }>(
            "sourcecheck.addSelectionAsRefutingSource",
            {
                annotationFile: annotationsUri().toString(),
                annotation: count + 1,
                confidence: 0.7,
                uri: wsUri("sources/release-notes.md").toString(),
                range: refuteSel,
            },
        );
        ok(refutes, "sourcecheck.addSelectionAsRefutingSource");
        assert.deepEqual([refutes.annotation, refutes.source], [count + 1, 2]);
        await assertRefFor(refutes.ref, "sources/release-notes.md", refuteSel);

        assert.deepEqual(valueAt(doc, ["annotations", count]), {
            claim: claim.ref,
            sources: [
                { ...supports.ref, polarity: "supports", confidence: 0.95 },
                { ...refutes.ref, polarity: "refutes", confidence: 0.7 },
            ],
        });
        assert.ok(doc.isDirty, "the annotation file is edited in its buffer, not saved");
        // The server agrees: nothing is reported inside the new annotation.
        const path: JsonPath = ["annotations", count];
        const inNew = () =>
            sourcecheckDiagnostics(annotationsUri()).filter((d) => tokenRange(doc, path).contains(d.range));
        await waitFor(
            `no diagnostics inside ${pointer(path)}`,
            () => ({ inNew: inNew(), all: sourcecheckDiagnostics(annotationsUri()).length }),
            (s) => s.inNew.length === 0 && s.all > 0,
        );
        // The existing annotations are untouched.
        for (let i = 0; i < count; i++) {
            assert.deepEqual(
                valueAt(doc, ["annotations", i]),
                (JSON.parse(original) as { annotations: unknown[] }).annotations[i],
            );
        }
    });

    it("copy ref for a multi-line selection returns a correct ref as JSON", async () => {
        const sel = await selectionOf("answer.md", 5, "report that", 6, "even under");
        await vscode.env.clipboard.writeText("not a ref"); // what the clipboard held before
        const result = await run<{ ref: Ref; text: string }>("sourcecheck.copyRefForSelection", {
            uri: wsUri("answer.md").toString(),
            range: sel,
        });
        ok(result, "sourcecheck.copyRefForSelection");
        await assertRefFor(result.ref, "answer.md", sel);
        assert.deepEqual(JSON.parse(result.text), result.ref);
        // The ref is on the clipboard, as the command says.
        assert.deepEqual(JSON.parse(await vscode.env.clipboard.readText()), result.ref);
        assert.equal(doc.getText(), original, "copying a ref must not edit the annotation file");
    });

    it("Cite Selection as Claim writes word-aligned boundaries: never one letter of a word", async () => {
        // "37%" on line 3: the character-level shortest strings would be "3" … "%"; readable ones are "37" … "37%".
        const sel = await selectionOf("answer.md", 3, "37%");
        const claim = await run<{ ref: Ref }>("sourcecheck.citeSelectionAsClaim", {
            annotationFile: annotationsUri().toString(),
            uri: wsUri("answer.md").toString(),
            range: sel,
        });
        ok(claim, "sourcecheck.citeSelectionAsClaim");
        assert.deepEqual(claim.ref, { path: "answer.md", start: { line: 3, str: "37" }, end: { line: 3, str: "37%" } });
        const sentence = await selectionOf("answer.md", 4, "The release adds offline sync for mobile clients.");
        const second = await run<{ ref: Ref }>("sourcecheck.citeSelectionAsClaim", {
            annotationFile: annotationsUri().toString(),
            uri: wsUri("answer.md").toString(),
            range: sentence,
        });
        ok(second, "sourcecheck.citeSelectionAsClaim");
        // Character level this would be start "T" and end "." (both unique on line 4); a lone "The"
        // says nothing, so the start reaches the next word (docs/boundaries.md, "Readable").
        assert.deepEqual(second.ref, {
            path: "answer.md",
            start: { line: 4, str: "The release" },
            end: { line: 4, str: "clients." },
        });
    });

    it("a selection that starts and ends inside words cites the whole words, and the status says so (and counts from 1)", async () => {
        const count = valueAt<unknown[]>(doc, ["annotations"]).length;
        const slip = await selectionOf("sources/release-notes.md", 7, "ew scheduler with priority queu");
        const whole = await selectionOf("sources/release-notes.md", 7, "New scheduler with priority queues");
        const claim = await run<{ ref: Ref; annotation: number; status: string; widenedTo?: LspRange }>(
            "sourcecheck.citeSelectionAsClaim",
            {
                annotationFile: annotationsUri().toString(),
                uri: wsUri("sources/release-notes.md").toString(),
                range: slip,
            },
        );
        ok(claim, "sourcecheck.citeSelectionAsClaim");
        assert.deepEqual(claim.widenedTo, whole);
        await assertRefFor(claim.ref, "sources/release-notes.md", whole);
        assert.equal(claim.annotation, count + 1);
        assert.match(claim.status, new RegExp(`^SourceCheck: claim added as annotation ${count + 1} in `));
        assert.match(claim.status, /whole words are cited: “New scheduler with priority queues”/);

        // `shortest` keeps character precision: the fragment is cited as selected.
        const settings = vscode.workspace.getConfiguration("sourcecheck");
        await settings.update("boundaryStyle", "shortest", vscode.ConfigurationTarget.Workspace);
        try {
            const exact = await waitFor(
                "a ref for the exact selection",
                () =>
                    run<{ ref: Ref; widenedTo?: LspRange }>("sourcecheck.copyRefForSelection", {
                        uri: wsUri("sources/release-notes.md").toString(),
                        range: slip,
                    }),
                (r) => r?.ok === true && r.widenedTo === undefined,
            );
            ok(exact, "sourcecheck.copyRefForSelection");
            const resolved = await resolveRef(exact.ref);
            assert.equal(resolved?.text, "ew scheduler with priority queu");
        } finally {
            await settings.update("boundaryStyle", undefined, vscode.ConfigurationTarget.Workspace);
        }
    });

    it("refuses an empty selection and writes nothing", async () => {
        const result = await run("sourcecheck.citeSelectionAsClaim", {
            annotationFile: annotationsUri().toString(),
            uri: wsUri("answer.md").toString(),
            range: { start: { line: 2, character: 5 }, end: { line: 2, character: 5 } },
        });
        assert.ok(result && !result.ok, `an empty selection was cited: ${JSON.stringify(result)}`);
        assert.ok(result.message.length > 0);
        assert.equal(doc.getText(), original);
    });
});
