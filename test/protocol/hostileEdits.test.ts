/**
 * Hostile edits: every code action the server offers over a corpus of broken files is applied and
 * judged (valid JSON, one token changed, the ref fixed and nothing new broken), source.fixAll too;
 * and 1,000 didChange notifications fired without waiting must end on diagnostics of the last text.
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import type { CodeAction, Diagnostic, TextEdit } from "vscode-languageserver-protocol";
import { LocatedText } from "../../server/src/core/parse";
import { applyEdits, copyDemo, positionOf, sleep, startClient, type TestClient } from "./harness";
import { assertHealthy, comparable, offsetOf, prng, within } from "./hostileHelpers";

const BOUND_MS = 5000;
const demoText = () => fs.readFileSync(path.join(copyDemo(), "answer.sourcecheck.json"), "utf8");

/** The demo (annotations 4-7 broken) and crafted breakages, each one replacement of the demo. */
const CRAFTED: [string, string, string][] = [
    ["ambiguous start", '"line": 4, "str": "offline sync"', '"line": 4, "str": "s"'],
    ["ambiguous end", '"line": 5, "str": "minutes."', '"line": 5, "str": "te"'],
    ["near-miss str", '"line": 4, "str": "clients."', '"line": 4, "str": "client."'],
    ["near-miss case", '"line": 5, "str": "Offline sync"', '"line": 5, "str": "offline sync"'],
    ["near-miss CJK", '"str": "不到十分钟。"', '"str": "不到十分种。"'],
    ["moved line", '"line": 5, "str": "reconnected."', '"line": 6, "str": "reconnected."'],
    ["line out of range", '"end": { "line": 3, "str": "37%" }', '"end": { "line": 30, "str": "37%" }'],
    ["near-miss path", '"path": "sources/survey-zh.md"', '"path": "sources/survey-zh.mdx"'],
];

function corpus(): { name: string; text: string }[] {
    const demo = demoText();
    return [
        { name: "demo", text: demo },
        ...CRAFTED.map(([name, from, to]) => {
            assert.equal(demo.split(from).length, 2, `${from} occurs once in the demo`);
            return { name, text: demo.replace(from, to) };
        }),
    ];
}

const pointerOf = (d: Diagnostic) => (d.data as { pointer: string }).pointer;
const refOf = (pointer: string) => /^\/annotations\/\d+\/(claim|sources\/\d+)/.exec(pointer)?.[0] ?? pointer;
const keyOf = (d: Diagnostic) => `${d.code} ${pointerOf(d)}`;

/** The JSON pointers of a ref's tokens a fix may touch. */
const tokenPointers = (ref: string) => [
    `${ref}/path`,
    ...["start", "end"].flatMap((b) => [`${ref}/${b}/str`, `${ref}/${b}/line`]),
];

/** Checks that an edit replaces exactly one token of `ref` with a value of the same JSON type; returns its pointer. */
function assertTokenEdit(text: string, edit: TextEdit, ref: string, what: string): string {
    const located = new LocatedText(text);
    const start = offsetOf(text, edit.range.start);
    const end = offsetOf(text, edit.range.end);
    const pointer = tokenPointers(ref).find((p) => {
        const span = located.spanOf(p);
        return span.offset === start && span.offset + span.length === end;
    });
    assert.ok(
        pointer,
        `${what}: the edit ${JSON.stringify(edit.range)} replaces "${text.slice(start, end)}", not one token of ${ref}`,
    );
    const before = JSON.parse(text.slice(start, end)) as unknown;
    const after = JSON.parse(edit.newText) as unknown;
    assert.equal(typeof after, typeof before, `${what}: ${edit.newText} keeps the token's type`);
    if (typeof after === "number") assert.ok(Number.isInteger(after) && after >= 1, `${what}: a line number`);
    else assert.ok(typeof after === "string" && after.length > 0, `${what}: a non-empty string`);
    return pointer;
}

/** Every ref pointer of an annotation file. */
function refPointers(text: string): string[] {
    const value = JSON.parse(text) as { annotations: { sources?: unknown[] }[] };
    return value.annotations.flatMap((a, i) => [
        `/annotations/${i}/claim`,
        ...(a.sources ?? []).map((_, j) => `/annotations/${i}/sources/${j}`),
    ]);
}

/** The ref whose token an edit replaces (for edits spanning the file: fix-all). */
function refOfEdit(text: string, edit: TextEdit): string {
    const located = new LocatedText(text);
    const start = offsetOf(text, edit.range.start);
    return (
        refPointers(text).find((ref) =>
            tokenPointers(ref).some((p) => located.spanOf(p).offset === start && p !== ref),
        ) ?? ""
    );
}

describe("hostile input: edits", () => {
    let client: TestClient | undefined;
    let fresh: TestClient | undefined;
    afterEach(async () => {
        await client?.stop();
        await fresh?.stop();
        client = undefined;
        fresh = undefined;
    });

    it("every code action offered over the broken corpus: valid JSON, one token changed, the ref fixed, nothing new", async function () {
        this.timeout(60000);
        client = await startClient({ pull: true });
        const uri = await client.open("answer.sourcecheck.json", "sourcecheck");
        let applied = 0;
        let announcedBroken = 0;
        const kinds = new Map<string, number>();
        for (const { name, text } of corpus()) {
            await client.change(uri, text);
            // Problems only: a repaired ref may start inside a word, an informational note that is no failure.
            const before = problemsOnly(await client.pull(uri));
            assert.ok(before.length > 0, `${name}: broken`);
            const offered: { action: CodeAction; fixes?: Diagnostic }[] = [];
            for (const diagnostic of before) {
                const actions = await within(
                    client.request<CodeAction[]>("textDocument/codeAction", {
                        textDocument: { uri },
                        range: diagnostic.range,
                        context: { diagnostics: [diagnostic], only: ["quickfix"] },
                    }),
                    BOUND_MS,
                    "code actions",
                );
                for (const action of actions) offered.push({ action, fixes: diagnostic });
            }
            const rewrites = await client.request<CodeAction[]>("textDocument/codeAction", {
                textDocument: { uri },
                range: { start: { line: 0, character: 0 }, end: positionOf(text, text.length) },
                context: { diagnostics: [], only: ["refactor.rewrite"] },
            });
            for (const action of rewrites) offered.push({ action });
            if (name !== "demo") {
                assert.ok(
                    offered.some((o) => o.fixes !== undefined && !/\/annotations\/[4-7]\//.test(pointerOf(o.fixes))),
                    `${name}: a quick fix for the crafted breakage`,
                );
            }

            for (const { action, fixes } of offered) {
                const what = `${name}: "${action.title}"`;
                const edits = action.edit?.changes?.[uri] ?? [];
                assert.ok(
                    edits.length > 0 && Object.keys(action.edit?.changes ?? {}).length === 1,
                    `${what}: edits this file`,
                );
                const data = action.data as { pointer: string; kind: string; version: number };
                const ref = refOf(data.pointer);
                for (const edit of edits) assertTokenEdit(text, edit, ref || refOfEdit(text, edit), what);
                const edited = applyEdits(text, edits);
                assert.doesNotThrow(() => JSON.parse(edited), `${what}: valid JSON`);

                await client.change(uri, edited);
                const after: Diagnostic[] = problemsOnly(
                    await within(client.pull(uri), BOUND_MS, "pull after the fix"),
                );
                const beforeKeys = new Set(before.map(keyOf));
                if (data.kind === "fixAll") {
                    // Every certain repair of the file at once: fewer problems, none new.
                    assert.ok(after.length < before.length, `${what}: fewer problems`);
                    for (const d of after) assert.ok(beforeKeys.has(keyOf(d)), `${what}: ${keyOf(d)} is new`);
                    await client.change(uri, text);
                    applied++;
                    kinds.set(data.kind, (kinds.get(data.kind) ?? 0) + 1);
                    continue;
                }
                const afterForRef: string[] = after.filter((d) => refOf(pointerOf(d)) === ref).map(keyOf);
                if (fixes) assert.ok(!afterForRef.includes(keyOf(fixes)), `${what}: ${keyOf(fixes)} is gone`);
                if (/still broken/.test(action.title)) {
                    // One occurrence per ambiguous hit is offered, each with its outcome: one that leaves the
                    // ref broken says so in its title, is never preferred, and never part of fixAll.
                    const fresh = afterForRef.filter((key) => !beforeKeys.has(key));
                    if (fresh.length > 0) {
                        announcedBroken++;
                        assert.notEqual(action.isPreferred, true, `${what}: a fix that breaks anew is not preferred`);
                    }
                    for (const key of fresh) {
                        const message = after.find((d) => keyOf(d) === key)?.message ?? key;
                        assert.ok(
                            action.title.includes(message),
                            `${what}: ${key} (${message}) announced in the title`,
                        );
                    }
                } else {
                    assert.deepEqual(afterForRef, [], `${what}: the ref resolves`);
                }
                // Every other ref is judged exactly as before.
                const others = (list: Diagnostic[]) =>
                    list
                        .filter((d) => refOf(pointerOf(d)) !== ref)
                        .map(keyOf)
                        .sort();
                assert.deepEqual(others(after), others(before), `${what}: other refs untouched`);
                await client.change(uri, text);
                applied++;
                kinds.set(data.kind, (kinds.get(data.kind) ?? 0) + 1);
            }
        }
        // The corpus exercises each kind of fix the server has.
        assert.deepEqual([...kinds.keys()].sort(), ["fixAll", "repair", "shorten"]);
        assert.ok(applied >= 20, `${applied} actions applied`);
        assertHealthy(client);
        console.log(
            `      ${applied} code actions applied (${[...kinds].map(([k, n]) => `${k} ${n}`).join(", ")}); ${announcedBroken} announced a new order problem in their title`,
        );
    });

    it("source.fixAll over the corpus: valid JSON, one-token edits, fewer problems and no new ones", async function () {
        this.timeout(60000);
        client = await startClient({ pull: true });
        const uri = await client.open("answer.sourcecheck.json", "sourcecheck");
        let fixedTotal = 0;
        for (const { name, text } of corpus()) {
            await client.change(uri, text);
            const before = await client.pull(uri);
            const [action, ...more]: CodeAction[] = await within(
                client.request<CodeAction[]>("textDocument/codeAction", {
                    textDocument: { uri },
                    range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
                    context: { diagnostics: [], only: ["source.fixAll"] },
                }),
                BOUND_MS,
                "fixAll",
            );
            assert.equal(more.length, 0);
            assert.ok(action, `${name}: something to fix`);
            const edits: TextEdit[] = action.edit?.changes?.[uri] ?? [];
            const touched = new Set<string>();
            const located = new LocatedText(text);
            const broken = [...new Set(before.map((d) => refOf(pointerOf(d))))];
            for (const edit of edits) {
                const start = offsetOf(text, edit.range.start);
                const ref = broken.find((r) => {
                    const span = located.spanOf(r);
                    return span.offset <= start && start < span.offset + span.length;
                });
                assert.ok(ref, `${name}: fixAll edits only refs with a problem`);
                touched.add(assertTokenEdit(text, edit, ref, `${name}: fixAll`));
            }
            assert.equal(touched.size, edits.length, `${name}: one edit per token`);
            const edited = applyEdits(text, edits);
            assert.doesNotThrow(() => JSON.parse(edited), `${name}: valid JSON after fixAll`);
            await client.change(uri, edited);
            const after = await client.pull(uri);
            const beforeKeys = new Set(before.map(keyOf));
            for (const d of after) assert.ok(beforeKeys.has(keyOf(d)), `${name}: fixAll introduced ${keyOf(d)}`);
            assert.ok(after.length < before.length, `${name}: ${before.length} -> ${after.length} problems`);
            fixedTotal += before.length - after.length;
        }
        assert.ok(fixedTotal >= corpus().length);
        assertHealthy(client);
    });

    for (const pull of [true, false]) {
        it(`1,000 didChange without waiting end on the last text's diagnostics (${pull ? "pull" : "push"})`, async function () {
            this.timeout(60000);
            const root = copyDemo();
            const demo = fs.readFileSync(path.join(root, "answer.sourcecheck.json"), "utf8");
            const final = demo.replace('"line": 5, "str": "reconnected."', '"line": 6, "str": "reconnected."');
            client = await startClient({ pull, root });
            const uri = await client.open("answer.sourcecheck.json", "sourcecheck");
            const random = prng(1000);
            let text = demo;
            for (let i = 0; i < 999; i++) {
                const at = Math.floor(random() * text.length);
                text =
                    random() < 0.5 ? text.slice(0, at) + text.slice(at + 1) : `${text.slice(0, at)}"${text.slice(at)}`;
                if (i % 100 === 99) text = demo;
                void client.change(uri, text);
            }
            const version = await client.change(uri, final);
            assert.equal(version, 1001);

            fresh = await startClient({ pull: true, root });
            const freshUri = await fresh.open("answer.sourcecheck.json", "sourcecheck", final);
            const expected = comparable(await fresh.pull(freshUri));
            assert.equal(expected.length, 8, "the final text: the demo's 7 problems and the moved line");

            if (pull) {
                assert.deepEqual(comparable(await within(client.pull(uri), BOUND_MS, "pull")), expected);
            } else {
                await client.waitForPublished(uri, (p) => p.version === version);
                await sleep(600); // past the debounce: nothing later may overwrite it
                const mine = client.publishLog.filter((p) => p.uri === uri);
                const last = mine[mine.length - 1];
                assert.equal(last.version, version);
                assert.deepEqual(comparable(last.diagnostics), expected);
            }
            assertHealthy(client);
        });
    }
});

/** Errors and warnings, without informational notes such as `mid-word-boundary`. */
function problemsOnly(diagnostics: Diagnostic[]): Diagnostic[] {
    return diagnostics.filter((d) => d.severity === undefined || d.severity <= 2);
}
