import * as assert from "node:assert/strict";
import {
    explainRepair,
    findLockedText,
    LOCK_MARGIN,
    type Ref,
    type RepairOptions,
    resolveRef,
    type SessionDocument,
} from "../../server/src/core";
import { random } from "./repairCorpus";
import { DRIFT_KINDS, type DriftCase, type DriftKind, makeDriftCase, sha256 } from "./repairDrift";

const CASES_PER_KIND = Number(process.env.SOURCECHECK_DRIFT_CASES ?? 60);

interface Tally {
    refs: number;
    textExists: number;
    restored: number;
    gone: number;
    certainForGone: number;
    wrongCertain: number;
    /** After the certain repairs, refs on text other than their locked text. */
    otherText: number;
    /** ... of which the lock would no longer pair with the ref (so no `text-changed`). */
    otherTextUnflagged: number;
}

const empty = (): Tally => ({
    refs: 0,
    textExists: 0,
    restored: 0,
    gone: 0,
    certainForGone: 0,
    wrongCertain: 0,
    otherText: 0,
    otherTextUnflagged: 0,
});

/** Whether a lock entry made for `original` still pairs with `now` (docs/lock.md, "Keying"): same ref, same strings, or same lines. */
function lockPairs(original: Ref, now: Ref): boolean {
    const strings = original.start.str === now.start.str && original.end.str === now.end.str;
    const lines = original.start.line === now.start.line && original.end.line === now.end.line;
    return original.path === now.path && (strings || lines);
}

/** The lead of the best place over the next, where the lock's text is found at two places or more: when the best is right, and when it is not. */
const leads = { right: [] as number[], wrong: [] as number[] };

function run(c: DriftCase, evidence: "lock" | "history", tally: Tally, failures: string[]): void {
    for (const r of c.refs) {
        if (evidence === "lock" && r.expected) {
            const places = findLockedText(c.after.get(r.ref.path) as SessionDocument, r.locked, sha256);
            if (places.length >= 2) {
                const right = places[0].from === r.expected.start && places[0].to === r.expected.end;
                leads[right ? "right" : "wrong"].push(places[1].cost - places[0].cost);
            }
        }
        tally.refs++;
        const options: RepairOptions =
            evidence === "lock" ? { locked: r.locked, sha256 } : { previous: c.before, previousLabel: "HEAD" };
        const { candidates } = explainRepair(r.ref, c.after, options);
        const certain = candidates.find((x) => x.certain);
        if (certain) assert.ok(certain.evidence && certain.evidenceKind, "a certain repair names its evidence");
        const final = certain ? certain.ref : r.ref;
        const resolved = resolveRef(c.after, final);
        if (r.expected === undefined) {
            tally.gone++;
            if (certain) {
                tally.certainForGone++;
                if (failures.length < 6)
                    failures.push(`${c.kind}/${evidence} gone: ${JSON.stringify(r.ref)} -> ${JSON.stringify(final)}`);
            }
        } else if (
            certain &&
            (!resolved.valid || resolved.startOffset !== r.expected.start || resolved.endOffset !== r.expected.end)
        ) {
            tally.wrongCertain++;
            if (failures.length < 6)
                failures.push(`${c.kind}/${evidence} wrong: ${JSON.stringify(r.ref)} -> ${JSON.stringify(final)}`);
        }
        if (r.textExists) {
            tally.textExists++;
            if (resolved.valid && resolved.startOffset === r.expected?.start && resolved.endOffset === r.expected?.end)
                tally.restored++;
        }
        if (resolved.valid && resolved.text !== r.locked.text) {
            tally.otherText++;
            if (!lockPairs(r.ref, final)) tally.otherTextUnflagged++;
        }
    }
}

describe("repair: refs authored by cite, locked, then the document drifts", () => {
    const tallies = { lock: new Map<DriftKind, Tally>(), history: new Map<DriftKind, Tally>() };
    const failures: string[] = [];

    before(() => {
        for (const [k, kind] of DRIFT_KINDS.entries()) {
            const next = random(7000 + k);
            const lock = empty();
            const history = empty();
            let made = 0;
            for (let attempt = 0; made < CASES_PER_KIND && attempt < CASES_PER_KIND * 20; attempt++) {
                const c = makeDriftCase(kind, next);
                if (!c) continue;
                made++;
                run(c, "lock", lock, failures);
                run(c, "history", history, failures);
            }
            tallies.lock.set(kind, lock);
            tallies.history.set(kind, history);
        }
        for (const evidence of ["lock", "history"] as const) {
            const rows = [...tallies[evidence]].map(
                ([kind, t]) =>
                    `  ${evidence.padEnd(8)} ${kind.padEnd(13)} ${String(t.refs).padStart(4)} refs  text exists ${String(t.textExists).padStart(4)}, restored ${((100 * t.restored) / Math.max(1, t.textExists)).toFixed(1).padStart(5)}%  gone ${t.gone} (certain ${t.certainForGone})  wrong certain ${t.wrongCertain}  on other text ${t.otherText} (unflagged ${t.otherTextUnflagged})`,
            );
            console.log(`\n${rows.join("\n")}`);
        }
    });

    it(`decides between places by the margin (${LOCK_MARGIN}): a wrong best place never leads by it`, () => {
        const summary = (xs: number[]) =>
            xs.length === 0 ? "none" : `${xs.length}, lead ${Math.min(...xs).toFixed(2)}-${Math.max(...xs).toFixed(2)}`;
        console.log(
            `      places found twice or more: best right ${summary(leads.right)}; best wrong ${summary(leads.wrong)}; right with a lead of ${LOCK_MARGIN} or more: ${leads.right.filter((x) => x >= LOCK_MARGIN).length}`,
        );
        assert.ok(leads.right.length > 20, "the corpus has cases with several places");
        for (const lead of leads.wrong) assert.ok(lead < LOCK_MARGIN, `a wrong place led by ${lead}`);
    });

    const total = (evidence: "lock" | "history", field: keyof Tally) =>
        [...tallies[evidence].values()].reduce((sum, t) => sum + t[field], 0);

    it("restores at least 95% of the refs whose text still exists, with the lock", () => {
        const restored = total("lock", "restored");
        const exists = total("lock", "textExists");
        console.log(`      lock: restored ${restored} of ${exists} (${((100 * restored) / exists).toFixed(1)}%)`);
        assert.ok(exists > 500 && restored / exists >= 0.95, `restored ${restored} of ${exists}`);
    });

    it("makes no certain repair for deleted text, and none to other text", () => {
        for (const evidence of ["lock", "history"] as const) {
            assert.equal(total(evidence, "certainForGone"), 0, failures.join("\n"));
            assert.equal(total(evidence, "wrongCertain"), 0, failures.join("\n"));
        }
    });

    it("leaves no ref on other text where the lock would not pair with it (so no text-changed)", () => {
        assert.equal(total("lock", "otherTextUnflagged"), 0);
    });
});
