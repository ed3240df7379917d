/** The pure quote modules: trace analysis, notes, Markdown report forms, and quote matching. */
import * as assert from "node:assert/strict";
import fc from "fast-check";
import { findQuote, foldText } from "../../server/src/quotes/match";
import { parseNotes } from "../../server/src/quotes/notes";
import { parseReport } from "../../server/src/quotes/report";
import { analyzeTrace, fileUriPath } from "../../server/src/quotes/trace";

const numRuns = Number(process.env.SOURCECHECK_FC_RUNS ?? 2000);

function jsonl(...events: object[]): string {
    return events.map((e) => JSON.stringify(e)).join("\n");
}

const call = { type: "tool_call", run_id: "r", call_id: "c1", tool: "read" };
const result = (sources: object[]) => ({ type: "tool_result", run_id: "r", call_id: "c1", ok: true, sources });
const answer = (claims: object[]) => ({ type: "answer", run_id: "r", claims });

describe("quotes: Agent JSONL traces", () => {
    it("reports each structural code of the v1 contract on its line", () => {
        const text = jsonl(
            call,
            { ...call },
            { type: "tool_result", run_id: "r", call_id: "c9", ok: true },
            result([]),
            result([]),
            answer([]),
            answer([]),
            { type: "tool_call", run_id: "r", call_id: "c2", tool: "t" },
            { type: "mystery", run_id: "r" },
            { type: "tool_call", run_id: "r", tool: "t" },
        );
        const found = analyzeTrace(text).diagnostics.map((d) => `${d.code}@${d.line}`);
        assert.deepEqual(found, [
            "DUPLICATE_CALL@2",
            "ORPHAN_RESULT@3",
            "DUPLICATE_RESULT@5",
            "DUPLICATE_ANSWER@7",
            "EVENT_AFTER_ANSWER@8",
            "UNKNOWN_EVENT@9",
            "INVALID_FIELD@10",
        ]);
    });

    it("reports EMPTY_TRACE and MISSING_ANSWER", () => {
        assert.deepEqual(
            analyzeTrace("\n\n").diagnostics.map((d) => d.code),
            ["EMPTY_TRACE"],
        );
        assert.deepEqual(
            analyzeTrace(jsonl(call, result([]))).diagnostics.map((d) => `${d.code}@${d.line}`),
            ["MISSING_ANSWER@2"],
        );
    });

    it("evidence mode: content on every source, a quote on every citation, one URI per source", () => {
        const text = jsonl(
            call,
            result([
                { id: "a", uri: "file:x", content: "text" },
                { id: "b", uri: "file:x", content: "other" },
                { id: "c", uri: "file:y" },
            ]),
            answer([
                { text: "one", citations: [] },
                { text: "two", source_ids: ["a"] },
            ]),
        );
        assert.deepEqual(analyzeTrace(text).diagnostics, []);
        const found = analyzeTrace(text, { evidence: true }).diagnostics.map((d) => `${d.code}@${d.line}`);
        assert.deepEqual(found, [
            "DUPLICATE_URI@2",
            "MISSING_SOURCE_CONTENT@2",
            "MISSING_CITATION@3",
            "MISSING_QUOTE@3",
        ]);
    });

    it("quotes match verbatim only (no folding in traces), and the diagnostic points at the quote's columns", () => {
        const text = jsonl(
            call,
            result([{ id: "s", uri: "file:x", content: "Value  = 42\n" }]),
            answer([{ text: "t", citations: [{ source_id: "s", quote: "Value = 42" }] }]),
        );
        const analysis = analyzeTrace(text);
        assert.equal(analysis.diagnostics.length, 1);
        const d = analysis.diagnostics[0];
        assert.equal(d.code, "QUOTE_NOT_IN_SOURCE");
        const line = text.split("\n")[2];
        assert.equal(line.slice(d.columns!.start, d.columns!.end), '"Value = 42"');
    });

    it("records where each matched quote was found in the captured content", () => {
        const content = "quarter=1\nvalue=42\n";
        const text = jsonl(
            call,
            result([{ id: "s", uri: "file:x", content }]),
            answer([{ text: "t", citations: [{ source_id: "s", quote: "value=42" }] }]),
        );
        const citation = analyzeTrace(text).claims[0].citations[0];
        assert.equal(citation.status, "matched");
        assert.equal(content.slice(citation.found!.start, citation.found!.end), "value=42");
    });

    it("reads file: URIs as TraceCite does: relative, or file:/// absolute, not percent-decoded", () => {
        assert.equal(fileUriPath("file:fixtures/facts.txt"), "fixtures/facts.txt");
        assert.equal(fileUriPath("file:///example/report.txt"), "/example/report.txt");
        assert.equal(fileUriPath("file://host/share/x"), undefined);
        assert.equal(fileUriPath("https://example.org/"), undefined);
        assert.equal(fileUriPath("file:a%20b"), "a%20b");
    });
});

describe("quotes: notes", () => {
    it("reads records in any field order, separated by blank lines or ---, skipping comments", () => {
        const parsed = parseNotes(
            "# comment\nurl: https://a.example/\nquote:  first quote  \nclaim: one\n---\nclaim: two\nquote: second\nurl: https://b.example/\n",
        );
        assert.deepEqual(parsed.diagnostics, []);
        assert.deepEqual(
            parsed.citations.map((c) => [c.claim, c.quote, c.url, c.line]),
            [
                ["one", "first quote", "https://a.example/", 3],
                ["two", "second", "https://b.example/", 7],
            ],
        );
        const first = parsed.citations[0];
        assert.equal("quote:  first quote  ".slice(first.columns.start, first.columns.end), "first quote");
    });

    it("reports duplicate, unknown and missing fields, and an input with no notes", () => {
        const parsed = parseNotes("claim: a\nclaim: b\nsource: x\n");
        assert.deepEqual(
            parsed.diagnostics.map((d) => `${d.code}@${d.line}`),
            ["MISSING_NOTE_FIELD@1", "MISSING_NOTE_FIELD@1", "DUPLICATE_NOTE_FIELD@2", "UNKNOWN_NOTE_FIELD@3"],
        );
        assert.deepEqual(
            parseNotes("# only a comment\n").diagnostics.map((d) => d.code),
            ["EMPTY_NOTE_INPUT"],
        );
    });
});

describe("quotes: Markdown reports", () => {
    const quotes = (markdown: string) => parseReport(markdown).citations.map((c) => [c.line, c.quote, c.url]);

    it("reads an inline quote followed by its link in the same sentence, curly or straight", () => {
        assert.deepEqual(
            quotes(
                'IANA says “alpha beta gamma.” ([IANA](https://iana.example/a)) and "delta epsilon" [src](https://b.example/) too.',
            ),
            [
                [1, "alpha beta gamma.", "https://iana.example/a"],
                [1, "delta epsilon", "https://b.example/"],
            ],
        );
    });

    it("accepts a short same-sentence gap before the link, but not across a sentence end or another quote", () => {
        assert.deepEqual(quotes("They wrote “some words here” in their guide ([g](https://g.example/))."), [
            [1, "some words here", "https://g.example/"],
        ]);
        assert.deepEqual(quotes("They wrote “some words here”. Later ([g](https://g.example/))."), []);
        assert.deepEqual(quotes(`“some words here” ${"x".repeat(90)} ([g](https://g.example/))`), []);
    });

    it("reads both list-item forms", () => {
        assert.deepEqual(
            quotes(
                '- [Guide](https://g.example/) - “quoted guide text”\n* "other quoted text" - [Src](https://s.example/)\n',
            ),
            [
                [1, "quoted guide text", "https://g.example/"],
                [2, "other quoted text", "https://s.example/"],
            ],
        );
    });

    it("reads blockquote pairs in English and Chinese, on the quote's line, without inline-code backticks", () => {
        const parsed = parseReport(
            "# Heading\n\n> 原文：“use `npm ci` in CI”\n> 来源：[npm](https://docs.npmjs.com/cli)\n\n> Quote: plain words\n> Source: https://s.example/x\n",
        );
        assert.deepEqual(parsed.diagnostics, []);
        assert.deepEqual(
            parsed.citations.map((c) => [c.line, c.quote, c.url, c.claim]),
            [
                [3, "use npm ci in CI", "https://docs.npmjs.com/cli", "Heading"],
                [6, "plain words", "https://s.example/x", "Heading"],
            ],
        );
    });

    it("ignores quotes inside inline code: they are examples", () => {
        assert.deepEqual(quotes("Write `“words” ([t](https://x.example/))` like this."), []);
        assert.deepEqual(quotes("He said “run `npm ci` first” ([npm](https://n.example/))."), [
            [1, "run npm ci first", "https://n.example/"],
        ]);
    });

    it("ignores fenced code and links without a quote", () => {
        const parsed = parseReport(
            "```md\n“not checked” ([x](https://x.example/))\n```\nSee [the docs](https://d.example/).\n~~~\n> Quote: “no”\n~~~\n",
        );
        assert.deepEqual(parsed.citations, []);
        assert.deepEqual(
            parsed.diagnostics.map((d) => d.code),
            ["NO_REPORT_CITATIONS"],
        );
    });

    it("reports unpaired quotes, sources without quotes, non-HTTP sources and empty quotes", () => {
        const parsed = parseReport(
            "> Quote: “a”\ntext\n> Source: https://x.example/\n> Quote: “b”\n> Source: ftp://x.example/\n“” ([x](https://x.example/))\n",
        );
        assert.deepEqual(
            parsed.diagnostics.map((d) => `${d.code}@${d.line}`),
            ["MISSING_REPORT_SOURCE@1", "SOURCE_WITHOUT_QUOTE@3", "INVALID_REPORT_SOURCE@5", "EMPTY_REPORT_QUOTE@6"],
        );
    });

    it("gives the quote's columns on its line", () => {
        const line = "He said “exact words here” ([s](https://s.example/)).";
        const [citation] = parseReport(line).citations;
        assert.equal(line.slice(citation.columns.start, citation.columns.end), "exact words here");
    });
});

describe("quotes: matching web text", () => {
    const page =
        "Example Domains\n\nAs described in RFC 2606, domains such as\n  example.com and example.org are maintained for documentation purposes .";

    it("folds whitespace and ignores typographic quote marks, keeping case and punctuation", () => {
        assert.ok(findQuote(page, "example.com and example.org are maintained for documentation purposes."));
        assert.ok(findQuote("He said “don’t panic” twice.", 'He said "don\'t panic" twice.'));
        assert.equal(findQuote(page, "Example.com and example.org"), undefined);
        assert.equal(findQuote(page, "example.com, and example.org"), undefined);
    });

    it("matches elisions in order, each fragment long enough", () => {
        assert.ok(findQuote(page, "As described in RFC 2606 … maintained for documentation purposes."));
        assert.ok(findQuote(page, "As described in RFC 2606 (...) maintained for documentation purposes."));
        assert.equal(findQuote(page, "maintained for documentation purposes … As described in RFC 2606"), undefined);
        assert.equal(findQuote(page, "As described … purposes."), undefined, "short fragments match anything");
    });

    it("maps a match back to the original text", () => {
        const match = findQuote(page, "domains such as example.com")!;
        assert.equal(page.slice(match.start, match.end), "domains such as\n  example.com");
        const elided = findQuote(page, "As described in RFC 2606 … documentation purposes.")!;
        assert.ok(elided.elided);
        assert.ok(page.slice(elided.start, elided.end).startsWith("As described"));
    });

    it("property: any slice of a text, re-spaced, is found, at a span whose folded text is the slice's", () => {
        let ran = 0;
        const word = fc.stringMatching(/^[A-Za-z0-9.,;:()-]{1,8}$/);
        const space = fc.constantFrom(" ", "  ", "\n", "\t", " \n ");
        fc.assert(
            fc.property(
                fc.array(fc.tuple(word, space), { minLength: 2, maxLength: 30 }),
                fc.nat(),
                fc.nat(),
                (pairs, a, b) => {
                    ran++;
                    const source = pairs.map(([w, s]) => w + s).join("");
                    const i = a % pairs.length;
                    const j = i + (b % (pairs.length - i));
                    // The oracle: the words i..j joined by single spaces, built without foldText.
                    const quote = pairs
                        .slice(i, j + 1)
                        .map(([w]) => w)
                        .join(" ");
                    const match = findQuote(source, quote);
                    assert.ok(match, `${JSON.stringify(quote)} in ${JSON.stringify(source)}`);
                    assert.equal(foldText(source.slice(match.start, match.end)).text, foldText(quote).text);
                },
            ),
            { numRuns },
        );
        assert.equal(ran, numRuns);
    });
});
