/**
 * Sentences in ASCII text without Intl.Segmenter (core/sentences.ts asciiSentenceEnds), so that the
 * evidence search and Show Coverage do not load ICU's break rules for English text: held to
 * Intl.Segmenter's sentence granularity itself, the oracle, on generated text dense in the characters
 * UAX #29's sentence rules treat specially.
 */
import * as assert from "node:assert/strict";
import fc from "fast-check";
import { asciiSentenceEnds, sentenceSegments } from "../../server/src/core/sentences";

const segmenter = new Intl.Segmenter(undefined, { granularity: "sentence" });
/** Where Intl.Segmenter ends each sentence. */
function segmenterEnds(text: string): number[] {
    return [...segmenter.segment(text)].map((segment) => segment.index + segment.segment.length);
}

/** Letters of both cases, digits, terminators, closers, continuers, spaces and line breaks. */
const SPECIAL = "aZ9.!?\"')]}([{,-:; \t\r\n_#*/";

describe("sentences in ASCII text, without Intl.Segmenter", () => {
    it("ends sentences where Intl.Segmenter does, in generated text", () => {
        let cases = 0;
        fc.assert(
            fc.property(fc.string({ unit: fc.constantFrom(...SPECIAL), maxLength: 14 }), (text) => {
                cases++;
                assert.deepEqual(asciiSentenceEnds(text), segmenterEnds(text), JSON.stringify(text));
            }),
            { numRuns: 30_000, seed: 30 },
        );
        assert.equal(cases, 30_000);
    });

    it("ends them where it does around every printable ASCII character after each terminator", () => {
        let cases = 0;
        for (let a = 0x20; a < 0x7f; a++) {
            for (const term of [".", "!", "?", ". ", ".) ", '." ']) {
                for (const after of ["a", "A", "1", " a", " A", " 1", ""]) {
                    const text = `Word${term}${String.fromCharCode(a)}${after}`;
                    cases++;
                    assert.deepEqual(asciiSentenceEnds(text), segmenterEnds(text), JSON.stringify(text));
                }
            }
        }
        assert.equal(cases, 95 * 6 * 7);
    });

    it("real prose: abbreviations, decimals, quotes, lists; non-ASCII text goes to Intl.Segmenter", () => {
        const prose =
            'Cold start is 37% faster (see fig. 3). The U.S. team said: "It works!" Version 2.4 ships e.g. today.\n' +
            "- a list item\nDone? Yes.";
        assert.deepEqual(
            sentenceSegments(prose).map((s) => s.segment),
            [...segmenter.segment(prose)].map((s) => s.segment),
        );
        const other = "Le cache est plus rapide. Ça marche ! 缓存更快。是的。";
        assert.deepEqual(
            sentenceSegments(other).map((s) => [s.index, s.segment]),
            [...segmenter.segment(other)].map((s) => [s.index, s.segment]),
        );
    });
});
