import * as assert from "node:assert/strict";
import fc from "fast-check";
import {
    buildSession,
    occurrencesOf,
    occursOnce,
    type Ref,
    refForSpan,
    resolveRef,
    shortestUniqueEndingAt,
    shortestUniqueStartingAt,
} from "../../server/src/core";

/** Runs per property: 10,000 in CI (issue "hostile input"); SOURCECHECK_FC_RUNS overrides it. */
const numRuns = Number(process.env.SOURCECHECK_FC_RUNS ?? 10_000);

// A small alphabet makes repeats (and so ambiguity) common; emoji and CJK exercise UTF-16.
const char = fc.constantFrom("a", "b", " ", "é", "中", "😀");
const lineArb = fc.array(char, { minLength: 0, maxLength: 24 }).map((chars) => chars.join(""));
const contentArb = fc.array(lineArb, { minLength: 1, maxLength: 6 }).map((lines) => lines.join("\n"));

const boundaryStr = fc.array(char, { minLength: 1, maxLength: 4 }).map((chars) => chars.join(""));
const refArb = fc.record({
    path: fc.constant("d"),
    start: fc.record({ line: fc.integer({ min: 1, max: 7 }), str: boundaryStr }),
    end: fc.record({ line: fc.integer({ min: 1, max: 7 }), str: boundaryStr }),
});

describe("core properties (fast-check)", () => {
    it("a valid span starts with start.str and ends with end.str, each unique on its line", () => {
        fc.assert(
            fc.property(contentArb, refArb, (content, ref: Ref) => {
                const session = buildSession([{ path: "d", content }]);
                const resolved = resolveRef(session, ref);
                if (!resolved.valid) return;
                const lines = content.split("\n");
                assert.ok(resolved.text.startsWith(ref.start.str));
                assert.ok(resolved.text.endsWith(ref.end.str));
                assert.ok(occursOnce(lines[ref.start.line - 1], ref.start.str));
                assert.ok(occursOnce(lines[ref.end.line - 1], ref.end.str));
                assert.ok(ref.start.line <= ref.end.line);
            }),
            { numRuns },
        );
    });

    it("an invalid ref always says why, with a known code", () => {
        const codes = new Set([
            "line-out-of-range",
            "boundary-not-found",
            "boundary-ambiguous",
            "inverted-lines",
            "inverted-boundaries",
        ]);
        fc.assert(
            fc.property(contentArb, refArb, (content, ref: Ref) => {
                const resolved = resolveRef(buildSession([{ path: "d", content }]), ref);
                if (resolved.valid) return;
                assert.ok(resolved.errors.length > 0);
                for (const error of resolved.errors) assert.ok(codes.has(error.code), error.code);
            }),
            { numRuns },
        );
    });

    it("the shortest unique boundary is unique, minimal, and keeps its edge", () => {
        fc.assert(
            fc.property(lineArb, fc.nat(), (line, seed) => {
                const column = line.length === 0 ? 0 : seed % line.length;
                const start = shortestUniqueStartingAt(line, column);
                if (start !== undefined) {
                    assert.ok(line.startsWith(start, column));
                    assert.deepEqual(occurrencesOf(line, start), [column]);
                    // Minimal: dropping a code point makes it repeat (or emptiness).
                    const shorter = Array.from(start).slice(0, -1).join("");
                    assert.ok(shorter.length === 0 || !occursOnce(line, shorter));
                }
                const end = shortestUniqueEndingAt(line, column + 1);
                if (end !== undefined) {
                    assert.ok(line.slice(0, column + 1).endsWith(end));
                    assert.deepEqual(occurrencesOf(line, end), [column + 1 - end.length]);
                }
            }),
            { numRuns },
        );
    });

    it("a ref built for a span resolves to exactly that span", () => {
        fc.assert(
            fc.property(contentArb, fc.nat(), fc.nat(), fc.nat(), fc.nat(), (content, a, b, c, d) => {
                const session = buildSession([{ path: "d", content }]);
                const document = session.get("d")!;
                const lines = document.lines;
                const startLine = 1 + (a % lines.lineCount);
                const endLine = startLine + (b % (lines.lineCount - startLine + 1));
                const startText = lines.line(startLine);
                const endText = lines.line(endLine);
                if (startText.length === 0 || endText.length === 0) return;
                const startColumn = c % startText.length;
                const endColumn = 1 + (d % endText.length);
                if (startLine === endLine && endColumn <= startColumn) return;
                const attempt = refForSpan(
                    document,
                    { line: startLine, column: startColumn },
                    { line: endLine, column: endColumn },
                );
                if (!attempt.ok) return;
                const resolved = resolveRef(session, attempt.ref);
                assert.ok(resolved.valid, JSON.stringify(attempt.ref));
                assert.deepEqual(resolved.range, {
                    start: { line: startLine, column: startColumn },
                    end: { line: endLine, column: endColumn },
                });
            }),
            { numRuns },
        );
    });
});
