import * as assert from "node:assert/strict";
import { type RepairDocuments, repairRef, resolveRef } from "../../server/src/core";
import { type Case, type Kind, makeCase, random } from "./repairCorpus";

const KINDS: Kind[] = [
    "shift-above",
    "shift-inside",
    "misquote",
    "ambiguous-decided",
    "ambiguous-undecidable",
    "path-typo",
    "path-moved",
    "shift+misquote",
    "shift+ambiguous",
    "path+shift",
];
const PER_KIND = Number(process.env.SOURCECHECK_REPAIR_CASES ?? 300);

interface Tally {
    cases: number;
    restored: number;
    wrongCertain: number;
    certainOnUndecidable: number;
    offeredAmongCandidates: number;
}

function runCase(c: Case): { outcome: "restored" | "wrong" | "none"; offered: boolean } {
    const documents: RepairDocuments = {
        get: (p) => c.documents.get(p),
        candidatePaths: () => c.paths,
    };
    const candidates = repairRef(c.broken, documents);
    for (const candidate of candidates) {
        // Every candidate makes the whole ref valid.
        assert.ok(
            resolveRef(documents, candidate.ref).valid,
            `candidate does not resolve: ${JSON.stringify(candidate)}`,
        );
    }
    const matches = (candidate: (typeof candidates)[number]) => {
        const r = resolveRef(documents, candidate.ref);
        return (
            c.expected !== undefined &&
            r.valid &&
            r.path === c.expected.path &&
            r.startOffset === c.expected.start &&
            r.endOffset === c.expected.end
        );
    };
    const certain = candidates.filter((x) => x.certain);
    assert.ok(certain.length <= 1, "at most one certain candidate");
    const offered = candidates.some(matches);
    if (certain.length === 0) return { outcome: "none", offered };
    return { outcome: matches(certain[0]) ? "restored" : "wrong", offered };
}

describe("repair: a corpus of realistic breakages from real prose", () => {
    const tallies = new Map<Kind, Tally>();
    const failures: string[] = [];

    before(() => {
        for (const [k, kind] of KINDS.entries()) {
            const next = random(1000 + k);
            const tally: Tally = {
                cases: 0,
                restored: 0,
                wrongCertain: 0,
                certainOnUndecidable: 0,
                offeredAmongCandidates: 0,
            };
            let attempts = 0;
            while (tally.cases < PER_KIND && attempts++ < PER_KIND * 50) {
                const c = makeCase(kind, next);
                // A breakage that left the ref valid is not a breakage.
                if (!c || resolveRef(c.documents, c.broken).valid) continue;
                tally.cases++;
                const { outcome, offered } = runCase(c);
                if (offered) tally.offeredAmongCandidates++;
                if (outcome === "restored") tally.restored++;
                if (outcome === "wrong") {
                    if (c.expected === undefined) tally.certainOnUndecidable++;
                    else tally.wrongCertain++;
                    if (failures.length < 5) failures.push(`${kind}: ${JSON.stringify(c.broken)}`);
                }
            }
            tallies.set(kind, tally);
        }
        const rows = [...tallies].map(
            ([kind, t]) =>
                `  ${kind.padEnd(22)} ${String(t.cases).padStart(4)} cases  restored ${((100 * t.restored) / t.cases).toFixed(1).padStart(5)}%  offered ${((100 * t.offeredAmongCandidates) / t.cases).toFixed(1).padStart(5)}%  wrong certain ${t.wrongCertain}  certain on undecidable ${t.certainOnUndecidable}`,
        );
        console.log(`\n${rows.join("\n")}`);
    });

    it("generates hundreds of broken refs of every kind", () => {
        for (const [kind, t] of tallies)
            assert.ok(t.cases >= Math.min(PER_KIND, 200), `${kind}: only ${t.cases} cases`);
    });

    it("never makes a wrong certain repair", () => {
        const wrong = [...tallies.values()].reduce((sum, t) => sum + t.wrongCertain, 0);
        assert.equal(wrong, 0, failures.join("\n"));
    });

    it("never makes a certain repair when nothing decides an ambiguity", () => {
        const t = tallies.get("ambiguous-undecidable");
        assert.ok(t && t.cases > 0);
        assert.equal(t.certainOnUndecidable + t.restored, 0, failures.join("\n"));
    });

    // The target is 90%; precision comes first (docs/repair.md, "Measured"), and this floor guards
    // what is reached without the documents' history.
    it("restores at least 45% of the fixable breakages with the certain repair", () => {
        let cases = 0;
        let restored = 0;
        for (const [kind, t] of tallies) {
            if (kind === "ambiguous-undecidable") continue;
            cases += t.cases;
            restored += t.restored;
        }
        console.log(
            `      fixable breakages restored by the certain repair: ${((100 * restored) / cases).toFixed(1)}%`,
        );
        assert.ok(
            restored / cases >= 0.45,
            `restored ${restored} of ${cases} (${((100 * restored) / cases).toFixed(1)}%)`,
        );
    });
});
