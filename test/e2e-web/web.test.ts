/**
 * SourceCheck in VS Code for the Web (docs/web.md): the extension in the web worker extension host, its
 * language server in a web worker, on a workspace of the in-memory scheme `sourcecheck-mem:` (memfs.ts).
 * Each test holds what a reviewer in github.dev relies on: the demo's diagnostics and hovers, a quick
 * fix and its undo, decorations on cited spans, Cite Selection as Claim.
 */
import { findNodeAtLocation, parseTree } from "jsonc-parser";
import * as vscode from "vscode";
import { assert, assertEqual, EXTENSION, ROOT, screenshot, waitFor, wsUri } from "./webHarness";

const ANSWERS = "answer.sourcecheck.json";

/** The demo's broken refs (its README): every offending boundary, code and JSON token. */
const EXPECTED: { path: (string | number)[]; code: string }[] = [
    { path: ["annotations", 4, "claim", "end", "str"], code: "boundary-ambiguous" },
    { path: ["annotations", 5, "sources", 0, "end", "str"], code: "boundary-not-found" },
    { path: ["annotations", 6, "sources", 0, "start", "str"], code: "boundary-not-found" },
    { path: ["annotations", 6, "sources", 0, "end", "str"], code: "boundary-not-found" },
    { path: ["annotations", 7, "sources", 0, "path"], code: "unreadable-document" },
    { path: ["annotations", 7, "sources", 1, "start", "line"], code: "line-out-of-range" },
    { path: ["annotations", 7, "sources", 1, "end", "line"], code: "line-out-of-range" },
];

function tokenRange(doc: vscode.TextDocument, path: (string | number)[]): vscode.Range {
    const node = findNodeAtLocation(parseTree(doc.getText())!, path);
    assert(node, `no JSON value at ${path.join("/")}`);
    return new vscode.Range(doc.positionAt(node.offset), doc.positionAt(node.offset + node.length));
}

const codeOf = (d: vscode.Diagnostic) => String(typeof d.code === "object" ? d.code.value : d.code);
const ours = (uri: vscode.Uri) => vscode.languages.getDiagnostics(uri).filter((d) => d.source === "sourcecheck");
const described = (doc: vscode.TextDocument, ds: vscode.Diagnostic[]) =>
    ds
        .map((d) => {
            const hit = EXPECTED.find((e) => tokenRange(doc, e.path).isEqual(d.range));
            return `${codeOf(d)} ${hit ? hit.path.join("/") : `at ${d.range.start.line + 1}:${d.range.start.character + 1}`}`;
        })
        .sort();

async function openAnswers(): Promise<vscode.TextDocument> {
    const doc = await vscode.workspace.openTextDocument(wsUri(ANSWERS));
    await vscode.window.showTextDocument(doc, { preview: false, viewColumn: vscode.ViewColumn.One });
    return doc;
}

describe("VS Code for the Web", () => {
    it("runs in the web worker extension host (no process), on the sourcecheck-mem: workspace", async () => {
        const processType = (globalThis as { sourcecheckProcessType?: string }).sourcecheckProcessType;
        assertEqual(processType, "undefined", "typeof process in the extension host");
        assertEqual(vscode.env.uiKind, vscode.UIKind.Web, "the UI kind");
        assertEqual(vscode.workspace.workspaceFolders?.[0]?.uri.toString(), ROOT.toString(), "the workspace folder");
        const extension = vscode.extensions.getExtension(EXTENSION);
        assert(
            extension,
            `${EXTENSION} is not loaded here; loaded: ${vscode.extensions.all
                .map((e) => e.id)
                .filter((id) => !id.startsWith("vscode."))
                .join(", ")}`,
        );
        await extension.activate();
        assert(extension.isActive, "the extension did not activate");
    });

    it("reports exactly the demo's broken refs, each on its JSON token", async () => {
        const doc = await openAnswers();
        const ds = await waitFor(
            () => ours(doc.uri),
            (found) => found.length >= EXPECTED.length,
            `${EXPECTED.length} diagnostics on ${ANSWERS}`,
        );
        assertEqual(described(doc, ds), EXPECTED.map((e) => `${e.code} ${e.path.join("/")}`).sort(), "diagnostics");
    });

    it("flags drift against the lock when a cited file changes outside the editor, and clears it when restored", async () => {
        const doc = await openAnswers();
        const notes = wsUri("sources/release-notes.md");
        const original = await vscode.workspace.fs.readFile(notes);
        const text = new TextDecoder().decode(original);
        assert(text.includes("now queue changes"), "release-notes.md line 5 is not the demo's");
        const drifted = (ds: vscode.Diagnostic[]) => ds.filter((d) => codeOf(d) === "text-changed");
        // Not open in an editor: only the file system's change event tells the server (docs/web.md).
        await vscode.workspace.fs.writeFile(notes, new TextEncoder().encode(text.replace("now queue", "now hold")));
        const flagged = await waitFor(
            () => drifted(ours(doc.uri)),
            (found) => found.length === 1,
            "one text-changed diagnostic after release-notes.md line 5 changed",
        );
        const source = tokenRange(doc, ["annotations", 1, "sources", 0]);
        assert(
            source.contains(flagged[0].range),
            `the drift is not on annotation 2's source: ${described(doc, flagged)}`,
        );
        await vscode.workspace.fs.writeFile(notes, original);
        await waitFor(
            () => drifted(ours(doc.uri)),
            (found) => found.length === 0,
            "no drift once restored",
        );
    });

    it("a cited file missing, then created outside the editor, is found; deleted, it is missing again", async () => {
        const doc = await openAnswers();
        const created = wsUri("sources/benchmarks.txt");
        const unreadable = () => ours(doc.uri).filter((d) => codeOf(d) === "unreadable-document");
        await waitFor(unreadable, (found) => found.length === 1, "sources/benchmarks.txt unreadable at first");
        const benchmark = await vscode.workspace.fs.readFile(wsUri("sources/benchmark.txt"));
        await vscode.workspace.fs.writeFile(created, benchmark);
        await waitFor(unreadable, (found) => found.length === 0, "sources/benchmarks.txt found once created");
        await vscode.workspace.fs.delete(created);
        await waitFor(unreadable, (found) => found.length === 1, "sources/benchmarks.txt missing again once deleted");
    });

    it("a hover on a ref shows the text it resolves to", async () => {
        const doc = await openAnswers();
        const at = tokenRange(doc, ["annotations", 0, "sources", 0, "start", "str"]).start.translate(0, 2);
        const hovers = await waitFor(
            () => vscode.commands.executeCommand<vscode.Hover[]>("vscode.executeHoverProvider", doc.uri, at),
            (found) => found.length > 0,
            "a hover on annotation 1's source",
        );
        const text = hovers
            .flatMap((h) => h.contents)
            .map((c) => (typeof c === "string" ? c : c.value))
            .join("\n");
        assert(text.includes("delta: -37%"), `the hover does not show the cited text: ${text}`);
    });

    it("decorates the cited spans of a cited document", async () => {
        const source = await vscode.workspace.openTextDocument(wsUri("sources/benchmark.txt"));
        await vscode.window.showTextDocument(source, { preview: false, viewColumn: vscode.ViewColumn.Two });
        const applied = await waitFor(
            () => vscode.commands.executeCommand<unknown>("sourcecheck._decorationsForEditor", source.uri.toString()),
            (found) => JSON.stringify(found ?? "").includes('"startLine":3'),
            "a decoration on line 4 of sources/benchmark.txt",
        );
        assert(JSON.stringify(applied).includes("supports"), `no supports decoration: ${JSON.stringify(applied)}`);
        await openAnswers();
        await screenshot("web-worker-demo");
    });

    it("applies a quick fix for the ambiguous boundary, and undo brings it back", async () => {
        const doc = await openAnswers();
        const original = doc.getText();
        const token = tokenRange(doc, EXPECTED[0].path);
        const diagnostic = await waitFor(
            () => ours(doc.uri).find((d) => d.range.isEqual(token)),
            (found) => found !== undefined,
            "the boundary-ambiguous diagnostic",
        );
        const actions = await waitFor(
            () =>
                vscode.commands.executeCommand<vscode.CodeAction[]>(
                    "vscode.executeCodeActionProvider",
                    doc.uri,
                    diagnostic!.range,
                    vscode.CodeActionKind.QuickFix.value,
                ),
            (found) => found.some((a) => (a.edit?.get(doc.uri) ?? []).length === 1),
            "a quick fix editing the boundary",
        );
        const fix = actions.find((a) => (a.edit?.get(doc.uri) ?? []).length === 1)!;
        assert(await vscode.workspace.applyEdit(fix.edit!), `the quick fix "${fix.title}" was not applied`);
        await waitFor(
            () => ours(doc.uri),
            (ds) => ds.length === EXPECTED.length - 1 && !ds.some((d) => codeOf(d) === "boundary-ambiguous"),
            "the ambiguous boundary's diagnostic gone after the fix",
        );
        await vscode.window.showTextDocument(doc);
        await vscode.commands.executeCommand("undo");
        assertEqual(doc.getText(), original, "the text after undo");
        await waitFor(
            () => ours(doc.uri),
            (ds) => ds.some((d) => codeOf(d) === "boundary-ambiguous"),
            "the diagnostic back after undo",
        );
        await vscode.commands.executeCommand("workbench.action.files.revert");
    });

    it("Cite Selection as Claim appends a claim citing the selection", async () => {
        const doc = await openAnswers();
        const original = doc.getText();
        const answer = await vscode.workspace.openTextDocument(wsUri("answer.md"));
        const line = answer.lineAt(7).text;
        const wanted = "available for Linux, macOS and Windows";
        const at = line.indexOf(wanted);
        assert(at >= 0, `line 8 of answer.md does not hold "${wanted}"`);
        const result = await vscode.commands.executeCommand<{
            ok: boolean;
            annotationIndex?: number;
            message?: string;
        }>("sourcecheck.citeSelectionAsClaim", {
            annotationFile: doc.uri.toString(),
            uri: answer.uri.toString(),
            range: { start: { line: 7, character: at }, end: { line: 7, character: at + wanted.length } },
        });
        assert(result?.ok, `citeSelectionAsClaim failed: ${result?.message}`);
        const value = JSON.parse(doc.getText()) as { annotations: { claim: unknown; sources: unknown[] }[] };
        const added = value.annotations[value.annotations.length - 1];
        assertEqual(
            added,
            {
                claim: { path: "answer.md", start: { line: 8, str: "available" }, end: { line: 8, str: "Windows" } },
                sources: [],
            },
            "the appended annotation",
        );
        await vscode.window.showTextDocument(doc);
        await vscode.commands.executeCommand("undo");
        assertEqual(doc.getText(), original, "the text after undo");
    });
});
