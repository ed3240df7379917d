import * as assert from "node:assert/strict";
import fc from "fast-check";
import {
    ambiguityFixes,
    approximateMatches,
    checkInput,
    decodedOffsetInJsonString,
    LocatedText,
    levenshtein,
    locatePointers,
    moveFixes,
    nearMatchFixes,
    numberedLines,
    type Ref,
    rawOffsetInJsonString,
    SessionDocument,
    shortenedRef,
} from "../../server/src/core";

const numRuns = Number(process.env.SOURCECHECK_FC_RUNS ?? 10_000);
const ref = (sl: number, ss: string, el: number, es: string): Ref => ({
    path: "d",
    start: { line: sl, str: ss },
    end: { line: el, str: es },
});

describe("core: fixes for broken refs", () => {
    const demoLine = "Memory use is unchanged: the release uses the same memory as the previous release.";
    const document = new SessionDocument(
        "d",
        `${demoLine}\nFaster cold start: the runtime loads plugins lazily.\nplanned for 2.5.`,
    );

    it("offers one extension per occurrence of an ambiguous boundary, preferring the only valid one", () => {
        const fixes = ambiguityFixes(document, ref(1, "Memory use", 1, "release"), "end");
        assert.deepEqual(
            fixes.map((f) => f.str),
            ["the release", "previous release"],
            "readable, word-aligned strings (docs/boundaries.md)",
        );
        assert.ok(fixes.every((f) => f.resolution.valid));
        const [first, second] = fixes;
        assert.equal(first.resolution.valid && first.resolution.text, "Memory use is unchanged: the release");
        assert.equal(second.resolution.valid && second.resolution.text, demoLine.slice(0, -1));
        assert.deepEqual(
            fixes.map((f) => f.preferred),
            [false, false],
            "two valid spans: the user must choose",
        );
        const startFixes = ambiguityFixes(document, ref(1, "the", 1, "previous release."), "start");
        assert.equal(startFixes.filter((f) => f.preferred).length, 0);
        assert.ok(startFixes.length >= 3);
    });

    it("moves a boundary to the nearest line where it occurs once", () => {
        const fixes = moveFixes(document, ref(3, "Faster cold start", 3, "lazily."), "start");
        assert.deepEqual(
            fixes.map((f) => f.line),
            [2],
        );
        assert.equal(fixes[0].resolution.valid, false, "the end boundary is still on line 3");
        assert.equal(fixes[0].preferred, false, "a fix that leaves the ref broken is never preferred");
    });

    it("replaces a near miss with the string that is on the line", () => {
        const fixes = nearMatchFixes(document, ref(3, "planned", 3, "for 2.6."), "end");
        assert.deepEqual(
            fixes.map((f) => f.str),
            ["2.5."],
        );
        assert.ok(fixes[0].resolution.valid);
        assert.equal(fixes[0].preferred, false, "another number is not a misquote the engine is certain of");
    });

    it("prefers only the fix that gives the certain whole-ref repair", () => {
        const fixes = ambiguityFixes(document, ref(1, "the same", 1, "release"), "end");
        assert.deepEqual(
            fixes.map((f) => [f.str, f.resolution.valid, f.preferred]),
            [
                ["the release", false, false],
                ["previous release", true, true],
            ],
        );
    });

    it("shortens a valid ref to the shortest unique boundaries with the very same span", () => {
        const shortened = shortenedRef(document, ref(2, "Faster cold", 2, "plugins lazily."));
        assert.ok(shortened);
        assert.deepEqual(shortened.ref, ref(2, "F", 2, "."));
        assert.equal(shortened.resolution.valid && shortened.resolution.text, document.lines.line(2));
        assert.equal(shortenedRef(document, shortened.ref), undefined, "already shortest");
    });
});

describe("core: edit distance", () => {
    it("computes Levenshtein distances", () => {
        assert.equal(levenshtein("kitten", "sitting"), 3);
        assert.equal(levenshtein("", "abc"), 3);
        assert.equal(levenshtein("same", "same"), 0);
    });

    it("finds the closest substrings of a line", () => {
        assert.deepEqual(approximateMatches("support is planned for 2.5.", "planned for 2.6.", 2), [
            { start: 11, end: 27, distance: 1 },
        ]);
        assert.deepEqual(approximateMatches("nothing alike", "zzzzzz", 1), []);
    });
});

describe("core: offsets in JSON strings and numbered lines", () => {
    it("maps decoded offsets to raw ones across escapes, and back", () => {
        const raw = JSON.stringify("a\nb\u00e9c");
        assert.equal(rawOffsetInJsonString(raw, 0), 1);
        assert.equal(rawOffsetInJsonString(raw, 2), 4, "after the two-character escape \\n");
        fc.assert(
            fc.property(fc.string(), fc.nat(), (text, seed) => {
                const token = JSON.stringify(text);
                const decoded = text.length === 0 ? 0 : seed % (text.length + 1);
                assert.equal(decodedOffsetInJsonString(token, rawOffsetInJsonString(token, decoded)), decoded);
            }),
            { numRuns },
        );
    });

    it("numbers lines as the resolver counts them", () => {
        assert.equal(numberedLines("a\n\nb\n"), "1 | a\n2 | \n3 | b\n4 | ");
    });
});

describe("core: one-pass pointer location", () => {
    it("agrees with the parse tree on every problem of generated broken files", () => {
        const anyValue = fc.oneof(fc.string({ maxLength: 4 }), fc.integer({ min: -2, max: 5 }), fc.constant(null));
        const boundary = fc.record(
            {
                line: fc.oneof(fc.integer({ min: 0, max: 4 }), anyValue),
                str: fc.oneof(fc.constantFrom("a", "b", "ab"), anyValue),
            },
            { requiredKeys: [] },
        );
        const source = fc.record(
            {
                path: fc.constantFrom("d", "e"),
                start: boundary,
                end: boundary,
                polarity: fc.constantFrom("supports", "nope"),
                confidence: fc.oneof(fc.double(), anyValue),
            },
            { requiredKeys: [] },
        );
        const annotation = fc.record(
            { claim: fc.oneof(source, anyValue), sources: fc.oneof(fc.array(source, { maxLength: 2 }), anyValue) },
            { requiredKeys: [] },
        );
        fc.assert(
            fc.property(fc.array(annotation, { maxLength: 3 }), fc.nat(4), (annotations, indent) => {
                const value = { documents: [{ path: "d", content: "a b\nab a\nb" }], annotations };
                const text = JSON.stringify(value, null, indent);
                const { problems } = checkInput(JSON.parse(text));
                const pointers = problems.map((p) => p.pointer);
                const located = locatePointers(text, pointers);
                const tree = new LocatedText(text);
                for (const pointer of pointers) assert.deepEqual(located.get(pointer), tree.spanOf(pointer), pointer);
            }),
            { numRuns: Math.min(numRuns, 2000) },
        );
    });
});
