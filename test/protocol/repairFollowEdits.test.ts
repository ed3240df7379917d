import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import type { TextDocumentEdit } from "vscode-languageserver-protocol";
import type { RefsCanFollowParams, RefUpdate } from "../../shared/customProtocol";
import { applyEdits, copyDemo, type Edit, startClient, type TestClient } from "./harness";

const ANNOTATIONS = "answer.sourcecheck.json";
const NOTES = "sources/release-notes.md";

interface Ref {
    path: string;
    start: { line: number; str: string };
    end: { line: number; str: string };
}

/** docs/contract.md section 2, written again here: the resolved text of a ref in some content, or undefined. */
function resolve(content: string, ref: Ref): string | undefined {
    const lines = content.split("\n");
    const count = (line: string, s: string) => {
        let n = 0;
        for (let i = line.indexOf(s); i !== -1; i = line.indexOf(s, i + 1)) n++;
        return n;
    };
    const a = lines[ref.start.line - 1];
    const b = lines[ref.end.line - 1];
    if (a === undefined || b === undefined || ref.start.line > ref.end.line) return undefined;
    if (count(a, ref.start.str) !== 1 || count(b, ref.end.str) !== 1) return undefined;
    const s = a.indexOf(ref.start.str);
    const e = b.indexOf(ref.end.str) + ref.end.str.length;
    if (ref.start.line === ref.end.line) return s <= e - ref.end.str.length ? a.slice(s, e) : undefined;
    return [a.slice(s), ...lines.slice(ref.start.line, ref.end.line - 1), b.slice(0, e)].join("\n");
}

function refsInto(annotationText: string, document: string): Ref[] {
    const value = JSON.parse(annotationText) as { annotations: { claim: Ref; sources: Ref[] }[] };
    return value.annotations.flatMap((a) => [a.claim, ...a.sources]).filter((r) => r.path === document);
}

function editsFor(update: RefUpdate, uri: string): Edit[] {
    const changes = (update.edit.documentChanges ?? []) as TextDocumentEdit[];
    return changes.filter((c) => c.textDocument.uri === uri).flatMap((c) => c.edits);
}

describe("refs follow edits of a cited document (sourcecheck/followEdits)", () => {
    let client: TestClient;
    let root: string;
    let notices: RefsCanFollowParams[];

    async function start(settings: Record<string, unknown> = {}) {
        root = copyDemo();
        client = await startClient({ root, pull: false, settings });
        notices = [];
        client.connection.onNotification("sourcecheck/refsCanFollow", (p: RefsCanFollowParams) => notices.push(p));
        await client.waitForPublished(client.uri(ANNOTATIONS));
    }
    afterEach(async () => {
        await client.stop();
    });

    /** Insert text at a 0-based line of an open document as an incremental change, as VS Code sends it. */
    async function insertAt(uri: string, line: number, text: string, version: number) {
        await client.connection.sendNotification("textDocument/didChange", {
            textDocument: { uri, version },
            contentChanges: [{ range: { start: { line, character: 0 }, end: { line, character: 0 } }, text }],
        });
    }

    it("two lines pasted at the top: the client is told, and one edit moves every valid ref, touching only line numbers", async () => {
        await start();
        const notesUri = await client.open(NOTES, "markdown");
        const before = fs.readFileSync(path.join(root, NOTES), "utf8");
        const annotationText = fs.readFileSync(path.join(root, ANNOTATIONS), "utf8");
        const valid = refsInto(annotationText, NOTES).filter((r) => resolve(before, r) !== undefined);
        assert.ok(valid.length >= 3, "the demo cites release-notes.md with valid refs");

        await insertAt(notesUri, 0, "Draft\n\n", 2);
        const after = `Draft\n\n${before}`;
        await client.waitFor(() => notices.some((n) => n.refCount > 0), "a refsCanFollow notification");
        const notice = notices.at(-1) as RefsCanFollowParams;
        assert.deepEqual(notice, { uri: notesUri, refCount: valid.length, fileCount: 1 });

        const update = await client.request<RefUpdate>("sourcecheck/followEdits", { uri: notesUri });
        assert.equal(update.refCount, valid.length);
        const annotationsUri = client.uri(ANNOTATIONS);
        const changes = update.edit.documentChanges as TextDocumentEdit[];
        // The annotation file is closed: no version to hold the edit to.
        assert.deepEqual(
            changes.map((c) => c.textDocument),
            [{ uri: annotationsUri, version: null }],
        );
        const edits = editsFor(update, annotationsUri);
        assert.equal(edits.length, valid.length * 2, "a start and an end line per ref");
        for (const edit of edits) {
            assert.match(edit.newText, /^\d+$/, "only line numbers change");
            assert.equal(edit.range.start.line, edit.range.end.line);
        }
        const updated = applyEdits(annotationText, edits);
        assert.equal(updated.split("\n").length, annotationText.split("\n").length, "the layout is kept");
        // Every ref valid before resolves after the edit to the very same text; broken ones are untouched.
        const beforeRefs = refsInto(annotationText, NOTES);
        const afterRefs = refsInto(updated, NOTES);
        beforeRefs.forEach((ref, i) => {
            const text = resolve(before, ref);
            if (text === undefined) assert.deepEqual(afterRefs[i], ref, "a broken ref is left alone");
            else assert.equal(resolve(after, afterRefs[i]), text);
        });
        // Taken: nothing is pending any more.
        const again = await client.request<RefUpdate>("sourcecheck/followEdits", { uri: notesUri });
        assert.equal(again.refCount, 0);
    });

    it("an open annotation file gets a versioned edit; edits over several pauses compose into one", async () => {
        await start();
        const annotationsUri = await client.open(ANNOTATIONS, "sourcecheck");
        const notesUri = await client.open(NOTES, "markdown");
        const annotationText = client.text(annotationsUri);
        const before = client.text(notesUri);
        await insertAt(notesUri, 0, "one\n", 2);
        await client.waitFor(() => notices.some((n) => n.refCount > 0), "the first notification");
        await insertAt(notesUri, 0, "two\nthree\n", 3);
        // The follow-up request flushes the second pause at once.
        const update = await client.request<RefUpdate>("sourcecheck/followEdits", { uri: notesUri });
        const changes = update.edit.documentChanges as TextDocumentEdit[];
        assert.deepEqual(
            changes.map((c) => c.textDocument),
            [{ uri: annotationsUri, version: 1 }],
        );
        const updated = applyEdits(annotationText, editsFor(update, annotationsUri));
        const after = `two\nthree\none\n${before}`;
        const beforeRefs = refsInto(annotationText, NOTES);
        const afterRefs = refsInto(updated, NOTES);
        beforeRefs.forEach((ref, i) => {
            const text = resolve(before, ref);
            if (text !== undefined) {
                assert.equal(afterRefs[i].start.line, ref.start.line + 3);
                assert.equal(resolve(after, afterRefs[i]), text);
            }
        });
    });

    it("undoing the edit before answering leaves nothing to update", async () => {
        await start();
        const notesUri = await client.open(NOTES, "markdown");
        await insertAt(notesUri, 0, "x\n", 2);
        await client.waitFor(() => notices.some((n) => n.refCount > 0), "the notification");
        await client.connection.sendNotification("textDocument/didChange", {
            textDocument: { uri: notesUri, version: 3 },
            contentChanges: [{ range: { start: { line: 0, character: 0 }, end: { line: 1, character: 0 } }, text: "" }],
        });
        await client.waitFor(() => notices.at(-1)?.refCount === 0, "a notification that nothing is pending");
        const update = await client.request<RefUpdate>("sourcecheck/followEdits", { uri: notesUri });
        assert.equal(update.refCount, 0);
    });

    it("a cited line cut, then pasted elsewhere by a later edit: the ref follows its text", async () => {
        await start();
        const notesUri = await client.open(NOTES, "markdown");
        const before = client.text(notesUri);
        const lines = before.split("\n");
        const cutLine = lines.findIndex((l) => l.startsWith("- Offline sync"));
        await client.connection.sendNotification("textDocument/didChange", {
            textDocument: { uri: notesUri, version: 2 },
            contentChanges: [
                {
                    range: { start: { line: cutLine, character: 0 }, end: { line: cutLine + 1, character: 0 } },
                    text: "",
                },
            ],
        });
        // The cut settles on its own pause (the refs below it move up; taken here, not applied).
        const cutUpdate = await client.request<RefUpdate>("sourcecheck/followEdits", { uri: notesUri });
        assert.ok(cutUpdate.refCount >= 2, "the refs below the cut line move up");
        const pasteAt = lines.length - 1;
        await insertAt(notesUri, pasteAt - 1, `${lines[cutLine]}\n`, 3);
        const update = await client.request<RefUpdate>("sourcecheck/followEdits", { uri: notesUri });
        assert.equal(update.refCount, 1);
        const annotationText = fs.readFileSync(path.join(root, ANNOTATIONS), "utf8");
        const updated = applyEdits(annotationText, editsFor(update, client.uri(ANNOTATIONS)));
        const after = [...lines.slice(0, cutLine), ...lines.slice(cutLine + 1)];
        after.splice(pasteAt - 1, 0, lines[cutLine]);
        const ref = refsInto(annotationText, NOTES)[0];
        assert.equal(resolve(after.join("\n"), refsInto(updated, NOTES)[0]), resolve(before, ref));
    });

    it("dismissed updates are dropped, and with updateRefsOnEdit = never nothing is tracked", async () => {
        await start();
        const notesUri = await client.open(NOTES, "markdown");
        await insertAt(notesUri, 0, "x\n", 2);
        await client.waitFor(() => notices.some((n) => n.refCount > 0), "the notification");
        await client.connection.sendNotification("sourcecheck/dismissFollowEdits", { uri: notesUri });
        assert.equal((await client.request<RefUpdate>("sourcecheck/followEdits", { uri: notesUri })).refCount, 0);
        await client.stop();

        await start({ updateRefsOnEdit: "never" });
        const uri = await client.open(NOTES, "markdown");
        await insertAt(uri, 0, "x\n", 2);
        const update = await client.request<RefUpdate>("sourcecheck/followEdits", { uri });
        assert.equal(update.refCount, 0);
        assert.deepEqual(notices, []);
    });
});

describe("paths follow a renamed cited document (sourcecheck/pathsForRename)", () => {
    let client: TestClient;
    let root: string;
    beforeEach(async () => {
        root = copyDemo();
        client = await startClient({ root, pull: false });
        await client.waitForPublished(client.uri(ANNOTATIONS));
    });
    afterEach(async () => {
        await client.stop();
    });

    const pathsIn = (text: string) =>
        (JSON.parse(text) as { annotations: { claim: Ref; sources: Ref[] }[] }).annotations.flatMap((a) => [
            a.claim.path,
            ...a.sources.map((s) => s.path),
        ]);

    it("a renamed file: every path citing it, and only those, is rewritten", async () => {
        const update = await client.request<RefUpdate>("sourcecheck/pathsForRename", {
            files: [{ oldUri: client.uri(NOTES), newUri: client.uri("notes/orbit-2.4.md") }],
        });
        const text = fs.readFileSync(path.join(root, ANNOTATIONS), "utf8");
        const edits = editsFor(update, client.uri(ANNOTATIONS));
        const before = pathsIn(text);
        const expected = before.map((p) => (p === NOTES ? "notes/orbit-2.4.md" : p));
        assert.equal(update.refCount, before.filter((p) => p === NOTES).length);
        assert.ok(edits.every((e) => e.newText === '"notes/orbit-2.4.md"'));
        assert.deepEqual(pathsIn(applyEdits(text, edits)), expected);
    });

    it("a renamed folder: the paths of every file under it follow", async () => {
        const update = await client.request<RefUpdate>("sourcecheck/pathsForRename", {
            files: [{ oldUri: client.uri("sources"), newUri: client.uri("cited") }],
        });
        const text = fs.readFileSync(path.join(root, ANNOTATIONS), "utf8");
        const after = pathsIn(applyEdits(text, editsFor(update, client.uri(ANNOTATIONS))));
        assert.deepEqual(
            after,
            pathsIn(text).map((p) => p.replace(/^sources\//, "cited/")),
        );
    });

    it("a file nobody cites: no edit", async () => {
        const update = await client.request<RefUpdate>("sourcecheck/pathsForRename", {
            files: [{ oldUri: client.uri("README.md"), newUri: client.uri("README2.md") }],
        });
        assert.deepEqual(update, { edit: { documentChanges: [] }, refCount: 0, fileCount: 0 });
    });
});
