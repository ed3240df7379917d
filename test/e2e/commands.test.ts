import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import {
    annotationsUri,
    cleanSlate,
    hoverText,
    openAnnotations,
    prepare,
    type Ref,
    resolveRef,
    resolveSimpleRef,
    showRange,
    tokenRange,
    valueAt,
} from "./demo";
import { waitFor, wsUri } from "./harness";

// The remaining commands of client/E2E-HOOKS.md, and the language status item.
type Result<T> = ({ ok: true } & T) | { ok: false; message: string };
interface PlainRange {
    startLine: number;
    startCharacter: number;
    endLine: number;
    endCharacter: number;
}
type Applied = Record<"claim" | "supports" | "refutes", PlainRange[]>;

function ok<T>(result: Result<T> | undefined, what: string): asserts result is { ok: true } & T {
    assert.ok(result, `${what} returned nothing`);
    assert.ok(result.ok, `${what} failed: ${result.ok ? "" : result.message}`);
}

const decorationCount = (a: Applied | undefined) => (a ? a.claim.length + a.supports.length + a.refutes.length : 0);

describe("other commands and the language status", () => {
    before(prepare);
    afterEach(cleanSlate);

    it("the language status of the annotation file counts the annotations that resolve", async () => {
        const doc = await openAnnotations();
        const annotations = valueAt<{ claim: Ref; sources: Ref[] }[]>(doc, ["annotations"]);
        let valid = 0;
        for (const a of annotations) {
            const refs = [a.claim, ...a.sources];
            const resolved = await Promise.all(refs.map(resolveRef));
            if (resolved.every((r) => r !== undefined)) valid++;
        }
        const want = `${valid}/${annotations.length} valid`;
        await waitFor(
            `a language status saying ${want}`,
            () =>
                vscode.commands.executeCommand<{ kind: string; uri?: string; text?: string }>(
                    "sourcecheck._languageStatus",
                ),
            (s) => s?.kind === "summary" && s.uri === annotationsUri().toString() && (s.text ?? "").includes(want),
        );
    });

    it("toggle decorations removes them from the editor and brings them back", async () => {
        const answer = wsUri("answer.md");
        await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(answer));
        const probe = () =>
            vscode.commands.executeCommand<Applied>("sourcecheck._decorationsForEditor", answer.toString());
        const before = await waitFor("decorations on answer.md", probe, (a) => decorationCount(a) > 0);
        const off = await vscode.commands.executeCommand<Result<{ enabled: boolean }>>("sourcecheck.toggleDecorations");
        try {
            ok(off, "sourcecheck.toggleDecorations");
            assert.equal(off.enabled, false);
            await waitFor("no decorations", probe, (a) => decorationCount(a) === 0);
        } finally {
            const on = await vscode.commands.executeCommand<Result<{ enabled: boolean }>>(
                "sourcecheck.toggleDecorations",
            );
            ok(on, "sourcecheck.toggleDecorations");
            assert.equal(on.enabled, true);
        }
        const after = await waitFor("decorations again", probe, (a) => decorationCount(a) === decorationCount(before));
        assert.deepEqual(after, before);
    });

    it("restart server starts a new server process that answers", async () => {
        const doc = await openAnnotations();
        const pid = () => vscode.commands.executeCommand<number | undefined>("sourcecheck._serverPid");
        const before = await waitFor("the running server's process id", pid, (p) => typeof p === "number");
        const result = await vscode.commands.executeCommand<Result<object>>("sourcecheck.restartServer");
        ok(result, "sourcecheck.restartServer");
        const after = await waitFor("a server process again", pid, (p) => typeof p === "number");
        assert.notEqual(after, before, "restart kept the same server process");
        // The new server answers: a hover needs a live server (diagnostics could be stale).
        const ref = valueAt<Ref>(doc, ["annotations", 1, "sources", 0]);
        const { text } = await resolveSimpleRef(ref);
        const position = tokenRange(doc, ["annotations", 1, "sources", 0, "start", "str"]).start.translate(0, 2);
        await waitFor(
            "a hover from the restarted server",
            async () =>
                hoverText(
                    (await vscode.commands.executeCommand<vscode.Hover[]>(
                        "vscode.executeHoverProvider",
                        doc.uri,
                        position,
                    )) ?? [],
                ),
            (t) => t.includes(text),
        );
    });

    it("show line index numbers every line of a CRLF document as SourceCheck counts them", async () => {
        const uri = wsUri("sources/benchmark.txt");
        const source = await vscode.workspace.openTextDocument(uri);
        const lines = source.getText().replace(/\r\n?/g, "\n").split("\n");
        const result = await vscode.commands.executeCommand<Result<{ uri: string; text: string }>>(
            "sourcecheck.showLineIndex",
            uri.toString(),
        );
        ok(result, "sourcecheck.showLineIndex");
        const shown = result.text.split("\n");
        let at = 0;
        lines.forEach((line, i) => {
            if (line === "") return;
            const n = String(i + 1);
            const found = shown.findIndex((s, k) => k >= at && new RegExp(`^\\s*${n}\\b`).test(s) && s.endsWith(line));
            assert.ok(found >= 0, `line ${n} ${JSON.stringify(line)} is not numbered ${n} in:\n${result.text}`);
            at = found + 1;
        });
        const opened = await vscode.workspace.openTextDocument(vscode.Uri.parse(result.uri));
        assert.equal(opened.getText(), result.text);
    });

    it("build session from open documents embeds their LF-normalised text", async () => {
        const paths = ["answer.md", "sources/benchmark.txt"];
        for (const p of paths) {
            await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(wsUri(p)), { preview: false });
        }
        await openAnnotations(); // an annotation file is open too, and must be left out
        const result = await vscode.commands.executeCommand<Result<{ uri: string; paths: string[] }>>(
            "sourcecheck.buildSessionFromOpenDocuments",
        );
        ok(result, "sourcecheck.buildSessionFromOpenDocuments");
        assert.deepEqual([...result.paths].sort(), [...paths].sort());
        const session = await vscode.workspace.openTextDocument(vscode.Uri.parse(result.uri));
        const json = JSON.parse(session.getText());
        const documents: { path: string; content: string }[] = json.session?.documents ?? json.documents;
        assert.ok(Array.isArray(documents), `no documents in ${session.getText().slice(0, 300)}`);
        assert.deepEqual(documents.map((d) => d.path).sort(), [...paths].sort());
        for (const d of documents) {
            const text = (await vscode.workspace.openTextDocument(wsUri(d.path))).getText().replace(/\r\n?/g, "\n");
            assert.equal(d.content, text, `content of ${d.path}`);
        }
        await vscode.commands.executeCommand("workbench.action.revertAndCloseActiveEditor");
    });

    it("open ref shows the cited span selected", async () => {
        const doc = await vscode.workspace.openTextDocument(annotationsUri());
        const want = await resolveSimpleRef(valueAt<Ref>(doc, ["annotations", 3, "sources", 0]));
        const range = {
            start: { line: want.range.start.line, character: want.range.start.character },
            end: { line: want.range.end.line, character: want.range.end.character },
        };
        const result = await vscode.commands.executeCommand<Result<object>>("sourcecheck.openRef", {
            uri: want.uri.toString(),
            range,
        });
        ok(result, "sourcecheck.openRef");
        const editor = await waitFor(
            "the cited document in the active editor",
            () => vscode.window.activeTextEditor,
            (e) => e?.document.uri.toString() === want.uri.toString(),
        );
        assert.ok(editor);
        assert.equal(showRange(editor.selection), showRange(want.range));
        assert.equal(editor.document.getText(editor.selection), want.text);
    });
});
