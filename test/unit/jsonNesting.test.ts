/**
 * How deeply a JSON text nests (shared/jsonNesting.ts), found with indexOf over strings: held to
 * jsonc-parser's scanner, the oracle, on generated text dense in brackets, quotes and backslashes.
 */
import * as assert from "node:assert/strict";
import fc from "fast-check";
import { createScanner, SyntaxKind } from "jsonc-parser";
import { nestingBeyond } from "../../shared/jsonNesting";

/** The offset of the first bracket deeper than `limit`, by jsonc-parser's tokens; -1 if none. */
function scannerBeyond(text: string, limit: number): number {
    const scanner = createScanner(text, true);
    let depth = 0;
    for (let token = scanner.scan(); token !== SyntaxKind.EOF; token = scanner.scan()) {
        if (token === SyntaxKind.OpenBraceToken || token === SyntaxKind.OpenBracketToken) {
            if (++depth > limit) return scanner.getTokenOffset();
        } else if (token === SyntaxKind.CloseBraceToken || token === SyntaxKind.CloseBracketToken) depth--;
    }
    return -1;
}

/** Brackets, quotes, backslashes and a letter: strings that open, escape and close anywhere. */
const UNITS = ["[", "]", "{", "}", '"', "\\", "a", " ", ",", ":", "\\\\", '\\"'];

describe("JSON nesting depth", () => {
    it("finds the first bracket beyond the limit where jsonc-parser's scanner does", () => {
        let cases = 0;
        fc.assert(
            fc.property(
                fc.array(fc.constantFrom(...UNITS), { maxLength: 30 }).map((units) => units.join("")),
                fc.integer({ min: 0, max: 4 }),
                (text, limit) => {
                    // The scanner ends a string at a line break; the generated text has none, as in JSON.
                    cases++;
                    assert.equal(nestingBeyond(text, limit), scannerBeyond(text, limit), JSON.stringify(text));
                },
            ),
            { numRuns: 20_000, seed: 41 },
        );
        assert.equal(cases, 20_000);
    });

    it("skips a long string in one step and still counts what follows it", () => {
        const text = `{"a":"${'x\\"[{'.repeat(100_000)}","b":[[[1]]]}`;
        assert.equal(nestingBeyond(text, 3), text.lastIndexOf("[1"));
        assert.equal(nestingBeyond(text, 4), -1);
    });
});
