/**
 * Code actions that edit an annotation (issue 45; docs/editor-features.md, "Editing annotations"):
 * on a ref, remove its annotation; on a source, remove it, flip its polarity, set its confidence. The
 * oracle is the file's JSON with that one change made by hand: every other value stays as it was.
 */
import * as assert from "node:assert/strict";
import type { CodeAction, TextEdit } from "vscode-languageserver-protocol";
import { applyEdits, rangeOf, startClient, type TestClient } from "./harness";

interface Annotations {
    annotations: { claim: unknown; sources: { polarity: string; confidence: number }[] }[];
}

describe("code actions that edit an annotation", () => {
    let client: TestClient;
    let uri: string;
    let text: string;
    before(async () => {
        client = await startClient({ pull: false });
        uri = await client.open("answer.sourcecheck.json", "sourcecheck");
        text = client.text(uri);
        await client.waitForPublished(uri);
    });
    after(async () => {
        await client.stop();
    });

    const actionsAt = async (needle: string) =>
        (
            await client.request<CodeAction[]>("textDocument/codeAction", {
                textDocument: { uri },
                range: rangeOf(text, needle),
                context: { diagnostics: [], only: ["refactor"] },
            })
        ).filter((a) => ["removeAnnotation", "removeSource", "polarity", "confidence"].includes(kindOf(a)));
    const kindOf = (a: CodeAction) => (a.data as { kind: string }).kind;
    const applied = (action: CodeAction): Annotations => {
        const edits: TextEdit[] = action.edit?.changes?.[uri] ?? [];
        return JSON.parse(applyEdits(text, edits));
    };

    it("on a source: remove the annotation or the source, flip the polarity, set the confidence", async () => {
        const original: Annotations = JSON.parse(text);
        const actions = await actionsAt('"delta"');
        assert.deepEqual(
            actions.map((a) => a.title),
            [
                "Remove annotation 1",
                "Remove source 1 of annotation 1",
                "Make source 1 of annotation 1 refutes the claim",
                "Set the confidence of source 1 of annotation 1 to 0.9",
                "Set the confidence of source 1 of annotation 1 to 0.7",
                "Set the confidence of source 1 of annotation 1 to 0.5",
            ],
        );
        const byKind = (kind: string) => actions.filter((a) => kindOf(a) === kind);

        const withoutFirst = structuredClone(original);
        withoutFirst.annotations.splice(0, 1);
        assert.deepEqual(applied(byKind("removeAnnotation")[0]), withoutFirst);

        const withoutSource = structuredClone(original);
        withoutSource.annotations[0].sources = [];
        assert.deepEqual(applied(byKind("removeSource")[0]), withoutSource);

        const flipped = structuredClone(original);
        flipped.annotations[0].sources[0].polarity = "refutes";
        assert.deepEqual(applied(byKind("polarity")[0]), flipped);

        for (const [i, value] of [0.9, 0.7, 0.5].entries()) {
            const set = structuredClone(original);
            set.annotations[0].sources[0].confidence = value;
            assert.deepEqual(applied(byKind("confidence")[i]), set);
        }
        // Each edit touches only the tokens it changes: the file's other lines stay byte for byte.
        const polarityEdits = byKind("polarity")[0].edit?.changes?.[uri] ?? [];
        assert.deepEqual(
            polarityEdits.map((e) => e.newText),
            ['"refutes"'],
        );
    });

    it("on a claim: only removing its annotation; a refuting source is offered to support", async () => {
        const onClaim = await actionsAt('"never drops jobs"');
        assert.deepEqual(
            onClaim.map((a) => a.title),
            ["Remove annotation 4"],
        );
        const onSource = await actionsAt('"Under sustained"');
        assert.ok(onSource.some((a) => a.title === "Make source 1 of annotation 4 supports the claim"));
        // Its confidence is 0.9 already: that choice is not offered again.
        assert.ok(!onSource.some((a) => a.title.endsWith("to 0.9")));
    });

    it("after removing the only source, the claim waits for its sources: information, not an error", async () => {
        const [remove] = (await actionsAt('"delta"')).filter((a) => kindOf(a) === "removeSource");
        const edited = applyEdits(text, remove.edit?.changes?.[uri] ?? []);
        await client.change(uri, edited);
        const published = await client.waitForPublished(uri, (p) => p.version === client.version(uri));
        const waiting = published.diagnostics.filter((d) => d.message.includes("sources must not be empty"));
        assert.equal(waiting.length, 1);
        assert.equal(waiting[0].severity, 3, "information");
        await client.change(uri, text);
    });
});
