import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { findNodeAtLocation, parseTree } from "jsonc-parser";
import type { CodeAction, Diagnostic, TextEdit } from "vscode-languageserver-protocol";
import { applyEdits, copyDemo, positionOf, startClient, type TestClient } from "./harness";

const ANNOTATIONS = "answer.sourcecheck.json";
const NOTES = "sources/release-notes.md";
const FIX_ALL_TITLE = "Fix all certain SourceCheck repairs in this file";

interface Ref {
    path: string;
    start: { line: number; str: string };
    end: { line: number; str: string };
}
interface Spot {
    line: number; // 1-based
    column: number; // 0-based
    endLine: number;
    endColumn: number;
    text: string;
}

/** docs/contract.md section 2, written again for the test: where a ref resolves in some content, or undefined. */
function resolve(content: string, ref: Ref): Spot | undefined {
    const lines = content.split("\n");
    const all = (hay: string, s: string) => {
        const found: number[] = [];
        for (let i = hay.indexOf(s); i !== -1; i = hay.indexOf(s, i + 1)) found.push(i);
        return found;
    };
    const a = lines[ref.start.line - 1];
    const b = lines[ref.end.line - 1];
    if (a === undefined || b === undefined || ref.start.line > ref.end.line) return undefined;
    const s = all(a, ref.start.str);
    const e = all(b, ref.end.str);
    if (s.length !== 1 || e.length !== 1) return undefined;
    const endColumn = e[0] + ref.end.str.length;
    if (ref.start.line === ref.end.line && (s[0] > e[0] || s[0] + ref.start.str.length > endColumn)) return undefined;
    const text =
        ref.start.line === ref.end.line
            ? a.slice(s[0], endColumn)
            : [a.slice(s[0]), ...lines.slice(ref.start.line, ref.end.line - 1), b.slice(0, endColumn)].join("\n");
    return { line: ref.start.line, column: s[0], endLine: ref.end.line, endColumn, text };
}

type Annotations = { annotations: { claim: Ref; sources: Ref[] }[] };
const refsOf = (text: string) => (JSON.parse(text) as Annotations).annotations.map((a) => [a.claim, ...a.sources]);

/** The LSP range of a JSON token, by path. */
function tokenRange(text: string, jsonPath: (string | number)[]) {
    const node = findNodeAtLocation(parseTree(text) as NonNullable<ReturnType<typeof parseTree>>, jsonPath);
    assert.ok(node, `no ${jsonPath.join("/")}`);
    return { start: positionOf(text, node.offset), end: positionOf(text, node.offset + node.length) };
}

describe("repair quick fixes and fix-all (whole refs, certain ones preferred)", () => {
    let client: TestClient;
    let root: string;
    let uri: string;
    let text: string;
    let notes: string;

    beforeEach(async () => {
        root = copyDemo();
        client = await startClient({ root, pull: false });
        uri = await client.open(ANNOTATIONS, "sourcecheck");
        text = client.text(uri);
        notes = fs.readFileSync(path.join(root, NOTES), "utf8");
        await client.waitForPublished(uri);
    });
    afterEach(async () => {
        await client.stop();
    });

    const actionsAt = (range: ReturnType<typeof tokenRange>, only?: string[], diagnostics: Diagnostic[] = []) =>
        client.request<CodeAction[]>("textDocument/codeAction", {
            textDocument: { uri },
            range,
            context: { diagnostics, only },
        });
    const editsOf = (action: CodeAction): TextEdit[] => action.edit?.changes?.[uri] ?? [];
    const published = () => client.waitForPublished(uri, (p) => p.version === client.version(uri));

    /** Two lines pasted at the top of the release notes (unsaved): every ref into it breaks. */
    async function pasteAtTopOfNotes(): Promise<string> {
        const notesUri = await client.open(NOTES, "markdown");
        const after = `Draft\n\n${notes}`;
        await client.change(notesUri, after);
        await client.waitForPublished(uri, (p) => p.diagnostics.length > 7);
        return after;
    }

    it("a shifted ref: one preferred fix moves the whole ref, its title gives the span with 1-based numbers and its text", async () => {
        const after = await pasteAtTopOfNotes();
        // Annotation 2 (the second), source 1: "Offline sync" ... "reconnected." on line 5, now line 7.
        const ref = refsOf(text)[1][1];
        const was = resolve(notes, ref) as Spot;
        const actions = await actionsAt(tokenRange(text, ["annotations", 1, "sources", 0, "start", "str"]), [
            "quickfix",
        ]);
        const repairs = actions.filter((a) => a.title !== FIX_ALL_TITLE);
        const preferred = repairs.filter((a) => a.isPreferred);
        assert.equal(preferred.length, 1, JSON.stringify(actions.map((a) => a.title)));
        const [fix] = preferred;
        // The whole ref moves in one fix: both line tokens, and nothing else.
        assert.deepEqual(editsOf(fix), [
            { range: tokenRange(text, ["annotations", 1, "sources", 0, "start", "line"]), newText: "7" },
            { range: tokenRange(text, ["annotations", 1, "sources", 0, "end", "line"]), newText: "7" },
        ]);
        const fixed = refsOf(applyEdits(text, editsOf(fix)))[1][1];
        const now = resolve(after, fixed) as Spot;
        assert.equal(now.text, was.text);
        assert.ok(
            fix.title.includes(`${NOTES}:7:${now.column + 1}-7:${now.endColumn + 1}`),
            `1-based span in "${fix.title}"`,
        );
        assert.ok(fix.title.includes(now.text.slice(0, 30)), `the span's text in "${fix.title}"`);
        assert.equal(fix.kind, "quickfix");
        assert.ok((fix.diagnostics ?? []).length > 0);
        assert.ok(fix.diagnostics?.every((d) => d.code === "boundary-not-found"));
        // The menu of the diagnostic also offers every certain repair of the file at once.
        assert.equal(actions.filter((a) => a.title === FIX_ALL_TITLE).length, 1);
        assert.ok(!actions.find((a) => a.title === FIX_ALL_TITLE)?.isPreferred);
    });

    it("a ref with short strings, shifted with the refs around it: its repair is corroborated, preferred and in fix-all", async () => {
        // "New" … "priority" (line 7) alone could be a deleted line's words found again; the refs
        // above (line 5) and below (line 16) moved by the same two lines, so it did too.
        const weak = {
            annotations: [
                {
                    claim: refsOf(text)[1][0],
                    sources: [
                        { ...refsOf(text)[1][1], polarity: "supports", confidence: 0.9 },
                        {
                            path: NOTES,
                            start: { line: 7, str: "New" },
                            end: { line: 7, str: "priority" },
                            polarity: "supports",
                            confidence: 0.5,
                        },
                        {
                            path: NOTES,
                            start: { line: 16, str: "Orbit 2.4 ships" },
                            end: { line: 16, str: "planned for 2.5." },
                            polarity: "supports",
                            confidence: 0.5,
                        },
                    ],
                },
            ],
        };
        const weakText = JSON.stringify(weak, null, 2);
        const weakUri = await client.open("weak.sourcecheck.json", "sourcecheck", weakText);
        await client.waitForPublished(weakUri);
        const after = await pasteAtTopOfNotes();
        await client.waitForPublished(weakUri, (p) => p.diagnostics.length >= 3);
        const actions = await client.request<CodeAction[]>("textDocument/codeAction", {
            textDocument: { uri: weakUri },
            range: (() => {
                const node = findNodeAtLocation(parseTree(weakText) as NonNullable<ReturnType<typeof parseTree>>, [
                    "annotations",
                    0,
                    "sources",
                    1,
                    "start",
                    "str",
                ]);
                assert.ok(node);
                return {
                    start: positionOf(weakText, node.offset),
                    end: positionOf(weakText, node.offset + node.length),
                };
            })(),
            context: { diagnostics: [], only: ["quickfix"] },
        });
        const preferred = actions.filter((a) => a.isPreferred);
        assert.equal(preferred.length, 1, JSON.stringify(actions.map((a) => a.title)));
        const fixed = refsOf(applyEdits(weakText, preferred[0].edit?.changes?.[weakUri] ?? []))[0][2];
        assert.deepEqual([fixed.start.line, fixed.end.line], [9, 9]);
        assert.equal(resolve(after, fixed)?.text, "New scheduler with priority");
        const fixAll = await client.request<CodeAction[]>("textDocument/codeAction", {
            textDocument: { uri: weakUri },
            range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
            context: { diagnostics: [], only: ["source.fixAll"] },
        });
        const all = refsOf(applyEdits(weakText, fixAll[0]?.edit?.changes?.[weakUri] ?? []))[0];
        assert.deepEqual(
            all.slice(1).map((r) => resolve(after, r)?.text),
            [
                "Offline sync: mobile clients now queue changes while offline and sync when reconnected.",
                "New scheduler with priority",
                "Orbit 2.4 ships for Linux and macOS. Windows support is planned for 2.5.",
            ],
        );
    });

    it("an ambiguity nothing decides (annotation 5's claim): candidates with their span's text, none preferred", async () => {
        const actions = await actionsAt(tokenRange(text, ["annotations", 4, "claim", "end", "str"]), ["quickfix"]);
        const repairs = actions.filter((a) => a.title !== FIX_ALL_TITLE);
        assert.ok(repairs.length >= 2, JSON.stringify(repairs.map((a) => a.title)));
        assert.ok(repairs.every((a) => !a.isPreferred));
        const answer = fs.readFileSync(path.join(root, "answer.md"), "utf8");
        const texts = new Set<string>();
        for (const action of repairs) {
            const fixed = refsOf(applyEdits(text, editsOf(action)))[4][0];
            const spot = resolve(answer, fixed);
            assert.ok(spot, `"${action.title}" gives a ref that resolves`);
            assert.ok(action.title.includes(spot.text.slice(0, 30)), `the span's text in "${action.title}"`);
            // Readable boundaries only: no string cut inside a word.
            assert.match(fixed.end.str, /^\S.*\S$|^\S$/);
            texts.add(spot.text);
        }
        assert.equal(texts.size, repairs.length, "each candidate gives another span");
    });

    it("source.fixAll applies only certain repairs, breaks nothing new, and keeps the layout", async () => {
        const after = await pasteAtTopOfNotes();
        const before = client.published.get(uri)?.diagnostics ?? [];
        const actions = await actionsAt(tokenRange(text, ["annotations"]), ["source.fixAll"]);
        assert.equal(actions.length, 1);
        assert.equal(actions[0].kind, "source.fixAll.sourcecheck");
        assert.ok(actions[0].title.startsWith(FIX_ALL_TITLE));
        const fixed = applyEdits(text, editsOf(actions[0]));
        assert.equal(fixed.split("\n").length, text.split("\n").length, "only tokens change");
        await client.change(uri, fixed);
        const params = await published();
        // Every diagnostic left was there before, on the same ref: nothing is broken in a new way.
        // (The demo writes one ref per line, so a diagnostic's line names its ref.)
        const beforeLines = new Set(before.map((d) => d.range.start.line));
        for (const d of params.diagnostics) assert.ok(beforeLines.has(d.range.start.line), `new problem: ${d.message}`);
        assert.ok(params.diagnostics.length < before.length);
        // Each ref into the release notes that resolved before the paste resolves to its old text.
        const old = refsOf(text);
        let followed = 0;
        for (const [i, refs] of refsOf(fixed).entries()) {
            for (const [j, ref] of refs.entries()) {
                const was = ref.path === NOTES ? resolve(notes, old[i][j]) : undefined;
                if (!was) continue;
                assert.equal(resolve(after, ref)?.text, was.text, `annotation ${i + 1}`);
                followed++;
            }
        }
        assert.ok(followed >= 3);
        // The ambiguity nothing decides is left for the user.
        assert.ok(params.diagnostics.some((d) => d.code === "boundary-ambiguous"));
    });

    it("without a certain repair in the file, fix-all offers nothing", async () => {
        // Keep only annotation 5 (the undecidable ambiguity).
        const value = JSON.parse(text) as Annotations;
        const only = JSON.stringify({ annotations: [value.annotations[4]] }, null, 2);
        await client.change(uri, only);
        text = only;
        await published();
        assert.deepEqual(await actionsAt(tokenRange(text, ["annotations"]), ["source.fixAll"]), []);
        const quick = await actionsAt(tokenRange(text, ["annotations", 0, "claim", "end", "str"]), ["quickfix"]);
        assert.ok(quick.length >= 2);
        assert.ok(quick.every((a) => a.title !== FIX_ALL_TITLE && !a.isPreferred));
    });
});
