// The one writer of annotation files (server/src/core/annotationEdits.ts) and the read-only annotation
// extents the client uses (shared/annotationList.ts). Pure: no vscode.
import * as assert from "node:assert/strict";
import fc from "fast-check";
import { applyEdits } from "jsonc-parser";
import {
    appendClaim,
    appendSource,
    detectFormatting,
    type EditResult,
    embeddedPaths,
    inline,
    type NewSource,
} from "../../server/src/core/annotationEdits";
import { annotationExtents, annotationIndexAt, indexAtOffset } from "../../shared/annotationList";

const claim = { path: "answer.md", start: { line: 3, str: "37%" }, end: { line: 3, str: 'say "x"' } };
const source: NewSource = {
    path: "bench",
    start: { line: 4, str: "delta" },
    end: { line: 4, str: "-37%" },
    polarity: "supports",
    confidence: 0.95,
};
const twoSpaces = { tabSize: 2, insertSpaces: true, eol: "\n" };

function applied(text: string, result: EditResult): string {
    assert.ok(result.ok, result.ok ? "" : result.message);
    return applyEdits(text, result.edits);
}

describe("annotation file edits", () => {
    it("creates the file's content when it is empty", () => {
        const text = applied("", appendClaim("", "new.sourcecheck.json", claim, twoSpaces));
        assert.deepEqual(JSON.parse(text), { annotations: [{ claim, sources: [] }] });
        assert.ok(text.includes(`"claim": ${inline(claim)}`), "the claim ref is written on one line");
    });

    it("appends a claim to /annotations, or to a bare array, and reports its index", () => {
        const object = '{\n  "annotations": [\n    { "claim": {}, "sources": [] }\n  ]\n}\n';
        const result = appendClaim(object, "f", claim, twoSpaces);
        assert.ok(result.ok);
        assert.equal(result.annotationIndex, 1);
        assert.deepEqual(JSON.parse(applied(object, result)).annotations[1], { claim, sources: [] });
        const bare = applied("[]", appendClaim("[]", "f", claim, twoSpaces));
        assert.deepEqual(JSON.parse(bare), [{ claim, sources: [] }]);
    });

    it("adds /annotations to an object that has none (session shapes)", () => {
        const text = '{\n    "documents": []\n}\n';
        const out = applied(text, appendClaim(text, "f", claim, detectFormatting(text, twoSpaces)));
        assert.deepEqual(JSON.parse(out), { documents: [], annotations: [{ claim, sources: [] }] });
        assert.ok(out.includes('\n    "annotations": [\n        {'), "the file's four-space indent is kept");
    });

    it("appends sources without re-flowing the refs already there", () => {
        const text = applied("", appendClaim("", "f", claim, twoSpaces));
        const once = applied(text, appendSource(text, "f", 0, source, twoSpaces));
        const second = { ...source, polarity: "refutes" as const, confidence: 0.4 };
        const result = appendSource(once, "f", 0, second, twoSpaces);
        assert.ok(result.ok);
        assert.equal(result.sourceIndex, 1);
        const twice = applied(once, result);
        assert.deepEqual(JSON.parse(twice).annotations[0].sources, [source, second]);
        assert.ok(twice.includes(`        ${inline(source)},\n        ${inline(second)}\n`), twice);
        assert.ok(twice.startsWith(once.slice(0, once.indexOf(inline(source)) + inline(source).length)));
    });

    it("creates sources when an annotation has none, and keeps CRLF and tabs", () => {
        const text = '{\r\n\t"annotations": [\r\n\t\t{ "claim": {} }\r\n\t]\r\n}\r\n';
        const out = applied(text, appendSource(text, "f", 0, source, detectFormatting(text, twoSpaces)));
        assert.deepEqual(JSON.parse(out).annotations[0].sources, [source]);
        assert.ok(!/[^\r]\n/.test(out), "every line ends in CRLF");
        assert.ok(out.includes(`\t\t\t\t${inline(source)}`));
    });

    it("refuses what it cannot edit, with the reason", () => {
        const bad = (result: EditResult, pattern: RegExp) => {
            assert.ok(!result.ok);
            assert.match(result.message, pattern);
        };
        bad(appendClaim('{ "annotations": [', "f.json", claim, twoSpaces), /f\.json is not valid JSON/);
        bad(appendClaim('{ "annotations": 3 }', "f.json", claim, twoSpaces), /not an array/);
        bad(appendClaim('"text"', "f.json", claim, twoSpaces), /must hold an object/);
        bad(appendSource('{ "annotations": [] }', "f.json", 0, source, twoSpaces), /no annotations yet/);
        bad(
            appendSource('{ "annotations": [{}] }', "f.json", 3, source, twoSpaces),
            /no annotation 4 \(it has 1, numbered from 1\)/,
        );
        bad(appendSource('{ "annotations": [{ "sources": 1 }] }', "f.json", 0, source, twoSpaces), /not an array/);
        bad(appendClaim(`{ "annotations": ${"[".repeat(100_000)}`, "f.json", claim, twoSpaces), /nested more than 512/);
    });

    it("finds the annotation under an offset", () => {
        const text = '{ "annotations": [ { "claim": {} }, { "claim": {} } ] }';
        assert.equal(annotationIndexAt(text, text.indexOf("claim")), 0);
        assert.equal(annotationIndexAt(text, text.lastIndexOf("claim")), 1);
        assert.equal(annotationIndexAt(text, 0), undefined);
    });

    it("knows the documents of an embedded session, as the server reads the shapes", () => {
        assert.equal(embeddedPaths('{ "annotations": [] }'), undefined);
        assert.equal(embeddedPaths("[]"), undefined);
        assert.deepEqual(embeddedPaths('{ "documents": [{ "path": "a", "content": "" }], "annotations": [] }'), ["a"]);
        assert.deepEqual(
            embeddedPaths('{ "session": { "documents": [{ "path": "b" }] }, "documents": [{ "path": "a" }] }'),
            ["b"],
        );
    });
});

describe("current-annotation lookup (parsed once per version, then binary search)", () => {
    it("finds the same annotation as a scan of every extent, at every offset", () => {
        let ran = 0;
        const annotation = fc.record({
            claim: fc.constant(claim),
            sources: fc.array(fc.constant(source), { maxLength: 2 }),
        });
        fc.assert(
            fc.property(fc.array(annotation, { maxLength: 8 }), fc.boolean(), (annotations, pretty) => {
                ran++;
                const text = JSON.stringify({ annotations }, null, pretty ? 2 : 0);
                const extents = annotationExtents(text);
                assert.ok(extents);
                assert.equal(extents.length, annotations.length);
                for (let offset = 0; offset <= text.length; offset++) {
                    const naive: number = extents.findIndex(([from, to]) => from <= offset && offset <= to);
                    assert.equal(indexAtOffset(extents, offset), naive >= 0 ? naive : undefined);
                }
            }),
            { numRuns: 300 },
        );
        assert.equal(ran, 300);
    });
});
