import * as assert from "node:assert/strict";
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
type Result<T> = ({ ok: true } & T) | { ok: false; message: string; cancelled?: boolean };
interface Hit {
    path: string;
    startLine: number;
    endLine: number;
    score: number;
    headingPath: string[];
    ref: Ref | null;
}
type Found = Result<{ annotationFile: string; annotationIndex: number; sourceIndex: number; ref: Ref; hits: Hit[] }>;
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
        // The demo's claim about offline sync, found by its text, not by a copied index.
        index = valueAt<Annotation[]>(doc, ["annotations"]).findIndex((a) => a.claim.start.str === "offline sync");
        assert.ok(index >= 0, "the demo has a claim starting with 'offline sync'");
    });
    afterEach(async () => {
        await restoreText(doc, original);
        await cleanSlate();
    });

    it("appends a hit's ref as a valid source of the claim's annotation, undone in one step", async () => {
        const before = valueAt<Annotation[]>(doc, ["annotations"])[index].sources.length;
        const result = await findSources({
            annotationFile: annotationsUri().toString(),
            annotationIndex: index,
            hit: "sources/release-notes.md",
            polarity: "supports",
            confidence: 0.7,
        });
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
        assert.match(resolved.text, /Offline sync/);
        const sources = valueAt<Annotation[]>(doc, ["annotations"])[index].sources;
        assert.equal(sources.length, before + 1);
        assert.deepEqual(sources[before], { ...result.ref, polarity: "supports", confidence: 0.7 });
        assert.equal(result.sourceIndex, before);
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
        assert.equal(result.annotationIndex, other);
        assert.equal(result.annotationFile, annotationsUri().toString());
        const resolved = await resolveRef(result.ref);
        assert.ok(resolved, `the new ref ${JSON.stringify(result.ref)} does not resolve`);
        assert.match(resolved.text, /heavy load/);
        const sources = valueAt<Annotation[]>(doc, ["annotations"])[other].sources;
        assert.deepEqual(sources[sources.length - 1], { ...result.ref, polarity: "refutes", confidence: 0.4 });
    });

    it("says so, and writes nothing, when the claim does not resolve", async () => {
        const result = await findSources({ annotationFile: annotationsUri().toString(), annotationIndex: 999, hit: 0 });
        assert.ok(!result.ok);
        assert.match(result.message, /no claim|does not resolve/);
        assert.equal(doc.getText(), original);
    });
});
