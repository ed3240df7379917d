/**
 * Coverage by sentence and the unsourced list (issue 44; docs/agents.md, "Coverage"): a line of
 * several sentences is reported by sentence ("line 2 (sentences 1, 3 of 5)"), not as a whole line;
 * a claim the agent searched and found no source for is recorded by `annotate` with
 * `unsourced: true` in the file's `unsourced` list and reported apart ("searched with no source
 * found"); `check --json` carries the same coverage the agents read; a broken unsourced ref fails
 * the check like any broken ref. The oracle is the answer the test writes: it knows which of the
 * five sentences of line 2 it cites and which it records as searched.
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import Ajv from "ajv";
import { runTool, type ToolOutcome } from "../../server/src/agentTools/tools";
import { MAX_COVERAGE_LINES, reportCoverage } from "../../server/src/core/coverage";
import {
    MAX_LINE_SENTENCES,
    sentenceCoverage,
    sentenceLinesText,
    sentencePlaces,
    sentenceSpans,
    sentencesByLine,
} from "../../server/src/core/sentences";
import { Session, SessionDocument } from "../../server/src/core/session";
import { createMemoryWorkspace, check as libraryCheck } from "../../server/src/index";
import { diskToolContext } from "../../server/src/mcp/diskContext";
import { runCli, runCliAsync } from "./cliRun";

/** Line 2 holds five sentences; the test cites the 2nd and the 4th. */
const SENTENCES = [
    "Orbit 2.4 ships offline sync.",
    "Cold starts are 37% faster.",
    "The team grew last year.",
    "Memory use fell by a fifth.",
    "Nobody measured battery life.",
];
const ANSWER = `# Orbit 2.4\n${SENTENCES.join(" ")}\n`;
const SOURCE = "Benchmark: cold starts are 37% faster than 2.3.\nProfiling: memory use fell by a fifth.\n";
const FILE = "answer.sourcecheck.json";

function workspace() {
    const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "sc-coverage-")));
    fs.writeFileSync(path.join(root, "answer.md"), ANSWER);
    fs.writeFileSync(path.join(root, "bench.md"), SOURCE);
    const context = diskToolContext(root, { indexDir: fs.mkdtempSync(path.join(os.tmpdir(), "sc-coverage-index-")) });
    const run = async (name: string, args: object) => {
        const outcome = await runTool(name, args, context);
        assert.ok(outcome.ok, JSON.stringify(outcome));
        return outcome as ToolOutcome & { ok: true };
    };
    return { root, run };
}

const cited = (quote: string, source: string) => ({
    claim: { path: "answer.md", quote },
    sources: [{ path: "bench.md", quote: source, polarity: "supports", confidence: 0.9 }],
});

describe("coverage by sentence and the unsourced list", () => {
    it("places every sentence on its line: a line of 5 sentences, 2 cited, names sentences 1, 3 and 5 of 5", () => {
        const places = sentencePlaces(ANSWER);
        assert.deepEqual(
            places.map(({ line, sentence, of }) => [line, sentence, of]),
            [
                [1, 1, 1],
                [2, 1, 5],
                [2, 2, 5],
                [2, 3, 5],
                [2, 4, 5],
                [2, 5, 5],
            ],
        );
        assert.deepEqual(
            places.map(({ start, end }) => ANSWER.slice(start, end)),
            ["# Orbit 2.4", ...SENTENCES],
        );
        // sentenceSpans (the editor's Show Coverage, import) is the same cut.
        assert.deepEqual(
            sentenceSpans(ANSWER),
            places.map(({ start, end }) => ({ start, end })),
        );
        const span = (text: string) => ({ start: ANSWER.indexOf(text), end: ANSWER.indexOf(text) + text.length });
        const counted = sentenceCoverage(ANSWER, [span("37% faster"), span("Memory use fell")]);
        assert.equal(counted.sentences, 6);
        assert.equal(counted.covered, 2);
        assert.deepEqual(sentencesByLine(counted.uncovered), [
            { line: 1, of: 1 },
            { line: 2, of: 5, sentences: [1, 3, 5] },
        ]);
        assert.equal(sentenceLinesText(sentencesByLine(counted.uncovered)), "lines 1, 2 (sentences 1, 3, 5 of 5)");
        // A sentence a claim covers stays covered when an unsourced ref overlaps it too.
        const searched = sentenceCoverage(ANSWER, [span("37% faster")], [span(SENTENCES[4]), span(SENTENCES[1])]);
        assert.equal(searched.covered, 1);
        assert.deepEqual(sentencesByLine(searched.unsourced), [{ line: 2, of: 5, sentences: [5] }]);
        assert.equal(sentenceLinesText(sentencesByLine(searched.unsourced)), "line 2 (sentence 5 of 5)");
    });

    it("words whole lines as ranges and cuts a long list", () => {
        const whole = (line: number) => ({ line, of: 1 });
        assert.equal(sentenceLinesText([whole(3), whole(4), whole(5), whole(9)]), "lines 3-5, 9");
        const many = Array.from({ length: 20 }, (_, i) => whole(2 * i + 1));
        assert.equal(sentenceLinesText(many, 3), "lines 1, 3, 5 and 17 more");
        // Lines left out of a listing (past MAX_COVERAGE_LINES) are counted in "more".
        assert.equal(sentenceLinesText([whole(1)], 12, 4), "lines 1 and 4 more");
        // A line of many sentences lists at most MAX_LINE_SENTENCES of them, then counts the rest.
        const line = "A. ".repeat(MAX_LINE_SENTENCES + 10).trim();
        const listed = sentencesByLine(
            sentenceCoverage(`${line} B.`, [{ start: line.length + 1, end: line.length + 3 }]).uncovered,
        );
        assert.equal(listed[0].sentences?.length, MAX_LINE_SENTENCES);
        assert.equal(listed[0].more, 10);
        assert.match(sentenceLinesText(listed), /^line 1 \(sentences 1, 2, .* 50 and 10 more of 61\)$/);
    });

    it("lists at most MAX_COVERAGE_LINES lines per list, counting the rest", () => {
        const text = Array.from({ length: MAX_COVERAGE_LINES + 7 }, (_, i) => `Line ${i + 1}.`).join("\n");
        const [document] = reportCoverage(
            new Session([new SessionDocument("a.md", text)]),
            new Map([["a.md", []]]),
            [],
        ).documents;
        assert.equal(document.uncovered, MAX_COVERAGE_LINES + 7);
        assert.equal(document.uncoveredLines?.length, MAX_COVERAGE_LINES);
        assert.equal(document.uncoveredUnlisted, 7);
        assert.equal(document.unsourcedUnlisted, undefined);
    });

    it("lists every unsourced ref, one that fails the schema as invalid", () => {
        const lookup = new Session([new SessionDocument("a.md", "One. Two. Three.")]);
        const coverage = reportCoverage(lookup, new Map([["a.md", [{ start: 5, end: 8 }]]]), [
            { pointer: "/unsourced/0" },
        ]);
        assert.deepEqual(coverage.documents, [
            {
                path: "a.md",
                sentences: 3,
                covered: 1,
                unsourced: 0,
                uncovered: 2,
                unsourcedLines: [],
                uncoveredLines: [{ line: 1, of: 3, sentences: [1, 3] }],
            },
        ]);
        assert.equal(coverage.unsourced[0].valid, false);
        assert.equal(coverage.unsourced[0].error?.code, "schema");
    });

    it("round trip: annotate { claim, unsourced: true } → the file's unsourced list → check reports it apart", async () => {
        const ws = workspace();
        await ws.run("annotate", {
            file: FILE,
            annotations: [
                cited(SENTENCES[1], "cold starts are 37% faster"),
                cited(SENTENCES[3], "memory use fell by a fifth"),
            ],
            write: true,
        });
        const recorded = await ws.run("annotate", {
            file: FILE,
            claim: { path: "answer.md", quote: SENTENCES[4] },
            unsourced: true,
            write: true,
        });
        assert.equal((recorded.structured as { unsourced: number }).unsourced, 1);
        assert.equal((recorded.structured as { written: boolean }).written, true);
        assert.match(recorded.text, /^Wrote unsourced claim 1 of answer\.sourcecheck\.json\./);
        // In the file: a top-level list of claim refs, beside the annotations.
        const written = JSON.parse(fs.readFileSync(path.join(ws.root, FILE), "utf8"));
        assert.equal(written.annotations.length, 2);
        assert.deepEqual(written.unsourced, [
            { path: "answer.md", start: { line: 2, str: "Nobody" }, end: { line: 2, str: "life." } },
        ]);
        // A retry is reported present, the file unchanged.
        const before = fs.readFileSync(path.join(ws.root, FILE), "utf8");
        const again = await ws.run("annotate", {
            file: FILE,
            claim: { path: "answer.md", quote: SENTENCES[4] },
            unsourced: true,
            write: true,
        });
        assert.deepEqual(
            { present: (again.structured as { present?: boolean }).present, written: again.structured.written },
            { present: true, written: false },
        );
        assert.equal(fs.readFileSync(path.join(ws.root, FILE), "utf8"), before);

        const check = await ws.run("check", { file: FILE });
        const lines = check.text.split("\n");
        assert.equal(lines[0], `${FILE}: 2 annotations, 4 refs: all refs resolve (exit 0).`);
        assert.equal(
            lines[2],
            'coverage: "answer.md": 3 of 6 sentences no claim covers, lines 1, 2 (sentences 1, 3 of 5); ' +
                "1 searched with no source found, line 2 (sentence 5 of 5).",
        );
        const coverage = (check.structured as { coverage: Record<string, unknown> }).coverage;
        assert.deepEqual(coverage.documents, [
            {
                path: "answer.md",
                sentences: 6,
                covered: 2,
                unsourced: 1,
                uncovered: 3,
                unsourcedLines: [{ line: 2, of: 5, sentences: [5] }],
                uncoveredLines: [
                    { line: 1, of: 1 },
                    { line: 2, of: 5, sentences: [1, 3] },
                ],
            },
        ]);
        assert.deepEqual(coverage.unsourced, [
            {
                pointer: "/unsourced/0",
                valid: true,
                path: "answer.md",
                text: SENTENCES[4],
                range: { start: { line: 2, column: 111 }, end: { line: 2, column: 140 } },
            },
        ]);
        assert.equal(ANSWER.split("\n")[1].slice(111, 140), SENTENCES[4]);

        // Removing the entry takes the claim back to "not covered".
        const removed = await ws.run("annotate", { file: FILE, remove: 1, unsourced: true, write: true });
        assert.deepEqual(removed.structured, { unsourced: 1, removed: true, written: true });
        assert.deepEqual(JSON.parse(fs.readFileSync(path.join(ws.root, FILE), "utf8")).unsourced, []);
        const after = (await ws.run("check", { file: FILE })).text;
        assert.match(
            after,
            /coverage: "answer\.md": 4 of 6 sentences no claim covers, lines 1, 2 \(sentences 1, 3, 5 of 5\)\./,
        );
    });

    it("a broken unsourced ref fails the check (exit 1), named by its number and pointer", async () => {
        const ws = workspace();
        await ws.run("annotate", {
            file: FILE,
            annotations: [cited(SENTENCES[1], "cold starts are 37% faster")],
            write: true,
        });
        await ws.run("annotate", {
            file: FILE,
            claim: { path: "answer.md", quote: SENTENCES[4] },
            unsourced: true,
            write: true,
        });
        fs.writeFileSync(path.join(ws.root, "answer.md"), ANSWER.replace("Nobody measured", "We never measured"));
        const check = await ws.run("check", { file: FILE });
        const report = check.structured as {
            exitCode: number;
            validCount: number;
            coverage: { unsourced: { valid: boolean; error?: { code: string } }[] };
        };
        assert.equal(report.exitCode, 1);
        assert.equal(report.validCount, 1, "the annotations themselves still resolve");
        assert.equal(report.coverage.unsourced[0].valid, false);
        assert.equal(report.coverage.unsourced[0].error?.code, "boundary-not-found");
        assert.match(check.text, /\(exit 1\)/);
        assert.match(check.text, /^unsourced claim 1 \(failing\): answer\.md:2 "Nobody" … 2 "life\."$/m);
        assert.match(check.text, /start: boundary-not-found: /);
        assert.match(check.text, /to do: record the claim again with annotate \{ claim, unsourced: true \}/);
        // The CLI's text names the token.
        const cli = runCli(["check", FILE], { cwd: ws.root });
        assert.equal(cli.status, 1);
        assert.match(cli.stdout + cli.stderr, /boundary-not-found/);
    });

    it("an unsourced list that is not a list of refs is a schema error (exit 2)", async () => {
        const ws = workspace();
        const annotation = {
            claim: { path: "answer.md", start: { line: 2, str: "Cold" }, end: { line: 2, str: "faster." } },
            sources: [
                {
                    path: "bench.md",
                    start: { line: 1, str: "cold" },
                    end: { line: 1, str: "faster" },
                    polarity: "supports",
                    confidence: 0.9,
                },
            ],
        };
        const write = (unsourced: unknown) =>
            fs.writeFileSync(path.join(ws.root, FILE), JSON.stringify({ annotations: [annotation], unsourced }));
        write("line 5");
        let report = (await ws.run("check", { file: FILE })).structured as {
            exitCode: number;
            schemaErrors: { pointer: string }[];
        };
        assert.equal(report.exitCode, 2);
        assert.deepEqual(
            report.schemaErrors.map((e) => e.pointer),
            ["/unsourced"],
        );
        write([{ path: "answer.md", start: { line: 0, str: "Nobody" } }]);
        report = (await ws.run("check", { file: FILE })).structured as typeof report;
        assert.equal(report.exitCode, 2);
        assert.deepEqual(
            report.schemaErrors.map((e) => e.pointer),
            ["/unsourced/0/start/line", "/unsourced/0/end"],
        );
    });

    it("the annotation file's JSON schema takes the unsourced list of claim refs, and refuses a ref without its end", () => {
        const schema = JSON.parse(
            fs.readFileSync(path.join(__dirname, "../../../schemas/sourcecheck.schema.json"), "utf8"),
        );
        const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);
        const claim = { path: "answer.md", start: { line: 2, str: "Nobody" }, end: { line: 2, str: "life." } };
        assert.equal(validate({ annotations: [], unsourced: [claim] }), true, JSON.stringify(validate.errors));
        assert.equal(validate({ annotations: [], unsourced: [{ path: "answer.md", start: claim.start }] }), false);
        assert.equal(validate({ annotations: [], unsourced: "line 2" }), false);
    });

    it("check --json carries the coverage the agents read; the CLI's annotate --unsourced writes the same list", async () => {
        const ws = workspace();
        const appended = runCli(
            [
                "annotate",
                FILE,
                "--claim",
                "answer.md",
                SENTENCES[1],
                "--source",
                "supports",
                "0.9",
                "bench.md",
                "cold starts are 37% faster",
                "--write",
            ],
            { cwd: ws.root },
        );
        assert.equal(appended.status, 0, appended.stderr);
        const recorded = runCli(
            ["annotate", FILE, "--claim", "answer.md", SENTENCES[4], "--unsourced", "--write", "--json"],
            {
                cwd: ws.root,
            },
        );
        assert.equal(recorded.status, 0, recorded.stderr);
        const result = JSON.parse(recorded.stdout);
        assert.equal(result.unsourced, 1);
        assert.equal(result.written, true);
        const cli = await runCliAsync(["check", "--json", FILE], { cwd: ws.root });
        assert.equal(cli.status, 0, cli.stderr);
        const report = JSON.parse(cli.stdout);
        const tool = await ws.run("check", { file: FILE });
        assert.deepEqual(report.coverage, (tool.structured as { coverage: unknown }).coverage);
        assert.deepEqual(report.coverage.documents[0].unsourcedLines, [{ line: 2, of: 5, sentences: [5] }]);
        assert.deepEqual(report.coverage.documents[0].uncoveredLines, [
            { line: 1, of: 1 },
            { line: 2, of: 5, sentences: [1, 3, 4] },
        ]);
        // The library's check returns the same object `check --json` prints.
        const files = Object.fromEntries(
            ["answer.md", "bench.md", FILE].map((name) => [name, fs.readFileSync(path.join(ws.root, name), "utf8")]),
        );
        const library = (await libraryCheck(createMemoryWorkspace(files), { paths: [FILE] })) as { coverage?: unknown };
        assert.deepEqual(library.coverage, report.coverage);
        // Text output is unchanged by coverage: the annotations pass.
        assert.equal(runCli(["check", FILE], { cwd: ws.root }).status, 0);
        // --unsourced takes no sources.
        const refused = runCli(
            [
                "annotate",
                FILE,
                "--claim",
                "answer.md",
                SENTENCES[4],
                "--unsourced",
                "--source",
                "supports",
                "1",
                "bench.md",
                "cold",
            ],
            { cwd: ws.root },
        );
        assert.equal(refused.status, 2);
        assert.match(refused.stderr, /--unsourced takes --claim PATH QUOTE/);
    });
});
