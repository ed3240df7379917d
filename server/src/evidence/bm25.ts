/**
 * BM25 over the chunk table (docs/evidence.md, "Search"): k1 1.5, b 0.75, idf
 * ln(1 + (N - df + 0.5) / (df + 0.5)), over the live, safe chunks, each query term counted once.
 */
import { DOC, FIELDS, FLAG_UNSAFE, FLAGS, LENGTH, START } from "./chunkTable";
import type { PostingList } from "./postings";

const BM25_K1 = 1.5;
const BM25_B = 0.75;

export interface Candidate {
    slot: number;
    score: number;
}

/** What scoring reads of an index: its table, its postings and the path of a document. */
export interface ScoringView {
    table: Int32Array;
    slots: number;
    postings(term: string): PostingList | undefined;
    pathOf(document: number): string;
}

/** Candidates with a positive score, best first; ties by path, line, slot. */
export function scoreBm25(
    view: ScoringView,
    queryTerms: readonly string[],
): { candidates: Candidate[]; idf: Map<string, number> } {
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
    if (eligible === 0) return { candidates: [], idf: idfs };
    const averageLength = totalLength / eligible;
    const scores = new Float64Array(slots);
    const touched: number[] = [];
    for (const term of new Set(queryTerms)) {
        const list = view.postings(term);
        if (!list) continue;
        let df = 0;
        list.forEach((slot) => {
            if (table[slot * FIELDS + DOC] >= 0) df++;
        });
        if (df === 0) continue;
        const idf = Math.log(1 + (eligible - df + 0.5) / (df + 0.5));
        idfs.set(term, idf);
        list.forEach((slot, frequency) => {
            if (table[slot * FIELDS + DOC] < 0) return;
            const norm = 1 - BM25_B + (BM25_B * table[slot * FIELDS + LENGTH]) / averageLength;
            if (scores[slot] === 0) touched.push(slot);
            scores[slot] += (idf * (frequency * (BM25_K1 + 1))) / (frequency + BM25_K1 * norm);
        });
    }
    const candidates: Candidate[] = [];
    for (const slot of touched) if (scores[slot] > 0) candidates.push({ slot, score: scores[slot] });
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
    return { candidates, idf: idfs };
}
