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

    it("boundary-ambiguous: the order of the span decides which occurrence; preferred only when certain", async () => {
        // End boundary "37%" stays; the start "3" occurs in "2.3" too, and only "37" (before the end) works.
        const edited = text.replace('"start": { "line": 3, "str": "37%" }', '"start": { "line": 3, "str": "3" }');
        await client.change(uri, edited);
        text = edited;
        const actions = await actionsAt(rangeOf(text, '"3"'), ["quickfix"]);
        const repairs = actions.filter((a) => (a.data as { kind: string }).kind === "repair");
        assert.deepEqual(
            repairs.map((a) => editsOf(a).map((e) => e.newText)),
            [['"37"']],
        );
        // The engine's own verdict decides the flag: preferred exactly when certain.
        for (const a of repairs) assert.equal(a.isPreferred === true, (a.data as { certain: boolean }).certain);
    });

    it("boundary-not-found: a misquoted end boundary gets a fix of that token alone (annotation 6)", async () => {
        const token = rangeOf(text, '"planned for 2.6."');
        const actions = await actionsAt(token, ["quickfix"]);
        const repairs = actions.filter((a) => a.title.includes("misquoted") && a.isPreferred);
        assert.equal(repairs.length, 1, JSON.stringify(actions.map((a) => a.title)));
        // One number changed, the only place of the line within the limits, "Orbit 2.4 ships" found
        // as written: the only reading, certain (docs/repair.md, "Near matches").
        assert.match(repairs[0].title, /has exactly one near match there: "planned for 2\.5\."/);
        const edits = editsOf(repairs[0]);
        assert.deepEqual(
            edits.map((e) => e.range),
            [token],
        );
        assert.match(repairs[0].title, /sources\/release-notes\.md:16:1-16:\d+ "Orbit 2\.4 ships/);
        // Applying it clears that diagnostic.
        await client.change(uri, applyEdits(text, edits));
        const params = await client.waitForPublished(uri, (p) => p.version === client.version(uri));
        assert.equal(params.diagnostics.length, 6);
        assert.ok(!params.diagnostics.some((d) => d.message.includes("2.6.")));
    });

    it("boundary-not-found: the ref whose line moved is moved whole, both lines at once (annotation 7)", async () => {
        const start = await actionsAt(rangeOf(text, '"Faster cold start"'), ["quickfix"]);
        const preferred = start.filter((a) => a.isPreferred);
        assert.equal(preferred.length, 1);
        assert.ok(preferred[0].title.includes("lines shifted"), preferred[0].title);
        assert.deepEqual(editsOf(preferred[0]), [
            { range: lineTokenBefore('"Faster cold start"'), newText: "6" },
            { range: lineTokenBefore('"lazily."'), newText: "6" },
        ]);
        // The same fix is offered from the other boundary's diagnostic.
        const end = await actionsAt(rangeOf(text, '"lazily."'), ["quickfix"]);
        assert.deepEqual(editsOf(end.filter((a) => a.isPreferred)[0]), editsOf(preferred[0]));
    });

    it("line-out-of-range and unreadable-document: the certain repairs of annotation 8", async () => {
        const line = lineTokenBefore('"2.4.0"');
        const actions = (await actionsAt(line, ["quickfix"])).filter((a) => a.isPreferred);
        assert.deepEqual(
            actions.map((a) => editsOf(a).map((e) => e.newText)),
            [["3", "3"]],
        );
        const path = rangeOf(text, '"sources/benchmarks.txt"');
        const pathActions = (await actionsAt(path, ["quickfix"])).filter((a) => a.isPreferred);
        assert.deepEqual(
            pathActions.map((a) => editsOf(a)),
            [[{ range: path, newText: '"sources/benchmark.txt"' }]],
        );
    });

    /** The shortening refactor alone: the annotation's own edits (remove, flip, confidence) are refactors too, tested in annotationActions.test.ts. */
    const shortenings = (actions: CodeAction[]) =>
        actions.filter((a) => !ANNOTATION_ACTION_KINDS.has((a.data as { kind?: string } | undefined)?.kind ?? ""));
    const ANNOTATION_ACTION_KINDS = new Set(["removeAnnotation", "removeSource", "polarity", "confidence"]);

    it("refactor: shorten a valid ref to readable unique boundaries", async () => {
        const claim = rangeOf(text, '"offline sync"');
        const actions = shortenings(await actionsAt(claim, ["refactor"]));
        assert.equal(actions.length, 1);
        assert.equal(actions[0].kind, "refactor.rewrite");
        // Whole words only ("offline", not "of"); "clients." is already as short as it gets.
        assert.deepEqual(editsOf(actions[0]), [{ range: claim, newText: '"offline"' }]);
    });

    it("refactor: a caret inside the ref is enough, a caret outside refs offers nothing", async () => {
        const inside = rangeOf(text, '"clients."').start;
        const caret = { start: inside, end: inside };
        const actions = shortenings(await actionsAt(caret, ["refactor"]));
        assert.deepEqual(
            actions.map((a) => editsOf(a).map((e) => e.newText)),
            [['"offline"']],
        );
        const outside = rangeOf(text, '"annotations"').start;
        assert.deepEqual(await actionsAt({ start: outside, end: outside }, ["refactor"]), []);
    });

    it("source.fixAll.sourcecheck applies the certain repairs and leaves the others", async () => {
        const before = client.published.get(uri)?.diagnostics ?? [];
        const actions = await actionsAt(rangeOf(text, "{"), ["source.fixAll"]);
        assert.equal(actions.length, 1);
        assert.equal(actions[0].kind, "source.fixAll.sourcecheck");
        const fixed = applyEdits(text, editsOf(actions[0]));
        await client.change(uri, fixed);
        const params = await client.waitForPublished(uri, (p) => p.version === client.version(uri));
        // Annotations 6 (one number changed), 7 and 8 are repaired for certain; the ambiguity is left.
        assert.deepEqual(
            params.diagnostics.map((d) => d.code),
            ["boundary-ambiguous"],
        );
        assert.ok(params.diagnostics.every((d) => before.some((b) => b.message === d.message)));
        // Only tokens changed: the file keeps its layout line for line.
        assert.equal(fixed.split("\n").length, text.split("\n").length);
    });

    it("without `only`, source actions are not offered and no quick fix is invented for valid refs", async () => {
        const actions = await actionsAt(rangeOf(text, '"37%"'));
        assert.ok(actions.every((a) => a.kind !== "source.fixAll.sourcecheck" && a.kind !== "quickfix"));
    });
});
