/**
 * The word classes of core/words.ts judge ASCII text without their Unicode regular expressions (whose
 * compilation is start-up cost: docs/benchmarks-cases.md, "CLI start-up"). Held here to those Unicode
 * classes themselves, the oracle, on every ASCII character and on generated text, ASCII or not.
 */
import * as assert from "node:assert/strict";
import fc from "fast-check";
import {
    hasMeaningfulWord,
    isUnspaced,
    isWordChar,
    STOP_WORDS,
    UNSPACED_CHAR_CLASS,
    WEAK_WORDS,
    WORD_CHAR_CLASS,
} from "../../server/src/core/words";
import { forEachTerm } from "../../server/src/evidence/tokenizer";

const WORD_CHAR = new RegExp(`[${WORD_CHAR_CLASS}]`, "u");
const UNSPACED = new RegExp(`[${UNSPACED_CHAR_CLASS}]`, "u");
/** The evidence tokenizer's runs (evidence/tokenizer.ts), Unicode classes only. */
const TERM_RUNS = new RegExp(`[${UNSPACED_CHAR_CLASS}]+|[[${WORD_CHAR_CLASS}]--[${UNSPACED_CHAR_CLASS}]]+`, "gv");
const TOKEN_EDGES = new RegExp(`^[^${WORD_CHAR_CLASS}%$€£¥]+|[^${WORD_CHAR_CLASS}%$€£¥]+$`, "gu");

/** hasMeaningfulWord as docs/boundaries.md words it, with the Unicode classes only. */
function meaningfulByUnicode(text: string): boolean {
    for (const token of text.split(/\s+/u)) {
        const core = token.replace(TOKEN_EDGES, "");
        if (!WORD_CHAR.test(core)) continue;
        const length = [...core].length;
        if (UNSPACED.test(core)) {
            if (length >= 2) return true;
            continue;
        }
        if (length < 3) continue;
        const folded = core.toLowerCase();
        if (!STOP_WORDS.has(folded) && !WEAK_WORDS.has(folded)) return true;
    }
    return false;
}

/** Letters, digits, `_`, the symbols a token edge keeps, punctuation and spaces. */
const ASCII_UNITS = "aZq09_%$\"'.,;:!?()[]{}<>/\\|@#&*+=-~`^ \t\n";
/** Words that are stop or weak words, or short, or not: glued with ASCII_UNITS. */
const PIECES = ["The", "a", "is", "37%", "2.3", "$5", "Cache", "our", "should", "x_y", "01", "you"];
/** A few non-ASCII characters: letters, a combining mark, quotes, a currency, Han, Thai, a surrogate pair. */
const OTHER_UNITS = ["é", "\u0301", "“", "”", "€", "漢", "字", "ก", "\u00a0", "😀", "ー"];

describe("word classes of ASCII text, without Unicode regular expressions", () => {
    it("isWordChar and isUnspaced agree with the Unicode classes on every ASCII character", () => {
        let cases = 0;
        for (let code = 0; code < 0x80; code++) {
            const char = String.fromCharCode(code);
            cases++;
            assert.equal(isWordChar(char), WORD_CHAR.test(char), JSON.stringify(char));
            assert.equal(isUnspaced(char), UNSPACED.test(char), JSON.stringify(char));
        }
        assert.equal(cases, 128);
    });

    it("hasMeaningfulWord and isUnspaced agree with the Unicode classes on generated ASCII text", () => {
        let cases = 0;
        const unit = fc.oneof(fc.constantFrom(...ASCII_UNITS), fc.constantFrom(...PIECES));
        fc.assert(
            fc.property(fc.array(unit, { maxLength: 12 }), (parts) => {
                const text = parts.join("");
                cases++;
                assert.equal(hasMeaningfulWord(text), meaningfulByUnicode(text), JSON.stringify(text));
                assert.equal(isUnspaced(text), UNSPACED.test(text), JSON.stringify(text));
            }),
            { numRuns: 20_000, seed: 30 },
        );
        assert.equal(cases, 20_000);
    });

    it("text with a character outside ASCII is judged by the Unicode classes, as before", () => {
        let cases = 0;
        let meaningful = 0;
        const unit = fc.oneof(fc.constantFrom(...ASCII_UNITS), fc.constantFrom(...PIECES, ...OTHER_UNITS));
        fc.assert(
            fc.property(fc.array(unit, { maxLength: 12 }), (parts) => {
                const text = parts.join("");
                cases++;
                const expected = meaningfulByUnicode(text);
                if (expected) meaningful++;
                assert.equal(hasMeaningfulWord(text), expected, JSON.stringify(text));
                assert.equal(isUnspaced(text), UNSPACED.test(text), JSON.stringify(text));
                for (const char of text) assert.equal(isWordChar(char), WORD_CHAR.test(char), JSON.stringify(char));
            }),
            { numRuns: 10_000, seed: 31 },
        );
        assert.equal(cases, 10_000);
        // Both answers occur often: the comparison is not of one constant.
        assert.ok(meaningful > 1000 && meaningful < 9000, String(meaningful));
    });

    it("the evidence tokenizer's terms agree with its Unicode runs, on ASCII text and text that is not", () => {
        /** forEachTerm as docs/evidence.md words it, with the Unicode runs only. */
        const termsByUnicode = (text: string) =>
            (text.toLowerCase().match(TERM_RUNS) ?? []).flatMap((run) => {
                if (!UNSPACED.test(run)) return STOP_WORDS.has(run) ? [] : [run];
                const characters = Array.from(run);
                return characters.length === 1 ? characters : characters.slice(1).map((c, i) => characters[i] + c);
            });
        let cases = 0;
        let terms = 0;
        const unit = fc.oneof(fc.constantFrom(...ASCII_UNITS), fc.constantFrom(...PIECES, ...OTHER_UNITS, "\u212a"));
        fc.assert(
            fc.property(fc.array(unit, { maxLength: 12 }), (parts) => {
                const text = parts.join("");
                cases++;
                const ours: string[] = [];
                forEachTerm(text, (term) => ours.push(term));
                terms += ours.length;
                assert.deepEqual(ours, termsByUnicode(text), JSON.stringify(text));
            }),
            { numRuns: 20_000, seed: 32 },
        );
        assert.equal(cases, 20_000);
        assert.ok(terms > 20_000, String(terms));
    });

    it("examples: edges stripped, stop words, short tokens, unspaced scripts", () => {
        assert.equal(hasMeaningfulWord('"The" a is.'), false);
        assert.equal(hasMeaningfulWord("(37%)"), true);
        assert.equal(hasMeaningfulWord("“Cache”"), true);
        assert.equal(hasMeaningfulWord("漢字"), true);
        assert.equal(hasMeaningfulWord("--- ..."), false);
    });
});
