/**
 * Repair of the slips people and models make in a boundary string (issue 32; docs/repair.md,
 * "Measured"), per kind: restored by the certain repair, wrong certain repairs, and certain repairs
 * where a second, equally near copy of the meant text leaves nothing to decide.
 */
import * as assert from "node:assert/strict";
import type { SlipKind } from "./repairSlips";
import { measureSlips, type SlipTally, slipRows } from "./repairSlipsMeasure";

const PER_KIND = Number(process.env.SOURCECHECK_REPAIR_CASES ?? 300);

describe("repair: the slips people make in a boundary string, per kind (the only reading)", () => {
    let tallies = new Map<SlipKind, SlipTally>();
    let failures: string[] = [];

    before(() => {
        ({ tallies, failures } = measureSlips(PER_KIND));
        console.log(`\n${slipRows(tallies).join("\n")}`);
    });

    it("generates hundreds of cases of every kind, most with an undecidable twin", () => {
        for (const [kind, t] of tallies) {
            assert.ok(t.cases >= Math.min(PER_KIND, 200), `${kind}: only ${t.cases} cases`);
            assert.ok(t.undecidable >= t.cases / 2, `${kind}: only ${t.undecidable} twins`);
        }
    });

    it("never makes a wrong certain repair", () => {
        const wrong = [...tallies.values()].reduce((sum, t) => sum + t.wrong, 0);
        assert.equal(wrong, 0, failures.join("\n"));
    });

    it("never makes a certain repair when a second near match leaves nothing to decide", () => {
        const certain = [...tallies.values()].reduce((sum, t) => sum + t.certainOnUndecidable, 0);
        assert.equal(certain, 0, failures.join("\n"));
    });

    it("restores at least 95% of every kind with the certain repair", () => {
        for (const [kind, t] of tallies)
            assert.ok(t.restored / t.cases >= 0.95, `${kind}: ${t.restored} of ${t.cases}\n${failures.join("\n")}`);
    });
});
