import * as assert from "node:assert/strict";
import fc from "fast-check";
import { shorten } from "../../server/src/features/format";
import { hintText } from "../../server/src/features/inlayHints";

// Word edges written here independently of the server's Intl.Segmenter: ASCII words of letters.
const isWordChar = (c: string | undefined) => c !== undefined && /[A-Za-z]/.test(c);

describe("text cuts (issue 23, item 9)", () => {
    it("an inlay hint is cut at word edges: the issue's sentence", () => {
        const hint = hintText("The release adds offline sync for mobile clients once they are reconnected.");
        assert.ok(hint.length <= 38, hint);
        const [head, tail] = hint.split("…");
        assert.equal(head, "The release adds");
        assert.equal(tail, "reconnected.");
    });

    it("a hint of words no longer than a quarter of the limit never cuts inside a word (property, counted)", () => {
        let checked = 0;
        fc.assert(
            fc.property(fc.array(fc.stringMatching(/^[a-z]{1,9}$/), { minLength: 8, maxLength: 30 }), (words) => {
                const line = words.join(" ");
                const hint = hintText(line);
                assert.ok(hint.length <= 38, hint);
                if (line.length <= 38) return assert.equal(hint, line);
                const [head, tail] = hint.split("…");
                // Oracle: the head is a prefix of the line ending where a word ends, the tail a
                // suffix beginning where a word begins.
                assert.ok(line.startsWith(head) && line.endsWith(tail), hint);
                assert.ok(!isWordChar(line[head.length]) && isWordChar(head.at(-1)), `head "${head}" of "${line}"`);
                const from = line.length - tail.length;
                assert.ok(!isWordChar(line[from - 1]) && isWordChar(tail[0]), `tail "${tail}" of "${line}"`);
                checked++;
            }),
            { numRuns: 300, seed: 23 },
        );
        assert.ok(checked > 100, `only ${checked} lines needed a cut`);
    });

    it("a hint of one long word is still cut to fit", () => {
        const hint = hintText("x".repeat(80));
        assert.equal(hint.length, 38);
        assert.equal(hint.split("…").length, 2);
    });

    it("the cut marker is never longer than the text it cuts", () => {
        // 2 characters over: the marker "⋯ 2 characters cut ⋯" would be longer than the text itself.
        const text = "a".repeat(62);
        assert.equal(shorten(text, 60), text);
        for (let over = 1; over < 200; over++) {
            const long = "b".repeat(60 + over);
            const shown = shorten(long, 60);
            const cut = /⋯ (\d+) characters? cut ⋯/.exec(shown);
            if (!cut) {
                assert.equal(shown, long, "uncut means whole");
                continue;
            }
            assert.ok(cut[0].length < Number(cut[1]), `"${cut[0]}" is longer than the ${cut[1]} characters it cuts`);
            assert.equal(shown.length - cut[0].length + Number(cut[1]), long.length, "head + cut + tail = the text");
        }
    });
});
