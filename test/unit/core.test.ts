import * as assert from "node:assert/strict";
import {
    type Annotation,
    buildSession,
    checkInput,
    LineIndex,
    normalizeLineEndings,
    occurrencesOf,
    parseJsonText,
    type Ref,
    refForSpan,
    resolveRef,
    SessionDocument,
    shortestUniqueEndingAt,
    shortestUniqueStartingAt,
    validateAnnotations,
} from "../../server/src/core";

const ref = (path: string, startLine: number, startStr: string, endLine: number, endStr: string): Ref => ({
    path,
    start: { line: startLine, str: startStr },
    end: { line: endLine, str: endStr },
});

function errorCodes(resolution: ReturnType<typeof resolveRef>): string[] {
    return resolution.valid ? [] : resolution.errors.map((e) => e.code);
}

describe("core: worked examples", () => {
    it("resolves the spec's example ref to 'I am GPT'", () => {
        const session = buildSession([
            { path: "a", content: "Hello, I am GPT\nHow are you feeling today?\nWe can talk now." },
        ]);
        const resolved = resolveRef(session, ref("a", 1, "I", 1, "T"));
        assert.ok(resolved.valid);
        assert.equal(resolved.text, "I am GPT");
        assert.deepEqual(resolved.range, { start: { line: 1, column: 7 }, end: { line: 1, column: 15 } });
    });

    it("validates the skill's worked example (Orbit 2.4, 37%)", () => {
        const session = buildSession([
            { path: "article", content: "# Orbit 2.4\n\nOrbit 2.4 improves cold‑start latency by 37%." },
            { path: "bench", content: "2.3.0: 820ms\n2.4.0: 517ms\ndelta: -37%" },
        ]);
        const report = validateAnnotations(session, [
            {
                claim: ref("article", 3, "37%", 3, "37%"),
                sources: [{ ...ref("bench", 3, "delta", 3, "-37%"), polarity: "supports", confidence: 0.95 }],
            },
        ]);
        assert.equal(report.validCount, 1);
        assert.equal(report.invalidCount, 0);
        assert.equal(report.exitCode, 0);
        const [entry] = report.entries;
        assert.ok(entry.claim.valid && entry.sources[0].valid);
        assert.equal(entry.claim.text, "37%");
        assert.deepEqual(entry.claim.range, { start: { line: 3, column: 41 }, end: { line: 3, column: 44 } });
        assert.equal(entry.sources[0].valid && entry.sources[0].text, "delta: -37%");
        assert.equal(entry.sources[0].polarity, "supports");
        assert.equal(entry.sources[0].confidence, 0.95);
    });

    it("matches evidex's README example", () => {
        const session = buildSession([
            { path: "report.txt", content: "The outcome was positive." },
            { path: "output.txt", content: "The result is positive." },
        ]);
        const annotations: Annotation[] = [
            {
                claim: ref("output.txt", 1, "result", 1, "positive"),
                sources: [{ ...ref("report.txt", 1, "outcome", 1, "positive"), polarity: "supports", confidence: 0.9 }],
            },
        ];
        const report = validateAnnotations(session, annotations);
        const entry = report.entries[0];
        assert.equal(entry.claim.valid && entry.claim.text, "result is positive");
        assert.equal(entry.sources[0].valid && entry.sources[0].text, "outcome was positive");
        assert.equal(report.validCount, 1);
    });

    it("validates the spec's annotation example shape (output/report)", () => {
        const result = checkInput({
            documents: [
                { path: "output", content: "Summary\nThe result was positive overall." },
                { path: "report", content: "a\nb\nc\nd\nThe outcome of the trial was positive." },
            ],
            annotations: [
                {
                    claim: ref("output", 2, "result", 2, "positive"),
                    sources: [{ ...ref("report", 5, "outcome", 5, "positive"), polarity: "supports", confidence: 0.9 }],
                },
            ],
        });
        assert.equal(result.parts.shape, "session");
        assert.equal(result.report.exitCode, 0);
        const source = result.report.entries[0].sources[0];
        assert.equal(source.valid && source.text, "outcome of the trial was positive");
    });
});

describe("core: resolution semantics", () => {
    const session = buildSession([
        { path: "doc", content: "alpha beta gamma\naaa\nsecond line here\nthe end\n" },
        { path: "cjk", content: "第一行\n多数团队表示，完成安装配置不到十分钟。\n😀 smile 😀 grin" },
    ]);

    it("counts overlapping occurrences: 'aa' occurs twice in 'aaa'", () => {
        assert.deepEqual(occurrencesOf("aaa", "aa"), [0, 1]);
        const resolved = resolveRef(session, ref("doc", 2, "aa", 2, "aaa"));
        assert.ok(!resolved.valid);
        assert.equal(resolved.errors[0].code, "boundary-ambiguous");
        assert.equal(resolved.errors[0].boundary, "start");
        assert.deepEqual(resolved.errors[0].occurrences, [0, 1]);
    });

    it("resolves multi-line spans inclusive of both boundaries", () => {
        const resolved = resolveRef(session, ref("doc", 1, "beta", 3, "line"));
        assert.ok(resolved.valid);
        assert.equal(resolved.text, "beta gamma\naaa\nsecond line");
        assert.deepEqual(resolved.range, { start: { line: 1, column: 6 }, end: { line: 3, column: 11 } });
    });

    it("allows start and end to be the same occurrence", () => {
        const resolved = resolveRef(session, ref("doc", 1, "gamma", 1, "gamma"));
        assert.ok(resolved.valid);
        assert.equal(resolved.text, "gamma");
    });

    it("counts a trailing newline as a final empty line", () => {
        const lines = new LineIndex("a\nb\n");
        assert.equal(lines.lineCount, 3);
        assert.equal(lines.line(3), "");
        const resolved = resolveRef(session, ref("doc", 5, "x", 5, "x"));
        assert.deepEqual(errorCodes(resolved), ["boundary-not-found", "boundary-not-found"]);
        const beyond = resolveRef(session, ref("doc", 6, "x", 6, "x"));
        assert.ok(!beyond.valid);
        assert.match(beyond.errors[0].message, /has 5 lines/);
    });

    it("measures columns in UTF-16 code units (CJK, emoji)", () => {
        const cjk = resolveRef(session, ref("cjk", 2, "完成", 2, "十分钟。"));
        assert.ok(cjk.valid);
        assert.equal(cjk.text, "完成安装配置不到十分钟。");
        assert.deepEqual(cjk.range, { start: { line: 2, column: 7 }, end: { line: 2, column: 19 } });
        const emoji = resolveRef(session, ref("cjk", 3, "smile", 3, "grin"));
        assert.ok(emoji.valid);
        assert.deepEqual(emoji.range, { start: { line: 3, column: 3 }, end: { line: 3, column: 16 } });
        assert.equal(emoji.text, "smile 😀 grin");
    });

    it("compares text exactly: no case folding, no normalisation", () => {
        assert.deepEqual(errorCodes(resolveRef(session, ref("doc", 1, "Alpha", 1, "beta"))), ["boundary-not-found"]);
        const composed = buildSession([{ path: "n", content: "caf\u00e9" }]);
        assert.deepEqual(errorCodes(resolveRef(composed, ref("n", 1, "cafe\u0301", 1, "caf"))), ["boundary-not-found"]);
    });

    it("reports every resolution error code", () => {
        assert.deepEqual(errorCodes(resolveRef(session, ref("nope", 1, "a", 1, "a"))), ["unknown-path"]);
        assert.deepEqual(errorCodes(resolveRef(session, ref("doc", 99, "a", 99, "alpha"))), [
            "line-out-of-range",
            "line-out-of-range",
        ]);
        assert.deepEqual(errorCodes(resolveRef(session, ref("doc", 1, "zeta", 1, "beta"))), ["boundary-not-found"]);
        assert.deepEqual(errorCodes(resolveRef(session, ref("doc", 2, "a", 2, "aaa"))), ["boundary-ambiguous"]);
        assert.deepEqual(errorCodes(resolveRef(session, ref("doc", 3, "second", 1, "alpha"))), ["inverted-lines"]);
        assert.deepEqual(errorCodes(resolveRef(session, ref("doc", 1, "gamma", 1, "alpha"))), ["inverted-boundaries"]);
    });

    it("rejects a same-line span that would not contain the start boundary whole", () => {
        // "beta gamma": start "beta g" ends after end "beta" ends -> inverted-boundaries.
        assert.deepEqual(errorCodes(resolveRef(session, ref("doc", 1, "beta g", 1, "beta"))), ["inverted-boundaries"]);
        // The end boundary inside the start boundary, ending at the same place, is fine.
        const nested = resolveRef(session, ref("doc", 1, "beta gamma", 1, "gamma"));
        assert.ok(nested.valid);
        assert.equal(nested.text, "beta gamma");
    });
});

describe("core: schema", () => {
    const doc = { path: "d", content: "one two\nthree" };
    const good = {
        claim: ref("d", 1, "one", 1, "two"),
        sources: [{ ...ref("d", 2, "three", 2, "three"), polarity: "supports", confidence: 1 }],
    };

    function schemaPointers(input: unknown): string[] {
        return checkInput(input).report.schemaErrors.map((e) => `${e.code} ${e.pointer}`);
    }

    it("accepts all three input shapes", () => {
        assert.equal(checkInput({ session: { documents: [doc] }, annotations: [good] }).report.exitCode, 0);
        assert.equal(checkInput({ documents: [doc], annotations: [good] }).report.exitCode, 0);
        const workspace = { get: (path: string) => (path === "d" ? new SessionDocument("d", doc.content) : undefined) };
        assert.equal(checkInput({ annotations: [good] }, workspace).report.exitCode, 0);
        assert.equal(checkInput([good], workspace).report.exitCode, 0);
        assert.equal(checkInput([good], workspace).parts.shape, "workspace");
    });

    it("points at each wrongly typed field", () => {
        const bad = structuredClone(good) as Record<string, any>;
        bad.sources[0].confidence = 1.5;
        bad.sources[0].polarity = "neutral";
        bad.claim.start.line = 0;
        bad.claim.end.str = "";
        assert.deepEqual(schemaPointers({ documents: [doc], annotations: [good, bad] }).sort(), [
            "schema /annotations/1/claim/end/str",
            "schema /annotations/1/claim/start/line",
            "schema /annotations/1/sources/0/confidence",
            "schema /annotations/1/sources/0/polarity",
        ]);
    });

    it("rejects empty sources, missing fields and non-integer lines", () => {
        assert.deepEqual(schemaPointers({ documents: [doc], annotations: [{ claim: good.claim, sources: [] }] }), [
            "schema /annotations/0/sources",
        ]);
        const missing = { claim: { path: "d", start: { line: 1.5, str: "one" } }, sources: [{ path: "d" }] };
        assert.deepEqual(schemaPointers({ documents: [doc], annotations: [missing] }).sort(), [
            "schema /annotations/0/claim/end",
            "schema /annotations/0/claim/start/line",
            "schema /annotations/0/sources/0/confidence",
            "schema /annotations/0/sources/0/end",
            "schema /annotations/0/sources/0/polarity",
            "schema /annotations/0/sources/0/start",
        ]);
        assert.equal(checkInput({ documents: [doc], annotations: [missing] }).report.exitCode, 2);
    });

    it("reports duplicate paths and \\r in embedded content", () => {
        assert.deepEqual(schemaPointers({ documents: [doc, { ...doc }], annotations: [good] }), [
            "duplicate-path /documents/1/path",
        ]);
        assert.deepEqual(
            schemaPointers({
                session: { documents: [{ path: "d", content: "one two\r\nthree" }] },
                annotations: [good],
            }),
            ["cr-in-content /session/documents/0/content"],
        );
    });

    it("still lists schema-failing annotations as invalid entries, and still resolves their good refs", () => {
        const bad = structuredClone(good) as Record<string, any>;
        bad.sources[0].confidence = "high";
        bad.claim.start.str = "missing";
        const { report } = checkInput({ documents: [doc], annotations: [bad] });
        assert.equal(report.exitCode, 2);
        assert.equal(report.entries.length, 1);
        assert.equal(report.entries[0].valid, false);
        assert.equal(!report.entries[0].claim.valid && report.entries[0].claim.error.code, "boundary-not-found");
        const source = report.entries[0].sources[0];
        assert.equal(!source.valid && source.error.code, "schema");
        assert.equal(!source.valid && source.error.pointer, "/annotations/0/sources/0/confidence");
    });

    it("reports invalid JSON with an offset and recovers the rest", () => {
        const parsed = parseJsonText('{ "annotations": [ } ');
        assert.equal(parsed.syntaxErrors[0].code, "invalid-json");
        assert.ok(parsed.syntaxErrors[0].offset >= 0);
        const result = checkInput(parsed.value, undefined, parsed.syntaxErrors);
        assert.equal(result.report.exitCode, 2);
        assert.equal(result.report.schemaErrors[0].code, "invalid-json");
    });

    it("rejects a top level that is neither an object nor an array", () => {
        assert.deepEqual(schemaPointers(42), ["schema "]);
        assert.deepEqual(schemaPointers({ documents: [doc] }), ["schema /annotations"]);
    });
});

describe("core: sessions", () => {
    it("refuses duplicate paths and CR content with stable codes", () => {
        assert.throws(
            () =>
                buildSession([
                    { path: "a", content: "" },
                    { path: "a", content: "" },
                ]),
            { code: "duplicate-path" },
        );
        assert.throws(() => buildSession([{ path: "a", content: "x\r\ny" }]), { code: "cr-in-content" });
    });

    it("normalises CRLF and lone CR to LF", () => {
        assert.equal(normalizeLineEndings("a\r\nb\rc\n"), "a\nb\nc\n");
    });
});

describe("core: shortest unique boundaries", () => {
    it("finds the shortest unique string starting or ending at a column", () => {
        const line = "the cat and the dog and the end";
        assert.equal(shortestUniqueStartingAt(line, 12), "the d");
        assert.equal(shortestUniqueStartingAt(line, 4), "c");
        assert.equal(shortestUniqueEndingAt(line, 15), "t and the");
        assert.equal(shortestUniqueEndingAt(line, line.length), "end");
    });

    it("says so when the whole rest of the line repeats", () => {
        assert.equal(shortestUniqueStartingAt("abab", 2), undefined);
        assert.equal(shortestUniqueEndingAt("abab", 2), undefined);
    });

    it("never splits a surrogate pair", () => {
        const line = "😀a😀b";
        const start = shortestUniqueStartingAt(line, 0);
        assert.equal(start, "😀a");
        assert.equal(shortestUniqueEndingAt(line, 3), "a");
        // "😀😀a": the shortest unique prefix would end between the halves of the second emoji.
        assert.equal(shortestUniqueStartingAt("😀😀a", 0), "😀😀");
        assert.equal(shortestUniqueEndingAt("a😀b😀", 3), "a😀");
        assert.equal(shortestUniqueStartingAt(line, 1), undefined); // inside a pair
    });

    it("builds refs for selections, and refuses spans that cannot be cited uniquely", () => {
        const document = new SessionDocument("d", "xaxa\nthe cat and the dog");
        const ok = refForSpan(document, { line: 2, column: 12 }, { line: 2, column: 19 });
        assert.ok(ok.ok);
        // Word-aligned by default (docs/boundaries.md); the character-level style on request.
        assert.deepEqual(ok.ref, ref("d", 2, "the dog", 2, "dog"));
        const shortest = refForSpan(document, { line: 2, column: 12 }, { line: 2, column: 19 }, { style: "shortest" });
        assert.ok(shortest.ok);
        assert.deepEqual(shortest.ref, ref("d", 2, "the d", 2, "g"));
        const resolved = resolveRef(buildSession([{ path: "d", content: document.content }]), ok.ref);
        assert.equal(resolved.valid && resolved.text, "the dog");
        const refused = refForSpan(document, { line: 1, column: 1 }, { line: 1, column: 2 });
        assert.ok(!refused.ok);
        assert.match(refused.message, /unique/);
    });
});
