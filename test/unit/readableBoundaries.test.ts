/**
 * Readable boundaries (docs/boundaries.md, "Readable"; issue 33 item 6): a boundary the tool writes
 * holds whole words, at least one of them meaningful where the line allows it, and is unique on its
 * line. The property draws lines from a vocabulary whose words are labelled here (meaningful or not),
 * so the oracle never asks the code under test what a meaningful word is; it counts the cases that
 * reached each assertion so a generator that stops making interesting lines fails.
 */
import * as assert from "node:assert/strict";
import fc from "fast-check";
import { refForSpan, SessionDocument } from "../../server/src/core";
import { endBoundary, startBoundary } from "../../server/src/core/boundaries";

const numRuns = Number(process.env.SOURCECHECK_FC_RUNS ?? 2_000);

/** Words a reader cannot anchor on: stop and weak words, one or two characters, two-digit numbers. */
const WEAK = ["the", "The", "a", "A", "of", "Our", "is", "by", "in", "01", "5", "ab", "it"];
/** Words that say what a passage is about: three letters or more and in no stop list. */
const MEANINGFUL = ["gauge", "calibration", "pressure", "reading", "Orbit", "cluster", "latency"];
const SUFFIXES = ["", "", "", ",", ".", ";"];

interface Word {
    text: string;
    meaningful: boolean;
}

const wordArb: fc.Arbitrary<Word> = fc
    .tuple(
        fc.oneof(
            { weight: 3, arbitrary: fc.constantFrom(...WEAK).map((w) => ({ w, meaningful: false })) },
            { weight: 1, arbitrary: fc.constantFrom(...MEANINGFUL).map((w) => ({ w, meaningful: true })) },
        ),
        fc.constantFrom(...SUFFIXES),
    )
    .map(([{ w, meaningful }, suffix]) => ({ text: w + suffix, meaningful }));

/** A line of words and a span of whole words in it (word indexes `from`..`to`, inclusive). */
const caseArb = fc
    .array(wordArb, { minLength: 1, maxLength: 18 })
    .chain((words) =>
        fc
            .tuple(fc.nat(words.length - 1), fc.nat(words.length - 1))
            .map(([a, b]) => ({ words, from: Math.min(a, b), to: Math.max(a, b) })),
    );

/** Occurrences at every offset, overlapping ones included. */
function count(line: string, needle: string): number {
    let n = 0;
    for (let i = 0; i + needle.length <= line.length; i++) if (line.startsWith(needle, i)) n++;
    return n;
}

const alphanumeric = (c: string | undefined) => c !== undefined && /[A-Za-z0-9]/.test(c);

/** Whether a boundary string holds one of the labelled meaningful words whole. */
function holdsMeaningful(str: string): boolean {
    return MEANINGFUL.some((word) => new RegExp(`(^|[^A-Za-z])${word}($|[^A-Za-z])`).test(str));
}

/** The column where each word starts in the line the words make (joined by one space). */
function starts(words: readonly Word[]): number[] {
    const at: number[] = [];
    let column = 0;
    for (const word of words) {
        at.push(column);
        column += word.text.length + 1;
    }
    return at;
}

/** Reach of the lengthening the rule promises (core/boundaries.ts MAX_MEANINGFUL_REACH). */
const REACH = 60;

describe("readable boundaries (fast-check, labelled vocabulary)", function () {
    this.timeout(120000);

    it("every boundary is whole words, unique on its line, resolves to the span, and holds a meaningful word where the line allows", () => {
        const tally = new Map<string, number>();
        const note = (outcome: string) => tally.set(outcome, (tally.get(outcome) ?? 0) + 1);
        fc.assert(
            fc.property(caseArb, ({ words, from, to }) => {
                const line = words.map((w) => w.text).join(" ");
                const columns = starts(words);
                const s = columns[from];
                // The span ends after the last word's letters (its trailing punctuation is not cited).
                const last = words[to].text.replace(/[,.;]$/, "");
                const e = columns[to] + last.length;
                const start = startBoundary(line, s, { limit: e });
                const end = endBoundary(line, e, { limit: s });
                for (const [side, choice] of [
                    ["start", start],
                    ["end", end],
                ] as const) {
                    if (choice === undefined) {
                        // None is unique within the span only when the whole span repeats on its line.
                        assert.ok(count(line, line.slice(s, e)) > 1, `${side}: no boundary in ${JSON.stringify(line)}`);
                        note("no unique string");
                        continue;
                    }
                    // Unique on the line and at the span's edge: it resolves to exactly this span.
                    assert.equal(count(line, choice.str), 1, `${side} ${JSON.stringify(choice.str)} in ${line}`);
                    if (side === "start") assert.equal(line.indexOf(choice.str), s);
                    else assert.equal(line.indexOf(choice.str) + choice.str.length, e);
                    if (choice.granularity !== "words") {
                        note("character level");
                        continue;
                    }
                    // Whole words: the string never stops between two letters or digits of one word.
                    const inner = side === "start" ? s + choice.str.length : e - choice.str.length;
                    assert.ok(
                        !(alphanumeric(line[inner - 1]) && alphanumeric(line[inner])),
                        `${side} ${JSON.stringify(choice.str)} cuts a word of ${JSON.stringify(line)}`,
                    );
                    // Where a meaningful word is within reach, the boundary holds one.
                    const indexes = side === "start" ? range(from, to) : range(from, to).reverse();
                    const nearest = indexes.find((i) => words[i].meaningful);
                    if (nearest === undefined) {
                        note(`${side}: no meaningful word in the span`);
                        continue;
                    }
                    const reach =
                        side === "start"
                            ? columns[nearest] + words[nearest].text.replace(/[,.;]$/, "").length - s
                            : e - columns[nearest];
                    if (reach > REACH) {
                        note(`${side}: meaningful word out of reach`);
                        continue;
                    }
                    assert.ok(
                        holdsMeaningful(choice.str),
                        `${side} ${JSON.stringify(choice.str)} holds no meaningful word, in ${JSON.stringify(line)}`,
                    );
                    note(`${side}: holds a meaningful word`);
                }
            }),
            { numRuns },
        );
        const total = [...tally.values()].reduce((a, b) => a + b, 0);
        assert.equal(total, numRuns * 2, "both boundaries of every run are counted");
        for (const outcome of ["start: holds a meaningful word", "end: holds a meaningful word"])
            assert.ok((tally.get(outcome) ?? 0) >= numRuns / 5, `${outcome}: ${JSON.stringify([...tally])}`);
        for (const outcome of ["start: no meaningful word in the span", "end: no meaningful word in the span"])
            assert.ok((tally.get(outcome) ?? 0) >= numRuns / 50, `${outcome}: ${JSON.stringify([...tally])}`);
    });

    it("the boundaries the issue saw are written readably: never a lone article, weak word or two digits", () => {
        const document = new SessionDocument(
            "notes.md",
            [
                "A cache hit takes 2 ms and a miss takes about a second.",
                "Prices rose in 2024-01 and fell in 2024-02 after the change of 01.",
                "Our log says gauge 3 reads 21 units after calibration.",
            ].join("\n"),
        );
        const cite = (line: number, text: string) => {
            const column = document.lines.line(line).indexOf(text);
            const attempt = refForSpan(document, { line, column }, { line, column: column + text.length });
            assert.ok(attempt.ok, text);
            return [attempt.ref.start.str, attempt.ref.end.str];
        };
        assert.deepEqual(cite(1, "A cache hit takes 2 ms and a miss takes about a second."), ["A cache", "second."]);
        const [, priceEnd] = cite(2, "Prices rose in 2024-01");
        assert.notEqual(priceEnd, "01");
        assert.ok(holdsMeaningful(priceEnd) || /2024/.test(priceEnd), priceEnd);
        assert.deepEqual(cite(3, "Our log says gauge 3 reads 21 units"), ["Our log", "units"]);
    });

    it("in a script written without spaces a boundary holds at least two characters", () => {
        const line = "数据同步在重新连接后完成。数据同步很快。";
        const column = line.indexOf("在重新");
        const start = startBoundary(line, column, { limit: line.length });
        assert.ok(start && [...start.str].length >= 2 && count(line, start.str) === 1, start?.str);
        const end = endBoundary(line, line.indexOf("很快") + 2, { limit: 0 });
        assert.ok(end && [...end.str].length >= 2 && count(line, end.str) === 1, end?.str);
    });
});

function range(from: number, to: number): number[] {
    const out: number[] = [];
    for (let i = from; i <= to; i++) out.push(i);
    return out;
}
