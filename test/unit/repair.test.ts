import * as assert from "node:assert/strict";
import { type Ref, type RepairDocuments, repairRef, resolveRef, Session, SessionDocument } from "../../server/src/core";

const notes = [
    "# Release notes",
    "Faster cold start: the runtime loads plugins lazily.",
    "Offline sync now resumes after the client is reconnected.",
    "Memory use is unchanged: the release uses the same memory as the previous release.",
    "Peak memory rises by 12% with the plugin cache.",
].join("\n");

function documents(content: string, extra: Record<string, string> = {}): RepairDocuments {
    const session = new Session([
        new SessionDocument("notes.md", content),
        ...Object.entries(extra).map(([p, c]) => new SessionDocument(p, c)),
    ]);
    return { get: (p) => session.get(p), candidatePaths: () => session.paths };
}

const ref = (sl: number, ss: string, el: number, es: string, path = "notes.md"): Ref => ({
    path,
    start: { line: sl, str: ss },
    end: { line: el, str: es },
});

describe("repair engine", () => {
    it("returns nothing for a ref that resolves", () => {
        assert.deepEqual(repairRef(ref(2, "Faster", 2, "lazily."), documents(notes)), []);
    });

    it("moves a whole ref when lines were inserted above it, keeping its strings", () => {
        const shifted = `Intro\n\n${notes}`;
        const [best] = repairRef(ref(3, "Offline sync", 3, "reconnected."), documents(shifted));
        assert.equal(best.certain, true);
        assert.equal(best.reason, "line-shift");
        assert.deepEqual(best.ref, ref(5, "Offline sync", 5, "reconnected."));
        assert.equal(best.text, "Offline sync now resumes after the client is reconnected.");
    });

    // Found by a wider run of the fast-check property (docs/repair.md, "Measured"): the cited line
    // was replaced, and the new line happens to hold the strings.
    it("never reads a one-word span twice over a line that now holds the word twice", () => {
        // "the" … "the" once meant the single word "the" on line 2; that line now has two.
        const replaced = "# Notes\nthe cited span contradicts the claim.";
        const candidates = repairRef(ref(2, "the", 2, "the"), documents(replaced));
        assert.ok(candidates.length > 0);
        assert.equal(
            candidates.some((c) => c.certain),
            false,
        );
    });

    it("does not take a string inside a longer word, on another line, for the string", () => {
        // "release note" … "published today." on line 2 is gone; line 4 has "release notes".
        const replaced = "# Notes\nSomething else.\nMore.\nThe release notes were published today.";
        const candidates = repairRef(ref(2, "release note", 2, "published today."), documents(replaced));
        assert.ok(candidates.length > 0);
        assert.equal(
            candidates.some((c) => c.certain),
            false,
        );
    });

    it("decides an ambiguous common word in place, however often it occurs around it", () => {
        // "the" is on every line: more placements than are paired, all of them lines away.
        const lines = Array.from({ length: 80 }, (_, i) => `Line ${i + 1} of the log.`);
        lines[39] = "the cat saw the dog";
        const [best] = repairRef(ref(40, "cat", 40, "the"), documents(lines.join("\n")));
        assert.equal(best.certain, true);
        assert.equal(best.text, "cat saw the");
    });

    it("offers a changed number as a candidate that ends at a word edge, never certain", () => {
        // "planned for 2.6." where the line says 2.5.: the guessed edge must not cut "2.5." after "2.".
        const line = "Orbit 2.4 ships for Linux and macOS. Windows support is planned for 2.5.";
        const candidates = repairRef(ref(1, "Orbit 2.4 ships", 1, "planned for 2.6."), documents(line));
        assert.ok(candidates.length > 0);
        for (const candidate of candidates) {
            assert.equal(candidate.certain, false);
            const end = candidate.range.end.column;
            assert.ok(!/[\p{L}\p{N}]/u.test(line[end] ?? "") || !/[\p{L}\p{N}]/u.test(line[end - 1]), `cut at ${end}`);
            assert.doesNotMatch(candidate.text, /2\.$/);
        }
    });

    it("finds a string with a word added inside it, as words (more edits than a near match allows)", () => {
        // "to very use" for "to use": five characters added to six.
        const line = "Documents are expected to use LF line endings throughout the session.";
        const [best] = repairRef(ref(1, "to very use", 1, "the session."), documents(line));
        assert.ok(best);
        assert.equal(best.reason, "misquote");
        assert.equal(best.text, "to use LF line endings throughout the session.");
    });

    it("decides an ambiguous boundary by the order of the span", () => {
        // "release" occurs twice on line 4; only the second can end a span starting at "the same".
        const [best, ...rest] = repairRef(ref(4, "the same", 4, "release"), documents(notes));
        assert.equal(best.certain, true);
        assert.equal(best.reason, "ambiguous");
        assert.equal(best.text, "the same memory as the previous release");
        assert.ok(rest.every((c) => !c.certain));
    });

    it("offers but never certifies an ambiguity nothing decides", () => {
        const candidates = repairRef(ref(4, "Memory", 4, "release"), documents(notes));
        assert.ok(candidates.length >= 2);
        assert.ok(candidates.every((c) => !c.certain));
        assert.ok(candidates.every((c) => resolveRef(documents(notes), c.ref).valid));
    });

    it("repairs a misquoted case, with readable new strings", () => {
        const [best] = repairRef(ref(5, "peak memory", 5, "plugin cache."), documents(notes));
        assert.equal(best.certain, true);
        assert.equal(best.reason, "misquote");
        assert.equal(best.ref.start.str, "Peak");
        assert.equal(best.text, "Peak memory rises by 12% with the plugin cache.");
    });

    it("repairs a path typo and a moved file", () => {
        const typo = repairRef(ref(2, "Faster", 2, "lazily.", "note.md"), documents(notes));
        assert.equal(typo[0].certain, true);
        assert.equal(typo[0].reason, "path");
        assert.equal(typo[0].ref.path, "notes.md");
        const moved = repairRef(ref(2, "Faster", 2, "lazily.", "old/notes.md"), documents(notes));
        assert.equal(moved[0].ref.path, "notes.md");
        assert.equal(moved[0].certain, true);
    });

    it("is not certain when two files could be meant", () => {
        const both = repairRef(
            ref(2, "Faster", 2, "lazily.", "old/notes.md"),
            documents(notes, { "new/notes.md": notes }),
        );
        assert.ok(both.length >= 2);
        assert.ok(both.every((c) => !c.certain));
    });

    it("keeps source fields (polarity, confidence) on the repaired ref", () => {
        const source = { ...ref(3, "Offline sync", 3, "reconnected."), polarity: "supports" as const, confidence: 0.9 };
        const [best] = repairRef(source, documents(`x\n${notes}`));
        assert.equal(best.ref.polarity, "supports");
        assert.equal(best.ref.confidence, 0.9);
    });
});
