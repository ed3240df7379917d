/**
 * Abstention and hit texts on labelled claims (docs/evidence.md, "Abstention"): the floor turns
 * away claims no document addresses and keeps those a document settles, and each kept hit's text
 * shows the fact. The rates are printed; the targets are issue 33's.
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { EvidenceIndex } from "../../server/src/evidence/index";
import { type LabelledSet, labelledSummary, parseLabelled, scoreLabelled } from "../../server/src/evidence/labelled";
import { hitsWithText, searchEvidence } from "../../server/src/evidence/select";

const labelledDir = path.resolve(__dirname, "../../../test/fixtures/evidence-labelled");

function corpusOf(set: LabelledSet): { index: EvidenceIndex; files: Map<string, string> } {
    const dir = path.join(labelledDir, set.corpus);
    const index = new EvidenceIndex(dir, { maxChars: 900, unsafePatterns: [] });
    const files = new Map<string, string>();
    for (const name of fs.readdirSync(dir).sort()) {
        const text = fs.readFileSync(path.join(dir, name), "utf8");
        files.set(name, text);
        index.upsert(name, text.length, 1, text);
    }
    return { index, files };
}

function searcher(floor?: number) {
    const corpora = new Map<string, ReturnType<typeof corpusOf>>();
    return (set: LabelledSet, query: string) => {
        let corpus = corpora.get(set.corpus);
        if (!corpus) {
            corpus = corpusOf(set);
            corpora.set(set.corpus, corpus);
        }
        const { index, files } = corpus;
        const read = (p: string) => {
            const content = files.get(p);
            return content === undefined ? { ok: false as const, missing: true } : { ok: true as const, content };
        };
        const result = searchEvidence(index, query, { read, topK: 3, floor });
        return hitsWithText(result.hits, 32_000).hits;
    };
}

describe("evidence: abstention and hit texts on labelled claims", () => {
    const sets = parseLabelled(JSON.parse(fs.readFileSync(path.join(labelledDir, "labelled.json"), "utf8")));

    it("abstains on >= 90% of unanswerable claims at >= 90% precision, answers >= 95% of answerable ones, and shows the fact in >= 90%", () => {
        const score = scoreLabelled(sets, searcher());
        console.log(`      with the floor: ${labelledSummary(score)}`);
        for (const miss of score.misses) console.log(`        ${miss}`);
        assert.ok(score.answerable >= 45 && score.unanswerable >= 30, "a labelled set of some size");
        assert.ok(score.abstentionPrecision >= 0.9, labelledSummary(score));
        assert.ok(score.abstentionRecall >= 0.9, labelledSummary(score));
        assert.ok(score.answerRecall >= 0.95, labelledSummary(score));
        assert.ok(score.factRate >= 0.9, labelledSummary(score));
    });

    it("without the floor, abstains only where no word is shared (what the floor adds)", () => {
        const score = scoreLabelled(sets, searcher(0));
        console.log(`      without the floor: ${labelledSummary(score)}`);
        assert.ok(score.abstentionRecall < 0.5, labelledSummary(score));
    });
});
