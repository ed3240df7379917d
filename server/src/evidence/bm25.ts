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
    candidates: Candidate[];
    idf: Map<string, number>;
    /**
     * The idf of the query's distinct terms summed (weak words and lone letters or digits left out), a
     * term no chunk holds counted at the average of the others: what a chunk holding every term
     * would match (docs/evidence.md, "Abstention").
     */
    queryWeight: number;
}

/** What scoring reads of an index: its table, its postings and the path of a document. */
export interface ScoringView {
    table: Int32Array;
    slots: number;
    postings(term: string): PostingList | undefined;
    pathOf(document: number): string;
}

/** Candidates with a positive score, best first; ties by path, line, slot. */
export function scoreBm25(view: ScoringView, queryTerms: readonly string[]): Scored {
    const { table, slots } = view;
    let eligible = 0;
    let totalLength = 0;
    for (let slot = 0; slot < slots; slot++) {
        const base = slot * FIELDS;
        if (table[base + DOC] < 0 || table[base + FLAGS] & FLAG_UNSAFE) continue;
        eligible++;
        totalLength += table[base + LENGTH];
    }
    const idfs = new Map<string, number>();
    const distinct = new Set(queryTerms);
    if (eligible === 0) return { candidates: [], idf: idfs, queryWeight: 0 };
    const averageLength = totalLength / eligible;
    let seenWeight = 0;
    let seenTerms = 0;
    let unseenTerms = 0;
    const scores = new Float64Array(slots);
    const matched = new Float64Array(slots);
    const touched: number[] = [];
    for (const term of distinct) {
        const list = view.postings(term);
        let df = 0;
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
    const candidates: Candidate[] = [];
    for (const slot of touched)
        if (scores[slot] > 0) candidates.push({ slot, score: scores[slot], matched: matched[slot] });
    const pathOf = (slot: number) => view.pathOf(table[slot * FIELDS + DOC]);
    candidates.sort((a, b) => {
        if (a.score !== b.score) return b.score - a.score;
        const pa = pathOf(a.slot);
        const pb = pathOf(b.slot);
        if (pa !== pb) return pa < pb ? -1 : 1;
        const la = table[a.slot * FIELDS + START];
        const lb = table[b.slot * FIELDS + START];
        return la !== lb ? la - lb : a.slot - b.slot;
    });
    return { candidates, idf: idfs, queryWeight };
}
