/**
 * Properties of the core, checked with fast-check against oracles written here from the format's
 * rules (docs/boundaries.md, the README's "The format in brief"), never with the core's own helpers.
 * Every property counts the cases that reached its assertions and requires a share of the runs, so
 * a generator that stops producing interesting inputs fails instead of passing vacuously.
 */
import * as assert from "node:assert/strict";
import fc from "fast-check";
import {
    buildSession,
    type Ref,
    refForSpan,
    resolveRef,
    shortestUniqueEndingAt,
    shortestUniqueStartingAt,
} from "../../server/src/core";
import { boundariesAt, endBoundary, startBoundary } from "../../server/src/core/boundaries";

/** Runs per property: 10,000 in CI (issue "hostile input"); SOURCECHECK_FC_RUNS overrides it. */
const numRuns = Number(process.env.SOURCECHECK_FC_RUNS ?? 10_000);

// A small alphabet makes repeats (and so ambiguity) common; emoji and CJK exercise UTF-16.
const char = fc.constantFrom("a", "b", " ", "é", "中", "😀");
const lineArb = fc.array(char, { minLength: 0, maxLength: 24 }).map((chars) => chars.join(""));
const contentArb = fc.array(lineArb, { minLength: 1, maxLength: 6 }).map((lines) => lines.join("\n"));

// ---- Oracles: the rules, written as plainly as possible ----

/** Occurrences at every index, overlapping ones included, by comparing code units one by one. */
function naiveCount(hay: string, needle: string): number {
    let count = 0;
    for (let i = 0; i + needle.length <= hay.length; i++) {
        let same = true;
        for (let j = 0; j < needle.length && same; j++) same = hay.charCodeAt(i + j) === needle.charCodeAt(j);
        if (same) count++;
    }
    return count;
}

function naiveIndex(hay: string, needle: string): number {
    for (let i = 0; i + needle.length <= hay.length; i++) if (hay.slice(i, i + needle.length) === needle) return i;
    return -1;
}

/** The span text a ref names, or undefined when the rules say it is invalid. */
function naiveResolve(content: string, ref: Ref): string | undefined {
    const lines = content.split("\n");
    const { start, end } = ref;
    if (start.line < 1 || end.line < 1 || start.line > lines.length || end.line > lines.length) return undefined;
    if (start.line > end.line) return undefined;
    const first = lines[start.line - 1];
    const last = lines[end.line - 1];
    if (naiveCount(first, start.str) !== 1 || naiveCount(last, end.str) !== 1) return undefined;
    const from = naiveIndex(first, start.str);
    const to = naiveIndex(last, end.str) + end.str.length;
    if (start.line === end.line && (from > to - end.str.length || from + start.str.length > to)) return undefined;
    const before = lines.slice(0, start.line - 1).join("\n").length + (start.line > 1 ? 1 : 0);
    const beforeEnd = lines.slice(0, end.line - 1).join("\n").length + (end.line > 1 ? 1 : 0);
    return content.slice(before + from, beforeEnd + to);
}

/** Offsets that do not split a surrogate pair (a person's characters). */
function characterEdges(line: string): number[] {
    const edges = [0];
    for (const ch of line) edges.push(edges[edges.length - 1] + ch.length);
    return edges;
}

/** The shortest unique string starting at `column`, by trying every length (whole characters only). */
function bruteShortestStart(line: string, column: number): string | undefined {
    for (const edge of characterEdges(line)) {
        if (edge <= column) continue;
        const candidate = line.slice(column, edge);
        if (naiveCount(line, candidate) === 1) return candidate;
    }
    return undefined;
}

function bruteShortestEnd(line: string, end: number): string | undefined {
    for (const edge of characterEdges(line).reverse()) {
        if (edge >= end) continue;
        const candidate = line.slice(edge, end);
        if (naiveCount(line, candidate) === 1) return candidate;
    }
    return undefined;
}

/** Counts per outcome, and a check that each needed outcome happened often enough. */
class Tally {
    private readonly counts = new Map<string, number>();
    note(outcome: string): void {
        this.counts.set(outcome, (this.counts.get(outcome) ?? 0) + 1);
    }
    get(outcome: string): number {
        return this.counts.get(outcome) ?? 0;
    }
    total(): number {
        let sum = 0;
        for (const n of this.counts.values()) sum += n;
        return sum;
    }
    /** Each outcome ran in at least `share` of all the runs. */
    requireAtLeast(share: number, ...outcomes: string[]): void {
        assert.equal(this.total(), numRuns, "every run is counted");
        for (const outcome of outcomes) {
            assert.ok(
                this.get(outcome) >= Math.floor(numRuns * share),
                `only ${this.get(outcome)} of ${numRuns} runs were "${outcome}": ${JSON.stringify([...this.counts])}`,
            );
        }
    }
}

/** A ref whose strings are taken from the content itself, so valid refs are common. */
const refFromContent = fc
    .tuple(
        contentArb,
        fc.nat(),
        fc.nat(),
        fc.nat(),
        fc.nat(),
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 1, max: 4 }),
    )
    .map(([content, a, b, c, d, startLength, endLength]) => {
        const lines = content.split("\n");
        const startLine = 1 + (a % lines.length);
        const endLine = startLine + (b % (lines.length - startLine + 1));
        const first = lines[startLine - 1];
        const last = lines[endLine - 1];
        const from = first.length === 0 ? 0 : c % first.length;
        const to = last.length === 0 ? 0 : d % last.length;
        const ref: Ref = {
            path: "d",
            start: { line: startLine, str: first.slice(from, from + startLength) || "a" },
            end: { line: endLine, str: last.slice(to, to + endLength) || "b" },
        };
        return { content, ref };
    });

const boundaryStr = fc.array(char, { minLength: 1, maxLength: 4 }).map((chars) => chars.join(""));
const anyRef = fc.record({
    path: fc.constant("d"),
    start: fc.record({ line: fc.integer({ min: 0, max: 7 }), str: boundaryStr }),
    end: fc.record({ line: fc.integer({ min: 0, max: 7 }), str: boundaryStr }),
});

describe("core properties (fast-check, independent oracles)", () => {
    it("resolution agrees with a plain reading of the rules: valid exactly when the oracle says so, same text", () => {
        const tally = new Tally();
        fc.assert(
            fc.property(
                fc.oneof(refFromContent, fc.record({ content: contentArb, ref: anyRef })),
                ({ content, ref }) => {
                    const resolved = resolveRef(buildSession([{ path: "d", content }]), ref);
                    const expected = naiveResolve(content, ref);
                    if (expected === undefined) {
                        assert.equal(resolved.valid, false, JSON.stringify({ content, ref }));
                        if (!resolved.valid) assert.ok(resolved.errors.length > 0, "an invalid ref says why");
                        tally.note("invalid");
                    } else {
                        assert.ok(resolved.valid, JSON.stringify({ content, ref, resolved }));
                        assert.equal(resolved.text, expected);
                        tally.note(ref.start.line === ref.end.line ? "valid on one line" : "valid across lines");
                    }
                },
            ),
            { numRuns },
        );
        tally.requireAtLeast(0.05, "invalid", "valid on one line", "valid across lines");
    });

    it("the shortest unique boundary equals a brute-force search over every length", () => {
        const tally = new Tally();
        fc.assert(
            fc.property(lineArb, fc.nat(), (line, seed) => {
                const edges = characterEdges(line).slice(0, -1);
                if (edges.length === 0) {
                    assert.equal(shortestUniqueStartingAt(line, 0), undefined);
                    tally.note("empty line");
                    return;
                }
                const column = edges[seed % edges.length];
                const start = shortestUniqueStartingAt(line, column);
                assert.equal(start, bruteShortestStart(line, column), JSON.stringify({ line, column }));
                const endAt = characterEdges(line)[1 + (seed % edges.length)];
                assert.equal(shortestUniqueEndingAt(line, endAt), bruteShortestEnd(line, endAt));
                tally.note(start === undefined ? "no unique start" : "unique start");
            }),
            { numRuns },
        );
        tally.requireAtLeast(0.05, "unique start", "no unique start");
    });

    it("a ref built for a span resolves to exactly that span; readable boundaries are never shorter than the shortest", () => {
        const tally = new Tally();
        fc.assert(
            fc.property(contentArb, fc.nat(), fc.nat(), fc.nat(), fc.nat(), (content, a, b, c, d) => {
                const session = buildSession([{ path: "d", content }]);
                const document = session.get("d")!;
                const lines = content.split("\n");
                const startLine = 1 + (a % lines.length);
                const endLine = startLine + (b % (lines.length - startLine + 1));
                const startEdges = characterEdges(lines[startLine - 1]).slice(0, -1);
                const endEdges = characterEdges(lines[endLine - 1]).slice(1);
                if (startEdges.length === 0 || endEdges.length === 0) {
                    tally.note("empty line");
                    return;
                }
                const startColumn = startEdges[c % startEdges.length];
                const endColumn = endEdges[d % endEdges.length];
                if (startLine === endLine && endColumn <= startColumn) {
                    tally.note("empty span");
                    return;
                }
                const start = { line: startLine, column: startColumn };
                const end = { line: endLine, column: endColumn };
                const readable = refForSpan(document, start, end);
                const shortest = refForSpan(document, start, end, { style: "shortest" });
                assert.equal(readable.ok, shortest.ok, "both styles can cite the same spans");
                if (!readable.ok || !shortest.ok) {
                    tally.note("not citable");
                    return;
                }
                const selected = naiveSlice(lines, start, end);
                assert.equal(naiveResolve(content, readable.ref), selected, JSON.stringify(readable.ref));
                assert.equal(naiveResolve(content, shortest.ref), selected, JSON.stringify(shortest.ref));
                assert.ok(readable.ref.start.str.length >= shortest.ref.start.str.length);
                assert.ok(readable.ref.end.str.length >= shortest.ref.end.str.length);
                tally.note(readable.characterLevel ? "cited, character level" : "cited, word-aligned");
            }),
            { numRuns },
        );
        tally.requireAtLeast(0.05, "cited, word-aligned", "not citable");
        assert.ok(tally.get("cited, character level") > 0, "the fallback to character level was exercised");
    });

    it("boundaries for many columns at once are the single-column answers", () => {
        const tally = new Tally();
        const spaced = fc.array(fc.constantFrom("ab", "a", "b", " ", "中", "😀", ".", "ba"), { maxLength: 16 });
        fc.assert(
            fc.property(spaced, (pieces) => {
                const line = pieces.join("");
                const columns = Array.from({ length: line.length + 1 }, (_, i) => i);
                const starts = boundariesAt(line, "start", columns);
                const ends = boundariesAt(line, "end", columns);
                for (const column of columns) {
                    assert.deepEqual(starts[column], startBoundary(line, column), `start at ${column} of ${line}`);
                    assert.deepEqual(ends[column], endBoundary(line, column), `end at ${column} of ${line}`);
                }
                tally.note(starts.some((c) => c?.granularity === "words") ? "word-aligned found" : "none word-aligned");
            }),
            { numRuns: Math.ceil(numRuns / 10) },
        );
        assert.ok(tally.get("word-aligned found") >= numRuns / 100, JSON.stringify(tally.get("word-aligned found")));
    });
});

function naiveSlice(
    lines: string[],
    start: { line: number; column: number },
    end: { line: number; column: number },
): string {
    if (start.line === end.line) return lines[start.line - 1].slice(start.column, end.column);
    return [
        lines[start.line - 1].slice(start.column),
        ...lines.slice(start.line, end.line - 1),
        lines[end.line - 1].slice(0, end.column),
    ].join("\n");
}
