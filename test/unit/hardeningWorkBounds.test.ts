/**
 * Work bounded as well as bytes, second sweep (issue 35, problem 7; docs/security.md, "Resource
 * bounds"). Each test counts outputs, entries, scans or table cells at one size or two, never time.
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { TextDocument } from "vscode-languageserver-textdocument";
import { runTool, type ToolContext } from "../../server/src/agentTools/tools";
import { checkInput, MAX_LISTED_PROBLEMS } from "../../server/src/core/check";
import { editDistanceCells, levenshtein, MAX_EDIT_CELLS } from "../../server/src/core/editDistance";
import { parseLock } from "../../server/src/core/lock";
import { MAX_LOCK_FIELD } from "../../server/src/core/lock/types";
import { parseJsonText } from "../../server/src/core/parse";
import { findLockedText } from "../../server/src/core/repair/locked";
import { Session, SessionDocument } from "../../server/src/core/session";
import { createLanguageService } from "../../server/src/languageService";
import { NODE_HOST } from "../../server/src/workspace/nodeHost";
import { runCli } from "./cliRun";

/** `[{},{},…]` of about `bytes` bytes: two schema errors per three bytes. */
function emptyObjects(bytes: number): string {
    return `[${Array(Math.floor(bytes / 3))
        .fill("{}")
        .join(",")}]`;
}

function tempDir(): string {
    return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "sourcecheck-work-")));
}

const TWO_MB = 2_000_000;
const ANNOTATIONS = Math.floor(TWO_MB / 3);

describe("hardening: problems listed per file at most 1,000, the rest counted", function () {
    this.timeout(180_000);
    const dir = tempDir();
    const file = path.join(dir, "a.sourcecheck.json");
    fs.writeFileSync(file, emptyObjects(TWO_MB));
    after(() => fs.rmSync(dir, { recursive: true, force: true }));

    it("check of a 2 MB [{},{},…]: text, JSON, SARIF and github output bounded, the total counted", () => {
        const total = 2 * ANNOTATIONS;
        const text = runCli(["check", "a.sourcecheck.json"], { cwd: dir });
        assert.equal(text.status, 2);
        const lines = text.stdout.trimEnd().split("\n");
        assert.equal(lines.length, MAX_LISTED_PROBLEMS + 2, "1,000 problems, the note, the summary");
        assert.match(
            lines.at(-2) ?? "",
            /^a\.sourcecheck\.json:1:1: more-problems: 1,332,332 more problems not listed/,
        );
        assert.match(lines.at(-1) ?? "", new RegExp(`${ANNOTATIONS} invalid, ${total} schema errors \\(exit 2\\)`));
        assert.ok(text.stdout.length < 120_000, `${text.stdout.length} characters of text`);

        const json = runCli(["check", "--json", "a.sourcecheck.json"], { cwd: dir });
        const report = JSON.parse(json.stdout);
        assert.equal(report.schemaErrors.length, MAX_LISTED_PROBLEMS);
        assert.equal(report.schemaErrorCount, total);
        assert.equal(report.invalidCount, ANNOTATIONS);
        // Annotations whose errors were listed keep their entries; the others are counted.
        assert.equal(report.entries.length, MAX_LISTED_PROBLEMS / 2);
        assert.equal(report.entries.length + report.omittedEntryCount, ANNOTATIONS);
        assert.ok(json.stdout.length < 300_000, `${json.stdout.length} characters of JSON`);

        const sarif = JSON.parse(runCli(["check", "--format", "sarif", "a.sourcecheck.json"], { cwd: dir }).stdout);
        const results = sarif.runs[0].results;
        assert.equal(results.length, MAX_LISTED_PROBLEMS + 1);
        assert.equal(results.at(-1).ruleId, "more-problems");
        assert.equal(results.at(-1).level, "note");
        assert.equal(results.at(-1).locations[0].physicalLocation.region.startColumn, 1);

        const github = runCli(["check", "--format", "github", "a.sourcecheck.json"], { cwd: dir }).stdout;
        const commands = github.split("\n").filter((line) => line.startsWith("::"));
        assert.equal(commands.length, MAX_LISTED_PROBLEMS + 1);
        assert.match(commands.at(-1) ?? "", /^::notice .*endColumn=1,.*more-problems::1,332,332 more/);
    });

    it("the core builds at most 1,000 problems whatever the size: 2 MB and 4 MB build the same number", () => {
        const built = (bytes: number) => {
            const parsed = parseJsonText(emptyObjects(bytes));
            const result = checkInput(parsed.value, undefined, parsed.syntaxErrors, { keepAnnotations: false });
            return { problems: result.problems.length, errors: result.report.schemaErrors.length, result };
        };
        const small = built(TWO_MB);
        const large = built(2 * TWO_MB);
        assert.equal(small.problems, MAX_LISTED_PROBLEMS);
        assert.equal(large.problems, MAX_LISTED_PROBLEMS);
        assert.equal(large.errors, MAX_LISTED_PROBLEMS);
        assert.equal(large.result.unlistedProblemCount, 2 * Math.floor((2 * TWO_MB) / 3) - MAX_LISTED_PROBLEMS);
        assert.equal(large.result.report.invalidCount, Math.floor((2 * TWO_MB) / 3));
        // Syntax errors too: `[,,,,…]` has one per comma.
        const commas = parseJsonText(`[${",".repeat(100_000)}]`);
        assert.equal(commas.syntaxErrors.length, MAX_LISTED_PROBLEMS);
        assert.ok(commas.unlistedSyntaxErrors >= 99_000);
        const checked = checkInput(commas.value, undefined, commas.syntaxErrors, {
            unlistedSyntaxErrors: commas.unlistedSyntaxErrors,
        });
        assert.equal(checked.report.schemaErrors.length, MAX_LISTED_PROBLEMS, "one budget for syntax and schema");
        assert.ok((checked.report.schemaErrorCount ?? 0) > 99_000);
    });

    it("the language server publishes at most 1,000 diagnostics and a note; every annotation is still broken", () => {
        const document = TextDocument.create(pathToFileURL(file).href, "sourcecheck", 1, emptyObjects(TWO_MB));
        const service = createLanguageService({
            ...NODE_HOST,
            documents: { get: (uri) => (uri === document.uri ? document : undefined) },
            logger: { error: (message) => assert.fail(message) },
            events: { changed() {}, removed() {}, refsCanFollow() {} },
        });
        service.initialize({ rootPath: dir });
        const { report, file: analysed } = service.diagnostics(document.uri, undefined);
        assert.equal(report.kind, "full");
        const items = (report as { items: { code?: unknown; range: { start: { line: number } } }[] }).items;
        assert.equal(items.length, MAX_LISTED_PROBLEMS + 1);
        assert.equal(items.at(-1)?.code, "more-problems");
        assert.deepEqual(items.at(-1)?.range.start, { line: 0, character: 0 });
        // The last annotation's errors were not listed; it is broken all the same.
        assert.equal(analysed?.verdictOf(ANNOTATIONS - 1), "broken");
        assert.equal(analysed?.summary().invalidCount, ANNOTATIONS);
        assert.equal(analysed?.summary().schemaErrorCount, 2 * ANNOTATIONS);
    });
});

describe("hardening: the MCP check is linear in its input", function () {
    this.timeout(120_000);

    /** A context whose one annotation file holds `text`; its refs cite nothing that exists. */
    function contextOf(text: string): ToolContext {
        const none = { get: () => undefined };
        return {
            document: (p) => new SessionDocument(p, text),
            documents: () => none,
            annotationFile: () => ({ code: "unreadable-document", message: "not here" }),
            annotationFileToWrite: () => ({ code: "unreadable-document", message: "not here" }),
            files: () => [],
            evidence: () => assert.fail("no evidence here"),
            refScope: () => ({
                documents: () => none,
                files: () => [],
                revision: () => none,
                lastCommit: () => undefined,
            }),
        };
    }

    /** Work of one call: the characters it answers with and the problems it lists. */
    async function work(text: string) {
        const outcome = await runTool("check", { file: "a.sourcecheck.json" }, contextOf(text));
        assert.ok(outcome.ok);
        const structured = outcome.structured as { schemaErrors: unknown[]; entries: unknown[] };
        return {
            characters: JSON.stringify(outcome.structured).length + outcome.text.length,
            listed: structured.schemaErrors.length + structured.entries.length,
        };
    }

    it("[{},{},…]: doubling the file leaves the answer as it was (capped); it was 130 bytes out per byte in", async () => {
        const small = await work(emptyObjects(256 * 1024));
        const large = await work(emptyObjects(512 * 1024));
        assert.ok(small.characters < 300_000, `${small.characters} characters for 256 KB`);
        assert.ok(large.characters <= 1.1 * small.characters, `${small.characters} then ${large.characters}`);
        assert.ok(large.listed <= 1.1 * small.listed);
    });

    it("refs to missing documents: doubling the refs at most doubles the answer", async () => {
        const refs = (n: number) =>
            JSON.stringify(
                Array.from({ length: n }, (_, i) => ({
                    claim: { path: `gone${i}.md`, start: { line: 1, str: "a" }, end: { line: 1, str: "b" } },
                    sources: [
                        {
                            path: `gone${i}.md`,
                            start: { line: 1, str: "a" },
                            end: { line: 1, str: "b" },
                            polarity: "supports",
                            confidence: 1,
                        },
                    ],
                })),
            );
        const small = await work(refs(2_000));
        const large = await work(refs(4_000));
        assert.ok(small.listed >= 2_000);
        assert.ok(large.characters <= 2.1 * small.characters, `${small.characters} then ${large.characters}`);
        assert.ok(large.listed <= 2.1 * small.listed);
    });
});

describe("hardening: nesting capped on stdin as in files", function () {
    this.timeout(120_000);

    it("[[[… of 50 MB on stdin, unclosed or closed: exit 2 with invalid-json, never an internal error", () => {
        const dir = tempDir();
        try {
            const open = "[".repeat(50_000_000);
            const closed = `${"[".repeat(1_000_000)}${"]".repeat(1_000_000)}`;
            let runs = 0;
            for (const stdin of [open, closed]) {
                for (const args of [
                    ["check", "-"],
                    ["check", "--json", "-"],
                    ["repair", "-"],
                    ["render", "-"],
                ]) {
                    const run = runCli(args, { cwd: dir, stdin });
                    const said = `${args.join(" ")} (${stdin.length} characters): ${run.stderr.slice(0, 300)}${run.stdout.slice(0, 300)}`;
                    assert.equal(run.status, 2, said);
                    assert.doesNotMatch(run.stderr, /internal error/, said);
                    assert.match(`${run.stdout}${run.stderr}`, /nested more than 512 levels deep/, said);
                    runs++;
                }
            }
            // As in a file.
            fs.writeFileSync(path.join(dir, "deep.sourcecheck.json"), closed);
            const fromFile = runCli(["repair", "deep.sourcecheck.json"], { cwd: dir });
            assert.equal(fromFile.status, 2, fromFile.stderr);
            assert.match(`${fromFile.stdout}${fromFile.stderr}`, /nested more than 512 levels deep/);
            assert.equal(runs, 8);
        } finally {
            fs.rmSync(dir, { recursive: true, force: true });
        }
    });
});

describe("hardening: lock fields capped on read", () => {
    const entry = (field: string, length: number) => ({
        ref: { path: "doc.md", start: { line: 1, str: "The" }, end: { line: 1, str: "blue." } },
        range: { start: { line: 1, column: 0 }, end: { line: 1, column: 16 } },
        sha256: "a".repeat(64),
        length: 16,
        text: "The sky is blue.",
        prefix: "",
        suffix: "",
        documentSha256: "b".repeat(64),
        [field]: "x".repeat(length),
    });

    it("a prefix, suffix or text longer than 256 characters is a lock-schema error naming the field", () => {
        for (const field of ["prefix", "suffix", "text"]) {
            const at = (length: number) =>
                parseLock(
                    JSON.stringify({
                        lockVersion: 1,
                        annotationFile: "a.sourcecheck.json",
                        entries: { k: entry(field, length) },
                    }),
                    "a.sourcecheck.json",
                );
            assert.ok(at(MAX_LOCK_FIELD).lock, `${field}: ${MAX_LOCK_FIELD} characters are read`);
            const error = at(65_536).error;
            assert.equal(error?.code, "lock-schema", field);
            assert.equal(error?.pointer, `/entries/k/${field}`);
            assert.match(error?.message ?? "", /at most 256 characters/);
        }
    });

    it("check and repair with such a lock exit 2 naming it", () => {
        const dir = tempDir();
        try {
            fs.writeFileSync(path.join(dir, "doc.md"), "The sky is blue.\n");
            const annotation = {
                claim: { path: "doc.md", start: { line: 1, str: "The" }, end: { line: 1, str: "blue." } },
                sources: [
                    {
                        path: "doc.md",
                        start: { line: 1, str: "sky" },
                        end: { line: 1, str: "blue." },
                        polarity: "supports",
                        confidence: 1,
                    },
                ],
            };
            fs.writeFileSync(path.join(dir, "a.sourcecheck.json"), JSON.stringify([annotation]));
            assert.equal(runCli(["lock", "a.sourcecheck.json"], { cwd: dir }).status, 0);
            const lockPath = path.join(dir, "a.sourcecheck.lock.json");
            const lock = JSON.parse(fs.readFileSync(lockPath, "utf8"));
            const first = Object.keys(lock.entries)[0];
            lock.entries[first].prefix = "p".repeat(65_536);
            lock.entries[first].suffix = "s".repeat(65_536);
            fs.writeFileSync(lockPath, JSON.stringify(lock));
            for (const args of [
                ["check", "a.sourcecheck.json"],
                ["repair", "a.sourcecheck.json"],
            ]) {
                const run = runCli(args, { cwd: dir });
                assert.equal(run.status, 2, `${args.join(" ")}: ${run.stdout}${run.stderr}`);
                assert.match(`${run.stdout}${run.stderr}`, /lock-schema.*prefix.*at most 256 characters/s);
            }
        } finally {
            fs.rmSync(dir, { recursive: true, force: true });
        }
    });
});

describe("hardening: ambiguity counted once per line and string", () => {
    it('150 refs starting "a" on a 5 MB line: one counting scan, every count right', () => {
        const document = new SessionDocument("doc.md", `${"a".repeat(5_000_000)}\n`);
        const ref = { path: "doc.md", start: { line: 1, str: "a" }, end: { line: 1, str: "a" } };
        const source = { ...ref, polarity: "supports", confidence: 1 };
        const annotations = Array.from({ length: 150 }, () => ({ claim: ref, sources: [source] }));
        const result = checkInput(annotations, new Session([document]));
        assert.equal(result.report.invalidCount, 150);
        const ambiguous = result.problems.filter((p) => p.code === "boundary-ambiguous");
        assert.equal(ambiguous.length, 600, "both boundaries of the claim and of the source, 150 times");
        for (const problem of ambiguous) assert.match(problem.message, /occurs 5,000,000 times/);
        assert.equal(document.ambiguities.scans, 1);
        // Another string on the same line is counted on its own.
        checkInput([{ claim: { ...ref, start: { line: 1, str: "aa" } }, sources: [source] }], new Session([document]));
        assert.equal(document.ambiguities.scans, 2);
    });
});

describe("hardening: edit distances under a budget", () => {
    it("a lock entry with 64k-character context: the cells filled stay bounded, the place is still found", () => {
        const content = `${"intro words here. ".repeat(50)}The sky is blue today.${" more words after.".repeat(50)}\n`;
        const document = new SessionDocument("doc.md", content);
        const at = content.indexOf("The sky");
        const cellsFor = (contextLength: number) => {
            const before = editDistanceCells();
            const places = findLockedText(document, {
                text: "The sky is blue today.",
                length: 22,
                sha256: "0".repeat(64),
                prefix: "p".repeat(contextLength),
                suffix: "s".repeat(contextLength),
                range: { start: { line: 1, column: at }, end: { line: 1, column: at + 22 } },
            });
            assert.equal(places[0]?.from, at);
            return editDistanceCells() - before;
        };
        const written = cellsFor(32);
        const hostile = cellsFor(65_536);
        assert.ok(written > 0, "the context was compared");
        // At most 64 characters a side are compared, whatever the entry holds: 2 * 64 * 64 cells.
        assert.ok(hostile <= 2 * 64 * 64, `${hostile} cells for 64k of context`);
        // The distance itself refuses a table past its budget, with an upper bound.
        const before = editDistanceCells();
        assert.equal(levenshtein("a".repeat(65_536), "b".repeat(65_536)), 65_536);
        assert.equal(editDistanceCells(), before);
        assert.ok(65_536 * 65_536 > MAX_EDIT_CELLS);
    });
});
