import * as assert from "node:assert/strict";
import fc from "fast-check";
import { refForSpan, repairRef, resolveInDocument, Session, SessionDocument } from "../../server/src/core";
import { PROSE_LINES } from "./repairCorpus";

const numRuns = Number(process.env.SOURCECHECK_FC_RUNS ?? 2000);

function offsetOf(lines: string[], line: number, column: number): number {
    let offset = 0;
    for (let i = 0; i < line - 1; i++) offset += lines[i].length + 1;
    return offset + column;
}

/** Word starts and ends of a line. */
function wordEdges(line: string): { starts: number[]; ends: number[] } {
    const starts: number[] = [];
    const ends: number[] = [];
    for (const m of line.matchAll(/\S+/g)) {
        starts.push(m.index);
        ends.push(m.index + m[0].length);
    }
    return { starts, ends };
}

describe("repair properties (fast-check)", () => {
    it("after any insertion or deletion of lines, the certain repair restores the original span, or there is none", () => {
        let runs = 0;
        let broken = 0;
        let restored = 0;
        let stillValid = 0;
        const property = fc.property(
            fc.shuffledSubarray(PROSE_LINES, { minLength: 6, maxLength: 40 }),
            fc.nat(),
            fc.nat(3),
            fc.nat(),
            fc.nat(),
            fc.nat(),
            fc.nat(6),
            fc.array(fc.constantFrom(...PROSE_LINES), { maxLength: 12 }),
            (lines, startPick, extraLines, colA, colB, atPick, deleteCount, drawn) => {
                // Inserted text is new text: a copy of the cited lines put nearer than the original
                // would be indistinguishable from it without the edit itself (docs/repair.md).
                const present = new Set(lines);
                const inserted = drawn.map((line, i) => (present.has(line) ? `Inserted line ${i}, new text.` : line));
                const startLine = 1 + (startPick % lines.length);
                const endLine = Math.min(lines.length, startLine + extraLines);
                const first = wordEdges(lines[startLine - 1]);
                const last = wordEdges(lines[endLine - 1]);
                const startColumn = first.starts[colA % first.starts.length];
                const ends = startLine === endLine ? last.ends.filter((e) => e > startColumn) : last.ends;
                if (ends.length === 0) return;
                const endColumn = ends[colB % ends.length];
                const before = new SessionDocument("d.md", lines.join("\n"));
                const made = refForSpan(
                    before,
                    { line: startLine, column: startColumn },
                    { line: endLine, column: endColumn },
                );
                if (!made.ok) return;
                runs++;
                // One edit: delete `deleteCount` lines at `at`, insert `inserted` there.
                const at = 1 + (atPick % (lines.length + 1));
                const removed = Math.min(deleteCount, lines.length + 1 - at);
                const after = [...lines.slice(0, at - 1), ...inserted, ...lines.slice(at - 1 + removed)];
                if (after.length === 0) return;
                // The oracle: where the span's boundary lines went, by arithmetic alone.
                const moved = (line: number) =>
                    line < at ? line : line >= at + removed ? line - removed + inserted.length : undefined;
                const newStart = moved(startLine);
                const newEnd = moved(endLine);
                const expected =
                    newStart !== undefined && newEnd !== undefined
                        ? { start: offsetOf(after, newStart, startColumn), end: offsetOf(after, newEnd, endColumn) }
                        : undefined;
                const document = new SessionDocument("d.md", after.join("\n"));
                const session = new Session([document]);
                if (resolveInDocument(document, made.ref).valid) {
                    stillValid++;
                    assert.deepEqual(repairRef(made.ref, session), []);
                    return;
                }
                broken++;
                const certain = repairRef(made.ref, session).filter((c) => c.certain);
                assert.ok(certain.length <= 1);
                if (certain.length === 0) return;
                const span = resolveInDocument(document, certain[0].ref);
                assert.ok(span.valid);
                assert.ok(
                    expected,
                    `certain repair ${JSON.stringify(certain[0].ref)} of a span whose lines were deleted`,
                );
                assert.deepEqual(
                    { start: span.startOffset, end: span.endOffset },
                    expected,
                    `${JSON.stringify(made.ref)} -> ${JSON.stringify(certain[0].ref)}`,
                );
                restored++;
            },
        );
        fc.assert(property, { numRuns, seed: 20261130 });
        console.log(
            `      ${runs} refs edited: ${stillValid} still valid, ${broken} broken, ${restored} restored by the certain repair`,
        );
        assert.ok(runs >= numRuns / 2, `only ${runs} runs built a ref`);
        assert.ok(restored > 0);
    });
});
