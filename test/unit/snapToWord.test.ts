/**
 * Selections snap to words (docs/boundaries.md): an edge inside a word moves out to that word's edge;
 * edges on word edges, between words, after punctuation or in unspaced scripts stay. The oracle is a
 * plain regular expression over letters and digits, not the segmenter the code uses.
 */
import * as assert from "node:assert/strict";
import fc from "fast-check";
import { snapToWord } from "../../server/src/core/boundaries";

const numRuns = Number(process.env.SOURCECHECK_FC_RUNS ?? 2_000);

describe("snapToWord", () => {
    it("widens a cut word and leaves word edges alone", () => {
        const line = "- New scheduler with priority queues.";
        assert.equal(snapToWord(line, line.indexOf("ew"), "start"), line.indexOf("New"));
        assert.equal(snapToWord(line, line.indexOf("es."), "end"), line.indexOf("."));
        assert.equal(snapToWord(line, line.indexOf("New"), "start"), line.indexOf("New"));
        assert.equal(snapToWord(line, line.indexOf(" with"), "end"), line.indexOf(" with"));
        assert.equal(snapToWord(line, line.length, "end"), line.length);
        assert.equal(snapToWord(line, 0, "start"), 0);
        // In a script written without spaces every character is an edge.
        assert.equal(snapToWord("多数团队表示", 2, "start"), 2);
    });

    it("property: a snapped edge is never inside an ASCII word, and only moves out of the word it cut", () => {
        let cases = 0;
        const word = fc.stringMatching(/^[a-z]{1,8}$/);
        const sep = fc.constantFrom(" ", ", ", ". ", " - ");
        fc.assert(
            fc.property(fc.array(fc.tuple(word, sep), { minLength: 1, maxLength: 8 }), fc.nat(), (parts, pick) => {
                const line = parts.map(([w, s]) => w + s).join("");
                const column = pick % (line.length + 1);
                cases++;
                const inside = (c: number) => c > 0 && c < line.length && /\w/.test(line[c - 1]) && /\w/.test(line[c]);
                for (const side of ["start", "end"] as const) {
                    const snapped = snapToWord(line, column, side);
                    assert.ok(!inside(snapped), `${JSON.stringify(line)} ${column} ${side} -> ${snapped}`);
                    if (!inside(column)) assert.equal(snapped, column);
                    else if (side === "start") {
                        assert.ok(snapped < column && /^\w+$/.test(line.slice(snapped, column)));
                    } else {
                        assert.ok(snapped > column && /^\w+$/.test(line.slice(column, snapped)));
                    }
                }
            }),
            { numRuns },
        );
        assert.equal(cases, numRuns);
    });
});
