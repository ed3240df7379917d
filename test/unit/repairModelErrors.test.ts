import * as assert from "node:assert/strict";
import { repairRef, resolveRef } from "../../server/src/core";
import { makeCase, random, session } from "./repairCorpus";
import { MODEL_ERROR_KINDS, type ModelErrorKind, makeModelErrorCase } from "./repairModelErrors";

const PER_KIND = Number(process.env.SOURCECHECK_REPAIR_CASES ?? 300);
const DOC = "notes/prose.md";

interface Tally {
    cases: number;
    restored: number;
    wrong: number;
}

describe("repair: refs a model got wrong against an unchanged document (the only reading)", () => {
    const tallies = new Map<ModelErrorKind, Tally>();
    const failures: string[] = [];
    let undecidable = 0;
    let certainOnUndecidable = 0;

    before(() => {
        for (const [k, kind] of MODEL_ERROR_KINDS.entries()) {
            const next = random(5000 + k);
            const tally: Tally = { cases: 0, restored: 0, wrong: 0 };
            let attempts = 0;
            while (tally.cases < PER_KIND && attempts++ < PER_KIND * 50) {
                const c = makeModelErrorCase(kind, next);
                if (!c) continue;
                tally.cases++;
                const documents = session({ [DOC]: c.lines });
                const candidates = repairRef(c.broken, documents, { unchanged: true });
                const certain = candidates.filter((x) => x.certain);
                assert.ok(certain.length <= 1, "at most one certain candidate");
                if (certain.length === 0) continue;
                assert.ok(certain[0].evidence && certain[0].evidenceKind, "a certain repair names its evidence");
                const r = resolveRef(documents, certain[0].ref);
                if (r.valid && r.startOffset === c.expected.start && r.endOffset === c.expected.end) tally.restored++;
                else {
                    tally.wrong++;
                    if (failures.length < 5)
                        failures.push(`${kind}: ${JSON.stringify(c.broken)} -> ${JSON.stringify(certain[0].ref)}`);
                }
            }
            tallies.set(kind, tally);
        }
        // Two identical readings: nothing decides, so nothing is certain, even presuming the document unchanged.
        const next = random(6000);
        let attempts = 0;
        while (undecidable < PER_KIND && attempts++ < PER_KIND * 50) {
            const c = makeCase("ambiguous-undecidable", next);
            if (!c || resolveRef(c.documents, c.broken).valid) continue;
            undecidable++;
            if (repairRef(c.broken, c.documents, { unchanged: true }).some((x) => x.certain)) certainOnUndecidable++;
        }
        const rows = [...tallies].map(
            ([kind, t]) =>
                `  ${kind.padEnd(22)} ${String(t.cases).padStart(4)} cases  restored ${((100 * t.restored) / t.cases).toFixed(1).padStart(5)}%  wrong certain ${t.wrong}`,
        );
        rows.push(
            `  ${"undecidable".padEnd(22)} ${String(undecidable).padStart(4)} cases  certain ${certainOnUndecidable}`,
        );
        console.log(`\n${rows.join("\n")}`);
    });

    it("generates hundreds of cases of every kind", () => {
        for (const [kind, t] of tallies)
            assert.ok(t.cases >= Math.min(PER_KIND, 200), `${kind}: only ${t.cases} cases`);
        assert.ok(undecidable >= Math.min(PER_KIND, 200));
    });

    it("never makes a wrong certain repair", () => {
        const wrong = [...tallies.values()].reduce((sum, t) => sum + t.wrong, 0);
        assert.equal(wrong, 0, failures.join("\n"));
    });

    it("never makes a certain repair when two identical readings exist", () => {
        assert.equal(certainOnUndecidable, 0);
    });

    it("restores at least 90% with the certain repair", () => {
        let cases = 0;
        let restored = 0;
        for (const t of tallies.values()) {
            cases += t.cases;
            restored += t.restored;
        }
        console.log(
            `      restored by the certain repair: ${restored} of ${cases} (${((100 * restored) / cases).toFixed(1)}%)`,
        );
        assert.ok(restored / cases >= 0.9, `restored ${restored} of ${cases}`);
    });
});
