/**
 * `sourcecheck review` (docs/review.md): only the refs a change affects, on a real git history; the
 * rdjsonl validated against the Reviewdog Diagnostic Format's schema (test/fixtures/rdf, written from
 * the format's documented fields), its columns in UTF-8 bytes, its suggestions applied making the refs resolve.
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import Ajv from "ajv";
import { lineSuggestion, type ReviewChange, reviewScope } from "../../server/src/operations/review";
import { runCli, runCliAsync } from "./cliRun";
import {
    annotationText,
    commitAll,
    git,
    pullRequestRepository,
    REPORT,
    type ReviewRepository,
    write,
} from "./reviewRepo";

const schema = JSON.parse(
    fs.readFileSync(path.resolve(__dirname, "../../../test/fixtures/rdf/diagnostic.schema.json"), "utf8"),
);

interface Position {
    line: number;
    column: number;
}

/** Replace a byte range (lines and columns from 1, end exclusive) of a text, as reviewdog applies a suggestion. */
function applyByteRange(text: string, range: { start: Position; end: Position }, replacement: string): string {
    const bytes = Buffer.from(text, "utf8");
    const offsetOf = (p: Position) => {
        let offset = 0;
        for (let line = 1; line < p.line; line++) offset = bytes.indexOf(0x0a, offset) + 1;
        return offset + p.column - 1;
    };
    const from = offsetOf(range.start);
    const to = offsetOf(range.end);
    return Buffer.concat([bytes.subarray(0, from), Buffer.from(replacement, "utf8"), bytes.subarray(to)]).toString(
        "utf8",
    );
}

describe("sourcecheck review", () => {
    let repo: ReviewRepository;
    before(() => {
        repo = pullRequestRepository();
    });

    it("names only the annotation files the change affects, each with why", async () => {
        const run = await runCliAsync(["review", "--base", "main", "--format", "json"], { cwd: repo.dir });
        const report = JSON.parse(run.stdout);
        assert.equal(report.base, repo.base);
        assert.equal(report.head, null, "no --head: the work tree");
        const files = report.files.map((f: { file: string }) => f.file);
        assert.deepEqual(files, ["a.sourcecheck.json", "b.sourcecheck.json", "c.sourcecheck.json"]);
        assert.ok(!run.stdout.includes("d.sourcecheck.json"), "the untouched file's old breakage is not this change's");
        const byFile = new Map(report.files.map((f: { file: string }) => [f.file, f]));
        assert.deepEqual((byFile.get("a.sourcecheck.json") as { documents: ReviewChange[] }).documents, [
            { status: "modified", path: REPORT },
        ]);
        assert.equal((byFile.get("c.sourcecheck.json") as { changed: ReviewChange }).changed.status, "added");
        const codes = report.findings.map((f: { file: string; code: string }) => `${f.file} ${f.code}`);
        assert.ok(codes.includes("b.sourcecheck.json text-changed"), codes.join("\n"));
        assert.equal(report.exitCode, 1);
        assert.equal(run.status, 1);
    });

    it("--head names the checked-out commit; another commit is refused with exit 2", async () => {
        const same = await runCliAsync(["review", "--base", "main", "--head", "pr", "--format", "json"], {
            cwd: repo.dir,
        });
        assert.equal(JSON.parse(same.stdout).head, repo.head);
        const other = await runCliAsync(["review", "--base", "main", "--head", "main"], { cwd: repo.dir });
        assert.equal(other.status, 2);
        assert.match(other.stderr, /not the checked-out commit/);
        const unknown = await runCliAsync(["review", "--base", "no-such-branch"], { cwd: repo.dir });
        assert.equal(unknown.status, 2);
        assert.match(unknown.stderr, /unknown revision "no-such-branch"/);
    });

    it("prints rdjsonl that validates, in UTF-8 byte columns, whose suggestions make the refs resolve", async () => {
        const run = await runCliAsync(["review", "--base", "main", "--format", "rdjsonl"], { cwd: repo.dir });
        const validate = new Ajv({ allErrors: true, strict: true }).compile(schema);
        const diagnostics = run.stdout
            .trimEnd()
            .split("\n")
            .map((line) => JSON.parse(line));
        assert.ok(diagnostics.length >= 4, run.stdout);
        for (const d of diagnostics) assert.ok(validate(d), JSON.stringify(validate.errors));
        assert.deepEqual([...new Set(diagnostics.map((d) => d.location.path))].sort(), [
            "a.sourcecheck.json",
            "b.sourcecheck.json",
            "c.sourcecheck.json",
        ]);
        for (const d of diagnostics) assert.equal(d.source.name, "sourcecheck");
        // The token "The beta" comes after the document's name, whose "é"s are two bytes each.
        const c = diagnostics.find(
            (d) => d.location.path === "c.sourcecheck.json" && d.message.startsWith("start boundary"),
        );
        const text = fs.readFileSync(path.join(repo.dir, "c.sourcecheck.json"));
        const line = text.toString("utf8").split("\n")[c.location.range.start.line - 1];
        const byteColumn = Buffer.from(line, "utf8").indexOf('"The beta"') + 1;
        assert.equal(c.location.range.start.column, byteColumn);
        assert.notEqual(byteColumn, line.indexOf('"The beta"') + 1, "the fixture must tell bytes from UTF-16 units");
        // Every suggestion applied (last first, per file), then check: the suggested refs resolve.
        const suggested = diagnostics.filter((d) => d.suggestions);
        assert.deepEqual(suggested.map((d) => d.location.path).sort(), ["a.sourcecheck.json", "c.sourcecheck.json"]);
        for (const d of suggested) {
            const file = path.join(repo.dir, d.location.path);
            const s = d.suggestions[0];
            fs.writeFileSync(file, applyByteRange(fs.readFileSync(file, "utf8"), s.range, s.text));
        }
        try {
            for (const file of ["a.sourcecheck.json", "c.sourcecheck.json"]) {
                const check = runCli(["check", file], { cwd: repo.dir });
                assert.equal(check.status, 0, check.stdout);
            }
        } finally {
            git(repo.dir, ["checkout", "-q", "--", "a.sourcecheck.json", "c.sourcecheck.json"]);
        }
    });

    it("prints text with each certain repair, and SARIF with one result per finding", async () => {
        const text = await runCliAsync(["review", "--base", "main"], { cwd: repo.dir });
        assert.match(
            text.stdout,
            /a\.sourcecheck\.json:6:\d+: boundary-not-found: .*\n {2}certain repair \(.*\): line 6 becomes\n/,
        );
        assert.match(text.stdout, /3 affected annotation files, \d+ findings, 2 with a certain repair \(exit 1\)\n$/);
        const json = JSON.parse(
            (await runCliAsync(["review", "--base", "main", "--format", "json"], { cwd: repo.dir })).stdout,
        );
        const sarif = JSON.parse(
            (await runCliAsync(["review", "--base", "main", "--format", "sarif"], { cwd: repo.dir })).stdout,
        );
        assert.equal(sarif.version, "2.1.0");
        assert.deepEqual(
            sarif.runs[0].results.map((r: { ruleId: string }) => r.ruleId),
            json.findings.map((f: { code: string }) => f.code),
        );
    });

    it("a clean change reports nothing and exits 0; PATH limits the files", async () => {
        const clean = pullRequestRepository();
        // Only b and c are considered: a (affected) is outside the PATH given.
        const limited = await runCliAsync(["review", "--base", "main", "--format", "json", "c.sourcecheck.json"], {
            cwd: clean.dir,
        });
        assert.deepEqual(
            JSON.parse(limited.stdout).files.map((f: { file: string }) => f.file),
            ["c.sourcecheck.json"],
        );
        const run = await runCliAsync(["review", "--base", "HEAD", "--format", "json"], { cwd: clean.dir });
        assert.deepEqual(JSON.parse(run.stdout).files, []);
        assert.equal(run.status, 0);
        write(clean.dir, "notes/untouched.md", "Untouched\nOne line, changed.\n");
        commitAll(clean.dir, "touch the untouched document");
        const touched = JSON.parse(
            (await runCliAsync(["review", "--base", "HEAD~1", "--format", "json"], { cwd: clean.dir })).stdout,
        );
        assert.deepEqual(
            touched.files.map((f: { file: string }) => f.file),
            ["d.sourcecheck.json"],
        );
    });
});

describe("review's scope (operations/review.ts)", () => {
    const files = ["x.sourcecheck.json", "y.sourcecheck.json", "z.sourcecheck.json"];
    const cites: Record<string, string[]> = { "old.md": ["x.sourcecheck.json"], "gone.md": ["y.sourcecheck.json"] };
    const scope = (changes: ReviewChange[]) =>
        reviewScope(changes, {
            annotationFiles: files,
            citing: (p) => cites[p] ?? [],
            lockOwner: (p) => (p === "z.sourcecheck.lock.json" ? "z.sourcecheck.json" : undefined),
        });

    it("a renamed document affects the files citing its old name; a deleted one, those citing it", () => {
        const result = scope([
            { status: "renamed", path: "new.md", previousPath: "old.md" },
            { status: "deleted", path: "gone.md" },
            { status: "modified", path: "unrelated.md" },
        ]);
        assert.deepEqual(result, [
            { file: "x.sourcecheck.json", documents: [{ status: "renamed", path: "new.md", previousPath: "old.md" }] },
            { file: "y.sourcecheck.json", documents: [{ status: "deleted", path: "gone.md" }] },
        ]);
    });

    it("a changed lock affects its annotation file; a deleted annotation file is not reviewed", () => {
        const result = scope([
            { status: "modified", path: "z.sourcecheck.lock.json" },
            { status: "deleted", path: "x.sourcecheck.json" },
        ]);
        assert.deepEqual(result, [
            {
                file: "z.sourcecheck.json",
                changed: { status: "modified", path: "z.sourcecheck.lock.json" },
                documents: [],
            },
        ]);
    });
});

describe("review's suggestions (lineSuggestion)", () => {
    it("replaces exactly the lines a ref spans, every other character of them kept", () => {
        const text = annotationText([
            {
                claim: '{ "path": "a.md", "start": { "line": 1, "str": "A" }, "end": { "line": 1, "str": "B" } }',
                sources: [
                    '{ "path": "d.md",\n          "start": { "line": 3, "str": "x" },\n          "end": { "line": 3, "str": "y" } }',
                ],
            },
        ]);
        const before = { path: "d.md", start: { line: 3, str: "x" }, end: { line: 3, str: "y" } };
        const after = { path: "d.md", start: { line: 5, str: "x" }, end: { line: 6, str: "y" } };
        const s = lineSuggestion(text, "/annotations/0/sources/0", before, after);
        assert.ok(s);
        const lines = text.split("\n");
        assert.equal(lines[s.startLine - 1].trim(), '"start": { "line": 3, "str": "x" },');
        assert.equal(lines[s.endLine - 1].trim(), '"end": { "line": 3, "str": "y" } }');
        assert.deepEqual(s.lines, [lines[s.startLine - 1].replace("3", "5"), lines[s.endLine - 1].replace("3", "6")]);
        const unchanged = lineSuggestion(text, "/annotations/0/sources/0", before, before);
        assert.equal(unchanged, undefined);
    });
});
