import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as vscode from "vscode";
import { cleanSlate, codeOf, hoverText, prepare, showRange, tokenRange, waitForDiagnostics } from "./demo";
import { waitFor, wsUri } from "./harness";

// An annotation file that embeds its own session (docs/contract.md section 4, shape 1): refs resolve against
// the embedded documents, and every span points inside the file's own `content` strings.
const CONTENT = "alpha beta gamma\nbeta delta beta\n";
const FILE = "embedded.sourcecheck.json";
const SESSION = {
    session: { documents: [{ path: "notes", content: CONTENT }] },
    annotations: [
        {
            claim: { path: "notes", start: { line: 1, str: "alpha" }, end: { line: 1, str: "gamma" } },
            sources: [
                {
                    path: "notes",
                    start: { line: 2, str: "delta" },
                    end: { line: 2, str: "a beta" },
                    polarity: "supports",
                    confidence: 0.7,
                },
            ],
        },
        {
            claim: { path: "notes", start: { line: 2, str: "beta" }, end: { line: 2, str: "delta" } },
            sources: [],
        },
    ],
};

/** The range, in the annotation file, of content[from, to) of the embedded document. */
function inContent(doc: vscode.TextDocument, from: number, to: number): vscode.Range {
    const token = tokenRange(doc, ["session", "documents", 0, "content"]);
    const base = doc.offsetAt(token.start);
    // JSON.stringify(prefix) is the quote plus the escaped prefix: the raw offset after the prefix.
    const raw = (k: number) => base + JSON.stringify(CONTENT.slice(0, k)).length - 1;
    return new vscode.Range(doc.positionAt(raw(from)), doc.positionAt(raw(to)));
}

describe("annotation file with an embedded session", () => {
    let doc: vscode.TextDocument;
    before(async () => {
        await prepare();
        fs.writeFileSync(wsUri(FILE).fsPath, `${JSON.stringify(SESSION, null, 2)}\n`);
        doc = await vscode.workspace.openTextDocument(wsUri(FILE));
        await vscode.window.showTextDocument(doc);
    });
    after(async () => {
        await cleanSlate();
        fs.rmSync(wsUri(FILE).fsPath, { force: true });
    });

    it("reports the ambiguous boundary with its occurrences inside the content string; the valid annotation has none", async () => {
        const token = tokenRange(doc, ["annotations", 1, "claim", "start", "str"]);
        const ds = await waitForDiagnostics(doc.uri, (d) => d.length > 0, `diagnostics on ${FILE}`);
        // The empty `sources` of annotation 1 may be reported too (schema): only this ref is ambiguous.
        const ambiguous = ds.filter((d) => codeOf(d) === "boundary-ambiguous");
        assert.deepEqual(
            ambiguous.map((d) => showRange(d.range)),
            [showRange(token)],
        );
        assert.ok(
            !ds.some((d) => tokenRange(doc, ["annotations", 0]).contains(d.range)),
            `annotation 0 is valid but has ${JSON.stringify(ds.map((d) => d.message))}`,
        );
        const related = (ambiguous[0].relatedInformation ?? []).map(
            (r) => `${r.location.uri.toString()}#${showRange(r.location.range)}`,
        );
        const line2 = CONTENT.indexOf("\n") + 1;
        const want = [0, 11].map((c) => `${doc.uri.toString()}#${showRange(inContent(doc, line2 + c, line2 + c + 4))}`);
        assert.deepEqual(related.sort(), want.sort());
    });

    it("hover shows the text resolved in the embedded document", async () => {
        const position = tokenRange(doc, ["annotations", 0, "sources", 0, "start", "str"]).start.translate(0, 2);
        await waitFor(
            "a hover with the source text",
            async () =>
                hoverText(
                    (await vscode.commands.executeCommand<vscode.Hover[]>(
                        "vscode.executeHoverProvider",
                        doc.uri,
                        position,
                    )) ?? [],
                ),
            (t) => t.includes("delta beta"), // the span, not a boundary string
        );
        const claim = tokenRange(doc, ["annotations", 0, "claim", "start", "str"]).start.translate(0, 2);
        await waitFor(
            "a hover with the claim text",
            async () =>
                hoverText(
                    (await vscode.commands.executeCommand<vscode.Hover[]>(
                        "vscode.executeHoverProvider",
                        doc.uri,
                        claim,
                    )) ?? [],
                ),
            (t) => t.includes("alpha beta gamma"),
        );
    });

    it("go to definition lands inside the file's own content string", async () => {
        const position = tokenRange(doc, ["annotations", 0, "claim", "start", "str"]).start.translate(0, 2);
        const found = await waitFor(
            "a definition",
            () =>
                vscode.commands.executeCommand<(vscode.Location | vscode.LocationLink)[]>(
                    "vscode.executeDefinitionProvider",
                    doc.uri,
                    position,
                ),
            (r) => Array.isArray(r) && r.length > 0,
        );
        const hit = found[0];
        const uri = "uri" in hit ? hit.uri : hit.targetUri;
        const range = "uri" in hit ? hit.range : (hit.targetSelectionRange ?? hit.targetRange);
        assert.equal(uri.toString(), doc.uri.toString());
        assert.equal(showRange(range), showRange(inContent(doc, 0, "alpha beta gamma".length)));
    });
});
