/**
 * The minimal edit (docs/repair.md, "Near matches"): a certain repair of a slipped boundary starts
 * (ends) exactly where the author's string, aligned with fewest edits to the text around the place
 * meant, starts (ends). The oracle is this file's own: an optimal-string-alignment distance over
 * lower-cased, whitespace-collapsed text, tried at every edge near the place meant; it shares no
 * code with repair.
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import fc from "fast-check";
import { type Ref, repairRef, resolveRef, Session, SessionDocument } from "../../server/src/core";
import { PROSE_LINES } from "./repairCorpus";

const numRuns = Number(process.env.SOURCECHECK_FC_RUNS ?? 3000);
const ZH = fs
    .readFileSync(path.join(__dirname, "../../../test/fixtures/repair-prose-zh.txt"), "utf8")
    .split("\n")
    .filter((l) => l.length > 0);
const LINES = [...PROSE_LINES.filter((l) => l.length >= 20), ...ZH];

/** Optimal string alignment distance (the oracle's own). */
function distance(a: string, b: string): number {
    const x = Array.from(a);
    const y = Array.from(b);
    const d: number[][] = Array.from({ length: x.length + 1 }, (_, i) => [i, ...Array(y.length).fill(0)]);
    for (let j = 0; j <= y.length; j++) d[0][j] = j;
    for (let i = 1; i <= x.length; i++)
        for (let j = 1; j <= y.length; j++) {
            d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (x[i - 1] === y[j - 1] ? 0 : 1));
            if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1])
                d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
        }
    return d[x.length][y.length];
}
const digits = (s: string) => (s.match(/\p{N}/gu) ?? []).join("");
const norm = (s: string) => s.toLowerCase().replace(/\s+/g, " ");

/**
 * The edge (column) of the minimal-edit reading of `written` near `meant` on `line`: of every span
 * whose edge lies within 3 columns of `meant`, the fewest edits; on a tie, the one whose character
 * at the edge is the author's; undefined when that still leaves two.
 */
function minimalEdge(line: string, written: string, side: "start" | "end", meant: number): number | undefined {
    let best = Number.POSITIVE_INFINITY;
    let edges = new Set<number>();
    const w = norm(written);
    for (let edge = Math.max(0, meant - 3); edge <= Math.min(line.length, meant + 3); edge++) {
        for (let len = 1; len <= written.length + 3; len++) {
            const from = side === "start" ? edge : edge - len;
            const to = side === "start" ? edge + len : edge;
            if (from < 0 || to > line.length) continue;
            // People cut text at word edges (every Han character is a word).
            if (cuts(line, edge)) continue;
            // A figure is the claim itself: a reading never drops or adds a digit the author wrote.
            if (digits(line.slice(from, to)) !== digits(written)) continue;
            const d = distance(w, norm(line.slice(from, to)));
            if (d < best) {
                best = d;
                edges = new Set([edge]);
            } else if (d === best) edges.add(edge);
        }
    }
    if (edges.size === 1) return [...edges][0];
    // A tie: the reading that keeps the author's own edge character where the span begins (ends).
    const mine = side === "start" ? Array.from(w)[0] : Array.from(w).at(-1);
    const keeping = [...edges].filter(
        (edge) => norm(side === "start" ? (line[edge] ?? "") : (line[edge - 1] ?? "")) === mine,
    );
    return keeping.length === 1 ? keeping[0] : undefined;
}

const count = (line: string, s: string) => line.split(s).length - 1;
const latin = (c: string | undefined) => c !== undefined && /[\p{L}\p{N}_]/u.test(c) && !/\p{Script=Han}/u.test(c);
const cuts = (line: string, at: number) => latin(line[at - 1]) && latin(line[at]);

describe("repair: the minimal edit of the author's boundary (fast-check)", () => {
    it("a certain repair of a slipped boundary starts or ends where the minimal-edit reading does", () => {
        let ran = 0;
        let slipped = 0;
        let certain = 0;
        let decided = 0;
        const property = fc.property(
            fc.constantFrom(...LINES),
            fc.nat(),
            fc.nat(),
            fc.integer({ min: 2, max: 12 }),
            fc.constantFrom("start", "end"),
            fc.constantFrom("substitute", "delete", "insert", "swap", "case", "space"),
            fc.nat(),
            fc.constantFrom(..."xqz缓试"),
            (line, a, b, size, side: "start" | "end", slip, at, char) => {
                ran++;
                const s = a % Math.max(1, line.length - 8);
                const e = Math.min(line.length, s + 6 + (b % (line.length - s)));
                if (e - s < 6 || /\s/.test(line[s]) || /\s/.test(line[e - 1])) return;
                // Spans begin and end at word edges, as people cut text (every Han character is one).
                if (cuts(line, s) || cuts(line, e)) return;
                const startStr = line.slice(s, Math.min(e, s + size));
                const endStr = line.slice(Math.max(s, e - size), e);
                if (count(line, startStr) !== 1 || count(line, endStr) !== 1) return;
                const meant = side === "start" ? startStr : endStr;
                const chars = Array.from(meant);
                const i = 1 + (at % Math.max(1, chars.length - 2));
                if (i >= chars.length - 1) return;
                if (slip === "substitute") chars[i] = char;
                else if (slip === "delete") chars.splice(i, 1);
                else if (slip === "insert") chars.splice(i, 0, char);
                else if (slip === "swap") [chars[i - 1], chars[i]] = [chars[i], chars[i - 1]];
                else if (slip === "case")
                    chars[0] = chars[0] === chars[0].toUpperCase() ? chars[0].toLowerCase() : chars[0].toUpperCase();
                else if (chars[i] === " ") chars.splice(i, 0, " ");
                else return;
                const written = chars.join("");
                // A changed figure is the number rule's (tested with the corpus), not a character slip.
                if (written === meant || line.includes(written) || digits(written) !== digits(meant)) return;
                slipped++;
                const ref: Ref = {
                    path: "d.md",
                    start: { line: 1, str: side === "start" ? written : startStr },
                    end: { line: 1, str: side === "end" ? written : endStr },
                };
                const documents = new Session([new SessionDocument("d.md", line)]);
                if (resolveRef(documents, ref).valid) return;
                const repair = repairRef(ref, documents, { unchanged: true }).find((c) => c.certain);
                if (!repair) return;
                certain++;
                const got = side === "start" ? repair.range.start.column : repair.range.end.column;
                const oracle = minimalEdge(line, written, side, side === "start" ? s : e);
                if (oracle === undefined) {
                    // The oracle itself finds two equally near edges: no repair may be certain of one.
                    assert.fail(`certain on a tie: ${JSON.stringify(ref)} in ${JSON.stringify(line)} -> ${got}`);
                }
                decided++;
                assert.equal(got, oracle, `${JSON.stringify(ref)} in ${JSON.stringify(line)}`);
            },
        );
        fc.assert(property, { numRuns, seed: 32 });
        console.log(
            `      ${ran} runs: ${slipped} slipped boundaries, ${certain} certain repairs, each at the minimal-edit edge (${decided})`,
        );
        assert.equal(ran, numRuns);
        assert.ok(certain >= 200, `only ${certain} certain repairs were checked`);
    });
});
