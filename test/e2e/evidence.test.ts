import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import {
    annotationsUri,
    cleanSlate,
    openAnnotations,
    prepare,
    type Ref,
    resolveRef,
    restoreText,
    sourcecheckDiagnostics,
    tokenRange,
    valueAt,
} from "./demo";
import { waitFor, wsUri } from "./harness";

// Command id and argument shape: docs/evidence.md, "Editor".
type Result<T> = ({ ok: true } & T) | { ok: false; message: string; cancelled?: boolean; alreadyCited?: number };
interface Hit {
    path: string;
    startLine: number;
    endLine: number;
    score: number;
    headingPath: string[];
    ref: Ref | null;
}
type Found = Result<{
    annotationFile: string;
    /** The annotation and the source written, counted from 1. */
    annotation: number;
    source: number;
    ref: Ref;
    hits: Hit[];
    status: string;
}>;
interface Annotation {
    claim: Ref;
    sources: unknown[];
}

function findSources(args: unknown): Promise<Found> {
    return Promise.resolve(vscode.commands.executeCommand<Found>("sourcecheck.findSourcesForClaim", args));
}

describe("evidence: Find Sources for Claim", () => {
    let original = "";
    let doc: vscode.TextDocument;
    let index = -1;
    before(async () => {
        await prepare();
        doc = await openAnnotations();
        original = doc.getText();
        // The demo's claim about cold start, found by its text, not by a copied index: its only source
        // is broken, so the release notes' passage about cold start is not cited by it yet.
        index = valueAt<Annotation[]>(doc, ["annotations"]).findIndex(
            (a) => a.claim.start.str === "improves cold-start",
        );
        assert.ok(index >= 0, "the demo has a claim starting with 'improves cold-start'");
    });
    afterEach(async () => {
        await restoreText(doc, original);
        await cleanSlate();
    });
    /** Find Sources for the cold-start claim (`annotation` counted from 1), citing the release notes' best hit. */
    const supportsTheClaim = () => ({
        annotationFile: annotationsUri().toString(),
        annotation: index + 1,
        hit: "sources/release-notes.md",
        polarity: "supports",
        confidence: 0.7,
    });

    it("appends a hit's ref as a valid source of the claim's annotation, undone in one step", async () => {
        const before = valueAt<Annotation[]>(doc, ["annotations"])[index].sources.length;
        const result = await findSources(supportsTheClaim());
        assert.ok(result.ok, `findSourcesForClaim failed: ${result.ok ? "" : result.message}`);
        assert.ok(result.hits.length > 0);
        assert.ok(
            result.hits.every((h) => h.path !== "answer.md"),
            "the claim's own document is not offered as its source",
        );
        const hit = result.hits.find((h) => h.path === "sources/release-notes.md")!;
        assert.deepEqual(result.ref, hit.ref);
        // The ref resolves (by the suite's own resolver) inside the hit, to the passage about offline sync.
        const resolved = await resolveRef(result.ref);
        assert.ok(resolved, `the new ref ${JSON.stringify(result.ref)} does not resolve`);
        assert.ok(resolved.range.start.line + 1 >= hit.startLine && resolved.range.end.line + 1 <= hit.endLine);
        assert.match(resolved.text, /Faster cold start/);
        const sources = valueAt<Annotation[]>(doc, ["annotations"])[index].sources;
        assert.equal(sources.length, before + 1);
        assert.deepEqual(sources[before], { ...result.ref, polarity: "supports", confidence: 0.7 });
        assert.equal(result.source, before + 1);
        // The server agrees the new source is valid: no diagnostic inside it.
        const path = ["annotations", index, "sources", before];
        await waitFor(
            "no diagnostic on the new source",
            () => ({
                inNew: sourcecheckDiagnostics(annotationsUri()).filter((d) => tokenRange(doc, path).contains(d.range)),
                all: sourcecheckDiagnostics(annotationsUri()).length,
            }),
            (s) => s.inNew.length === 0 && s.all > 0,
        );
        // One undo removes the whole edit.
        await vscode.window.showTextDocument(doc);
        await vscode.commands.executeCommand("undo");
        await waitFor(
            "the annotation file back to its text",
            () => doc.getText(),
            (text) => text === original,
        );
    });

    it("searches for the claim under the cursor in the answer document", async () => {
        // Another claim than the one the first test made current, so falling back to it would fail.
        const annotations = valueAt<Annotation[]>(doc, ["annotations"]);
        const other = annotations.findIndex((a) => a.claim.start.str === "never drops jobs");
        assert.ok(other >= 0 && other !== index, "the demo has a claim starting with 'never drops jobs'");
        const claim = annotations[other].claim;
        const answer = await vscode.workspace.openTextDocument(wsUri(claim.path));
        const editor = await vscode.window.showTextDocument(answer);
        const line = answer.lineAt(claim.start.line - 1).text;
        const at = new vscode.Position(claim.start.line - 1, line.indexOf(claim.start.str) + 2);
        editor.selection = new vscode.Selection(at, at);
        const result = await waitFor(
            "a search from the cursor",
            () => findSources({ hit: "sources/release-notes.md", polarity: "refutes", confidence: 0.4 }),
            (r) => r.ok,
        );
        assert.ok(result.ok);
        assert.equal(result.annotation, other + 1);
        assert.equal(result.annotationFile, annotationsUri().toString());
        const resolved = await resolveRef(result.ref);
        assert.ok(resolved, `the new ref ${JSON.stringify(result.ref)} does not resolve`);
        assert.match(resolved.text, /heavy load/);
        const sources = valueAt<Annotation[]>(doc, ["annotations"])[other].sources;
        assert.deepEqual(sources[sources.length - 1], { ...result.ref, polarity: "refutes", confidence: 0.4 });
    });

    it("with the cursor on no claim, asks which claim (never the one used before), and writes nothing when dismissed", async () => {
        // A first search makes a claim current: the old behaviour would reuse it silently.
        const first = await findSources(supportsTheClaim());
        assert.ok(first.ok, first.ok ? "" : first.message);
        // The status counts from 1, as everything a person reads.
        assert.match(first.status, new RegExp(`added to annotation ${index + 1} as source \\d+$`));
        const textAfterFirst = doc.getText();
        const answer = await vscode.workspace.openTextDocument(wsUri("answer.md"));
        const editor = await vscode.window.showTextDocument(answer);
        editor.selection = new vscode.Selection(0, 2, 0, 2); // the heading: no claim there
        const pending = findSources({ hit: "sources/release-notes.md", polarity: "supports", confidence: 0.7 });
        // The pick of claims opens; dismissing it cancels the whole command.
        await new Promise((resolve) => setTimeout(resolve, 1500));
        await vscode.commands.executeCommand("workbench.action.closeQuickOpen");
        const result = await pending;
        assert.ok(!result.ok && result.cancelled, JSON.stringify(result));
        assert.equal(doc.getText(), textAfterFirst, "nothing was appended to the remembered claim");
    });

    it("says so, and adds nothing, when the picked span is already a source of that annotation", async () => {
        const args = supportsTheClaim();
        const first = await findSources(args);
        assert.ok(first.ok, first.ok ? "" : first.message);
        const once = doc.getText();
        const again = await findSources(args);
        assert.ok(!again.ok);
        assert.equal(again.alreadyCited, first.source);
        assert.match(again.message, new RegExp(`already source ${first.source} of annotation ${index + 1}`));
        assert.equal(doc.getText(), once);
        // The demo's own source of the offline-sync claim is the release notes' line about it: found, not added twice.
        const offline = valueAt<Annotation[]>(doc, ["annotations"]).findIndex(
            (a) => a.claim.start.str === "offline sync",
        );
        const demo = await findSources({ ...args, annotation: offline + 1 });
        assert.ok(!demo.ok && demo.alreadyCited === 1, JSON.stringify(demo));
        assert.equal(doc.getText(), once);
    });

    it("shows the search's progress in a notification, and Cancel stops it: nothing picked or written", async () => {
        // 1,500 new documents: a cold read of 256 files a step, so the search is cancelled under way.
        const bulk = wsUri("sources/bulk").fsPath;
        fs.mkdirSync(bulk, { recursive: true });
        for (let i = 1; i <= 1500; i++)
            fs.writeFileSync(path.join(bulk, `note-${i}.md`), `# Note ${i}\n\nThe weather on day ${i} was mild.\n`);
        try {
            const args = supportsTheClaim();
            const cancelled = (await findSources({ ...args, cancelAfterProgress: 1 })) as Found & {
                progress?: string[];
            };
            assert.ok(!cancelled.ok && cancelled.cancelled, JSON.stringify(cancelled));
            assert.match(cancelled.message, /cancelled/i);
            // The notification showed the server's count of files read (more than one step's worth to go).
            assert.match(cancelled.progress?.[0] ?? "", /^256 of \d{4} files read$/);
            assert.equal(doc.getText(), original, "nothing written");
            // The next search reads what the cancelled one did not, and finishes.
            const after = await findSources(args);
            assert.ok(after.ok, after.ok ? "" : after.message);
        } finally {
            fs.rmSync(bulk, { recursive: true, force: true });
        }
    });

    it("says so, and writes nothing, when the claim does not resolve", async () => {
        const result = await findSources({ annotationFile: annotationsUri().toString(), annotation: 999, hit: 0 });
        assert.ok(!result.ok);
        assert.match(result.message, /no claim|does not resolve/);
        assert.equal(doc.getText(), original);
    });
});
