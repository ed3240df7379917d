/**
 * Whole workspaces (docs/ci.md, docs/config.md): discovery with ignore rules, configuration files up
 * the tree, shards, --jobs equivalence, streamed output, the github format.
 */
import * as assert from "node:assert/strict";
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import fc from "fast-check";
import { main } from "../../server/src/cli";
import type { FileJob } from "../../server/src/cli/checkFile";
import { checkFiles } from "../../server/src/cli/checkMany";
import type { CliIo } from "../../server/src/cli/commands";
import { discoverFiles, parseShard, shardOf } from "../../server/src/cli/discovery";
import { isCliError } from "../../server/src/cli/files";
import { escapeData, escapeProperty } from "../../server/src/cli/github";
import { checkInput } from "../../server/src/core/check";
import { entryJson } from "../../server/src/core/reportJson";
import { nodeProjectConfigs } from "../../server/src/workspace/nodeConfigs";
import { NODE_HOST } from "../../server/src/workspace/nodeHost";
import {
    CONFIG_FILE_NAME,
    type ConfigFileSystem,
    ProjectConfigs,
    parseProjectConfig,
    resolveDocumentRoot,
} from "../../server/src/workspace/projectConfig";
import { FILE_URIS } from "../../server/src/workspace/uris";
import { WorkspaceIndex } from "../../server/src/workspace/workspaceIndex";

const { pathToUri } = FILE_URIS;

const repo = path.resolve(__dirname, "../../..");
const demo = path.join(repo, "examples/demo");

interface Run {
    status: number;
    stdout: string;
    stderr: string;
    writes: number;
    largestWrite: number;
}

async function cli(args: string[], cwd: string): Promise<Run> {
    let stdout = "";
    let stderr = "";
    let writes = 0;
    let largestWrite = 0;
    const io: CliIo = {
        cwd,
        stdout: (t) => {
            stdout += t;
            writes++;
            largestWrite = Math.max(largestWrite, t.length);
        },
        stderr: (t) => {
            stderr += t;
        },
        readStdin: () => Buffer.alloc(0),
        stdinIsPiped: false,
        version: "test",
    };
    const status = await main(args, io);
    return { status, stdout, stderr, writes, largestWrite };
}

function tempDir(): string {
    return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "sourcecheck-ws-")));
}

function write(root: string, files: Record<string, string>): void {
    for (const [relative, content] of Object.entries(files)) {
        fs.mkdirSync(path.dirname(path.join(root, relative)), { recursive: true });
        fs.writeFileSync(path.join(root, relative), content);
    }
}

/** An annotation file citing `doc.md` lines; `broken` makes one ref miss. */
function annotations(doc: string, count: number, broken = false): string {
    const list = [];
    for (let i = 0; i < count; i++) {
        list.push({
            claim: { path: doc, start: { line: 1, str: "alpha" }, end: { line: 1, str: "beta" } },
            sources: [
                {
                    path: doc,
                    start: { line: 2, str: broken && i === count - 1 ? "missing" : "gamma" },
                    end: { line: 2, str: "delta" },
                    polarity: i % 2 ? "refutes" : "supports",
                    confidence: 0.5,
                },
            ],
        });
    }
    return JSON.stringify({ annotations: list }, null, 2);
}

const DOC = "alpha and beta\ngamma then delta\n";

describe("workspaces: project configuration", () => {
    it("finds the nearest sourcecheck.config.json up the tree, asking each folder once", () => {
        const reads: string[] = [];
        const files: Record<string, string> = {
            "/p/sourcecheck.config.json": "{}",
            "/p/sub/deep/sourcecheck.config.json": '{ "maxDocumentSize": 10 }',
        };
        const fsStub: ConfigFileSystem = {
            readConfig: (file) => {
                reads.push(file);
                return files[file];
            },
        };
        const configs = new ProjectConfigs(fsStub);
        assert.equal(configs.forFile("/p/sub/a/b/x.sourcecheck.json")?.config.root, "/p");
        assert.equal(configs.forFile("/p/sub/deep/more/x.sourcecheck.json")?.config.maxDocumentSize, 10);
        assert.equal(configs.forFile("/q/x.sourcecheck.json"), undefined);
        const before = reads.length;
        assert.equal(configs.forFile("/p/sub/a/b/y.sourcecheck.json")?.config.root, "/p");
        assert.equal(reads.length, before, "a folder already asked is not asked again");
        assert.equal(new Set(reads).size, reads.length, "no folder asked twice");
    });

    it("gives --root / documentRoot precedence, then the configuration, then the fallback", () => {
        const dir = tempDir();
        write(dir, {
            "proj/sourcecheck.config.json": "{}",
            "proj/a/x.sourcecheck.json": "[]",
            "loose/y.sourcecheck.json": "[]",
        });
        const file = path.join(dir, "proj/a/x.sourcecheck.json");
        assert.deepEqual(
            { ...resolveDocumentRoot(file, { fallback: "/cwd", configs: nodeProjectConfigs() }), config: undefined },
            { root: path.join(dir, "proj"), from: "config", config: undefined, problem: undefined },
        );
        assert.equal(
            resolveDocumentRoot(file, { fallback: "/cwd", explicitRoot: "/given", configs: nodeProjectConfigs() }).root,
            "/given",
        );
        const loose = resolveDocumentRoot(path.join(dir, "loose/y.sourcecheck.json"), {
            fallback: "/cwd",
            configs: nodeProjectConfigs(),
        });
        assert.equal(loose.root, "/cwd");
        assert.equal(loose.from, "default");
    });

    it("reports a broken configuration at its token, and still takes its folder as the root", () => {
        const bad = parseProjectConfig(
            "/p/sourcecheck.config.json",
            '{\n  "exclude": ["a"],\n  "maxDocumentSize": -1\n}',
        );
        assert.equal(bad.ok, false);
        assert.ok(!bad.ok && bad.problem.line === 3 && bad.problem.column === 22, JSON.stringify(bad));
        assert.match(!bad.ok ? bad.problem.message : "", /maxDocumentSize: must be a whole number/);
        const typo = parseProjectConfig("/p/c.json", '{ "exclued": [] }');
        assert.match(!typo.ok ? typo.problem.message : "", /unknown setting "exclued"/);
        const syntax = parseProjectConfig("/p/c.json", '{ "exclude": [, }');
        assert.match(!syntax.ok ? syntax.problem.message : "", /invalid JSON/);
        const good = parseProjectConfig(
            "/p/sourcecheck.config.json",
            '{ "$schema": "x", "annotationFiles": ["**/*.cites.json"] }',
        );
        assert.ok(good.ok);
        assert.deepEqual(good.config.annotationFiles, ["**/*.cites.json"]);

        const dir = tempDir();
        write(dir, { "sourcecheck.config.json": '{ "maxDocumentSize": "big" }', "a.sourcecheck.json": "[]" });
        const resolved = resolveDocumentRoot(path.join(dir, "a.sourcecheck.json"), {
            fallback: "/cwd",
            configs: nodeProjectConfigs(),
        });
        assert.equal(resolved.root, dir);
        assert.match(resolved.problem?.message ?? "", /maxDocumentSize/);
    });

    it("is what the CLI uses: the demo checks the same from the repository root as from inside it", async () => {
        const fromRoot = JSON.parse(
            (await cli(["check", "--json", "examples/demo/answer.sourcecheck.json"], repo)).stdout,
        );
        const fromInside = JSON.parse((await cli(["check", "--json", "answer.sourcecheck.json"], demo)).stdout);
        assert.deepEqual(fromRoot, fromInside);
        assert.equal(fromRoot.validCount, 4);
        const withRoot = JSON.parse(
            (await cli(["check", "--json", "--root", ".", "examples/demo/answer.sourcecheck.json"], repo)).stdout,
        );
        assert.equal(withRoot.validCount, 0, "--root wins over the configuration file");
    });

    it("fails clearly on a broken configuration, naming file, line and column", async () => {
        const dir = tempDir();
        write(dir, {
            [CONFIG_FILE_NAME]: '{\n "annotationFiles": "*.json"\n}',
            "doc.md": DOC,
            "a.sourcecheck.json": annotations("doc.md", 1),
        });
        for (const args of [
            ["check", "a.sourcecheck.json"],
            ["check", "."],
        ]) {
            const run = await cli(args, dir);
            assert.equal(run.status, 2);
            assert.equal(
                run.stderr,
                `sourcecheck: ${CONFIG_FILE_NAME}:2:21: annotationFiles: must be an array of glob strings\n`,
            );
        }
    });

    it("is what the language server uses: demo refs resolve in a window on the whole repository", () => {
        const index = new WorkspaceIndex({ get: () => undefined }, NODE_HOST);
        index.folders = [repo];
        const uri = pathToUri(path.join(demo, "answer.sourcecheck.json"));
        assert.equal(index.rootFor(uri), demo);
        const file = index.analyzeFromDisk(uri);
        assert.equal(file?.summary().validCount, 4);
        index.configure({ ...index.settings, documentRoot: "." });
        assert.equal(index.rootFor(uri), repo, "sourcecheck.documentRoot wins");
    });

    it("lets the language server recognise annotation files by a configuration's globs and show a broken one", () => {
        const dir = tempDir();
        write(dir, {
            "good/sourcecheck.config.json": '{ "annotationFiles": ["cites/*.json"] }',
            "bad/sourcecheck.config.json": "{ nope",
        });
        const index = new WorkspaceIndex({ get: () => undefined }, NODE_HOST);
        index.folders = [dir];
        assert.ok(index.isAnnotationFile(pathToUri(path.join(dir, "good/cites/x.json"))));
        assert.ok(!index.isAnnotationFile(pathToUri(path.join(dir, "good/other/x.json"))));
        assert.equal(index.rootFor(pathToUri(path.join(dir, "bad/a.sourcecheck.json"))), path.join(dir, "bad"));
        const broken = index.configs.loaded().filter((load) => !load.ok);
        assert.equal(broken.length, 1);
        assert.equal(broken[0].config.file, path.join(dir, "bad/sourcecheck.config.json"));
    });
});

describe("workspaces: discovery", () => {
    function tree(): string {
        const dir = tempDir();
        fs.mkdirSync(path.join(dir, ".git"));
        write(dir, {
            ".gitignore": "build/\n*.tmp.sourcecheck.json\n",
            ".git/info/exclude": "private/\n",
            "a.sourcecheck.json": "[]",
            "notes.json": "[]",
            "docs/b.annotations.json": "[]",
            "docs/.gitignore": "skipped.sourcecheck.json\n!kept.tmp.sourcecheck.json\n",
            "docs/skipped.sourcecheck.json": "[]",
            "docs/kept.tmp.sourcecheck.json": "[]",
            "docs/other.tmp.sourcecheck.json": "[]",
            "build/c.sourcecheck.json": "[]",
            "private/d.sourcecheck.json": "[]",
            "node_modules/pkg/e.sourcecheck.json": "[]",
            "fixtures/f.sourcecheck.json": "[]",
            "proj/sourcecheck.config.json": '{ "annotationFiles": ["cites/*.json"], "exclude": ["old/**"] }',
            "proj/cites/g.json": "[]",
            "proj/old/h.sourcecheck.json": "[]",
            "proj/new/i.sourcecheck.json": "[]",
        });
        return dir;
    }
    const shown = (dir: string, args: string[], exclude: string[] = []) =>
        discoverFiles(args, { cwd: dir, exclude, configs: nodeProjectConfigs() }).map((f) => f.shown);

    it("searches folders for annotation files, honouring .gitignore files, .git/info/exclude and configurations", () => {
        const dir = tree();
        assert.deepEqual(shown(dir, ["."]), [
            "a.sourcecheck.json",
            "docs/b.annotations.json",
            "docs/kept.tmp.sourcecheck.json",
            "fixtures/f.sourcecheck.json",
            "proj/cites/g.json",
            "proj/new/i.sourcecheck.json",
        ]);
    });

    it("applies --exclude, and the .gitignore files above a searched subfolder", () => {
        const dir = tree();
        assert.deepEqual(shown(dir, ["."], ["fixtures", "**/b.annotations.json"]), [
            "a.sourcecheck.json",
            "docs/kept.tmp.sourcecheck.json",
            "proj/cites/g.json",
            "proj/new/i.sourcecheck.json",
        ]);
        assert.deepEqual(shown(path.join(dir, "docs"), ["."]), ["b.annotations.json", "kept.tmp.sourcecheck.json"]);
    });

    it("always checks a file named explicitly, ignored, excluded or oddly named", () => {
        const dir = tree();
        assert.deepEqual(
            shown(dir, ["build/c.sourcecheck.json", "notes.json", "fixtures/f.sourcecheck.json"], ["fixtures"]),
            ["build/c.sourcecheck.json", "fixtures/f.sourcecheck.json", "notes.json"],
        );
    });

    it("expands globs below their base folder, ignore rules applied, each file once", () => {
        const dir = tree();
        assert.deepEqual(shown(dir, ["docs/*.json", "**/b.annotations.json"]), [
            "docs/b.annotations.json",
            "docs/kept.tmp.sourcecheck.json",
        ]);
        assert.deepEqual(shown(dir, ["proj/**/*.json"]), [
            "proj/cites/g.json",
            "proj/new/i.sourcecheck.json",
            "proj/sourcecheck.config.json",
        ]);
    });

    it("refuses paths that are neither files, folders nor globs", () => {
        const dir = tree();
        assert.throws(() => shown(dir, ["nothing-here"]), /no such file or directory, and not a glob/);
    });
});

describe("workspaces: shards", () => {
    it("partition any sorted list exactly, every file in exactly one shard (fast-check)", () => {
        let ran = 0;
        fc.assert(
            fc.property(
                fc.uniqueArray(fc.string(), { maxLength: 60 }),
                fc.integer({ min: 1, max: 12 }),
                (files, count) => {
                    ran++;
                    const seen = new Map<string, number>();
                    let total = 0;
                    for (let index = 1; index <= count; index++) {
                        const share = shardOf(files, { index, count });
                        total += share.length;
                        for (const file of share) seen.set(file, (seen.get(file) ?? 0) + 1);
                        // Balanced: sizes differ by at most one.
                        assert.ok(Math.abs(share.length - files.length / count) < 1);
                    }
                    assert.equal(total, files.length);
                    assert.deepEqual([...seen.keys()].sort(), [...files].sort());
                    assert.ok([...seen.values()].every((n) => n === 1));
                },
            ),
            { numRuns: 300 },
        );
        assert.equal(ran, 300);
    });

    it("parses K/N and refuses anything else", () => {
        assert.deepEqual(parseShard("2/5"), { index: 2, count: 5 });
        for (const bad of ["0/3", "4/3", "1/0", "a/b", "1", "-1/2"])
            assert.throws(() => parseShard(bad), /--shard must be K\/N/);
    });

    it("split a CLI run into reports that add up to the whole run's", async () => {
        const dir = tempDir();
        const files: Record<string, string> = { "doc.md": DOC };
        for (let i = 0; i < 7; i++) files[`f${i}.sourcecheck.json`] = annotations("doc.md", 2, i === 3);
        write(dir, files);
        const whole = JSON.parse((await cli(["check", "--json", "--jobs", "1", "."], dir)).stdout);
        const parts = [];
        for (let k = 1; k <= 3; k++)
            parts.push(JSON.parse((await cli(["check", "--json", "--shard", `${k}/3`, "."], dir)).stdout));
        const names = parts.flatMap((p) => p.files.map((f: { file: string }) => f.file)).sort();
        assert.deepEqual(
            names,
            whole.files.map((f: { file: string }) => f.file),
        );
        assert.equal(
            parts.reduce((n, p) => n + p.validCount, 0),
            whole.validCount,
        );
        assert.equal(Math.max(...parts.map((p) => p.exitCode)), whole.exitCode);
    });
});

describe("workspaces: check many files", () => {
    function corpus(): string {
        const dir = tempDir();
        const files: Record<string, string> = { "doc.md": DOC, "sub/sourcecheck.config.json": "{}", "sub/doc.md": DOC };
        for (let i = 0; i < 9; i++) files[`f${i}.sourcecheck.json`] = annotations("doc.md", 3 + i, i === 4);
        files["bad.sourcecheck.json"] = '{ "annotations": [ { "claim": 1 } ] }';
        files["sub/z.sourcecheck.json"] = annotations("doc.md", 2);
        files["latin1.sourcecheck.json"] = "";
        write(dir, files);
        fs.writeFileSync(path.join(dir, "latin1.sourcecheck.json"), Buffer.from([0x22, 0xe9, 0x22]));
        return dir;
    }

    it("gives the files shape, the worst exit status, and each file checked against its own root", async () => {
        const dir = corpus();
        const run = await cli(["check", "--json", "--jobs", "1", "."], dir);
        const report = JSON.parse(run.stdout);
        // The one --json envelope of every command (docs/cli.md): ok and exitCode beside the files.
        assert.deepEqual(Object.keys(report).sort(), ["exitCode", "files", "invalidCount", "ok", "validCount"]);
        assert.equal(report.ok, false);
        assert.equal(run.status, 2);
        assert.equal(report.exitCode, 2);
        const byName = new Map(report.files.map((f: { file: string }) => [f.file, f]));
        assert.equal(report.files.length, 12);
        assert.equal((byName.get("f4.sourcecheck.json") as { exitCode: number }).exitCode, 1);
        assert.equal((byName.get("bad.sourcecheck.json") as { exitCode: number }).exitCode, 2);
        const latin1 = byName.get("latin1.sourcecheck.json") as { schemaErrors: { code: string; message: string }[] };
        assert.equal(latin1.schemaErrors[0].code, "invalid-json");
        assert.match(latin1.schemaErrors[0].message, /not valid UTF-8/);
        const sub = byName.get("sub/z.sourcecheck.json") as { validCount: number; entries: unknown[]; ok: boolean };
        assert.equal(sub.validCount, 2, "sub/ has its own configuration: doc.md is sub/doc.md");
        assert.equal(sub.entries.length, 2);
        const files = report.files as { validCount: number; invalidCount: number }[];
        assert.equal(
            report.validCount,
            files.reduce((n, f) => n + f.validCount, 0),
        );
        assert.equal(
            report.invalidCount,
            files.reduce((n, f) => n + f.invalidCount, 0),
        );
        const clean = await cli(["check", "f0.sourcecheck.json", "f1.sourcecheck.json"], dir);
        assert.equal(clean.status, 0);
        assert.match(clean.stdout, /^2 files, 7 annotations: 7 valid, 0 invalid \(exit 0\)$/m);
    });

    it("writes the same report whatever the number of jobs, in every format", async () => {
        const dir = corpus();
        for (const format of ["json", "text", "sarif", "github"]) {
            const one = await cli(["check", "--format", format, "--jobs", "1", "."], dir);
            const three = await cli(["check", "--format", format, "--jobs", "3", "."], dir);
            assert.equal(three.stdout, one.stdout, format);
            assert.equal(three.status, one.status);
            if (format !== "text" && format !== "github") JSON.parse(one.stdout);
        }
    });

    it("stops at a file that fails, after the same output and with the same error, whatever the number of jobs", async () => {
        const dir = tempDir();
        const files: Record<string, string> = { "doc.md": DOC };
        for (let i = 0; i < 40; i++)
            files[`f${String(i).padStart(2, "0")}.sourcecheck.json`] = annotations("doc.md", 3);
        write(dir, files);
        const jobs: FileJob[] = Object.keys(files)
            .filter((name) => name.endsWith(".json"))
            .map((name) => ({ path: path.join(dir, name), shown: name, root: dir, named: true, sourceRoot: dir }));
        // No document root: reading its first document throws a TypeError, an internal error.
        jobs[13] = { ...jobs[13], root: undefined as unknown as string };
        const outcome = async (parallel: number) => {
            let out = "";
            const sink = { piece: (text: string) => (out += text), fileDone: () => (out += "|") };
            const error = await checkFiles(jobs, "json", parallel, sink).then(
                () => undefined,
                (e: Error) => e,
            );
            return { out, error };
        };
        const one = await outcome(1);
        assert.ok(one.error && !isCliError(one.error), "an internal error, not a check result");
        assert.match(one.error.message, /^f13\.sourcecheck\.json: /);
        assert.equal(one.out.split("|").length, 14, "the 13 files before it, then the start of its own output");
        for (const parallel of [2, 3]) {
            const many = await outcome(parallel);
            assert.equal(many.out, one.out, `--jobs ${parallel}`);
            assert.equal(many.error?.message, one.error.message);
            assert.equal(isCliError(many.error), false);
        }
    });

    it("keeps the one-file report shape for one FILE, as before", async () => {
        const dir = corpus();
        const report = JSON.parse((await cli(["check", "--json", "f4.sourcecheck.json"], dir)).stdout);
        // `coverage` joined the one-file shape (docs/contract.md, "Coverage"); nothing else changed.
        assert.deepEqual(Object.keys(report).sort(), [
            "coverage",
            "entries",
            "exitCode",
            "invalidCount",
            "ok",
            "schemaErrors",
            "validCount",
        ]);
        assert.equal(report.exitCode, 1);
        const folder = JSON.parse((await cli(["check", "--json", "sub"], dir)).stdout);
        assert.ok(Array.isArray(folder.files), "a folder always gives the files shape, even with one file in it");
    });

    it("streams: a file's entries are written while it is checked, not after", async () => {
        const dir = tempDir();
        write(dir, { "doc.md": DOC, "big.sourcecheck.json": annotations("doc.md", 20_000) });
        const run = await cli(["check", "--json", "big.sourcecheck.json"], dir);
        assert.ok(
            run.largestWrite * 4 < run.stdout.length,
            `${run.stdout.length} bytes, written in ${run.writes} pieces`,
        );
        assert.equal(JSON.parse(run.stdout).entries.length, 20_000);
    });
});

describe("workspaces: fast JSON entries", () => {
    it("serialise every report entry exactly as JSON.stringify does (fast-check over real check results)", () => {
        const word = fc.constantFrom("alpha", "beta", "gamma", "delta", "é", "中", '"q"', "\\", "a\tb");
        const boundary = fc.record({ line: fc.oneof(fc.integer({ min: 0, max: 4 }), fc.constant("2")), str: word });
        const randomRef = fc.record({ path: fc.constantFrom("d", "e", "missing"), start: boundary, end: boundary });
        const at = (path: string, line: number, start: string, end: string) => ({
            path,
            start: { line, str: start },
            end: { line, str: end },
        });
        const goodRef = fc.constantFrom(
            at("d", 1, "alpha", "beta"),
            at("d", 2, "gamma", "alpha"),
            at("d", 3, "中", "a\tb"),
            at("e", 1, "beta", "beta"),
        );
        const ref = fc.oneof(goodRef, randomRef);
        const meta = fc.oneof(
            fc.constant(undefined),
            fc.constant(null),
            fc.string(),
            fc.double(),
            fc.constantFrom("supports", "refutes"),
        );
        const source = fc
            .tuple(ref, meta, fc.oneof(fc.double({ min: 0, max: 1, noNaN: true }), meta))
            .map(([r, polarity, confidence]) => ({ ...r, polarity, confidence }));
        const annotation = fc.record({ claim: ref, sources: fc.array(source, { maxLength: 3 }) });
        let ran = 0;
        let entries = 0;
        let resolved = 0;
        fc.assert(
            fc.property(fc.array(annotation, { maxLength: 6 }), (list) => {
                ran++;
                const documents = [
                    { path: "d", content: 'alpha beta\ngamma delta alpha\né 中 "q" \\ a\tb\n' },
                    { path: "e", content: "beta\n" },
                ];
                const result = checkInput({ documents, annotations: list });
                for (const entry of result.report.entries) {
                    entries++;
                    for (const span of [entry.claim, ...entry.sources]) if (span.valid) resolved++;
                    assert.equal(entryJson(entry), JSON.stringify(entry));
                }
            }),
            { numRuns: 500 },
        );
        assert.equal(ran, 500);
        assert.ok(entries > 500, `${entries} entries compared`);
        assert.ok(resolved > 50, `${resolved} resolved spans took the fast path`);
    });
});

describe("workspaces: github format", () => {
    it("prints one workflow command per problem at 1-based line and column, escaped", async () => {
        const dir = tempDir();
        write(dir, { "doc.md": DOC, "a,b:c%.sourcecheck.json": annotations("doc.md", 2, true) });
        const text = await cli(["check", "."], dir);
        const github = await cli(["check", "--format", "github", "."], dir);
        assert.equal(github.status, 1);
        const commands = github.stdout.split("\n").filter((line) => line.startsWith("::"));
        assert.equal(commands.length, 1);
        const [located] = text.stdout.split("\n").filter((line) => line.includes("boundary-not-found"));
        const [, line, col] = /:(\d+):(\d+): boundary-not-found/.exec(located) ?? [];
        assert.equal(
            commands[0],
            `::error file=a%2Cb%3Ac%25.sourcecheck.json,line=${line},col=${col},endLine=${line},endColumn=${Number(col) + 9},title=sourcecheck boundary-not-found::start boundary "missing" does not occur on line 2 of "doc.md"`,
        );
        assert.equal(escapeData("50%\r\nnext"), "50%25%0D%0Anext");
        assert.equal(escapeProperty("a:b,c"), "a%3Ab%2Cc");
    });
});

describe("workspaces: streaming in bounded memory", function () {
    this.timeout(120_000);
    const cliJs = path.join(repo, "dist/cli.js");

    /** A workload whose JSON report is far larger than the heap the run may use. */
    function heavy(): { dir: string; annotations: number } {
        const dir = tempDir();
        const lines = [];
        for (let i = 0; i < 200; i++) lines.push(`start${i} ${"lorem ipsum ".repeat(250)}end${i}`);
        const list = [];
        const count = 22_000;
        for (let i = 0; i < count; i++) {
            const n = i % 200;
            const ref = {
                path: "doc.md",
                start: { line: n + 1, str: `start${n}` },
                end: { line: n + 1, str: `end${n}` },
            };
            list.push({ claim: ref, sources: [{ ...ref, polarity: "supports", confidence: 1 }] });
        }
        write(dir, { "doc.md": lines.join("\n"), "big.sourcecheck.json": JSON.stringify({ annotations: list }) });
        return { dir, annotations: count };
    }

    function bytesOut(args: string[], cwd: string): Promise<{ status: number | null; bytes: number; stderr: string }> {
        return new Promise((resolve) => {
            const child = spawn(process.execPath, ["--max-old-space-size=40", cliJs, ...args], { cwd });
            let bytes = 0;
            let stderr = "";
            child.stdout.on("data", (chunk: Buffer) => {
                bytes += chunk.length;
            });
            child.stderr.on("data", (chunk: Buffer) => {
                stderr += chunk;
            });
            child.on("close", (status) => resolve({ status, bytes, stderr }));
        });
    }

    it("writes a JSON report several times larger than the heap it may use (--max-old-space-size=40)", async () => {
        if (!fs.existsSync(cliJs)) throw new Error("run node scripts/build.mjs first: this test runs dist/cli.js");
        const { dir } = heavy();
        const single = await bytesOut(["check", "--json", "big.sourcecheck.json"], dir);
        assert.equal(single.status, 0, single.stderr);
        assert.ok(single.bytes > 120 * 1024 * 1024, `${single.bytes} bytes`);
        const many = await bytesOut(["check", "--json", "--jobs", "1", "."], dir);
        assert.equal(many.status, 0, many.stderr);
        assert.ok(many.bytes > single.bytes);
        // Two such files on two threads: the one not yet being written waits, never held whole.
        fs.copyFileSync(path.join(dir, "big.sourcecheck.json"), path.join(dir, "big2.sourcecheck.json"));
        const two = await bytesOut(["check", "--json", "--jobs", "2", "."], dir);
        assert.equal(two.status, 0, two.stderr);
        assert.ok(two.bytes > 2 * single.bytes, `${two.bytes} bytes`);
    });
});
