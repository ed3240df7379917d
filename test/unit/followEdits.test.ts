import * as assert from "node:assert/strict";
import fc from "fast-check";
import { type Ref, SessionDocument } from "../../server/src/core";
import { applyChanges, differenceOf, findPasted, followRef, type TextChange } from "../../server/src/core/followEdits";

const numRuns = Number(process.env.SOURCECHECK_FC_RUNS ?? 10_000);

// ---- An oracle written from the format's rules alone (docs/contract.md section 2), independent of core. ----

function occurrences(hay: string, needle: string): number[] {
    const found: number[] = [];
    for (let i = hay.indexOf(needle); i !== -1; i = hay.indexOf(needle, i + 1)) found.push(i);
    return found;
}

interface Spot {
    startLine: number; // 0-based
    startColumn: number;
    endLine: number;
    endColumn: number; // exclusive
    text: string;
}

function oracleResolve(lines: string[], ref: Ref): Spot | undefined {
    const a = ref.start.line - 1;
    const b = ref.end.line - 1;
    if (a < 0 || b >= lines.length || a > b) return undefined;
    const s = occurrences(lines[a], ref.start.str);
    const e = occurrences(lines[b], ref.end.str);
    if (s.length !== 1 || e.length !== 1) return undefined;
    const endColumn = e[0] + ref.end.str.length;
    if (a === b && (s[0] > e[0] || s[0] + ref.start.str.length > endColumn)) return undefined;
    return { startLine: a, startColumn: s[0], endLine: b, endColumn, text: textOf(lines, a, s[0], b, endColumn) };
}

function textOf(lines: string[], a: number, sc: number, b: number, ec: number): string {
    if (a === b) return lines[a].slice(sc, ec);
    return [lines[a].slice(sc), ...lines.slice(a + 1, b), lines[b].slice(0, ec)].join("\n");
}

/** The shortest unique string starting (ending) at a column, by brute force. */
function uniqueFrom(line: string, column: number, limit: number): string | undefined {
    for (let k = 1; column + k <= limit; k++) {
        const s = line.slice(column, column + k);
        if (occurrences(line, s).length === 1) return s;
    }
    return undefined;
}
function uniqueTo(line: string, end: number, limit: number): string | undefined {
    for (let k = 1; end - k >= limit; k++) {
        const s = line.slice(end - k, end);
        if (occurrences(line, s).length === 1) return s;
    }
    return undefined;
}

// ---- Generators: prose-like lines from a small vocabulary, so lines and words repeat. ----

const word = fc.constantFrom("the", "sync", "cache", "release", "memory", "2.4", "中文", "😀", "load", "a");
const lineArb = fc.array(word, { minLength: 1, maxLength: 8 }).map((w) => w.join(" "));
const linesArb = fc.array(lineArb, { minLength: 1, maxLength: 12 });

type LineEdit = { kind: "insert"; at: number; lines: string[] } | { kind: "delete"; from: number; to: number };

const editArb = fc.oneof(
    fc.record({
        kind: fc.constant("insert" as const),
        at: fc.nat(20),
        lines: fc.array(fc.oneof(lineArb, fc.constant("")), { minLength: 1, maxLength: 5 }),
    }),
    fc.record({ kind: fc.constant("delete" as const), from: fc.nat(20), to: fc.nat(20) }),
);

/** The edit as a text change of the joined content, plus the lines after it. */
function toChange(lines: string[], edit: LineEdit): { change: TextChange; after: string[] } | undefined {
    const starts: number[] = [];
    let offset = 0;
    for (const line of lines) {
        starts.push(offset);
        offset += line.length + 1;
    }
    const length = offset - 1;
    if (edit.kind === "insert") {
        const at = edit.at % (lines.length + 1);
        const after = [...lines.slice(0, at), ...edit.lines, ...lines.slice(at)];
        if (at < lines.length) {
            return { change: { start: starts[at], end: starts[at], text: `${edit.lines.join("\n")}\n` }, after };
        }
        return { change: { start: length, end: length, text: `\n${edit.lines.join("\n")}` }, after };
    }
    const from = edit.from % lines.length;
    const to = from + (edit.to % (lines.length - from));
    if (from === 0 && to === lines.length - 1) return undefined; // a document keeps one line
    const after = [...lines.slice(0, from), ...lines.slice(to + 1)];
    if (to < lines.length - 1) return { change: { start: starts[from], end: starts[to + 1], text: "" }, after };
    return { change: { start: starts[from] - 1, end: length, text: "" }, after };
}

describe("refs follow edits (core/followEdits)", () => {
    const document = (content: string) => new SessionDocument("d", content);
    const ref = (sl: number, ss: string, el: number, es: string): Ref => ({
        path: "d",
        start: { line: sl, str: ss },
        end: { line: el, str: es },
    });

    it("lines inserted above move the whole ref; lines inserted inside stretch it", () => {
        const before = "title\n\nOffline sync: clients\nqueue changes.\ntail";
        const r = ref(3, "Offline sync", 4, "changes.");
        const above = [{ start: 0, end: 0, text: "new\nlines\n" }];
        const out = followRef(r, document(before), document(applyChanges(before, above)), above);
        assert.deepEqual(out, {
            kind: "followed",
            ref: ref(5, "Offline sync", 6, "changes."),
            text: "Offline sync: clients\nqueue changes.",
            how: "shifted",
        });
        const insideAt = before.indexOf("queue");
        const inside = [{ start: insideAt, end: insideAt, text: "and then\n" }];
        const stretched = followRef(r, document(before), document(applyChanges(before, inside)), inside);
        assert.equal(stretched.kind, "followed");
        assert.deepEqual(stretched.kind === "followed" && stretched.ref, ref(3, "Offline sync", 5, "changes."));
    });

    it("lines added below, and refs already broken, are left alone", () => {
        const before = "a b\nc d";
        const below = [{ start: before.length, end: before.length, text: "\nmore" }];
        const after = document(applyChanges(before, below));
        assert.deepEqual(followRef(ref(1, "a", 2, "d"), document(before), after, below), { kind: "unchanged" });
        assert.deepEqual(followRef(ref(1, "zz", 2, "d"), document(before), after, below), { kind: "invalid-before" });
    });

    it("text typed on a boundary's line that makes its string ambiguous gets a new readable boundary", () => {
        const before = "intro\nthe cache grew by 12%.";
        const changes = [{ start: 6, end: 6, text: "12% later: " }];
        const after = applyChanges(before, changes);
        const out = followRef(ref(2, "the", 2, "12%"), document(before), document(after), changes);
        assert.deepEqual(out, {
            kind: "followed",
            ref: ref(2, "the", 2, "by 12%"),
            text: "the cache grew by 12%",
            how: "shifted",
        });
    });

    it("a boundary whose written string still marks its edge is kept as written", () => {
        const before =
            "# Known issues\n- Under sustained heavy load the scheduler may drop low-priority jobs; see #4211.";
        const at = before.indexOf("Under");
        const changes = [{ start: at, end: at, text: "Under sustained tests, " }];
        const after = applyChanges(before, changes);
        const out = followRef(
            ref(2, "Under sustained", 2, "low-priority jobs"),
            document(before),
            document(after),
            changes,
        );
        // The start became ambiguous and is rewritten; the end still marks its edge and is not
        // shortened to "jobs" (an update that changes only what it must).
        assert.deepEqual(out, {
            kind: "followed",
            ref: ref(2, "Under sustained heavy", 2, "low-priority jobs"),
            text: "Under sustained heavy load the scheduler may drop low-priority jobs",
            how: "shifted",
        });
    });

    it("a span moved as a whole (lines swapped in one replacement) is found as moved text", () => {
        const before = "first line\nsecond line\nthird";
        const after = "second line\nfirst line\nthird";
        const changes = differenceOf(before, after);
        const out = followRef(ref(1, "first", 1, "line"), document(before), document(after), changes);
        assert.deepEqual(out, {
            kind: "followed",
            ref: ref(2, "first", 2, "line"),
            text: "first line",
            how: "moved-text",
        });
    });

    it("a span whose edge was replaced and whose text is gone is lost", () => {
        const before = "alpha beta gamma";
        const changes = [{ start: 0, end: 5, text: "ALPHA" }];
        const out = followRef(ref(1, "alpha", 1, "gamma"), document(before), document("ALPHA beta gamma"), changes);
        assert.deepEqual(out, { kind: "lost", text: "alpha beta gamma" });
    });

    it("a span cut by one edit and pasted back by a later one is found again; text that was there already is not", () => {
        const original = "intro\nthe cited words here\noutro";
        const cutAt = original.indexOf("the cited");
        const cutChange = [{ start: cutAt, end: cutAt + "the cited words here\n".length, text: "" }];
        const afterCut = applyChanges(original, cutChange);
        const lost = followRef(ref(2, "the", 2, "here"), document(original), document(afterCut), cutChange);
        assert.deepEqual(lost, { kind: "lost", text: "the cited words here" });
        const pasteChange = [{ start: afterCut.length, end: afterCut.length, text: "\nthe cited words here" }];
        const afterPaste = applyChanges(afterCut, pasteChange);
        const found = findPasted(
            ref(2, "the", 2, "here"),
            "the cited words here",
            document(afterCut),
            document(afterPaste),
        );
        assert.deepEqual(found, {
            kind: "followed",
            ref: ref(3, "the", 3, "here"),
            text: "the cited words here",
            how: "moved-text",
        });
        // The same text still present before the paste: nothing tells which copy was meant.
        assert.equal(
            findPasted(ref(2, "the", 2, "here"), "intro", document(afterCut), document(afterPaste)).kind,
            "lost",
        );
    });

    it("property: after any insertion or deletion of lines, a followed ref resolves to the followed span, or is left alone", () => {
        const seen = { shifted: 0, stretched: 0, untouched: 0, destroyed: 0, destroyedFollowed: 0 };
        let runs = 0;
        fc.assert(
            fc.property(
                linesArb,
                fc.nat(100),
                fc.nat(100),
                fc.nat(100),
                fc.nat(100),
                editArb,
                (lines, la, lb, ca, cb, edit) => {
                    // A valid ref, built with the oracle's own shortest unique strings.
                    let a = la % lines.length;
                    let b = lb % lines.length;
                    if (a > b) [a, b] = [b, a];
                    const sc = ca % lines[a].length;
                    const ec = 1 + (cb % lines[b].length);
                    if (a === b && sc >= ec) return;
                    const startStr = uniqueFrom(lines[a], sc, a === b ? ec : lines[a].length);
                    const endStr = uniqueTo(lines[b], ec, a === b ? sc : 0);
                    if (!startStr || !endStr) return;
                    const r = ref(a + 1, startStr, b + 1, endStr);
                    const old = oracleResolve(lines, r);
                    if (!old || old.startColumn !== sc || old.endColumn !== ec) return;
                    const made = toChange(lines, edit as LineEdit);
                    if (!made) return;
                    runs++;
                    const before = lines.join("\n");
                    const after = made.after.join("\n");
                    assert.equal(applyChanges(before, [made.change]), after, "the test's change is the line edit");
                    const out = followRef(r, document(before), document(after), [made.change]);

                    // Where the span's lines go, by line arithmetic.
                    let expected: { a: number; b: number } | undefined;
                    let category: keyof typeof seen;
                    if (edit.kind === "insert") {
                        const at = edit.at % (lines.length + 1);
                        const k = edit.lines.length;
                        const moved = (line: number) => (line >= at ? line + k : line);
                        // Inserted at the span's first line goes before it (it starts at column 0 or not: the line moves).
                        expected = { a: moved(a), b: moved(b) };
                        category = at <= a ? "shifted" : at <= b ? "stretched" : "untouched";
                    } else {
                        const from = edit.from % lines.length;
                        const to = from + (edit.to % (lines.length - from));
                        const k = to - from + 1;
                        if (to < a) {
                            expected = { a: a - k, b: b - k };
                            category = "shifted";
                        } else if (from > b) {
                            expected = { a, b };
                            category = "untouched";
                        } else if (from > a && to < b) {
                            expected = { a, b: b - k };
                            category = "stretched";
                        } else {
                            category = "destroyed";
                        }
                    }
                    seen[category]++;
                    if (expected) {
                        const want: Spot = {
                            startLine: expected.a,
                            startColumn: sc,
                            endLine: expected.b,
                            endColumn: ec,
                            text: textOf(made.after, expected.a, sc, expected.b, ec),
                        };
                        assert.notEqual(out.kind, "lost", "a span whose boundary lines survive must follow");
                        assert.notEqual(out.kind, "invalid-before");
                        const now = oracleResolve(made.after, out.kind === "followed" ? out.ref : r);
                        assert.deepEqual(now, want);
                        if (out.kind === "followed") assert.equal(out.text, want.text);
                        if (category !== "stretched") assert.equal(now?.text, old.text);
                    } else if (out.kind === "followed" || out.kind === "unchanged") {
                        // A boundary line was deleted: only the very same text, found again, may be cited.
                        const now = oracleResolve(made.after, out.kind === "followed" ? out.ref : r);
                        assert.equal(now?.text, old.text);
                        if (out.kind === "followed") seen.destroyedFollowed++;
                    }
                },
            ),
            { numRuns },
        );
        // Every kind of case ran, many times: the property did not pass on filtered-out inputs.
        assert.ok(runs > numRuns / 4, `only ${runs} of ${numRuns} cases ran`);
        for (const [name, count] of Object.entries(seen)) {
            if (name === "destroyedFollowed") continue;
            assert.ok(count > numRuns / 50, `only ${count} ${name} cases ran`);
        }
    });
});
