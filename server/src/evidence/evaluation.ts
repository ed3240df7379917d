/**
 * The offline evaluation (docs/evidence.md, "Evaluation"): the seed's seven metrics over a cases file,
 * each with its gate. It measures the retrieval plumbing (sources, safety, staleness, budget), not the
 * quality of any answer.
 */
import { ordinal } from "../../../shared/numbering";
import { DEFAULT_BUDGET, DEFAULT_TOP_K, type EvidenceResult, MAX_TOP_K, type ShownHit } from "./select";

export interface EvalCase {
    caseId: string;
    query: string;
    expectedSources: string[];
    forbiddenSources: string[];
    topK: number;
    budget: number;
}

export const METRIC_GATES = {
    recall_at_k: { at: "least", value: 1 },
    citation_precision: { at: "least", value: 1 },
    stale_citation_rate: { at: "most", value: 0 },
    negative_abstention_accuracy: { at: "least", value: 1 },
    forbidden_source_rate: { at: "most", value: 0 },
    unsafe_evidence_rate: { at: "most", value: 0 },
    prompt_budget_violation_rate: { at: "most", value: 0 },
} as const;

export type MetricName = keyof typeof METRIC_GATES;
export type Metrics = Record<MetricName, number>;

export interface CaseResult {
    caseId: string;
    query: string;
    expectedSources: string[];
    forbiddenSources: string[];
    selectedSources: string[];
    hits: ShownHit[];
    rejected: Record<string, string>;
    rejectedOmitted?: number;
    promptChars: number;
    topK: number;
    budget: number;
}

export interface EvalReport {
    metrics: Metrics;
    gates: Record<MetricName, { passed: boolean; at: "least" | "most"; value: number }>;
    passed: boolean;
    cases: CaseResult[];
}

export class EvalCasesError extends Error {}

function stringList(value: unknown, where: string): string[] {
    if (value === undefined) return [];
    if (!Array.isArray(value) || value.some((v) => typeof v !== "string"))
        throw new EvalCasesError(`${where} must be a list of paths`);
    return value as string[];
}

/** Cases in the seed's shape: `{ "cases": [ { case_id, query, expected_sources, forbidden_sources, top_k, prompt_budget_chars } ] }`. */
export function parseCases(value: unknown): EvalCase[] {
    const list = Array.isArray(value) ? value : (value as { cases?: unknown } | null)?.cases;
    if (!Array.isArray(list) || list.length === 0) throw new EvalCasesError('the cases file has no "cases" list');
    const ids = new Set<string>();
    return list.map((raw, i) => {
        const where = `case ${ordinal(i)}`;
        if (typeof raw !== "object" || raw === null) throw new EvalCasesError(`${where} is not an object`);
        const c = raw as Record<string, unknown>;
        const caseId = typeof c.case_id === "string" && c.case_id !== "" ? c.case_id : `case-${ordinal(i)}`;
        if (ids.has(caseId)) throw new EvalCasesError(`${where}: case_id ${JSON.stringify(caseId)} repeats`);
        ids.add(caseId);
        if (typeof c.query !== "string" || c.query.trim() === "")
            throw new EvalCasesError(`${where}: query is missing`);
        const topK = c.top_k ?? DEFAULT_TOP_K;
        if (!Number.isInteger(topK) || (topK as number) < 1 || (topK as number) > MAX_TOP_K)
            throw new EvalCasesError(`${where}: top_k must be a whole number from 1 to ${MAX_TOP_K}`);
        const budget = c.prompt_budget_chars ?? DEFAULT_BUDGET;
        if (!Number.isInteger(budget) || (budget as number) < 1)
            throw new EvalCasesError(`${where}: prompt_budget_chars must be a positive whole number`);
        return {
            caseId,
            query: c.query,
            expectedSources: stringList(c.expected_sources, `${where}: expected_sources`),
            forbiddenSources: stringList(c.forbidden_sources, `${where}: forbidden_sources`),
            topK: topK as number,
            budget: budget as number,
        };
    });
}

export interface EvalHooks {
    search(evalCase: EvalCase): EvidenceResult;
    /** True when the hit no longer matches its file (checked again after the search). */
    isStale(hit: ShownHit): boolean;
    /** True when the hit's document holds an unsafe pattern now. */
    isUnsafe(hit: ShownHit): boolean;
}

const ratio = (part: number, whole: number, empty: number) => (whole === 0 ? empty : part / whole);

export function evaluate(cases: readonly EvalCase[], hooks: EvalHooks): EvalReport {
    const results: CaseResult[] = cases.map((c) => {
        const result = hooks.search(c);
        return {
            caseId: c.caseId,
            query: c.query,
            expectedSources: c.expectedSources,
            forbiddenSources: c.forbiddenSources,
            selectedSources: [...new Set(result.hits.map((h) => h.path))],
            hits: result.hits,
            rejected: result.rejected,
            ...(result.rejectedOmitted === undefined ? {} : { rejectedOmitted: result.rejectedOmitted }),
            promptChars: result.prompt.length,
            topK: c.topK,
            budget: c.budget,
        };
    });
    let recallSum = 0;
    let positives = 0;
    let positiveHits = 0;
    let preciseHits = 0;
    let negatives = 0;
    let abstained = 0;
    let allHits = 0;
    let stale = 0;
    let forbidden = 0;
    let unsafe = 0;
    let overBudget = 0;
    for (const r of results) {
        const expected = new Set(r.expectedSources);
        if (expected.size > 0) {
            positives++;
            recallSum += r.expectedSources.filter((s) => r.selectedSources.includes(s)).length / expected.size;
            positiveHits += r.hits.length;
            preciseHits += r.hits.filter((h) => expected.has(h.path)).length;
        } else {
            negatives++;
            if (r.hits.length === 0) abstained++;
        }
        allHits += r.hits.length;
        for (const hit of r.hits) {
            if (hooks.isStale(hit)) stale++;
            if (r.forbiddenSources.includes(hit.path)) forbidden++;
            if (hooks.isUnsafe(hit)) unsafe++;
        }
        if (r.promptChars > r.budget) overBudget++;
    }
    const metrics: Metrics = {
        recall_at_k: ratio(recallSum, positives, 1),
        citation_precision: ratio(preciseHits, positiveHits, 1),
        stale_citation_rate: ratio(stale, allHits, 0),
        negative_abstention_accuracy: ratio(abstained, negatives, 1),
        forbidden_source_rate: ratio(forbidden, allHits, 0),
        unsafe_evidence_rate: ratio(unsafe, allHits, 0),
        prompt_budget_violation_rate: ratio(overBudget, results.length, 0),
    };
    const gates = {} as EvalReport["gates"];
    for (const name of Object.keys(METRIC_GATES) as MetricName[]) {
        const gate = METRIC_GATES[name];
        const passed = gate.at === "least" ? metrics[name] >= gate.value : metrics[name] <= gate.value;
        gates[name] = { passed, at: gate.at, value: gate.value };
    }
    return { metrics, gates, passed: Object.values(gates).every((g) => g.passed), cases: results };
}
