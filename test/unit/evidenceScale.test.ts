/**
 * Evidence scales with the text, not its square (docs/evidence-internals.md, "Chunks"): a file without blank
 * lines is cut into bounded chunks at line ends, preferring sentence ends, so a hit names a few lines
 * and the work of chunking (counted: line reads) at most doubles when the document doubles.
 */
import * as assert from "node:assert/strict";
import { chunkMarkdown, DEFAULT_MAX_CHARS } from "../../server/src/evidence/chunker";
import { EvidenceIndex } from "../../server/src/evidence/index";
import { searchEvidence, searchEvidenceSteps } from "../../server/src/evidence/select";

/** A document without a blank line: `count` lines, a sentence ending every third line. */
function paragraphless(count: number): string[] {
    return Array.from({ length: count }, (_, i) =>
        i % 3 === 2 ? `and so line ${i + 1} ends its sentence.` : `Line ${i + 1} of the long report goes on`,
    );
}

/** Chunks the lines, counting every read of a line. */
function countedChunks(lines: string[]): { chunks: ReturnType<typeof chunkMarkdown>; reads: number } {
    let reads = 0;
    const counted = new Proxy(lines, {
        get(target, key, receiver) {
            if (typeof key === "string" && /^\d+$/.test(key)) reads++;
            return Reflect.get(target, key, receiver);
        },
    });
    return { chunks: chunkMarkdown(counted), reads };
}

describe("evidence: bounded chunks", () => {
    it("cuts a paragraph-less document into chunks of at most twice the chunk size, at sentence ends", () => {
        const lines = paragraphless(20_000);
        const { chunks } = countedChunks(lines);
        assert.ok(chunks.length > 100, `${chunks.length} chunks`);
        for (const chunk of chunks) {
            assert.ok(chunk.text.length <= 2 * DEFAULT_MAX_CHARS + 80, `${chunk.text.length} characters`);
        }
        const atSentenceEnds = chunks.slice(0, -1).filter((chunk) => chunk.text.endsWith("sentence.")).length;
        assert.equal(atSentenceEnds, chunks.length - 1, "every cut but the last after a sentence");
        assert.equal(chunks.at(-1)!.endLine, lines.length);
    });

    it("does at most twice the work (line reads) on a document twice as long", () => {
        const half = paragraphless(10_000);
        const single = countedChunks(half);
        const double = countedChunks([...half, ...half]); // exactly twice the text
        console.log(`      line reads: ${single.reads} for 10,000 lines, ${double.reads} for the same twice`);
        assert.ok(double.reads <= 2 * single.reads + 10, `${double.reads} > 2 x ${single.reads}`);
        assert.ok(double.chunks.length <= 2 * single.chunks.length + 1);
    });

    it("searching it does at most twice the work on a document twice as long: chunks scored, steps taken", () => {
        /** Indexes the lines as one file and searches words of every line, counting what the search touches. */
        const counted = (lines: string[]) => {
            const text = lines.join("\n");
            const index = new EvidenceIndex("/c", { maxChars: DEFAULT_MAX_CHARS, unsafePatterns: [] });
            index.upsert("big.md", text.length, 1, text);
            let scored = 0;
            const search = index.search.bind(index);
            index.search = (terms) => {
                const found = search(terms);
                scored += found.candidates.length;
                return found;
            };
            const steps = searchEvidenceSteps(index, "long report sentence", {
                topK: 10,
                read: () => ({ ok: true, content: text }),
            });
            let taken = 0;
            for (let next = steps.next(); !next.done; next = steps.next()) taken++;
            return { scored, taken };
        };
        const half = paragraphless(10_000);
        const single = counted(half);
        const double = counted([...half, ...half]);
        console.log(
            `      chunks scored: ${single.scored}, then ${double.scored}; steps ${single.taken}, ${double.taken}`,
        );
        assert.ok(single.scored > 100, `${single.scored} chunks scored: the query's words are in every chunk`);
        assert.ok(double.scored <= 2 * single.scored + 1, `${double.scored} > 2 x ${single.scored}`);
        // Checking candidates against the file stops at the top k, whatever the length.
        assert.ok(double.taken <= 10 && single.taken <= 10, `${single.taken}, ${double.taken} steps`);
    });

    it("a hit in a long paragraph-less file names a few lines, not the file", () => {
        const lines = paragraphless(30_000);
        lines[15_001] = "The reservoir gauge failed on the ninth of May.";
        const text = lines.join("\n");
        const index = new EvidenceIndex("/c", { maxChars: DEFAULT_MAX_CHARS, unsafePatterns: [] });
        index.upsert("big.md", text.length, 1, text);
        const result = searchEvidence(index, "reservoir gauge failed", {
            read: () => ({ ok: true, content: text }),
        });
        assert.equal(result.hits.length, 1);
        const hit = result.hits[0];
        assert.ok(hit.startLine <= 15_002 && hit.endLine >= 15_002);
        assert.ok(hit.endLine - hit.startLine < 60, `lines ${hit.startLine}-${hit.endLine}`);
    });
});
