import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import fc from "fast-check";
import { main } from "../../server/src/cli";
import type { CliIo } from "../../server/src/cli/commands";
import { buildSession, citeQuote, occursOnce, resolveRef, SessionDocument } from "../../server/src/core";

const repo = path.resolve(__dirname, "../../..");
const demo = path.join(repo, "examples/demo");
const answer = new SessionDocument("answer.md", fs.readFileSync(path.join(demo, "answer.md"), "utf8"));

/** Runs per property: 10,000 in CI; SOURCECHECK_FC_RUNS overrides it. */
const numRuns = Number(process.env.SOURCECHECK_FC_RUNS ?? 10_000);

function cited(document: SessionDocument, quote: string) {
    const result = citeQuote(document, quote);
    if (!result.ok) assert.fail(`expected a ref, got ${result.error.code}: ${result.error.message}`);
    return result;
}

describe("cite: a quote becomes the ref that cites exactly it", () => {
    it("cites a phrase of the demo answer with word-aligned boundaries", () => {
        const result = cited(answer, "cold-start latency by 37%");
        assert.deepEqual(result.ref, {
            path: "answer.md",
            start: { line: 3, str: "cold" },
            end: { line: 3, str: "37%" },
        });
        assert.equal(result.text, "cold-start latency by 37%");
    });

    it("cites a quote spanning lines, and the ref resolves to it", () => {
        const quote = "adds offline sync for mobile clients.\nEarly adopters";
        const result = cited(answer, quote);
        assert.equal(result.ref.start.line, 4);
        assert.equal(result.ref.end.line, 5);
        const resolved = resolveRef(buildSession([{ path: "answer.md", content: answer.content }]), result.ref);
        assert.ok(resolved.valid);
        assert.equal(resolved.text, quote);
    });

    it("accepts CRLF in a quote and ignores surrounding whitespace", () => {
        const result = cited(answer, "  \r\nadds offline sync for mobile clients.\r\nEarly adopters\n");
        assert.equal(result.text, "adds offline sync for mobile clients.\nEarly adopters");
    });

    it("reports an ambiguous quote with the line of every occurrence, never guessing", () => {
        const result = citeQuote(answer, "release");
        assert.equal(result.ok, false);
        if (result.ok) return;
        assert.equal(result.error.code, "quote-ambiguous");
        assert.deepEqual(result.error.lines, [4, 7, 7]);
        assert.match(result.error.message, /3 times/);
    });

    it("reports a quote that is not verbatim in the document", () => {
        for (const quote of ["cold start latency", "Orbit 2.5", "", "   \n "]) {
            const result = citeQuote(answer, quote);
            assert.equal(result.ok, false, quote);
            if (result.ok) continue;
            assert.equal(result.error.code, "quote-not-found");
            assert.deepEqual(result.error.lines, []);
        }
    });

    it("offers an uncertain near match for a misquote: case, typographic dashes, rewrapped lines, a dropped word", () => {
        const cases: [string, string][] = [
            ["Cold-Start latency by 37%", "cold-start latency by 37%"],
            ["cold\u2011start latency by 37%", "cold-start latency by 37%"],
            [
                "adds offline sync for mobile clients. Early adopters",
                "adds offline sync for mobile clients.\nEarly adopters",
            ],
            ["adds offline sync for the mobile clients", "adds offline sync for mobile clients"],
        ];
        for (const [quote, meant] of cases) {
            const result = citeQuote(answer, quote);
            assert.equal(result.ok, false, quote);
            if (result.ok) continue;
            assert.equal(result.error.code, "quote-not-found");
            assert.equal(result.candidates?.length, 1, quote);
            const candidate = result.candidates![0];
            assert.deepEqual([candidate.certain, candidate.reason, candidate.text], [false, "misquote", meant]);
            const resolved = resolveRef(buildSession([{ path: "answer.md", content: answer.content }]), candidate.ref);
            assert.ok(resolved.valid && resolved.text === meant, quote);
            assert.ok(result.error.message.includes("uncertain"));
        }
    });

    it("snaps a Chinese near match to the quoted characters, as an English one to the quoted words (issue 29)", () => {
        // Every Han character is a word (core/words.ts): a one-character slip must not widen the
        // candidate to the whole run of Han characters before it, a clause the quote never held.
        const document = new SessionDocument(
            "zh.md",
            "第一段。系统启动时我们使用缓存策略来减少重复的网络请求，并且记录每一次失败的日志。\nWhen the system starts we use a cache policy to reduce repeated network requests, and log every failure.",
        );
        const pairs: [string, string][] = [
            ["我们使用缓存策咯来减少重复的网络请求", "我们使用缓存策略来减少重复的网络请求"],
            ["使用缓存策略来减少重复的网络请求并", "使用缓存策略来减少重复的网络请求"],
            [
                "we use a cache polcy to reduce repeated network requests",
                "we use a cache policy to reduce repeated network requests",
            ],
        ];
        for (const [quote, meant] of pairs) {
            const result = citeQuote(document, quote);
            assert.equal(result.ok, false, quote);
            if (!result.ok) assert.equal(result.candidates?.[0]?.text, meant, quote);
        }
    });

    it("compares compatibility forms as the same text: full-width letters, digits and punctuation (NFKC)", () => {
        const document = new SessionDocument("w.md", "Intro.\nThe API returns 200 OK, then closes.\n");
        const result = citeQuote(document, "The ＡＰＩ returns ２００ ＯＫ，");
        assert.equal(result.ok, false);
        if (!result.ok) assert.equal(result.candidates?.[0]?.text, "The API returns 200 OK,");
    });

    it("offers nothing when no single region is clearly meant, or the quote is too short to tell", () => {
        const document = new SessionDocument("d", "The quick brown fox jumps.\nThe quick brown fox jumps!\n");
        for (const quote of ["the quick brown fox jumps", "zzzzzzzzzzzzzzzzzzzzzz", "Tha"]) {
            const result = citeQuote(document, quote);
            assert.equal(result.ok, false, quote);
            if (!result.ok) assert.equal(result.candidates, undefined, quote);
        }
    });

    it("is ambiguous when the quote is unique but its edge repeats on its line", () => {
        // "ab" starts the quote, and the rest of line 1 from there ("ab") occurs twice on the line.
        const document = new SessionDocument("d", "ab ab\nxyz");
        const result = citeQuote(document, "ab\nxyz");
        assert.equal(result.ok, false);
        if (!result.ok) {
            assert.equal(result.error.code, "quote-ambiguous");
            assert.deepEqual(result.error.lines, [1]);
        }
    });

    it("never cuts a surrogate pair", () => {
        const document = new SessionDocument("d", "a😀b");
        const lowHalf = "😀".slice(1);
        const result = citeQuote(document, `${lowHalf}b`);
        assert.equal(result.ok, false);
        if (!result.ok) assert.equal(result.error.code, "quote-not-found");
    });

    it("uses character-level boundaries only when asked", () => {
        const words = cited(answer, "under ten minutes");
        assert.deepEqual([words.ref.start.str, words.ref.end.str], ["under", "minutes"]);
        const shortest = citeQuote(answer, "under ten minutes", { style: "shortest" });
        assert.ok(shortest.ok);
        if (shortest.ok) assert.ok(shortest.ref.start.str.length <= "under".length);
    });

    it("lists at most 100 lines for a quote occurring everywhere", () => {
        const document = new SessionDocument("d", "x\n".repeat(500));
        const result = citeQuote(document, "x");
        assert.equal(result.ok, false);
        if (!result.ok) {
            assert.equal(result.error.lines.length, 100);
            assert.match(result.error.message, /500 times/);
        }
    });
});

// A small alphabet makes repeats common; emoji and CJK exercise UTF-16.
const char = fc.constantFrom("a", "b", " ", "é", "中", "😀", "ab", "x");
const lineArb = fc.array(char, { minLength: 0, maxLength: 12 }).map((chars) => chars.join(""));
const contentArb = fc.array(lineArb, { minLength: 1, maxLength: 5 }).map((lines) => lines.join("\n"));

/** Every offset where `needle` starts in `text`, by comparing at each index (the oracle's own search). */
function naiveOccurrences(text: string, needle: string): number[] {
    const found: number[] = [];
    for (let i = 0; i + needle.length <= text.length; i++)
        if (text.slice(i, i + needle.length) === needle) found.push(i);
    return found;
}

/** 1-based line and column of an offset, by splitting the prefix (independent of LineIndex). */
function lineColumn(text: string, offset: number): { line: number; column: number } {
    const before = text.slice(0, offset).split("\n");
    return { line: before.length, column: before[before.length - 1].length };
}

function isLowSurrogate(code: number): boolean {
    return code >= 0xdc00 && code <= 0xdfff;
}

describe("cite properties (fast-check)", () => {
    it("every quote unique in its document resolves to exactly its span; repeated ones are ambiguous", () => {
        let citedCount = 0;
        let ambiguousCount = 0;
        let ran = 0;
        fc.assert(
            fc.property(contentArb, fc.nat(), fc.nat(), (content, a, b) => {
                ran++;
                const from = a % (content.length + 1);
                const to = from + (b % (content.length - from + 1));
                const quote = content.slice(from, to).trim();
                const document = new SessionDocument("d", content);
                const result = citeQuote(document, quote);
                if (quote.length === 0) {
                    assert.equal(result.ok, false);
                    return;
                }
                const occurrences = naiveOccurrences(content, quote);
                assert.ok(occurrences.length >= 1);
                if (occurrences.length > 1) {
                    assert.equal(result.ok, false);
                    if (!result.ok) {
                        assert.equal(result.error.code, "quote-ambiguous");
                        assert.deepEqual(
                            result.error.lines,
                            occurrences.slice(0, 100).map((at) => lineColumn(content, at).line),
                        );
                    }
                    ambiguousCount++;
                    return;
                }
                const at = occurrences[0];
                const end = at + quote.length;
                if (isLowSurrogate(content.charCodeAt(at)) || isLowSurrogate(content.charCodeAt(end))) {
                    assert.equal(result.ok, false);
                    return;
                }
                const start = lineColumn(content, at);
                const stop = lineColumn(content, end);
                const lines = content.split("\n");
                // A ref exists iff the longest possible boundary at each edge is unique on its line.
                const citable =
                    start.line === stop.line ||
                    (occursOnce(lines[start.line - 1], lines[start.line - 1].slice(start.column)) &&
                        occursOnce(lines[stop.line - 1], lines[stop.line - 1].slice(0, stop.column)));
                if (!citable) {
                    assert.equal(result.ok, false);
                    if (!result.ok) assert.deepEqual(result.error, { ...result.error, code: "quote-ambiguous" });
                    return;
                }
                assert.ok(result.ok, result.ok ? "" : result.error.message);
                if (!result.ok) return;
                const resolved = resolveRef(buildSession([{ path: "d", content }]), result.ref);
                assert.ok(resolved.valid);
                if (!resolved.valid) return;
                assert.equal(resolved.text, content.slice(at, end));
                assert.deepEqual(resolved.range, { start, end: stop });
                citedCount++;
            }),
            { numRuns },
        );
        assert.equal(ran, numRuns);
        // The generator must exercise both outcomes, or the property says little.
        assert.ok(citedCount > numRuns / 10, `only ${citedCount} quotes cited`);
        assert.ok(ambiguousCount > numRuns / 20, `only ${ambiguousCount} ambiguous quotes`);
    });
});

interface Run {
    status: number;
    stdout: string;
    stderr: string;
}

async function cli(args: string[], stdin?: string): Promise<Run> {
    let stdout = "";
    let stderr = "";
    const io: CliIo = {
        cwd: repo,
        stdout: (t) => {
            stdout += t;
        },
        stderr: (t) => {
            stderr += t;
        },
        readStdin: () => Buffer.from(stdin ?? ""),
        stdinIsPiped: stdin !== undefined,
        version: "test",
    };
    const status = await main(args, io);
    return { status, stdout, stderr };
}

describe("cli: cite", () => {
    it("prints the ref as one JSON line, exit 0", async () => {
        const run = await cli(["cite", "--root", demo, "answer.md", "cold-start latency by 37%"]);
        assert.equal(run.status, 0);
        assert.deepEqual(JSON.parse(run.stdout), {
            path: "answer.md",
            start: { line: 3, str: "cold" },
            end: { line: 3, str: "37%" },
        });
    });

    it("--json prints { ref, text }", async () => {
        const run = await cli(["cite", "--json", "--root", demo, "answer.md", "under ten minutes"]);
        assert.equal(run.status, 0);
        const json = JSON.parse(run.stdout);
        assert.deepEqual(Object.keys(json).sort(), ["exitCode", "ok", "ref", "text"]);
        assert.deepEqual([json.ok, json.exitCode], [true, 0], "the one --json envelope");
        assert.equal(json.text, "under ten minutes");
    });

    it("--json prints { error } and exits 1 for an ambiguous or missing quote", async () => {
        const ambiguous = await cli(["cite", "--json", "--root", demo, "answer.md", "release"]);
        assert.equal(ambiguous.status, 1);
        assert.deepEqual(JSON.parse(ambiguous.stdout).error.lines, [4, 7, 7]);
        assert.equal(JSON.parse(ambiguous.stdout).error.code, "quote-ambiguous");
        // What to do next is data (docs/contract.md, "Next steps"): quote again, from the first occurrence.
        assert.deepEqual(JSON.parse(ambiguous.stdout).error.next, { action: "cite-again", path: "answer.md", line: 4 });
        const missing = await cli(["cite", "--json", "--root", demo, "answer.md", "Orbit 9"]);
        assert.equal(missing.status, 1);
        assert.deepEqual(JSON.parse(missing.stdout), {
            // `lines` only where there are occurrences, as the cite tools answer (one operation).
            error: {
                code: "quote-not-found",
                message: JSON.parse(missing.stdout).error.message,
                next: { action: "cite-again", path: "answer.md" },
            },
            ok: false,
            exitCode: 1,
        });
        const near = await cli(["cite", "--json", "--root", demo, "answer.md", "Under Ten Minutes"]);
        assert.equal(near.status, 1);
        const nearJson = JSON.parse(near.stdout);
        assert.equal(nearJson.error.code, "quote-not-found");
        assert.equal(nearJson.candidates[0].text, "under ten minutes");
        assert.equal(nearJson.candidates[0].certain, false);
        const candidateLine = nearJson.candidates[0].ref.start.line;
        assert.deepEqual(nearJson.error.next, {
            action: "choose-candidate",
            path: "answer.md",
            line: candidateLine,
            candidates: 1,
        });
        const text = await cli(["cite", "--root", demo, "answer.md", "Orbit 9"]);
        assert.equal(text.status, 1);
        assert.equal(text.stdout, "");
        assert.match(text.stderr, /^sourcecheck: quote-not-found: /);
    });

    it("reads a multi-line quote from stdin with -", async () => {
        const run = await cli(["cite", "--root", demo, "answer.md", "-"], "for mobile clients.\nEarly adopters\n");
        assert.equal(run.status, 0);
        assert.equal(JSON.parse(run.stdout).end.line, 5);
    });

    it("exits 2 for paths outside the root, unreadable documents and bad usage", async () => {
        const outside = await cli(["cite", "--json", "--root", demo, "../../package.json", "name"]);
        assert.equal(outside.status, 2);
        assert.equal(JSON.parse(outside.stdout).error.code, "path-outside-root");
        const absolute = await cli(["cite", "--root", demo, path.join(repo, "package.json"), "name"]);
        assert.equal(absolute.status, 2);
        assert.match(absolute.stderr, /path-outside-root/);
        const missing = await cli(["cite", "--json", "--root", demo, "nope.md", "x"]);
        assert.equal(missing.status, 2);
        assert.equal(JSON.parse(missing.stdout).error.code, "unreadable-document");
        assert.deepEqual(JSON.parse(missing.stdout).error.next, { action: "fix-path", path: "nope.md" });
        assert.equal((await cli(["cite", "--root", demo, "answer.md"])).status, 2);
        assert.equal((await cli(["cite", "--bogus", "answer.md", "x"])).status, 2);
    });

    it("refuses a symlink leading out of the root", async () => {
        const root = fs.mkdtempSync(path.join(os.tmpdir(), "sourcecheck-cite-"));
        const outside = fs.mkdtempSync(path.join(os.tmpdir(), "sourcecheck-secret-"));
        fs.writeFileSync(path.join(outside, "secret.md"), "top secret words\n");
        fs.symlinkSync(path.join(outside, "secret.md"), path.join(root, "link.md"));
        const run = await cli(["cite", "--json", "--root", root, "link.md", "secret"]);
        assert.equal(run.status, 2);
        assert.equal(JSON.parse(run.stdout).error.code, "path-outside-root");
        assert.ok(!run.stdout.includes("top secret"));
    });
});
