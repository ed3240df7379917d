/**
 * placesOf (core/placesIndex.ts) must find exactly what an indexOf loop finds: every place, overlapping
 * ones included, ascending, up to the limit. The oracle is that loop; the contents are long enough to
 * be indexed and drawn from few characters, so that texts repeat and buckets collide.
 */
import * as assert from "node:assert/strict";
import * as fc from "fast-check";
import { placesOf } from "../../server/src/core/placesIndex";

function oracle(content: string, text: string, limit: number): number[] {
    const found: number[] = [];
    for (let at = content.indexOf(text); at !== -1 && found.length < limit; at = content.indexOf(text, at + 1))
        found.push(at);
    return found;
}

const alphabet = fc.constantFrom("a", "b", " ", "é", "报", "\n", "🙂");

describe("placesOf: every place a text occurs, from an index of the document", () => {
    it("agrees with an indexOf loop on long repetitive documents, for texts taken from them and made up", () => {
        let cases = 0;
        let indexedHits = 0;
        fc.assert(
            fc.property(
                fc.array(alphabet, { minLength: 4096, maxLength: 9000 }),
                fc.array(fc.record({ from: fc.nat(), length: fc.integer({ min: 1, max: 40 }), made: fc.boolean() }), {
                    minLength: 1,
                    maxLength: 12,
                }),
                fc.array(alphabet, { minLength: 1, maxLength: 30 }),
                fc.integer({ min: 1, max: 40 }),
                (chars, picks, madeUp, limit) => {
                    const content = chars.join("");
                    const owner = {};
                    for (const pick of picks) {
                        const from = pick.from % content.length;
                        const text = pick.made ? madeUp.join("") : content.slice(from, from + pick.length);
                        const expected = oracle(content, text, limit);
                        assert.deepEqual(placesOf(content, text, limit, owner), expected, JSON.stringify(text));
                        if (text.length >= 12 && expected.length > 0) indexedHits++;
                    }
                    cases++;
                },
            ),
            { numRuns: 150 },
        );
        assert.equal(cases, 150);
        assert.ok(indexedHits >= 100, `only ${indexedHits} lookups went through the index and found something`);
    });

    it("an index is kept per owner: two documents with different text never share one", () => {
        const a = `${"x".repeat(5000)}the locked text is here${"y".repeat(100)}`;
        const b = `${"y".repeat(5000)}the locked text is there and here${"x".repeat(100)}`;
        const docA = {};
        const docB = {};
        assert.deepEqual(placesOf(a, "the locked text", 5, docA), [5000]);
        assert.deepEqual(placesOf(b, "the locked text", 5, docB), [5000]);
        assert.deepEqual(placesOf(b, "text is here", 5, docB), []);
        assert.deepEqual(placesOf(b, "xxxxxxxxxxxxxxx", 200, docB), oracle(b, "xxxxxxxxxxxxxxx", 200));
    });
});
