import * as assert from "node:assert/strict";
import { sentenceSpans, uncoveredSentences } from "../../server/src/core/sentences";

const text = "# Title\n\nFirst claim here. Second one, uncited! Third?\n  Indented line without stop\n";
const cut = (spans: { start: number; end: number }[]) => spans.map((s) => text.slice(s.start, s.end));

describe("sentences and coverage (Show Coverage)", () => {
    it("splits each line into trimmed sentences; headings and lines without a stop count", () => {
        assert.deepEqual(cut(sentenceSpans(text)), [
            "# Title",
            "First claim here.",
            "Second one, uncited!",
            "Third?",
            "Indented line without stop",
        ]);
    });

    it("a sentence any claim overlaps is covered; the others are reported", () => {
        const claim = text.indexOf("claim here");
        const third = text.indexOf("Third");
        const claims = [
            { start: third, end: third + 2 },
            { start: claim, end: claim + "claim here".length },
        ];
        assert.deepEqual(cut(uncoveredSentences(text, claims)), [
            "# Title",
            "Second one, uncited!",
            "Indented line without stop",
        ]);
        assert.equal(uncoveredSentences(text, []).length, 5);
    });
});
