/**
 * Measuring repair on the slips of repairSlips.ts (docs/repair.md, "Measured"): per kind, restored by
 * the certain repair, wrong certain repairs, and certain repairs on the undecidable twins. Used by
 * the unit test and the bench's repair-slips row.
 */
import * as assert from "node:assert/strict";
import { repairRef, resolveRef } from "../../server/src/core";
import { random, session } from "./repairCorpus";
import { makeSlipCase, SLIP_DOC, SLIP_KINDS, type SlipKind } from "./repairSlips";

export interface SlipTally {
    cases: number;
    restored: number;
    wrong: number;
    undecidable: number;
    certainOnUndecidable: number;
}

/** Every kind's tally over `perKind` cases (seeded), with the first few failures described. */
export function measureSlips(perKind: number): { tallies: Map<SlipKind, SlipTally>; failures: string[] } {
    const tallies = new Map<SlipKind, SlipTally>();
    const failures: string[] = [];
    for (const [k, kind] of SLIP_KINDS.entries()) {
        const next = random(7100 + k);
        const tally: SlipTally = { cases: 0, restored: 0, wrong: 0, undecidable: 0, certainOnUndecidable: 0 };
        for (let attempts = 0; tally.cases < perKind && attempts < perKind * 200; attempts++) {
            const c = makeSlipCase(kind, next);
            if (!c) continue;
            tally.cases++;
            const documents = session({ [SLIP_DOC]: c.lines });
            const certain = repairRef(c.broken, documents, { unchanged: true }).filter((x) => x.certain);
            assert.ok(certain.length <= 1, "at most one certain candidate");
            if (certain.length === 1) {
                const r = resolveRef(documents, certain[0].ref);
                if (r.valid && r.startOffset === c.expected.start && r.endOffset === c.expected.end) tally.restored++;
                else {
                    tally.wrong++;
                    if (failures.length < 8)
                        failures.push(`${kind}: ${JSON.stringify(c.broken)} -> ${JSON.stringify(certain[0].ref)}`);
                }
            } else if (failures.length < 8 && process.env.SOURCECHECK_REPAIR_DEBUG)
                failures.push(`${kind} not restored: ${JSON.stringify(c.broken)} (meant ${JSON.stringify(c.meant)})`);
            if (c.twin) {
                tally.undecidable++;
                const twin = session({ [SLIP_DOC]: c.twin.lines });
                if (repairRef(c.twin.broken, twin, { unchanged: true }).some((x) => x.certain)) {
                    tally.certainOnUndecidable++;
                    if (failures.length < 8)
                        failures.push(`${kind} twin made certain: ${JSON.stringify(c.twin.broken)}`);
                }
            }
        }
        tallies.set(kind, tally);
    }
    return { tallies, failures };
}

export function slipRows(tallies: Map<SlipKind, SlipTally>): string[] {
    const rows = [...tallies].map(
        ([kind, t]) =>
            `  ${kind.padEnd(12)} ${String(t.cases).padStart(4)} cases  restored ${((100 * t.restored) / t.cases).toFixed(1).padStart(5)}%  wrong certain ${t.wrong}  undecidable ${t.undecidable}, certain ${t.certainOnUndecidable}`,
    );
    const all = [...tallies.values()];
    const cases = all.reduce((s, t) => s + t.cases, 0);
    const restored = all.reduce((s, t) => s + t.restored, 0);
    rows.push(
        `  ${"all".padEnd(12)} ${String(cases).padStart(4)} cases  restored ${((100 * restored) / cases).toFixed(1).padStart(5)}%`,
    );
    return rows;
}
