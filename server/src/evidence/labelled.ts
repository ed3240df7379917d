/**
 * Scoring the search on labelled claims (docs/evidence.md, "Abstention"): answerable claims, each
 * with the document that settles it and words of it the hit must show, and unanswerable claims on
 * the same subjects. Abstention is scored as a classifier of "no source says this": its precision
 * (abstentions that were right) and recall (unanswerable claims abstained on), beside the answered
 * share of answerable claims and how often the hit's text holds the fact. Pure: the caller searches.
 */

export interface AnswerableClaim {
    query: string;
    /** The document (relative to its corpus) that supports or refutes the claim. */
    path: string;
    /** Words of that document a hit's text must hold (whitespace runs compared as one space). */
    fact: string;
}

export interface LabelledSet {
    /** The corpus folder, relative to the labelled file. */
    corpus: string;
    answerable: AnswerableClaim[];
    unanswerable: { query: string }[];
}

/** What the scoring needs of a search: the hits' paths and texts. */
export interface LabelledHit {
    path: string;
    text: string;
}

export interface LabelledScore {
    answerable: number;
    /** Answerable claims with at least one hit (not abstained on). */
    answered: number;
    /** Answerable claims whose settling document is among the hits. */
    found: number;
    /** Answerable claims whose settling document's hit shows the fact. */
    factShown: number;
    unanswerable: number;
    /** Unanswerable claims abstained on. */
    abstained: number;
    /** Abstentions on answerable claims (wrong ones). */
    wrongAbstentions: number;
    /** Right abstentions / all abstentions (1 when none). */
    abstentionPrecision: number;
    /** Unanswerable claims abstained on / unanswerable claims. */
    abstentionRecall: number;
    /** Answerable claims answered / answerable claims. */
    answerRecall: number;
    /** Answerable claims whose hit shows the fact / answerable claims. */
    factRate: number;
    /** The claims scored wrong, for a person to read. */
    misses: string[];
}

function compact(text: string): string {
    return text.replace(/\s+/g, " ").trim();
}

export function parseLabelled(value: unknown): LabelledSet[] {
    const sets = (value as { sets?: unknown } | null)?.sets;
    if (!Array.isArray(sets) || sets.length === 0) throw new Error('the labelled file has no "sets"');
    return sets as LabelledSet[];
}

/** Scores one search function over every claim of the sets. */
export function scoreLabelled(
    sets: readonly LabelledSet[],
    search: (set: LabelledSet, query: string) => readonly LabelledHit[],
): LabelledScore {
    const score = {
        answerable: 0,
        answered: 0,
        found: 0,
        factShown: 0,
        unanswerable: 0,
        abstained: 0,
        wrongAbstentions: 0,
        misses: [] as string[],
    };
    for (const set of sets) {
        for (const claim of set.answerable) {
            score.answerable++;
            const hits = search(set, claim.query);
            if (hits.length === 0) {
                score.wrongAbstentions++;
                score.misses.push(`abstained on an answerable claim: ${claim.query}`);
                continue;
            }
            score.answered++;
            const settling = hits.filter((hit) => hit.path === claim.path);
            if (settling.length > 0) score.found++;
            if (settling.some((hit) => compact(hit.text).includes(compact(claim.fact)))) score.factShown++;
            else score.misses.push(`no hit of ${claim.path} shows "${claim.fact}": ${claim.query}`);
        }
        for (const claim of set.unanswerable) {
            score.unanswerable++;
            if (search(set, claim.query).length === 0) score.abstained++;
            else score.misses.push(`answered an unanswerable claim: ${claim.query}`);
        }
    }
    const abstentions = score.abstained + score.wrongAbstentions;
    const ratio = (part: number, whole: number) => (whole === 0 ? 1 : part / whole);
    return {
        ...score,
        abstentionPrecision: ratio(score.abstained, abstentions),
        abstentionRecall: ratio(score.abstained, score.unanswerable),
        answerRecall: ratio(score.answered, score.answerable),
        factRate: ratio(score.factShown, score.answerable),
    };
}

/** One line for people: the rates as percentages with their counts. */
export function labelledSummary(score: LabelledScore): string {
    const pct = (share: number) => `${Math.round(share * 1000) / 10}%`;
    return (
        `abstention precision ${pct(score.abstentionPrecision)} (${score.abstained} of ${score.abstained + score.wrongAbstentions} abstentions right), ` +
        `abstention recall ${pct(score.abstentionRecall)} (${score.abstained} of ${score.unanswerable} unanswerable claims), ` +
        `answered ${pct(score.answerRecall)} (${score.answered} of ${score.answerable} answerable claims), ` +
        `fact in the hit's text ${pct(score.factRate)} (${score.factShown} of ${score.answerable})`
    );
}
