/**
 * BM25 over the chunk table (docs/evidence.md, "Search"): k1 1.5, b 0.75, idf
 * ln(1 + (N - df + 0.5) / (df + 0.5)), over the live, safe chunks, each query term counted once.
 */
import { DOC, FIELDS, FLAG_UNSAFE, FLAGS, LENGTH, START } from "./chunkTable";
import type { PostingList } from "./postings";
import { WEAK_WORDS } from "./tokenizer";

const BM25_K1 = 1.5;
const BM25_B = 0.75;

export interface Candidate {
    slot: number;
    score: number;
    /** The idf of the distinct query terms the chunk holds, summed (its share of `queryWeight`: coverage). */
    matched: number;
}

/** What a search found: candidates best first, each query term's idf, and the query's whole weight. */
export interface Scored {
    /** Every candidate, best first (sorted whole when first read: a query's selection uses `ordered`). */
    readonly candidates: Candidate[];
    /**
     * The slots of the candidates whose `matched` `keep` accepts, best first, and the best `refusedWanted`
     * of those it refuses, best first (`refused`: the passages below the floor, docs/evidence.md). Only
     * these are sorted (a floor refuses most candidates of a large corpus); a walk reads their score and
     * match by slot (no object per candidate: on a corpus of copies it walks thousands).
     */
    orderedSlots(keep: (matched: number) => boolean, refusedWanted: number): { slots: number[]; refused: number[] };
    scoreOf(slot: number): number;
    matchedOf(slot: number): number;
    idf: Map<string, number>;
    /**
     * The idf of the query's distinct terms summed (weak words and lone letters or digits left out), a
     * term no chunk holds counted at the average of the others: what a chunk holding every term
     * would match (docs/evidence.md, "Abstention").
     */
    queryWeight: number;
}

/** What scoring reads of an index: its table, its postings and the documents' order by path. */
export interface ScoringView {
    table: Int32Array;
    slots: number;
    /** No slot is dead: a term's document frequency is its list's length. */
    allLive: boolean;
    postings(term: string): PostingList | undefined;
    /**
     * Each live document's rank in path order (asked for only when two scores tie); undefined when
     * the documents' numbers are their ranks (an index just read: documents are stored by path).
     */
    pathRanks(): Int32Array | undefined;
    /** The live, safe chunks' count and summed length (kept by the index: lengthsOf once, or the file's). */
    lengths(): ChunkLengths;
}

/** What BM25's length normalisation needs of the table: the live, safe chunks and their summed length. */
export interface ChunkLengths {
    eligible: number;
    total: number;
}

/** ChunkLengths by a pass over the table. */
export function lengthsOf(table: Int32Array, slots: number): ChunkLengths {
    let eligible = 0;
    let total = 0;
    for (let slot = 0; slot < slots; slot++) {
        const base = slot * FIELDS;
        if (table[base + DOC] < 0 || table[base + FLAGS] & FLAG_UNSAFE) continue;
        eligible++;
        total += table[base + LENGTH];
    }
    return { eligible, total };
}

/** Candidates with a positive score, best first; ties by path, line, slot. */
export function scoreBm25(view: ScoringView, queryTerms: readonly string[]): Scored {
    const { table, slots } = view;
    const { eligible, total: totalLength } = view.lengths();
    const idfs = new Map<string, number>();
    const distinct = new Set(queryTerms);
    const scores = new Float64Array(eligible === 0 ? 0 : slots);
    const matched = new Float64Array(scores.length);
    const touched: number[] = [];
    if (eligible === 0) return new Ranking(view, scores, matched, touched, idfs, 0);
    const averageLength = totalLength / eligible;
    let seenWeight = 0;
    let seenTerms = 0;
    let unseenTerms = 0;
    for (const term of distinct) {
        const list = view.postings(term);
        let df = 0;
        if (view.allLive) df = list?.count ?? 0;
        else
            list?.forEach((slot) => {
                if (table[slot * FIELDS + DOC] >= 0) df++;
            });
        const weak = WEAK_WORDS.has(term) || /^[a-z]$/.test(term);
        if (!list || df === 0) {
            if (!weak) unseenTerms++;
            continue;
        }
        const idf = Math.log(1 + (eligible - df + 0.5) / (df + 0.5));
        if (!weak) {
            seenWeight += idf;
            seenTerms++;
        }
        idfs.set(term, idf);
        list.forEach((slot, frequency) => {
            if (table[slot * FIELDS + DOC] < 0) return;
            const norm = 1 - BM25_B + (BM25_B * table[slot * FIELDS + LENGTH]) / averageLength;
            if (scores[slot] === 0) touched.push(slot);
            scores[slot] += (idf * (frequency * (BM25_K1 + 1))) / (frequency + BM25_K1 * norm);
            if (!weak) matched[slot] += idf;
        });
    }
    // A word no chunk holds weighs as much as the query's average word that some chunk holds.
    const queryWeight = seenTerms === 0 ? 0 : seenWeight + (unseenTerms * seenWeight) / seenTerms;
    return new Ranking(view, scores, matched, touched, idfs, queryWeight);
}

/** The scores of one query; its candidates are sorted when read (all of them, or those a selection may show). */
class Ranking implements Scored {
    private all: Candidate[] | undefined;
    /** The order of two slots: higher score first, then path, line, slot. */
    private readonly compare: (a: number, b: number) => number;

    constructor(
        view: ScoringView,
        private readonly scores: Float64Array,
        private readonly matched: Float64Array,
        private readonly touched: readonly number[],
        readonly idf: Map<string, number>,
        readonly queryWeight: number,
    ) {
        const { table } = view;
        let ranks: Int32Array | undefined | null = null;
        this.compare = (a, b) => {
            if (scores[a] !== scores[b]) return scores[b] - scores[a];
            const da = table[a * FIELDS + DOC];
            const db = table[b * FIELDS + DOC];
            if (da !== db) {
                if (ranks === null) ranks = view.pathRanks();
                return ranks === undefined ? da - db : ranks[da] - ranks[db];
            }
            const la = table[a * FIELDS + START];
            const lb = table[b * FIELDS + START];
            return la !== lb ? la - lb : a - b;
        };
    }

    get candidates(): Candidate[] {
        if (this.all === undefined) {
            const slots = this.touched.filter((slot) => this.scores[slot] > 0);
            slots.sort(this.compare);
            this.all = slots.map((slot) => this.candidate(slot));
        }
        return this.all;
    }

    orderedSlots(keep: (matched: number) => boolean, refusedWanted: number): { slots: number[]; refused: number[] } {
        const { scores, matched, compare } = this;
        const kept: number[] = [];
        // The best refused so far, best first: a short list kept by insertion, never a sort of them all.
        const refused: number[] = [];
        for (const slot of this.touched) {
            if (!(scores[slot] > 0)) continue;
            if (keep(matched[slot])) kept.push(slot);
            else if (refused.length < refusedWanted || compare(slot, refused[refused.length - 1]) < 0) {
                let at = refused.length;
                while (at > 0 && compare(slot, refused[at - 1]) < 0) at--;
                refused.splice(at, 0, slot);
                if (refused.length > refusedWanted) refused.pop();
            }
        }
        // Postings come in slot order, so ties come mostly in order already: the sort's runs find them.
        kept.sort(compare);
        return { slots: kept, refused };
    }

    scoreOf(slot: number): number {
        return this.scores[slot];
    }

    matchedOf(slot: number): number {
        return this.matched[slot];
    }

    private candidate(slot: number): Candidate {
        return { slot, score: this.scores[slot], matched: this.matched[slot] };
    }
}
