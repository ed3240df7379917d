import * as assert from "node:assert/strict";
import fc from "fast-check";
import {
    Corroboration,
    type Ref,
    type RepairSite,
    refForSpan,
    repairSite,
    resolveInDocument,
    Session,
    SessionDocument,
} from "../../server/src/core";
import { PROSE_LINES } from "./repairCorpus";

/** Sites for refs into one document as it is now, each repaired on first demand. */
function sitesFor(refs: Ref[], content: string): { sites: RepairSite[]; document: SessionDocument } {
    const document = new SessionDocument("d.md", content);
    const session = new Session([document]);
    const sites = refs.map((ref) => repairSite(ref, resolveInDocument(document, ref).valid, session));
    return { sites, document };
}

const ref = (sl: number, ss: string, el: number, es: string): Ref => ({
    path: "d.md",
    start: { line: sl, str: ss },
    end: { line: el, str: es },
});

const LINES = [
    "# Release notes for the spring update", // 1
    "The installer verifies signatures before unpacking archives.", // 2
    "Caching moved to a separate worker process.", // 3
    "A list of changes follows.", // 4
    "Each entry links to its issue.", // 5
    "You can read it in order, or jump to what matters to you.", // 6
    "Telemetry is opt-in and documented in the privacy guide.", // 7
];
// Written against LINES: two refs with distinctive strings around one with short ones.
const DISTINCTIVE_ABOVE = ref(2, "The installer verifies", 2, "unpacking archives.");
const WEAK = ref(4, "list of", 5, "links to");
const DISTINCTIVE_BELOW = ref(7, "Telemetry is opt-in", 7, "privacy guide.");

describe("repair: corroboration by the refs around a ref", () => {
    it("makes certain the shift of a ref with short strings that its neighbours agree on", () => {
        const shifted = ["Intro.", "", ...LINES].join("\n");
        const { sites } = sitesFor([DISTINCTIVE_ABOVE, WEAK, DISTINCTIVE_BELOW], shifted);
        // Alone, the engine cannot tell "list of" … "links to" moved from a deleted line recurring nearby.
        assert.equal(
            sites[1].candidates().some((c) => c.certain),
            false,
        );
        const corroboration = new Corroboration(sites);
        const certain = corroboration.candidates(1).find((c) => c.certain);
        assert.deepEqual(certain?.ref, ref(6, "list of", 7, "links to"));
        assert.equal(certain?.text, "list of changes follows.\nEach entry links to");
    });

    it("makes nothing certain when its neighbours moved by different amounts (lines deleted between)", () => {
        // Three lines inserted at the top, and the weak ref's lines deleted: what is left of
        // "list" … "to" is chance, and the refs below moved by one line, not three.
        const edited = [
            "Intro.",
            "",
            "More.",
            ...LINES.slice(0, 3),
            "A list of what to do.",
            "Go to it.",
            ...LINES.slice(5),
        ];
        const { sites } = sitesFor([DISTINCTIVE_ABOVE, WEAK, DISTINCTIVE_BELOW], edited.join("\n"));
        const corroboration = new Corroboration(sites);
        assert.equal(
            corroboration.candidates(1).some((c) => c.certain),
            false,
        );
    });

    it("needs an anchor on both sides: a valid ref above says its lines did not move", () => {
        const edited = [...LINES.slice(0, 3), "Inserted.", "Inserted too.", ...LINES.slice(3)];
        const { sites } = sitesFor([DISTINCTIVE_ABOVE, WEAK, DISTINCTIVE_BELOW], edited.join("\n"));
        assert.equal(sites[0].valid, true);
        const corroboration = new Corroboration(sites);
        assert.equal(
            corroboration.candidates(1).some((c) => c.certain),
            false,
        );
    });

    it("after any one edit, a repair made certain by corroboration restores the span (property, line arithmetic)", () => {
        let runs = 0;
        let corroborated = 0;
        const property = fc.property(
            fc.shuffledSubarray(PROSE_LINES, { minLength: 12, maxLength: 50 }),
            fc.array(fc.tuple(fc.nat(), fc.nat(2), fc.nat(), fc.nat()), { minLength: 3, maxLength: 10 }),
            fc.nat(),
            fc.nat(6),
            fc.array(fc.constantFrom(...PROSE_LINES), { maxLength: 12 }),
            (lines, picks, atPick, deleteCount, drawn) => {
                const present = new Set(lines);
                const inserted = drawn.map((line, i) => (present.has(line) ? `Inserted line ${i}, new text.` : line));
                const before = new SessionDocument("d.md", lines.join("\n"));
                const spans: {
                    ref: Ref;
                    startLine: number;
                    endLine: number;
                    startColumn: number;
                    endColumn: number;
                }[] = [];
                for (const [linePick, extra, colA, colB] of picks) {
                    const startLine = 1 + (linePick % lines.length);
                    const endLine = Math.min(lines.length, startLine + extra);
                    const starts = [...lines[startLine - 1].matchAll(/\S+/g)].map((m) => m.index);
                    const ends = [...lines[endLine - 1].matchAll(/\S+/g)].map((m) => m.index + m[0].length);
                    const startColumn = starts[colA % starts.length];
                    const usable = startLine === endLine ? ends.filter((e) => e > startColumn) : ends;
                    if (usable.length === 0) continue;
                    const endColumn = usable[colB % usable.length];
                    const made = refForSpan(
                        before,
                        { line: startLine, column: startColumn },
                        { line: endLine, column: endColumn },
                    );
                    if (made.ok) spans.push({ ref: made.ref, startLine, endLine, startColumn, endColumn });
                }
                if (spans.length < 3) return;
                runs++;
                const at = 1 + (atPick % (lines.length + 1));
                const removed = Math.min(deleteCount, lines.length + 1 - at);
                const after = [...lines.slice(0, at - 1), ...inserted, ...lines.slice(at - 1 + removed)];
                if (after.length === 0) return;
                // The oracle: where each boundary line went, by arithmetic alone.
                const moved = (line: number) =>
                    line < at ? line : line >= at + removed ? line - removed + inserted.length : undefined;
                const offsetOf = (line: number, column: number) =>
                    after.slice(0, line - 1).reduce((sum, l) => sum + l.length + 1, 0) + column;
                const { sites, document } = sitesFor(
                    spans.map((s) => s.ref),
                    after.join("\n"),
                );
                const corroboration = new Corroboration(sites);
                for (const [index, span] of spans.entries()) {
                    if (sites[index].valid) continue;
                    // The engine's own certain repairs are the repair properties' business.
                    if (sites[index].candidates().some((c) => c.certain)) continue;
                    const certain = corroboration.candidates(index).find((c) => c.certain);
                    if (!certain) continue;
                    corroborated++;
                    const newStart = moved(span.startLine);
                    const newEnd = moved(span.endLine);
                    assert.ok(newStart !== undefined && newEnd !== undefined, "a certain repair of deleted lines");
                    const resolution = resolveInDocument(document, certain.ref);
                    assert.ok(resolution.valid);
                    assert.deepEqual(
                        { start: resolution.startOffset, end: resolution.endOffset },
                        { start: offsetOf(newStart, span.startColumn), end: offsetOf(newEnd, span.endColumn) },
                    );
                }
            },
        );
        fc.assert(property, { numRuns: Number(process.env.SOURCECHECK_FC_RUNS ?? 600), seed: 20261130 });
        console.log(`      ${runs} files edited: ${corroborated} repairs made certain by corroboration`);
        assert.ok(runs >= 300, `only ${runs} runs`);
        assert.ok(corroborated > 0, "no repair was corroborated");
    });
});
