import * as assert from "node:assert/strict";
import type { CodeAction, Diagnostic, TextEdit } from "vscode-languageserver-protocol";
import { applyEdits, rangeOf, startClient, type TestClient } from "./harness";

describe("code actions", () => {
    let client: TestClient;
    let uri: string;
    let text: string;
    beforeEach(async () => {
        client = await startClient({ pull: false });
        uri = await client.open("answer.sourcecheck.json", "sourcecheck");
        text = client.text(uri);
        await client.waitForPublished(uri);
    });
    afterEach(async () => {
        await client.stop();
    });

    const actionsAt = (range: ReturnType<typeof rangeOf>, only?: string[], diagnostics: Diagnostic[] = []) =>
        client.request<CodeAction[]>("textDocument/codeAction", {
            textDocument: { uri },
            range,
            context: { diagnostics, only },
        });
    const editsOf = (action: CodeAction): TextEdit[] => action.edit?.changes?.[uri] ?? [];
    /** The range of the `line` number token just before a boundary string (the n-th such). */
    const lineTokenBefore = (needle: string, occurrence = 0) => {
        const at = rangeOf(text, needle, occurrence);
        const offset = text.split("\n").slice(0, at.start.line).join("\n").length + 1 + at.start.character;
        const lineValue = text.lastIndexOf('"line": ', offset) + '"line": '.length;
        const before = text.slice(0, lineValue);
        const line = before.split("\n").length - 1;
        const character = lineValue - (before.lastIndexOf("\n") + 1);
        return { start: { line, character }, end: { line, character: character + 1 } };
    };

    it("boundary-ambiguous: one quick fix per occurrence, shortest unique string, title with the span", async () => {
        const token = rangeOf(text, '"release"');
        const actions = await actionsAt(token, ["quickfix"]);
        assert.deepEqual(
            actions.map((a) => ({ kind: a.kind, edits: editsOf(a), preferred: a.isPreferred ?? false })),
            [
                { kind: "quickfix", edits: [{ range: token, newText: '"the release"' }], preferred: false },
                { kind: "quickfix", edits: [{ range: token, newText: '"previous release"' }], preferred: false },
            ],
        );
        assert.match(actions[0].title, /"the release".*answer\.md:7:1-7:37/);
        assert.match(actions[1].title, /"previous release".*answer\.md:7:1-7:82/);
        assert.deepEqual(
            actions[0].diagnostics?.map((d) => d.code),
            ["boundary-ambiguous"],
        );
        assert.deepEqual(actions[0].data, {
            uri,
            version: 1,
            kind: "extend",
            pointer: "/annotations/4/claim/end/str",
            value: "the release",
        });
    });

    it("boundary-ambiguous: preferred when only one occurrence yields a valid span", async () => {
        // End boundary "37%" stays; the start "3" occurs in "2.3" too, and only "37" (before the end) works.
        const edited = text.replace('"start": { "line": 3, "str": "37%" }', '"start": { "line": 3, "str": "3" }');
        await client.change(uri, edited);
        text = edited;
        const actions = await actionsAt(rangeOf(text, '"3"'), ["quickfix"]);
        const preferred = actions.filter((a) => a.isPreferred);
        assert.equal(actions.length, 2);
        assert.deepEqual(
            preferred.map((a) => editsOf(a)[0].newText),
            ['"37"'],
        );
    });

    it("boundary-not-found: replace with a near match on the line (annotation 5)", async () => {
        const token = rangeOf(text, '"planned for 2.6."');
        const actions = await actionsAt(token, ["quickfix"]);
        assert.equal(actions.length, 1);
        // A readable end string at the near match's end; not preferred: 2.5 for 2.6 is no certain repair.
        assert.ok(actions[0].title.startsWith('Replace with "2.5."'), actions[0].title);
        assert.deepEqual(editsOf(actions[0]), [{ range: token, newText: '"2.5."' }]);
        assert.equal(actions[0].isPreferred, undefined);
        // Applying it clears that diagnostic.
        await client.change(uri, applyEdits(text, editsOf(actions[0])));
        const params = await client.waitForPublished(uri, (p) => p.version === client.version(uri));
        assert.equal(params.diagnostics.length, 6);
        assert.ok(!params.diagnostics.some((d) => d.message.includes("2.6.")));
    });

    it("boundary-not-found: move to the nearby line where the string occurs once (annotation 6)", async () => {
        const start = await actionsAt(rangeOf(text, '"Faster cold start"'), ["quickfix"]);
        assert.equal(start.length, 1);
        assert.ok(start[0].title.startsWith("Move to line 6"), start[0].title);
        assert.deepEqual(editsOf(start[0]), [{ range: lineTokenBefore('"Faster cold start"'), newText: "6" }]);
        const end = await actionsAt(rangeOf(text, '"lazily."'), ["quickfix"]);
        assert.deepEqual(editsOf(end[0]), [{ range: lineTokenBefore('"lazily."'), newText: "6" }]);
    });

    it("line-out-of-range and unreadable-document: move to a line in range, use the near file name (annotation 7)", async () => {
        const line = lineTokenBefore('"2.4.0"');
        const actions = await actionsAt(line, ["quickfix"]);
        assert.deepEqual(
            actions.map((a) => editsOf(a)),
            [[{ range: line, newText: "3" }]],
        );
        const path = rangeOf(text, '"sources/benchmarks.txt"');
        const pathActions = await actionsAt(path, ["quickfix"]);
        assert.deepEqual(
            pathActions.map((a) => [a.title, editsOf(a)]),
            [['Replace with "sources/benchmark.txt"', [{ range: path, newText: '"sources/benchmark.txt"' }]]],
        );
    });

    it("refactor: shorten a valid ref to its shortest unique boundaries", async () => {
        const claim = rangeOf(text, '"offline sync"');
        const actions = await actionsAt(claim, ["refactor"]);
        assert.equal(actions.length, 1);
        assert.equal(actions[0].kind, "refactor.rewrite");
        assert.deepEqual(editsOf(actions[0]), [
            { range: claim, newText: '"of"' },
            { range: rangeOf(text, '"clients."'), newText: '"."' },
        ]);
    });

    it("refactor: a caret inside the ref is enough, a caret outside refs offers nothing", async () => {
        const inside = rangeOf(text, '"clients."').start;
        const caret = { start: inside, end: inside };
        const actions = await actionsAt(caret, ["refactor"]);
        assert.deepEqual(
            actions.map((a) => editsOf(a).map((e) => e.newText)),
            [['"of"', '"."']],
        );
        const outside = rangeOf(text, '"annotations"').start;
        assert.deepEqual(await actionsAt({ start: outside, end: outside }, ["refactor"]), []);
    });

    it("source.fixAll.sourcecheck fixes every unambiguous problem and leaves the ambiguous one", async () => {
        const actions = await actionsAt(rangeOf(text, "{"), ["source.fixAll"]);
        assert.equal(actions.length, 1);
        assert.equal(actions[0].kind, "source.fixAll.sourcecheck");
        const fixed = applyEdits(text, editsOf(actions[0]));
        await client.change(uri, fixed);
        const params = await client.waitForPublished(uri, (p) => p.version === client.version(uri));
        assert.deepEqual(
            params.diagnostics.map((d) => d.code),
            ["boundary-ambiguous"],
        );
        // Only tokens changed: the file keeps its layout line for line.
        assert.equal(fixed.split("\n").length, text.split("\n").length);
    });

    it("without `only`, source actions are not offered and no quick fix is invented for valid refs", async () => {
        const actions = await actionsAt(rangeOf(text, '"37%"'));
        assert.ok(actions.every((a) => a.kind !== "source.fixAll.sourcecheck" && a.kind !== "quickfix"));
    });
});
