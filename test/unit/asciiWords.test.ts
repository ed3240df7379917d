/**
 * Words in ASCII text without Intl.Segmenter (core/boundaries.ts asciiWordSpans), so that choosing
 * boundaries in English text does not load ICU's break rules: held to Intl.Segmenter itself, the
 * oracle, on generated text dense in the characters UAX #29 treats specially.
 */
import * as assert from "node:assert/strict";
import fc from "fast-check";
import { asciiWordSpans } from "../../server/src/core/boundaries";

const segmenter = new Intl.Segmenter(undefined, { granularity: "word" });
/** Intl.Segmenter's word-like segments as [start, end) pairs. */
function segmenterWords(text: string): [number, number][] {
    return [...segmenter.segment(text)]
        .filter((segment) => segment.isWordLike)
        .map((segment) => [segment.index, segment.index + segment.segment.length]);
}

/** Letters, digits, `_`, every joiner of UAX #29 and the punctuation and spaces around them. */
const SPECIAL = "aZq09_:.',;\"- \t\r\n!?()/@#%&*+=<>[]{}|\\`~^$";

describe("words in ASCII text, without Intl.Segmenter", () => {
    it("finds Intl.Segmenter's word-like segments in generated text", () => {
        let cases = 0;
        fc.assert(
            fc.property(fc.string({ unit: fc.constantFrom(...SPECIAL), maxLength: 16 }), (text) => {
                cases++;
                const ours = asciiWordSpans(text).map((span) => [span.start, span.end]);
                assert.deepEqual(ours, segmenterWords(text), JSON.stringify(text));
            }),
            { numRuns: 20_000, seed: 30 },
        );
        assert.equal(cases, 20_000);
    });

    it("finds them in every printable ASCII character and pair of characters between letters and digits", () => {
        let cases = 0;
        for (let a = 0x20; a < 0x7f; a++) {
            for (const around of ["a", "1", "_", " "]) {
                for (const other of ["a", "1", "_", " "]) {
                    const text = `${around}${String.fromCharCode(a)}${other}`;
                    cases++;
                    const ours = asciiWordSpans(text).map((span) => [span.start, span.end]);
                    assert.deepEqual(ours, segmenterWords(text), JSON.stringify(text));
                }
            }
        }
        assert.equal(cases, 95 * 16);
    });

    it("words of real sentences: contractions, decimals, thousands, abbreviations, identifiers", () => {
        const text = "Don't use e.g. 3.14 or 1,000.5; call load_config() at 10:30 (v2.4) -- it's 37% faster.";
        assert.deepEqual(
            asciiWordSpans(text).map((span) => text.slice(span.start, span.end)),
            segmenterWords(text).map(([start, end]) => text.slice(start, end)),
        );
    });
});
