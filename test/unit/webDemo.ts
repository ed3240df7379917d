/**
 * The small demo both browser-twin tests serve from memory: one annotation whose claim and source
 * resolve, in a folder of the `sourcecheck-mem:` scheme (no `file:` URI anywhere).
 */
export const WEB_ANSWER = JSON.stringify({
    annotations: [
        {
            claim: { path: "answer.md", start: { line: 1, str: "Cold" }, end: { line: 1, str: "faster." } },
            sources: [
                {
                    path: "sources/benchmark.txt",
                    start: { line: 4, str: "delta" },
                    end: { line: 4, str: "-37%" },
                    polarity: "supports",
                    confidence: 0.9,
                },
            ],
        },
    ],
});

export const WEB_BENCHMARK = "Cold start, median of 50 runs\n2.3.0: 820ms\n2.4.0: 517ms\ndelta: -37%\n";
