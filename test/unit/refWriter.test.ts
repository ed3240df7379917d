/**
 * The one writer of ref edits (server/src/core/annotationEdits.ts) and its edges: the LSP TextEdits of
 * code actions and follow-edits (features/followEdits.ts `refEdits`), the text `repair --write` and the
 * MCP `repair` tool write (core/repair/certainEdits.ts), and the authoring request the client applies
 * (features/annotationEdit.ts).
 */
import * as assert from "node:assert/strict";
import fc from "fast-check";
import { parse as parseJsonc } from "jsonc-parser";
import { applyOffsetEdits, parsedTokenLocator, refTokenEdits } from "../../server/src/core/annotationEdits";
import { applyCertainRepairs, type RepairEntry } from "../../server/src/core/repair";
import type { Ref } from "../../server/src/core/types";
import { annotationEdit } from "../../server/src/features/annotationEdit";
import { refEdits } from "../../server/src/features/followEdits";
import { AnnotationFile } from "../../server/src/workspace/annotationFile";
import { FILE_URIS } from "../../server/src/workspace/uris";
import { applyEdits as applyLspEdits } from "../protocol/harness";

const { pathToUri } = FILE_URIS;

/** The refs' five values in the order a layout writes them, with its own spacing and comments. */
interface Layout {
    order: number[];
    gaps: string[];
    comment: boolean;
}

const KEYS = ["path", "start", "end"] as const;

/** An annotation file with one claim, written by hand in `layout`: the oracle the edits are held to. */
function render(ref: Ref, layout: Layout): string {
    const gap = (i: number) => layout.gaps[i % layout.gaps.length];
    const boundary = (b: { line: number; str: string }, i: number) =>
        i % 2 === 0
            ? `{${gap(i)}"line":${gap(i + 1)}${b.line},${gap(i + 2)}"str": ${JSON.stringify(b.str)}}`
            : `{"str":${gap(i)}${JSON.stringify(b.str)},${gap(i + 1)}"line": ${b.line}${gap(i + 2)}}`;
    const members = layout.order.map((k, i) => {
        const key = KEYS[k];
        const value = key === "path" ? JSON.stringify(ref.path) : boundary(ref[key], i);
        return `"${key}":${gap(i)}${value}`;
    });
    const comment = layout.comment ? "  // the claim\n" : "";
    return `{\n "annotations": [\n  {\n${comment}   "claim": {${members.join(`,${gap(3)}`)}},\n   "sources": [],\n  }\n ]\n}\n`;
}

const strArb = fc.string({ minLength: 1, maxLength: 8 });
const refArb: fc.Arbitrary<Ref> = fc
    .record({
        path: fc.constantFrom("a.md", "notes/b.md", 'q"uote.md', "ü.md"),
        start: fc.record({ line: fc.integer({ min: 1, max: 999 }), str: strArb }),
        end: fc.record({ line: fc.integer({ min: 1, max: 999 }), str: strArb }),
    })
    .map((ref) => JSON.parse(JSON.stringify(ref)) as Ref); // plain objects, as parsed JSON is
const layoutArb: fc.Arbitrary<Layout> = fc.record({
    order: fc.constantFrom([0, 1, 2], [2, 0, 1], [1, 2, 0], [2, 1, 0]),
    gaps: fc.array(fc.constantFrom("", " ", "  ", "\n    ", "\t", " /* c */ "), { minLength: 1, maxLength: 4 }),
    comment: fc.boolean(),
});
/** `after`: each of the five values either kept or taken from another ref. */
const changeArb = fc
    .tuple(refArb, refArb, fc.array(fc.boolean(), { minLength: 5, maxLength: 5 }))
    .map(([before, other, take]): [Ref, Ref] => [
        before,
        {
            path: take[0] ? other.path : before.path,
            start: {
                line: take[1] ? other.start.line : before.start.line,
                str: take[2] ? other.start.str : before.start.str,
            },
            end: { line: take[3] ? other.end.line : before.end.line, str: take[4] ? other.end.str : before.end.str },
        },
    ]);

const POINTER = "/annotations/0/claim";

function repair(before: Ref, after: Ref): RepairEntry {
    return {
        annotation: 0,
        role: "claim",
        pointer: POINTER,
        reason: "line-shift",
        certain: true,
        before,
        after,
        text: "",
        evidence: "test",
        evidenceKind: "search",
    };
}

describe("one writer of ref edits, converted at the edges", () => {
    it("property: a ref rewritten in any layout is the file written by hand with the new ref (every other byte kept)", () => {
        let cases = 0;
        let changedValues = 0;
        fc.assert(
            fc.property(changeArb, layoutArb, ([before, after], layout) => {
                cases++;
                const text = render(before, layout);
                const locate = parsedTokenLocator(text);
                assert.ok(locate);
                const edits = refTokenEdits(POINTER, before, after, locate);
                changedValues += edits.length;
                assert.equal(applyOffsetEdits(text, edits), render(after, layout));
                // Only the values that differ are touched.
                const differing =
                    Number(before.path !== after.path) +
                    Number(before.start.line !== after.start.line) +
                    Number(before.start.str !== after.start.str) +
                    Number(before.end.line !== after.end.line) +
                    Number(before.end.str !== after.end.str);
                assert.equal(edits.length, differing);
            }),
            { numRuns: 300 },
        );
        assert.equal(cases, 300);
        assert.ok(changedValues > 300, `only ${changedValues} values changed over 300 cases`);
    });

    it("property: the LSP edge (refEdits), the --write/MCP edge (applyCertainRepairs) and the core writer give the same text", () => {
        let cases = 0;
        fc.assert(
            fc.property(changeArb, layoutArb, ([before, after], layout) => {
                cases++;
                const text = render(before, layout);
                const expected = render(after, layout);
                const written = applyCertainRepairs(text, [repair(before, after)]);
                assert.equal(written.text, expected);
                assert.equal(written.applied, sameRef(before, after) ? 0 : 1);
                const file = new AnnotationFile(pathToUri("/memory/x.sourcecheck.json"), 1, text, "/memory", {
                    get: () => undefined,
                });
                const site = file.site(0, "claim");
                assert.ok(site, "the claim's site");
                assert.deepEqual(JSON.parse(JSON.stringify(site.ref)), before);
                assert.equal(applyLspEdits(text, refEdits(file, site, after)), expected);
            }),
            { numRuns: 200 },
        );
        assert.equal(cases, 200);
    });

    it("the authoring request's WorkspaceEdit appends a claim in place, creates a missing file, and refuses a path an embedded session lacks", () => {
        const claim: Ref = { path: "a.md", start: { line: 2, str: "Hello" }, end: { line: 2, str: "world" } };
        const text = '{\n\t"annotations": [] // mine\n}\n';
        const uri = pathToUri("/memory/x.sourcecheck.json");
        const params = { uri, text, version: 7, formatting: { tabSize: 4, insertSpaces: true } };
        const appended = annotationEdit({ ...params, change: { kind: "appendClaim", claim } });
        assert.ok(appended.ok);
        assert.equal(appended.annotation, 1, "the annotation written, counted from 1");
        const change = appended.edit.documentChanges?.[0];
        assert.ok(change && "textDocument" in change);
        assert.deepEqual(change.textDocument, { uri, version: 7 });
        const after = applyLspEdits(text, change.edits as never);
        assert.deepEqual(parseJsonc(after), { annotations: [{ claim, sources: [] }] });
        assert.ok(after.includes("// mine") && after.includes('\t\t\t"claim": '), after);

        const created = annotationEdit({ ...params, text: "", version: null, change: { kind: "appendClaim", claim } });
        assert.ok(created.ok);
        assert.deepEqual(created.edit.documentChanges?.[0], { kind: "create", uri, options: { ignoreIfExists: true } });

        const session = JSON.stringify({ session: { documents: [{ path: "b.md", content: "x" }] }, annotations: [] });
        const refused = annotationEdit({ ...params, text: session, change: { kind: "appendClaim", claim } });
        assert.deepEqual(refused.ok ? undefined : [refused.code, refused.path], ["not-in-session", "a.md"]);
    });
});

function sameRef(a: Ref, b: Ref): boolean {
    return JSON.stringify(a) === JSON.stringify(b);
}
