/**
 * TraceCite's conformance table, row by row, through the CLI in-process (main()), from the directory
 * holding `fixtures/` (traces name `file:fixtures/...`). Rows that need the network run with pages
 * supplied by a stub fetcher: no test here opens a socket.
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { PageFetcher } from "../../server/src/cli/quoteCli";
import { type CliRun, runCliAsync } from "./cliRun";

const repo = path.resolve(__dirname, "../../..");
const fixtureRoot = path.join(repo, "test/fixtures/tracecite");

function cli(args: string[], cwd = fixtureRoot): Promise<CliRun> {
    return runCliAsync(args, { cwd });
}

/** The CLI with its pages from `fetchPage` (a stub), not the network. */
function withFetcher(args: string[], fetchPage: PageFetcher, cwd = fixtureRoot): Promise<CliRun> {
    return runCliAsync(args, { cwd, fetchPage });
}

function codes(json: { diagnostics: { code: string; line: number }[] }): string[] {
    return json.diagnostics.map((d) => `${d.code}@${d.line}`);
}

/** The visible text of IANA's example-domains page, as the live checks of the table saw it. */
const IANA_TEXT =
    "Example Domains\nAs described in RFC 2606 and RFC 6761, a number of domains such as example.com and example.org are maintained for documentation purposes. These domains may be used as illustrative examples in documents without prior coordination with us.";
const IANA_URL = "https://www.iana.org/help/example-domains";

/** A stub fetcher: pages from a table, and a record of what was asked for. */
function stubFetcher(pages: Record<string, string>): PageFetcher & { asked: string[] } {
    const asked: string[] = [];
    const fetcher = async (url: string) => {
        asked.push(url);
        const text = pages[url];
        return text === undefined
            ? { ok: false as const, code: "HTTP_STATUS_404", message: "the server answered HTTP 404" }
            : { ok: true as const, text };
    };
    return Object.assign(fetcher, { asked });
}

describe("quotes cli: TraceCite's single-file checks (EXPECTED.md)", () => {
    it("valid.jsonl --json: exit 0, no diagnostics", async () => {
        const run = await cli(["trace", "fixtures/valid.jsonl", "--json"]);
        assert.equal(run.status, 0);
        const json = JSON.parse(run.stdout);
        assert.deepEqual(json.diagnostics, []);
        assert.equal(json.ok, true);
        assert.equal(json.run_id, "demo");
        assert.equal(json.source_count, 1);
    });

    it("unknown-source.jsonl --json: exit 2, UNKNOWN_SOURCE on the answer line 3", async () => {
        const run = await cli(["trace", "fixtures/unknown-source.jsonl", "--json"]);
        assert.equal(run.status, 2);
        assert.deepEqual(codes(JSON.parse(run.stdout)), ["UNKNOWN_SOURCE@3"]);
    });

    it("failed-result.jsonl --json: exit 2, SOURCE_ON_FAILED_RESULT line 2 and UNKNOWN_SOURCE line 3", async () => {
        const run = await cli(["trace", "fixtures/failed-result.jsonl", "--json"]);
        assert.equal(run.status, 2);
        assert.deepEqual(codes(JSON.parse(run.stdout)), ["SOURCE_ON_FAILED_RESULT@2", "UNKNOWN_SOURCE@3"]);
    });

    it("duplicate-source.jsonl --json: exit 2, DUPLICATE_SOURCE on line 4, first seen on line 2", async () => {
        const run = await cli(["trace", "fixtures/duplicate-source.jsonl", "--json"]);
        assert.equal(run.status, 2);
        const json = JSON.parse(run.stdout);
        assert.deepEqual(codes(json), ["DUPLICATE_SOURCE@4"]);
        assert.match(json.diagnostics[0].message, /line 2/);
    });

    it("mixed-run.jsonl --json: exit 2, MISSING_RESULT line 1, RUN_MISMATCH line 2, UNKNOWN_SOURCE line 3", async () => {
        const run = await cli(["trace", "fixtures/mixed-run.jsonl", "--json"]);
        assert.equal(run.status, 2);
        assert.deepEqual(codes(JSON.parse(run.stdout)), ["MISSING_RESULT@1", "RUN_MISMATCH@2", "UNKNOWN_SOURCE@3"]);
    });

    it("codex-cli-trace.jsonl: exit 0 with --json and with --evidence", async () => {
        const plain = await cli(["trace", "fixtures/codex-cli-trace.jsonl", "--json"]);
        assert.equal(plain.status, 0);
        assert.deepEqual(JSON.parse(plain.stdout).diagnostics, []);
        const evidence = await cli(["trace", "--evidence", "fixtures/codex-cli-trace.jsonl"]);
        assert.equal(evidence.status, 0);
        assert.match(evidence.stdout, /^PASS codex-cli-live-redacted-20260923: .*1\/1 matched/);
    });

    it("evidence-old.jsonl --json: exit 0, the quote is a verbatim substring of the content", async () => {
        const run = await cli(["trace", "fixtures/evidence-old.jsonl", "--json"]);
        assert.equal(run.status, 0);
        const json = JSON.parse(run.stdout);
        assert.equal(json.verified_citation_count, 1);
        assert.equal(json.citations[0].evidence_status, "matched");
    });

    it("evidence-new.jsonl: exit 0", async () => {
        const run = await cli(["trace", "fixtures/evidence-new.jsonl"]);
        assert.equal(run.status, 0);
        assert.match(run.stdout, /^PASS new:/);
    });

    it("evidence-false-quote.jsonl: exit 2, QUOTE_NOT_IN_SOURCE, with --json and in evidence mode; the quote is not echoed", async () => {
        const run = await cli(["trace", "fixtures/evidence-false-quote.jsonl", "--json"]);
        assert.equal(run.status, 2);
        assert.deepEqual(codes(JSON.parse(run.stdout)), ["QUOTE_NOT_IN_SOURCE@3"]);
        const evidence = await cli(["trace", "--evidence", "fixtures/evidence-false-quote.jsonl"]);
        assert.equal(evidence.status, 2);
        assert.ok(evidence.stdout.includes("[QUOTE_NOT_IN_SOURCE]"));
        for (const output of [run.stdout, evidence.stdout]) {
            assert.ok(!output.includes("value=99"), "the quote must not be echoed");
            assert.ok(!output.includes("value=42"), "the content must not be echoed");
        }
    });

    for (const name of ["codex-two-run-before", "codex-two-run-after"]) {
        it(`${name}.jsonl: exit 0 with --json and --evidence; 3 events, 1 call, 1 citation, 1/1 matched`, async () => {
            const json = await cli(["trace", `fixtures/${name}.jsonl`, "--json"]);
            assert.equal(json.status, 0);
            const evidence = await cli(["trace", `fixtures/${name}.jsonl`, "--evidence"]);
            assert.equal(evidence.status, 0);
            for (const part of ["3 events", "1 call,", "1 citation", "1/1 matched"]) {
                assert.ok(evidence.stdout.includes(part), `${part} in ${evidence.stdout}`);
            }
        });
    }

    it("verify-files codex-cli-file-trace.jsonl: exit 0, the content equals fixtures/facts.txt", async () => {
        const run = await cli(["trace", "verify-files", "fixtures/codex-cli-file-trace.jsonl"]);
        assert.equal(run.status, 0);
        assert.match(run.stdout, /^PASS: 1 source file matches captured content/);
    });

    it("verify-files codex-cli-file-tampered.jsonl: exit 2, SOURCE_FILE_MISMATCH", async () => {
        const run = await cli(["trace", "verify-files", "--json", "fixtures/codex-cli-file-tampered.jsonl"]);
        assert.equal(run.status, 2);
        const json = JSON.parse(run.stdout);
        assert.deepEqual(codes(json), ["SOURCE_FILE_MISMATCH@2"]);
        assert.ok(!run.stdout.includes("answer=99"));
    });

    it("verify-files codex-two-run-after.jsonl: exit 0, the content equals codex-live-run-source.txt", async () => {
        const run = await cli(["trace", "verify-files", "fixtures/codex-two-run-after.jsonl"]);
        assert.equal(run.status, 0);
    });

    it("verify-files codex-two-run-before.jsonl: exit 2, SOURCE_FILE_MISMATCH (the file moved on to 2026-10-04)", async () => {
        const run = await cli(["trace", "verify-files", "fixtures/codex-two-run-before.jsonl"]);
        assert.equal(run.status, 2);
        assert.ok(run.stdout.includes("[SOURCE_FILE_MISMATCH]"));
    });

    it("report-check report-wrong-quote.md: exit 2, `fixtures/report-wrong-quote.md:5 FAIL` (page from a stub)", async () => {
        const fetcher = stubFetcher({ [IANA_URL]: IANA_TEXT });
        const run = await withFetcher(["report-check", "fixtures/report-wrong-quote.md"], fetcher);
        assert.equal(run.status, 2);
        assert.ok(run.stdout.includes("fixtures/report-wrong-quote.md:5 FAIL"), run.stdout);
        assert.ok(run.stdout.includes("[QUOTE_NOT_IN_LIVE_SOURCE]"));
        assert.ok(!run.stdout.includes("example.net"), "the quote must not be echoed");
        assert.deepEqual(fetcher.asked, [IANA_URL]);
    });

    it("report-check inline-report-wrong-quote.md: exit 2, `fixtures/inline-report-wrong-quote.md:3 FAIL`", async () => {
        const fetcher = stubFetcher({ [IANA_URL]: IANA_TEXT });
        const run = await withFetcher(["report-check", "fixtures/inline-report-wrong-quote.md"], fetcher);
        assert.equal(run.status, 2);
        assert.ok(run.stdout.includes("fixtures/inline-report-wrong-quote.md:3 FAIL"), run.stdout);
        assert.ok(!run.stdout.includes("production workloads"));
    });

    it("notes simple-citation.md --json: exit 0, source_count=1, citation_count=1, matched_count=1", async () => {
        const fetcher = stubFetcher({ [IANA_URL]: IANA_TEXT });
        const run = await withFetcher(["notes", "fixtures/simple-citation.md", "--json"], fetcher);
        assert.equal(run.status, 0);
        const json = JSON.parse(run.stdout);
        assert.equal(json.source_count, 1);
        assert.equal(json.citation_count, 1);
        assert.equal(json.matched_count, 1);
        assert.ok(!run.stdout.includes("maintained for documentation"));
    });

    it("verify-urls web-source-trace.jsonl --json: exit 0, 1/1 matched", async () => {
        const fetcher = stubFetcher({ [IANA_URL]: `<p>${IANA_TEXT}</p>` });
        const json = await withFetcher(["trace", "verify-urls", "fixtures/web-source-trace.jsonl", "--json"], fetcher);
        assert.equal(json.status, 0);
        const report = JSON.parse(json.stdout);
        assert.equal(report.citation_count, 1);
        assert.equal(report.matched_count, 1);
        const text = await withFetcher(["trace", "verify-urls", "fixtures/web-source-trace.jsonl"], fetcher);
        assert.match(text.stdout, /^PASS: 1\/1 citations appear in 1 live web source/);
    });

    it("verify-urls reports an unavailable page as exit 2 with the fetcher's code", async () => {
        const run = await withFetcher(["trace", "verify-urls", "fixtures/web-source-trace.jsonl"], stubFetcher({}));
        assert.equal(run.status, 2);
        assert.ok(run.stdout.includes("[HTTP_STATUS_404]"));
    });
});

describe("quotes cli: TraceCite's two-file checks (EXPECTED.md)", () => {
    it("compare evidence-old -> evidence-new: exit 2, [changed] file:///example/report.txt", async () => {
        const run = await cli(["trace", "compare", "fixtures/evidence-old.jsonl", "fixtures/evidence-new.jsonl"]);
        assert.equal(run.status, 2);
        assert.ok(run.stdout.includes("[changed] file:///example/report.txt"));
    });

    it("compare codex-two-run-before -> after: exit 2, the change and the summary", async () => {
        const run = await cli([
            "trace",
            "compare",
            "fixtures/codex-two-run-before.jsonl",
            "fixtures/codex-two-run-after.jsonl",
        ]);
        assert.equal(run.status, 2);
        assert.ok(run.stdout.includes("[changed] file:fixtures/codex-live-run-source.txt"));
        assert.ok(run.stdout.includes("1 source changes; 0 unchanged"));
        assert.ok(!run.stdout.includes("2026-10-0"), "content is not echoed");
    });

    it("compare of a run with itself: exit 0, nothing changed", async () => {
        const run = await cli([
            "trace",
            "compare",
            "--json",
            "fixtures/evidence-old.jsonl",
            "fixtures/evidence-old.jsonl",
        ]);
        assert.equal(run.status, 0);
        const json = JSON.parse(run.stdout);
        assert.deepEqual(json.changes, []);
        assert.equal(json.unchanged_count, 1);
    });

    it("compare refuses runs that fail evidence mode: exit 2, their diagnostics", async () => {
        const run = await cli(["trace", "compare", "fixtures/valid.jsonl", "fixtures/evidence-new.jsonl"]);
        assert.equal(run.status, 2);
        assert.ok(run.stdout.startsWith("Cannot compare"));
        assert.ok(run.stdout.includes("[MISSING_SOURCE_CONTENT]"));
    });
});

describe("quotes cli: exit 1 for bad usage and malformed input", () => {
    let dir: string;
    before(() => {
        dir = fs.mkdtempSync(path.join(os.tmpdir(), "sourcecheck-quotes-"));
    });
    after(() => fs.rmSync(dir, { recursive: true, force: true }));

    it("trace without a file, with an unknown option, or with a missing file exits 1 with one line", async () => {
        for (const args of [["trace"], ["trace", "--bogus", "x.jsonl"], ["trace", "missing.jsonl"], ["notes"]]) {
            const run = await cli(args);
            assert.equal(run.status, 1, args.join(" "));
            assert.match(run.stderr, /^sourcecheck: /);
            assert.ok(!run.stderr.includes("    at "), "no stack trace");
        }
    });

    it("a trace line that is not JSON is malformed input: exit 1, INVALID_JSON on its line", async () => {
        const file = path.join(dir, "broken.jsonl");
        fs.writeFileSync(file, '{"type":"tool_call","run_id":"r","call_id":"c","tool":"t"}\nnot json\n');
        const run = await cli(["trace", "--json", file]);
        assert.equal(run.status, 1);
        assert.ok(codes(JSON.parse(run.stdout)).includes("INVALID_JSON@2"));
    });

    it("malformed notes exit 1 with TraceCite's note codes, before any fetch", async () => {
        const file = path.join(dir, "notes.txt");
        fs.writeFileSync(file, "claim: a\nquote: b\n\nclaim: c\nquote:\nurl: https://example.org/\nbogus line\n");
        const fetcher = stubFetcher({});
        const run = await withFetcher(["notes", "--json", file], fetcher, dir);
        assert.equal(run.status, 1);
        assert.deepEqual(codes(JSON.parse(run.stdout)), [
            "MISSING_NOTE_FIELD@1",
            "MISSING_NOTE_FIELD@4",
            "EMPTY_NOTE_FIELD@5",
            "INVALID_NOTE_LINE@7",
        ]);
        assert.deepEqual(fetcher.asked, []);
    });

    it("notes whose URL is a loopback address are refused by the CLI's strict guards, without a connection", async () => {
        const file = path.join(dir, "loopback.txt");
        fs.writeFileSync(file, "claim: c\nquote: some quoted words here\nurl: http://127.0.0.1/page\n");
        const run = await cli(["notes", "--json", file], dir);
        assert.equal(run.status, 2);
        const json = JSON.parse(run.stdout);
        assert.deepEqual(json.items[0].diagnostics, ["URL_BLOCKED"]);
    });

    it("a report with a quote block and no source exits 1 with MISSING_REPORT_SOURCE", async () => {
        const file = path.join(dir, "report.md");
        fs.writeFileSync(file, "# T\n\n> Quote: “lonely words”\n\nprose\n");
        const run = await cli(["report-check", file], dir);
        assert.equal(run.status, 1);
        assert.ok(run.stdout.includes(`${file}:3 [MISSING_REPORT_SOURCE]`));
    });
});

describe("quotes cli: convert", () => {
    let dir: string;
    before(() => {
        dir = fs.mkdtempSync(path.join(os.tmpdir(), "sourcecheck-convert-"));
    });
    after(() => fs.rmSync(dir, { recursive: true, force: true }));

    it("converts codex-two-run-after.jsonl into a file that `check` passes, the ref citing exactly the quote", async () => {
        const out = path.join(dir, "after.sourcecheck.json");
        const run = await cli(["convert", "-o", out, "fixtures/codex-two-run-after.jsonl"]);
        assert.equal(run.status, 0, run.stderr);
        const check = await cli(["check", "--json", out]);
        assert.equal(check.status, 0, check.stdout);
        const report = JSON.parse(check.stdout);
        assert.equal(report.validCount, 1);
        assert.equal(report.entries[0].sources[0].text, "The archive release date is 2026-10-04.");
        assert.equal(report.entries[0].sources[0].path, "file:fixtures/codex-live-run-source.txt");
        assert.equal(report.entries[0].claim.text, "answer line 1 (content omitted)");
    });

    it("lists citations it cannot convert (exit 1), and the file still checks", async () => {
        const out = path.join(dir, "false.sourcecheck.json");
        const run = await cli(["convert", "--json", "-o", out, "fixtures/evidence-false-quote.jsonl"]);
        assert.equal(run.status, 1);
        const json = JSON.parse(run.stdout);
        assert.deepEqual(
            json.unconverted.map((u: { code: string; line: number }) => `${u.code}@${u.line}`),
            ["quote-not-found@3"],
        );
        const written = JSON.parse(fs.readFileSync(out, "utf8"));
        assert.equal(written.unconverted.length, 1);
        assert.equal((await cli(["check", out])).status, 0);
    });

    it("an ambiguous quote is listed with the lines of its occurrences, never guessed", async () => {
        const trace = path.join(dir, "twice.jsonl");
        const content = "alpha beta\ngamma\nalpha beta\n";
        fs.writeFileSync(
            trace,
            [
                { type: "tool_call", run_id: "r", call_id: "c", tool: "read" },
                {
                    type: "tool_result",
                    run_id: "r",
                    call_id: "c",
                    ok: true,
                    sources: [{ id: "s", uri: "file:x", content }],
                },
                {
                    type: "answer",
                    run_id: "r",
                    claims: [{ text: "Alpha.", citations: [{ source_id: "s", quote: "alpha beta" }] }],
                },
            ]
                .map((event) => JSON.stringify(event))
                .join("\n"),
        );
        const run = await cli(["convert", "--json", trace], dir);
        assert.equal(run.status, 1);
        const json = JSON.parse(run.stdout);
        assert.equal(json.unconverted[0].code, "quote-ambiguous");
        assert.deepEqual(json.unconverted[0].lines, [1, 3]);
    });

    it("converts notes against their pages (stub), matching folded whitespace and elisions", async () => {
        const notes = path.join(dir, "notes.md");
        fs.writeFileSync(
            notes,
            `claim: IANA keeps example domains.\nquote: example.com and example.org are maintained … without prior coordination with us.\nurl: ${IANA_URL}\n`,
        );
        const fetcher = stubFetcher({ [IANA_URL]: IANA_TEXT.replace(/ /g, "  ") });
        const out = path.join(dir, "notes.sourcecheck.json");
        const run = await withFetcher(["convert", "-o", out, notes], fetcher, dir);
        assert.equal(run.status, 0, run.stdout);
        const check = await cli(["check", "--json", out], dir);
        assert.equal(check.status, 0);
        const text: string = JSON.parse(check.stdout).entries[0].sources[0].text;
        assert.ok(text.startsWith("example.com and example.org are maintained"));
        assert.ok(text.endsWith("without prior coordination with us."));
    });

    it("a notes page that cannot be fetched is listed as unconverted with the fetch code", async () => {
        const notes = path.join(dir, "gone.txt");
        fs.writeFileSync(notes, "claim: c\nquote: some quoted words here\nurl: https://gone.example/\n");
        const run = await withFetcher(["convert", "--json", notes], stubFetcher({}), dir);
        assert.equal(run.status, 1);
        assert.equal(JSON.parse(run.stdout).unconverted[0].code, "HTTP_STATUS_404");
    });

    it("bad input is SourceCheck's exit 2", async () => {
        assert.equal((await cli(["convert"])).status, 2);
        assert.equal((await cli(["convert", "fixtures/missing.jsonl"])).status, 2);
    });
});
