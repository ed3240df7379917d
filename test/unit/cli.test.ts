import * as assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { type CliRun, runCli } from "./cliRun";

const repo = path.resolve(__dirname, "../../..");
const demo = path.join(repo, "examples/demo");
const bin = path.join(repo, "bin/sourcecheck.js");

/** `sourcecheck ARGS` in process, from the repository root unless told otherwise. */
function cli(args: string[], options: { cwd?: string; stdin?: string } = {}): CliRun {
    return runCli(args, { cwd: options.cwd ?? repo, stdin: options.stdin });
}

function tempDir(): string {
    return fs.mkdtempSync(path.join(os.tmpdir(), "sourcecheck-cli-"));
}

const skillExample = {
    session: {
        documents: [
            { path: "article", content: "# Orbit 2.4\n\nOrbit 2.4 improves cold‑start latency by 37%." },
            { path: "bench", content: "2.3.0: 820ms\n2.4.0: 517ms\ndelta: -37%" },
        ],
    },
    annotations: [
        {
            claim: { path: "article", start: { line: 3, str: "37%" }, end: { line: 3, str: "37%" } },
            sources: [
                {
                    path: "bench",
                    start: { line: 3, str: "delta" },
                    end: { line: 3, str: "-37%" },
                    polarity: "supports",
                    confidence: 0.95,
                },
            ],
        },
    ],
};

describe("cli: check", () => {
    it("checks the demo in workspace mode: one line per failing ref at file:line:col, then a summary", () => {
        const run = cli(["check", "--root", demo, path.join(demo, "answer.sourcecheck.json")]);
        assert.equal(run.status, 1);
        const lines = run.stdout.trim().split("\n");
        const file = path.join(demo, "answer.sourcecheck.json");
        assert.ok(
            lines.includes(
                `${file}:28:111: boundary-ambiguous: end boundary "release" occurs 2 times on line 7 of "answer.md" (columns 30, 75); extend it until it is unique`,
            ),
        );
        assert.ok(lines.some((l) => l.startsWith(`${file}:36:126: boundary-not-found:`)));
        assert.ok(lines.some((l) => l.startsWith(`${file}:48:19: unreadable-document:`)));
        assert.ok(lines.some((l) => l.startsWith(`${file}:49:63: line-out-of-range:`)));
        assert.equal(lines.at(-1), "8 annotations: 4 valid, 4 invalid (exit 1)");
    });

    it("prints the JSON report of docs/contract.md section 5", () => {
        const run = cli(["check", "--json", "--root", "examples/demo", "examples/demo/answer.sourcecheck.json"]);
        assert.equal(run.status, 1);
        const report = JSON.parse(run.stdout);
        assert.equal(report.ok, false);
        assert.equal(report.exitCode, 1);
        assert.equal(report.validCount, 4);
        assert.equal(report.invalidCount, 4);
        assert.deepEqual(report.schemaErrors, []);
        assert.deepEqual(report.entries[0].claim, {
            valid: true,
            path: "answer.md",
            text: "37%",
            range: { start: { line: 3, column: 41 }, end: { line: 3, column: 44 } },
        });
        assert.equal(report.entries[0].sources[0].text, "delta: -37%", "CRLF source normalised");
        assert.equal(report.entries[2].sources[0].text, "多数团队表示，完成安装配置不到十分钟。");
        assert.equal(report.entries[3].sources[0].polarity, "refutes");
        const ambiguous = report.entries[4].claim;
        assert.equal(ambiguous.valid, false);
        assert.deepEqual(ambiguous.error.code, "boundary-ambiguous");
        assert.deepEqual(ambiguous.error.boundary, "end");
        assert.deepEqual(ambiguous.error.occurrences, [29, 74]);
        assert.equal(report.entries[7].sources[0].error.code, "unreadable-document");
        assert.equal(report.entries[7].sources[1].error.code, "line-out-of-range");
    });

    it("exits 0 on the skill's worked example, read from piped stdin", () => {
        const run = cli(["--json"], { stdin: JSON.stringify(skillExample) });
        assert.equal(run.status, 0);
        const report = JSON.parse(run.stdout);
        assert.equal(report.ok, true);
        assert.equal(report.entries[0].sources[0].text, "delta: -37%");
        assert.equal(cli(["check", "-"], { stdin: JSON.stringify(skillExample) }).status, 0);
    });

    it("exits 2 on invalid JSON and on schema errors, with the pointer's line and column", () => {
        const invalid = cli(["check", "-"], { stdin: '{ "annotations": [ }' });
        assert.equal(invalid.status, 2);
        assert.match(invalid.stdout, /^<stdin>:1:20: invalid-json: invalid JSON/m);
        const bad = structuredClone(skillExample) as any;
        bad.annotations[0].sources[0].confidence = 2;
        const schema = cli(["check", "-"], { stdin: JSON.stringify(bad, null, 2) });
        assert.equal(schema.status, 2);
        assert.match(
            schema.stdout,
            /^<stdin>:\d+:\d+: schema: confidence must be a number in \[0, 1\], not number 2$/m,
        );
        const json = JSON.parse(cli(["--json", "-"], { stdin: JSON.stringify(bad) }).stdout);
        assert.deepEqual(
            json.schemaErrors.map((e: any) => [e.code, e.pointer]),
            [["schema", "/annotations/0/sources/0/confidence"]],
        );
        assert.equal(json.entries[0].valid, false);
    });

    it("produces every error code of docs/contract.md section 3 on crafted inputs", () => {
        const dir = tempDir();
        fs.writeFileSync(path.join(dir, "doc.txt"), "alpha beta\naaa\n");
        fs.mkdirSync(path.join(dir, "folder"));
        fs.writeFileSync(path.join(dir, "binary.bin"), Buffer.from([1, 0, 2]));
        fs.symlinkSync("/etc/hostname", path.join(dir, "escape"));
        const r = (p: string, sl: number, ss: string, el: number, es: string) => ({
            path: p,
            start: { line: sl, str: ss },
            end: { line: el, str: es },
        });
        const source = (p: string) => ({ ...r(p, 1, "alpha", 1, "beta"), polarity: "supports", confidence: 0.5 });
        const workspaceInput = {
            annotations: [
                { claim: r("doc.txt", 1, "alpha", 1, "beta"), sources: [source("../outside.txt")] },
                { claim: r("doc.txt", 9, "alpha", 9, "beta"), sources: [source("/etc/passwd")] },
                { claim: r("doc.txt", 1, "zeta", 1, "beta"), sources: [source("escape")] },
                { claim: r("doc.txt", 2, "a", 2, "aaa"), sources: [source("folder")] },
                { claim: r("doc.txt", 2, "aaa", 1, "beta"), sources: [source("binary.bin")] },
                { claim: r("doc.txt", 1, "beta", 1, "alpha"), sources: [source("missing.txt")] },
            ],
        };
        fs.writeFileSync(path.join(dir, "a.sourcecheck.json"), JSON.stringify(workspaceInput));
        const run = cli(["check", "--json", "a.sourcecheck.json"], { cwd: dir });
        assert.equal(run.status, 1);
        const codes = new Set<string>();
        for (const entry of JSON.parse(run.stdout).entries) {
            for (const span of [entry.claim, ...entry.sources]) if (!span.valid) codes.add(span.error.code);
        }
        assert.deepEqual([...codes].sort(), [
            "boundary-ambiguous",
            "boundary-not-found",
            "inverted-boundaries",
            "inverted-lines",
            "line-out-of-range",
            "path-outside-root",
            "unreadable-document",
        ]);
        const unknown = cli(["--json", "-"], {
            stdin: JSON.stringify({
                documents: [{ path: "d", content: "x" }],
                annotations: [{ claim: r("e", 1, "x", 1, "x"), sources: [source("d")] }],
            }),
        });
        assert.equal(JSON.parse(unknown.stdout).entries[0].claim.error.code, "unknown-path");
        const schemaCodes = (input: unknown) =>
            JSON.parse(cli(["--json", "-"], { stdin: JSON.stringify(input) }).stdout).schemaErrors[0].code;
        assert.equal(
            schemaCodes({
                documents: [
                    { path: "d", content: "x" },
                    { path: "d", content: "y" },
                ],
                annotations: [],
            }),
            "duplicate-path",
        );
        assert.equal(schemaCodes({ documents: [{ path: "d", content: "x\r\n" }], annotations: [] }), "cr-in-content");
        assert.equal(schemaCodes({ documents: [], annotations: [{ claim: 1, sources: [] }] }), "schema");
        assert.equal(JSON.parse(cli(["--json", "-"], { stdin: "nope" }).stdout).schemaErrors[0].code, "invalid-json");
    });

    it("prints SARIF 2.1.0 with one result per problem", () => {
        const run = cli([
            "check",
            "--format",
            "sarif",
            "--root",
            "examples/demo",
            "examples/demo/answer.sourcecheck.json",
        ]);
        assert.equal(run.status, 1);
        const sarif = JSON.parse(run.stdout);
        assert.equal(sarif.version, "2.1.0");
        const results = sarif.runs[0].results;
        assert.equal(results.length, 7);
        const first = results[0];
        assert.equal(first.ruleId, "boundary-ambiguous");
        assert.equal(first.level, "error");
        assert.deepEqual(first.locations[0].physicalLocation.region, {
            startLine: 28,
            startColumn: 111,
            endLine: 28,
            endColumn: 120,
        });
        assert.ok(sarif.runs[0].tool.driver.rules.some((rule: any) => rule.id === "path-outside-root"));
    });

    it("gives clear one-line errors, exit 2, for unusable command lines and files", () => {
        const missing = cli(["check", "nope.json"]);
        assert.equal(missing.status, 2);
        assert.equal(missing.stderr, "sourcecheck: cannot read nope.json: no such file\n");
        const directory = cli(["check", "--json", "nope-dir/**/*.sourcecheck.json"]);
        assert.equal(directory.stderr, "sourcecheck: no annotation files found in nope-dir/**/*.sourcecheck.json\n");
        const dir = tempDir();
        fs.writeFileSync(path.join(dir, "bin.json"), Buffer.from([0x7b, 0, 0x7d]));
        assert.match(cli(["check", path.join(dir, "bin.json")]).stderr, /is binary/);
        fs.writeFileSync(path.join(dir, "latin1.json"), Buffer.from([0x22, 0xe9, 0x22]));
        assert.match(cli(["check", path.join(dir, "latin1.json")]).stderr, /not valid UTF-8/);
        assert.equal(cli(["check"]).status, 2, "no file and no piped stdin");
        assert.match(cli(["check", "--bogus"]).stderr, /^sourcecheck: check: unknown option --bogus\n/);
        // Our own words, with the option probably meant (Node's message ends in an unbalanced quote).
        assert.match(
            cli(["check", "--jsno", "x.json"]).stderr,
            /^sourcecheck: check: unknown option --jsno \(did you mean --json\?\)\n/,
        );
        assert.match(
            cli(["render", "--jsno", "x.json"]).stderr,
            /^sourcecheck: render: unknown option --jsno( \(did you mean --[a-z]+\?\))?\n/,
        );
        assert.match(cli(["check", "--format", "xml", "x"]).stderr, /unknown --format "xml"/);
        assert.doesNotMatch(missing.stderr + directory.stderr, /\n\s+at /, "no stack trace");
    });
});

describe("cli: session, validate, index", () => {
    it("builds an LF-normalised session from CRLF and CR files, paths as given", () => {
        const run = cli(["session", "sources/benchmark.txt", "answer.md"], { cwd: demo });
        assert.equal(run.status, 0);
        const session = JSON.parse(run.stdout);
        assert.deepEqual(
            session.documents.map((d: any) => d.path),
            ["sources/benchmark.txt", "answer.md"],
        );
        assert.equal(
            session.documents[0].content,
            "Cold start, median of 50 runs\n2.3.0: 820ms\n2.4.0: 517ms\ndelta: -37%\n",
        );
        const dir = tempDir();
        fs.writeFileSync(path.join(dir, "mac.txt"), "one\rtwo\r");
        assert.equal(JSON.parse(cli(["session", "mac.txt"], { cwd: dir }).stdout).documents[0].content, "one\ntwo\n");
    });

    it("writes -o atomically and leaves the target untouched on error", () => {
        const dir = tempDir();
        fs.writeFileSync(path.join(dir, "a.txt"), "hello\r\nworld");
        const target = path.join(dir, "session.json");
        assert.equal(cli(["session", "a.txt", "-o", target], { cwd: dir }).status, 0);
        assert.equal(JSON.parse(fs.readFileSync(target, "utf8")).documents[0].content, "hello\nworld");
        fs.writeFileSync(target, "previous");
        const failed = cli(["session", "a.txt", "missing.txt", "-o", target], { cwd: dir });
        assert.equal(failed.status, 2);
        assert.equal(fs.readFileSync(target, "utf8"), "previous");
        const intoDirectory = cli(["session", "a.txt", "-o", dir], { cwd: dir });
        assert.equal(intoDirectory.status, 2);
        assert.deepEqual(fs.readdirSync(dir).sort(), ["a.txt", "session.json"], "no temp file left behind");
    });

    it("validates annotations against a separate session file", () => {
        const dir = tempDir();
        fs.writeFileSync(path.join(dir, "session.json"), JSON.stringify(skillExample.session));
        fs.writeFileSync(path.join(dir, "annotations.json"), JSON.stringify(skillExample.annotations));
        const ok = cli(["validate", "session.json", "annotations.json", "--json"], { cwd: dir });
        assert.equal(ok.status, 0);
        assert.equal(JSON.parse(ok.stdout).entries[0].claim.text, "37%");
        const broken = structuredClone(skillExample.annotations);
        broken[0].claim.start.str = "38%";
        fs.writeFileSync(path.join(dir, "annotations.json"), JSON.stringify({ annotations: broken }, null, 2));
        const failed = cli(["validate", "session.json", "annotations.json"], { cwd: dir });
        assert.equal(failed.status, 1);
        assert.match(failed.stdout, /^annotations\.json:8:18: boundary-not-found: start boundary "38%"/m);
    });

    it("prints numbered lines for authoring refs", () => {
        const run = cli(["index", "sources/benchmark.txt"], { cwd: demo });
        assert.equal(run.status, 0);
        assert.equal(
            run.stdout,
            "1 | Cold start, median of 50 runs\n2 | 2.3.0: 820ms\n3 | 2.4.0: 517ms\n4 | delta: -37%\n5 | \n",
        );
    });
});

describe("cli: the installed command", () => {
    it("runs as a bin with piped stdin and exit codes 0/1/2", () => {
        const run = (input: string) => spawnSync("node", [bin, "--json"], { input, encoding: "utf8" });
        assert.equal(run(JSON.stringify(skillExample)).status, 0);
        const unresolved = structuredClone(skillExample);
        unresolved.annotations[0].claim.end.str = "38%";
        assert.equal(run(JSON.stringify(unresolved)).status, 1);
        const invalid = run("{");
        assert.equal(invalid.status, 2);
        assert.equal(JSON.parse(invalid.stdout).schemaErrors[0].code, "invalid-json");
        const version = execFileSync("node", [bin, "--version"], { encoding: "utf8" }).trim();
        assert.equal(version, JSON.parse(fs.readFileSync(path.join(repo, "package.json"), "utf8")).version);
    });

    // `check` runs from its own bundle and loads further commands from another: their usage errors
    // must still be usage errors (exit 2, or 1 for TraceCite's), not internal errors (exit 3).
    it("reports a further command's usage error with its own exit code, across bundles", function () {
        // Six whole processes: on a loaded machine more than the default 20 s.
        this.timeout(180_000);
        const cases: [string[], number][] = [
            [["render"], 2],
            [["repair"], 2],
            [["cite", "--bogus"], 2],
            [["mcp", "extra"], 2],
            [["notes"], 1],
            [["trace", "compare", "one.jsonl"], 1],
        ];
        for (const [args, status] of cases) {
            const run = spawnSync("node", [bin, ...args], { encoding: "utf8", input: "" });
            assert.equal(run.status, status, `${args.join(" ")}: ${run.stderr}`);
            assert.match(run.stderr, new RegExp(`^sourcecheck: ${args[0]}`));
            assert.doesNotMatch(run.stderr, /internal error/);
            assert.match(run.stderr, /Usage:/);
        }
    });
});

describe("cli: a file with no annotations", () => {
    it("passes with a no-annotations warning in text and JSON, never silently", () => {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sourcecheck-empty-"));
        fs.writeFileSync(path.join(dir, "empty.sourcecheck.json"), '{ "annotations": [] }\n');
        const text = runCli(["check", "empty.sourcecheck.json"], { cwd: dir });
        assert.equal(text.status, 0);
        assert.match(text.stdout, /^warning: no-annotations: the file holds no annotations: nothing was checked\n/);
        const json = runCli(["check", "--json", "empty.sourcecheck.json"], { cwd: dir });
        assert.equal(json.status, 0);
        assert.deepEqual(JSON.parse(json.stdout).warnings, [
            { code: "no-annotations", message: "the file holds no annotations: nothing was checked" },
        ]);
        // Many files: the empty one is named with its warning.
        fs.writeFileSync(path.join(dir, "other.sourcecheck.json"), "[]\n");
        const many = spawnSync("node", [bin, "check", "."], { cwd: dir, encoding: "utf8" });
        assert.equal(many.status, 0);
        assert.match(many.stdout, /empty\.sourcecheck\.json: warning: no-annotations/);
        // A file with annotations carries no warnings field.
        const demo = runCli(["check", "--json", "examples/demo/answer.sourcecheck.json"], {
            cwd: path.resolve(__dirname, "../../.."),
        });
        assert.equal(JSON.parse(demo.stdout).warnings, undefined);
    });
});
