/**
 * Candidates a reader would pick (issue 34.9, docs/repair.md "Candidates"): a misquoted end never
 * drops the final punctuation of the sentence it ends, and among equally costly candidates for an
 * ambiguous boundary the one ending where its sentence ends comes first.
 */
import * as assert from "node:assert/strict";
import { type Ref, type RepairDocuments, repairRef, Session, SessionDocument } from "../../server/src/core";

const notes = [
    "# Orbit 2.4 release notes",
    "Orbit 2.4 ships for Linux and macOS. Windows support is planned for 2.5.",
    "Memory use is unchanged: the release uses the same memory as the previous release.",
    "Is it faster? Yes! Cold start is 37% faster (measured on 2.3).",
].join("\n");

function documents(content: string): RepairDocuments {
    const session = new Session([new SessionDocument("notes.md", content)]);
    return { get: (p) => session.get(p), candidatePaths: () => session.paths };
}

const ref = (sl: number, ss: string, el: number, es: string): Ref => ({
    path: "notes.md",
    start: { line: sl, str: ss },
    end: { line: el, str: es },
});

describe("repair candidates: whole sentences, the reader's pick first", () => {
    it("a misquoted end keeps the period of the sentence it ends", () => {
        const candidates = repairRef(ref(2, "Orbit 2.4 ships", 2, "planned for 2.6."), documents(notes));
        assert.ok(candidates.length > 0);
        assert.equal(candidates[0].reason, "misquote");
        assert.equal(candidates[0].text, "Orbit 2.4 ships for Linux and macOS. Windows support is planned for 2.5.");
        for (const c of candidates) assert.doesNotMatch(c.text, /2\.5$/, "no candidate stops before the period");
    });

    it("a misquoted end inside a sentence is not stretched to the sentence's end", () => {
        const [best] = repairRef(ref(4, "Cold start", 4, "37 % faster"), documents(notes));
        assert.ok(best);
        assert.match(best.text, /^Cold start is 37% faster/);
        assert.doesNotMatch(best.text, /\)\.$/, "only punctuation that ends the sentence right there is taken");
    });

    it("an ambiguous end: the candidate ending the sentence comes before the fragment", () => {
        const candidates = repairRef(ref(3, "Memory use", 3, "release"), documents(notes));
        assert.ok(candidates.length >= 2);
        assert.equal(
            candidates[0].text,
            "Memory use is unchanged: the release uses the same memory as the previous release",
        );
        assert.equal(candidates[1].text, "Memory use is unchanged: the release");
    });
});
