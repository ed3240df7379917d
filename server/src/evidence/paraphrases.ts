/**
 * Recall on paraphrased claims (docs/evidence.md, "Below the floor"): each claim says what one
 * sentence of a document says, in other words; it is found when the chunk holding that sentence comes
 * back as a hit, or as one of the passages below the floor that a model is asked to judge. Pure: the
 * caller searches and gives the documents' texts.
 */

export interface ParaphrasedClaim {
    claim: string;
    /** The document (relative to the corpus) whose sentence the claim paraphrases. */
    path: string;
    /** That sentence, verbatim. */
    passage: string;
}

/** What the scoring needs of a passage found: where it is. */
export interface FoundPassage {
    path: string;
    startLine: number;
    endLine: number;
}

export interface ParaphraseScore {
    claims: number;
    /** Claims whose sentence is in a hit. */
    inHits: number;
    /** Claims whose sentence is in a hit or a passage below the floor. */
    inHitsOrBelow: number;
    /** The claims not found at all, for a person to read. */
    misses: string[];
}

export function parseParaphrases(value: unknown): ParaphrasedClaim[] {
    const claims = (value as { claims?: unknown } | null)?.claims;
    if (!Array.isArray(claims) || claims.length === 0) throw new Error('the paraphrase file has no "claims"');
    return claims as ParaphrasedClaim[];
}

/** Scores one search over every claim; `text(path)` is a document's text (to place each sentence). */
export function scoreParaphrases(
    claims: readonly ParaphrasedClaim[],
    text: (path: string) => string,
    search: (claim: string) => { hits: readonly FoundPassage[]; belowFloor?: readonly FoundPassage[] },
): ParaphraseScore {
    const score: ParaphraseScore = { claims: 0, inHits: 0, inHitsOrBelow: 0, misses: [] };
    for (const claim of claims) {
        const content = text(claim.path);
        const at = content.indexOf(claim.passage);
        if (at < 0) throw new Error(`${claim.path} does not hold the passage ${JSON.stringify(claim.passage)}`);
        const line = content.slice(0, at).split("\n").length;
        const holds = (found: FoundPassage) =>
            found.path === claim.path && found.startLine <= line && line <= found.endLine;
        const result = search(claim.claim);
        score.claims++;
        if (result.hits.some(holds)) score.inHits++;
        if (result.hits.some(holds) || (result.belowFloor ?? []).some(holds)) score.inHitsOrBelow++;
        else score.misses.push(claim.claim);
    }
    return score;
}

/** `found 59 of 60 (98.3%) in hits or below the floor; 34 of 60 (56.7%) in hits alone`. */
export function paraphraseSummary(score: ParaphraseScore): string {
    const share = (n: number) => `${n} of ${score.claims} (${((100 * n) / Math.max(1, score.claims)).toFixed(1)}%)`;
    return `found ${share(score.inHitsOrBelow)} in hits or below the floor; ${share(score.inHits)} in hits alone`;
}
