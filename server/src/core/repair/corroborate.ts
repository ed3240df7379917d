/**
 * Repairs that the other refs of a file corroborate (docs/repair.md, "Corroboration"). Alone, a ref
 * with short strings ("list" … "to") found a few lines below where it was written cannot be told
 * from one whose lines were deleted while the same words occur nearby. But the refs around it into
 * the same document say how the lines moved: a valid ref says its lines did not move, a certain
 * whole-span shift says by how much they did. When the nearest of them above and below the ref's
 * lines moved by the same number of lines, nothing was inserted or deleted between them, so the
 * ref's own lines moved by that much too, and its candidate that moved by exactly that much, its
 * strings as written, is certain.
 */

import type { Ref } from "../types";
import { isUnspaced, wordRuns } from "../words";
import { explainRepair, type RepairExplanation } from "./engine";
import type { RepairCandidate, RepairDocuments, RepairOptions } from "./types";

export interface RepairSite<R extends Ref = Ref> {
    ref: R;
    valid: boolean;
    /** The engine's candidates (computed when first asked; the caller caches them). */
    candidates(): RepairCandidate<R>[];
    /** Why nothing is certain, when the evidence itself says so (engine.ts, explainRepair). */
    note(): string | undefined;
}

/** A ref of a file as a site: a broken one is repaired once, when first asked. */
export function repairSite<R extends Ref>(
    ref: R,
    valid: boolean,
    documents: RepairDocuments,
    options: RepairOptions = {},
): RepairSite<R> {
    let explained: RepairExplanation<R> | undefined;
    const explain = () => {
        explained ??= valid ? { candidates: [] } : explainRepair(ref, documents, options);
        return explained;
    };
    return { ref, valid, candidates: () => explain().candidates, note: () => explain().note };
}

interface Anchor {
    from: number;
    to: number;
    offset: number;
}

/** The same lines moved by the same amount, its strings unchanged: a whole-span line shift. */
function shiftOf(ref: Ref, candidate: RepairCandidate): number | undefined {
    const after = candidate.ref;
    if (after.path !== ref.path || after.start.str !== ref.start.str || after.end.str !== ref.end.str) return undefined;
    const offset = after.start.line - ref.start.line;
    return after.end.line - ref.end.line === offset ? offset : undefined;
}

function anchorOf(site: RepairSite): Anchor | undefined {
    const { ref } = site;
    if (!Number.isInteger(ref.start.line) || !Number.isInteger(ref.end.line)) return undefined;
    if (site.valid) return { from: ref.start.line, to: ref.end.line, offset: 0 };
    const certain = site.candidates().find((c) => c.certain);
    const offset = certain && shiftOf(ref, certain);
    return offset === undefined ? undefined : { from: ref.start.line, to: ref.end.line, offset };
}

/**
 * The refs of one file, grouped by document and ordered by line once, so that each broken ref finds
 * its nearest anchors by walking out from where it is.
 */
export class Corroboration<R extends Ref = Ref> {
    private readonly byPath = new Map<string, number[]>();
    private readonly position = new Map<number, number>();
    /** anchorOf per site, computed once (null: not an anchor). */
    private readonly anchors = new Map<number, Anchor | null>();

    constructor(private readonly sites: RepairSite<R>[]) {
        for (const [index, site] of sites.entries()) {
            const { start, end } = site.ref;
            if (!Number.isInteger(start.line) || !Number.isInteger(end.line)) continue;
            const list = this.byPath.get(site.ref.path);
            if (list) list.push(index);
            else this.byPath.set(site.ref.path, [index]);
        }
        for (const list of this.byPath.values()) {
            list.sort((a, b) => sites[a].ref.start.line - sites[b].ref.start.line || a - b);
            for (const [at, index] of list.entries()) this.position.set(index, at);
        }
    }

    /**
     * The candidates of `sites[index]`, with the shift its neighbours agree on marked certain when
     * the engine found none. Other sites' candidates are computed only as far as the nearest anchors.
     */
    candidates(index: number): RepairCandidate<R>[] {
        const site = this.sites[index];
        const candidates = site.candidates();
        if (site.valid || candidates.length === 0 || candidates.some((c) => c.certain)) return candidates;
        const { ref } = site;
        const shifts = candidates.map((c) => shiftOf(ref, c));
        const list = this.byPath.get(ref.path);
        const at = this.position.get(index);
        if (!shifts.some((s) => s !== undefined && s !== 0) || !list || at === undefined) return candidates;

        // Walking down the lines: refs that overlap this one's lines must agree, the first anchor
        // wholly above is the nearest; then up the same way.
        const agreesSoFar: number[] = [];
        let above: Anchor | undefined;
        for (let i = at - 1; i >= Math.max(0, at - MAX_WALK) && !above; i--) {
            const anchor = this.anchorAt(list[i]);
            if (!anchor) continue;
            if (anchor.to <= ref.start.line) above = anchor;
            else agreesSoFar.push(anchor.offset);
        }
        let below: Anchor | undefined;
        for (let i = at + 1; i < Math.min(list.length, at + 1 + MAX_WALK) && !below; i++) {
            const anchor = this.anchorAt(list[i]);
            if (!anchor) continue;
            if (anchor.from >= ref.end.line) below = anchor;
            else agreesSoFar.push(anchor.offset);
        }
        if (!above || !below || above.offset !== below.offset || above.offset === 0) return candidates;
        const offset = above.offset;
        if (agreesSoFar.some((o) => o !== offset)) return candidates;
        // The line a ref names may have been rewritten in place (the offset around it unchanged):
        // its strings must be more than a word that any line could hold.
        if (!hasTwoWords(`${ref.start.str} ${ref.end.str}`)) return candidates;
        const agreeing = candidates.filter((_, i) => shifts[i] === offset);
        if (agreeing.length !== 1) return candidates;
        const lines = Math.abs(offset);
        const evidence = `the nearest refs above and below it moved ${lines} line${lines === 1 ? "" : "s"} ${offset > 0 ? "down" : "up"} too`;
        return candidates.map((c) =>
            c === agreeing[0] ? { ...c, certain: true, evidenceKind: "neighbours" as const, evidence } : c,
        );
    }

    private anchorAt(index: number): Anchor | undefined {
        let anchor = this.anchors.get(index);
        if (anchor === undefined) {
            anchor = anchorOf(this.sites[index]) ?? null;
            this.anchors.set(index, anchor);
        }
        return anchor ?? undefined;
    }
}

/** Refs passed over, each way, looking for an anchor: farther ones say little about this one. */
const MAX_WALK = 64;

/** Two distinct words of three letters or more (or four characters of an unspaced script). */
function hasTwoWords(text: string): boolean {
    const unspaced = [...new Set(text)].filter(isUnspaced).length;
    const words = new Set(wordRuns(text.toLowerCase()).filter((w) => w.length >= 3 && !isUnspaced(w)));
    return words.size >= 2 || unspaced >= 4;
}
