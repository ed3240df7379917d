/**
 * Hardening: resource bounds and linear-time matching (docs/security.md, "Resource bounds").
 * Quadratic and exponential corners are tested by what they compute on inputs that took minutes
 * before (a mocha timeout is the failure), never by timing.
 */
import * as assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { PageFetcher } from "../../server/src/cli/quoteCli";
import type { PageText } from "../../server/src/core/pageSources";
import { checkQuotesLive, liveSummary } from "../../server/src/quotes/live";
import { parseNotes } from "../../server/src/quotes/notes";
import { compileGlob, GlobError, matchSegments, segmentMatches } from "../../server/src/workspace/globs";
import { nodeProjectConfigs } from "../../server/src/workspace/nodeConfigs";
import { parseProjectConfig } from "../../server/src/workspace/projectConfig";
import { runCli, runCliAsync } from "./cliRun";

function tempDir(): string {
    return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "sourcecheck-bounds-")));
}

/** An independent oracle for `*`/`?` segments: plain recursion with memo (quadratic, fine for tests). */
function oracle(pattern: string, name: string): boolean {
    const memo = new Map<string, boolean>();
    const go = (p: number, n: number): boolean => {
        const key = `${p},${n}`;
        const known = memo.get(key);
        if (known !== undefined) return known;
        let result: boolean;
        if (p === pattern.length) result = n === name.length;
        else if (pattern[p] === "*") result = go(p + 1, n) || (n < name.length && go(p, n + 1));
        else result = n < name.length && (pattern[p] === "?" || pattern[p] === name[n]) && go(p + 1, n + 1);
        memo.set(key, result);
        return result;
    };
    return go(0, 0);
}

describe("hardening: globs without exponential backtracking", () => {
    it("matches *a*a*a*a*a*a*a*a*b against long near-miss names at once, and correctly", () => {
        const matches = compileGlob("*a*a*a*a*a*a*a*a*b");
        assert.equal(matches("a".repeat(255)), false);
        assert.equal(matches(`${"a".repeat(254)}b`), true);
        assert.equal(matches(`dir/${"a".repeat(200)}`), false);
        const deep = compileGlob("**/*a*a*a*a*a*a*a*a*b/**/x.json");
        assert.equal(deep(`${"a/".repeat(100)}aaaaaaaab/q/x.json`), true);
        assert.equal(deep(`${"aaaaaaaa/".repeat(60)}x.json`), false);
    });

    it("agrees with an independent oracle on generated segments (counted cases)", () => {
        let cases = 0;
        const alphabet = ["a", "b", "*", "?"];
        for (let length = 0; length <= 5; length++) {
            const patterns = length === 0 ? [""] : [];
            const grow = (prefix: string) => {
                if (prefix.length === length) return void patterns.push(prefix);
                for (const c of alphabet) grow(prefix + c);
            };
            if (length > 0) grow("");
            for (const pattern of patterns) {
                for (const name of ["a", "b", "ab", "ba", "aab", "abab", "bbb", "aaaa", "abba"]) {
                    assert.equal(segmentMatches(pattern, name, true), oracle(pattern, name), `${pattern} ${name}`);
                    cases++;
                }
            }
        }
        assert.ok(cases > 10_000, `${cases} cases`);
    });

    it("the fast paths for `**` then a name (and a last `**`) agree with the general match on generated paths (counted cases)", () => {
        let cases = 0;
        let matched = 0;
        const names = ["a", ".a", "b.md", "node_modules", ".", "..", "", "x.lock.json"];
        const paths: string[] = [];
        const grow = (prefix: string[], depth: number) => {
            if (prefix.length > 0) paths.push(prefix.join("/"));
            if (depth === 0) return;
            for (const name of names) grow([...prefix, name], depth - 1);
        };
        grow([], 3);
        for (const name of ["*", "*.md", "node_modules", ".a", "a", "*.lock.json", "?", ".*", "*a*"]) {
            for (const pattern of [`**/${name}`, `**/${name}/**`]) {
                for (const dot of [true, false]) {
                    const fast = compileGlob(pattern, { dot });
                    const segments = pattern.split("/");
                    for (const path of paths) {
                        const expected = matchSegments(segments, path, dot);
                        assert.equal(fast(path), expected, `${pattern} dot=${dot} ${JSON.stringify(path)}`);
                        if (expected) matched++;
                        cases++;
                    }
                }
            }
        }
        assert.ok(cases > 10_000 && matched > 1_000, `${cases} cases, ${matched} matched`);
    });

    it("refuses many wildcards beside glob syntax with a clear error (CLI --exclude: exit 2; config: an error on its token)", () => {
        assert.throws(() => compileGlob("{x,y}*a*a*a*b"), GlobError);
        const dir = tempDir();
        fs.writeFileSync(path.join(dir, "a.sourcecheck.json"), '{"annotations": []}');
        const run = runCli(["check", "--exclude", "{x,y}*a*a*a*b", "."], { cwd: dir });
        assert.equal(run.status, 2, run.stderr);
        assert.match(run.stderr, /wildcards in one path segment/);
        const load = parseProjectConfig(path.join(dir, "sourcecheck.config.json"), '{"exclude": ["[ab]*a*a*a*b"]}');
        assert.equal(load.ok, false);
        if (!load.ok) assert.match(load.problem.message, /exclude: the glob .* has 4 wildcards/);
        // The plain pattern is fine in a configuration: it is matched in linear time.
        const plain = parseProjectConfig(
            path.join(dir, "sourcecheck.config.json"),
            '{"exclude": ["*a*a*a*a*a*a*a*a*b"]}',
        );
        assert.equal(plain.ok, true);
    });
});

describe("hardening: configuration bounds", () => {
    it("a configuration nested 100,000 deep or with 200,000 globs is an error on its path, not a crash", () => {
        const file = "/x/sourcecheck.config.json";
        const deep = parseProjectConfig(file, `{"exclude": ${"[".repeat(100_000)}${"]".repeat(100_000)}}`);
        assert.equal(deep.ok, false);
        if (!deep.ok) assert.match(deep.problem.message, /nested more than 32 levels/);
        const many = parseProjectConfig(file, JSON.stringify({ exclude: Array(200_000).fill("*.md") }));
        assert.equal(many.ok, false);
        if (!many.ok) assert.match(many.problem.message, /over 1024 KiB|at most 1000 globs/);
        const thousand = parseProjectConfig(file, JSON.stringify({ exclude: Array(1001).fill("*.md") }));
        assert.equal(thousand.ok, false);
        if (!thousand.ok) assert.match(thousand.problem.message, /at most 1000 globs/);
    });

    it("a sourcecheck.config.json that is a directory or a FIFO is an error on its path, never silently ignored", () => {
        for (const kind of ["directory", "fifo"]) {
            const dir = tempDir();
            const config = path.join(dir, "sourcecheck.config.json");
            if (kind === "directory") fs.mkdirSync(config);
            else execFileSync("mkfifo", [config]);
            fs.writeFileSync(path.join(dir, "a.sourcecheck.json"), '{"annotations": []}');
            const load = nodeProjectConfigs().forFile(path.join(dir, "a.sourcecheck.json"));
            assert.ok(load && !load.ok, kind);
            if (load && !load.ok)
                assert.match(load.problem.message, /configuration file is (a directory|not a regular file)/);
            const run = runCli(["check", "a.sourcecheck.json"], { cwd: dir });
            assert.equal(run.status, 2, `${kind}: ${run.stdout}${run.stderr}`);
            assert.match(run.stderr, /sourcecheck\.config\.json/);
        }
    });
});

describe("hardening: --jobs bounds", () => {
    it("a non-integer, zero, or non-digit --jobs is a usage error (exit 2); a huge one is capped, not a crash", () => {
        const dir = tempDir();
        fs.writeFileSync(path.join(dir, "a.sourcecheck.json"), '{"annotations": []}');
        fs.writeFileSync(path.join(dir, "b.sourcecheck.json"), '{"annotations": []}');
        for (const bad of ["1.5", "0", "1e9", "abc", "", "0x10", "12345678901234567890"]) {
            const run = runCli(["check", "--jobs", bad, "."], { cwd: dir });
            assert.equal(run.status, 2, `--jobs ${JSON.stringify(bad)}`);
            assert.match(run.stderr, /--jobs must be a whole number/);
        }
    });
});

describe("hardening: occurrence lists are capped", () => {
    it('an ambiguous "a" on a 5 MB line lists the first 100 columns and counts all 5,000,000', () => {
        const content = "a".repeat(5_000_000);
        const input = {
            documents: [{ path: "long", content }],
            annotations: [
                { claim: { path: "long", start: { line: 1, str: "a" }, end: { line: 1, str: "a" } }, sources: [] },
            ],
        };
        const run = runCli(["check", "--json", "-"], { cwd: os.tmpdir(), stdin: JSON.stringify(input) });
        const error = JSON.parse(run.stdout).entries[0].claim.error;
        assert.equal(error.code, "boundary-ambiguous");
        assert.equal(error.occurrences.length, 100);
        assert.equal(error.occurrenceCount, 5_000_000);
        assert.match(error.message, /occurs 5,000,000 times on line 1 of "long" \(first at columns 1, 2, 3, .* …\)/);
        assert.ok(run.stdout.length < 100_000, `${run.stdout.length} characters of output`);
    });
});

describe("hardening: notes records are streamed, not held", () => {
    it("prints exactly the report the whole-array check makes (text and JSON), pages from a stub", async () => {
        const records: string[] = [];
        for (let i = 0; i < 3000; i++) {
            const quote = i % 3 === 0 ? "sky is blue" : i % 3 === 1 ? `words ${i % 11}` : "absent";
            records.push(`claim: Claim ${i}\nquote: ${quote}\nurl: https://example.org/p${i % 5}\n`);
        }
        const text = records.join("\n# a comment\n\n");
        const dir = tempDir();
        fs.writeFileSync(path.join(dir, "n.txt"), text);
        // p0..p2 answer; p3 and p4 are unavailable.
        const pages: Record<string, string> = {
            "https://example.org/p0": "The sky is blue. words 1 words 4",
            "https://example.org/p1": "words 2 words 3 words 7",
            "https://example.org/p2": "nothing here",
        };
        const asked: string[] = [];
        const fetcher: PageFetcher = async (url) => {
            asked.push(url);
            const page = pages[url];
            return page === undefined
                ? { ok: false, code: "HTTP_STATUS_404", message: "HTTP 404" }
                : { ok: true, text: page };
        };
        const run = (args: string[]) => runCliAsync(["notes", ...args], { cwd: dir, fetchPage: fetcher });
        // The oracle: every citation parsed at once, checked at once, printed at once.
        const all = new Map<string, PageText>(
            Object.entries(pages).map(([url, page]) => [url, { ok: true, text: page }]),
        );
        for (const url of ["https://example.org/p3", "https://example.org/p4"])
            all.set(url, { ok: false, code: "HTTP_STATUS_404", message: "HTTP 404" });
        const { report } = checkQuotesLive(parseNotes(text).citations, all);
        assert.ok(report.matched_count > 0 && report.matched_count < report.citation_count);
        const json = await run(["--json", "n.txt"]);
        assert.equal(json.status, 2);
        assert.equal(json.stdout, `${JSON.stringify(report, null, 2)}\n`);
        const plain = await run(["n.txt"]);
        let expected = `${liveSummary(report, "quotes")}\n`;
        for (const item of report.items) {
            expected += `  n.txt:${item.line} ${item.ok ? "PASS" : "FAIL"} ${item.url}\n`;
            for (const code of item.diagnostics) expected += `    [${code}]${item.message ? ` ${item.message}` : ""}\n`;
        }
        assert.equal(plain.stdout, expected);
        assert.equal(asked.length, 10, "each page fetched once per run");
    });

    it("notes on 300,000 records runs in a 64 MB heap (the records and their output were all held at once)", function () {
        this.timeout(180_000);
        const dir = tempDir();
        const records: string[] = [];
        // Port 9 is refused by the fetch guard before any connection: nothing is fetched.
        for (let i = 0; i < 300_000; i++)
            records.push(`claim: Claim ${i}\nquote: words ${i}\nurl: http://127.0.0.1:9/p${i % 10}\n`);
        fs.writeFileSync(path.join(dir, "n.txt"), records.join("\n"));
        const out = fs.openSync(path.join(dir, "out.json"), "w");
        const bin = path.resolve(__dirname, "../../../bin/sourcecheck.js");
        const run = spawnSync(process.execPath, ["--max-old-space-size=64", bin, "notes", "--json", "n.txt"], {
            cwd: dir,
            stdio: ["ignore", out, "pipe"],
            encoding: "utf8",
        });
        fs.closeSync(out);
        assert.equal(run.status, 2, run.stderr.slice(0, 500));
        const report = JSON.parse(fs.readFileSync(path.join(dir, "out.json"), "utf8"));
        assert.equal(report.citation_count, 300_000);
        assert.equal(report.items.length, 300_000);
        assert.equal(report.items[299_999].line, 300_000 * 4 - 2);
        assert.deepEqual(report.items[0].diagnostics, ["INVALID_OR_BLOCKED_URL"]);
    });
});
