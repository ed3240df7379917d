/**
 * The HTML report is linear in claims (docs/security.md, "Resource bounds"): doubling the claims at
 * most doubles the counted work (claims, segments and names; never time), whether they follow one
 * another, nest ever deeper, or spread over many documents.
 */
import * as assert from "node:assert/strict";
import type { Report, ReportEntry } from "../../server/src/core";
import { type RenderInput, renderHtml } from "../../server/src/render/html";

const DOCUMENTS = 20;

function entry(index: number, path: string, startLine: number, endLine: number): ReportEntry {
    return {
        index,
        valid: true,
        claim: {
            valid: true,
            path,
            text: "x",
            range: { start: { line: startLine, column: 0 }, end: { line: endLine, column: 4 } },
        },
        sources: [],
    } as unknown as ReportEntry;
}

/** `n` claims in one of three shapes, over documents of `n` lines. */
function input(shape: "sequential" | "nested" | "spread", n: number): RenderInput {
    const content = Array.from({ length: n }, (_, i) => `line ${i + 1}`).join("\n");
    const paths = shape === "spread" ? Array.from({ length: DOCUMENTS }, (_, d) => `d${d}.md`) : ["a.md"];
    const entries = Array.from({ length: n }, (_, i) =>
        shape === "sequential"
            ? entry(i, "a.md", i + 1, i + 1)
            : shape === "nested"
              ? entry(i, "a.md", i + 1, n) // each claim runs to the end: every segment is covered by all before it
              : entry(i, paths[i % DOCUMENTS], 1 + Math.floor(i / DOCUMENTS), 1 + Math.floor(i / DOCUMENTS)),
    );
    const report = { ok: true, exitCode: 0, validCount: n, invalidCount: 0, schemaErrors: [], entries } as Report;
    return { title: "t", generator: "g", report, documents: paths.map((path) => ({ path, content })) };
}

describe("render: linear in the claims", () => {
    for (const shape of ["sequential", "nested", "spread"] as const) {
        it(`doubling ${shape} claims at most doubles the work`, () => {
            const steps = (n: number) => {
                const work = { steps: 0 };
                const html = renderHtml(input(shape, n), work);
                assert.ok(html.includes(`href="#claim-${n}"`), "the last claim is numbered from 1");
                return work.steps;
            };
            const small = steps(4_000);
            const large = steps(8_000);
            assert.ok(small >= 4_000);
            assert.ok(large <= 2.1 * small, `${small} steps, then ${large} for twice the claims`);
        });
    }
});
