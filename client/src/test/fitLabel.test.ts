import * as assert from "node:assert/strict";
import { columnsOf, fitLineLabel, fitToColumns, labelColumns, leadAndDetails, MIN_LABEL_COLUMNS } from "../fitLabel";

const LABEL = '⚠ broken ref: the end "release" occurs 2 times on line 12, and the start is not on line 9';

/** The words of a text (split at spaces): the oracle for "never cut inside a word". */
function words(text: string): Set<string> {
    return new Set(text.split(/\s+/).filter((w) => w !== ""));
}

describe("labels cut to fit (fitToColumns)", () => {
    it("keeps a label that fits whole", () => {
        assert.equal(fitToColumns(LABEL, columnsOf(LABEL)), LABEL);
        assert.equal(fitToColumns("short", 80), "short");
    });

    it("at every width: fits, ends with …, and every word kept is a whole word of the label (counted cases)", () => {
        const whole = words(LABEL);
        let cases = 0;
        for (let columns = 1; columns < columnsOf(LABEL); columns++) {
            const cut = fitToColumns(LABEL, columns);
            cases++;
            assert.ok(columnsOf(cut) <= columns, `${JSON.stringify(cut)} is wider than ${columns}`);
            assert.ok(cut.endsWith("…"), cut);
            const kept = cut.slice(0, -1);
            for (const word of words(kept))
                assert.ok(whole.has(word), `"${word}" is cut from a word (width ${columns})`);
            // As much as fits: the next word would not have.
            const next = LABEL.slice(kept.length).match(/^\s*\S+/)?.[0];
            if (next && kept !== "")
                assert.ok(columnsOf(kept + next) + 1 > columns, `${columns}: "${next}" fitted too`);
        }
        assert.equal(cases, columnsOf(LABEL) - 1);
    });

    it("cuts between the characters of a script written without spaces, counting them two columns wide", () => {
        const chinese = "断开的引用：结尾不在第16行";
        assert.equal(columnsOf("断开"), 4);
        const cut = fitToColumns(chinese, 9);
        assert.equal(cut, "断开的引…");
        assert.ok(columnsOf(cut) <= 9);
    });

    it("gives only … when not even the first word fits", () => {
        assert.equal(fitToColumns("Unbreakable-word and more", 6), "…");
    });

    it("a label gets the columns left after its line, and none past the edge", () => {
        assert.equal(labelColumns(140, 72, 4), 64);
        assert.equal(labelColumns(140, 200, 4), 0);
        assert.equal(labelColumns(80, 72, 4), 4);
    });

    it("a line's label never takes more columns than are left: words, the glyph alone, or nothing", () => {
        const words = 'broken ref: the end "planned for 2.6." is not on line 16';
        for (let columns = 0; columns <= 80; columns++) {
            const label = fitLineLabel("⚠", words, columns);
            assert.ok(columnsOf(label) <= columns, `${columns}: ${label}`);
            if (columns >= MIN_LABEL_COLUMNS) assert.ok(label.startsWith("⚠ broken"), label);
            else assert.equal(label, columns >= 1 ? "⚠" : "");
        }
    });
});

describe("notifications lead with the key fact (leadAndDetails)", () => {
    it("keeps a short message whole, without details", () => {
        assert.deepEqual(leadAndDetails("claim added as annotation 3"), { lead: "claim added as annotation 3" });
    });

    it("leads a long one with its first clause, fitted at a word edge, the whole message as details", () => {
        const message =
            "supporting source added to annotation 9; the selection cut a word, so whole words are cited: “New scheduler with priority queues”";
        const { lead, details } = leadAndDetails(message, 60);
        assert.equal(lead, "supporting source added to annotation 9");
        assert.equal(details, message);
        const long =
            "quote-not-found: the quote does not occur verbatim in the fetched page https://example.test/a/very/long/path, even after normalising whitespace and quotes";
        const cut = leadAndDetails(long, 60);
        assert.ok(columnsOf(cut.lead) <= 60 && cut.lead.endsWith("…"), cut.lead);
        assert.ok(long.startsWith(cut.lead.slice(0, -1)));
        assert.equal(cut.details, long);
    });
});
