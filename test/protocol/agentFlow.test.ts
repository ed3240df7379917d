/**
 * The agent flow of issue 33, counted (docs/agents.md, "One pass"): a scripted agent drives
 * `sourcecheck mcp` through the SDK's own client, cites an answer of 28 sentences over 7 documents
 * (one in Chinese), then recovers after the sources are edited. The agent is deterministic and uses
 * only what it wrote (the answer's sentences, and a translation of a sentence when a result says the
 * corpus holds another script) and what the tools answer: hits' texts and marked sentences, check's
 * report, repair's next steps. What the test knows besides (which document holds each fact) is used
 * only to judge the agent's work afterwards. Issue 44's slips are counted too: a retried annotate (reported
 * present), an off-by-one replace (refused with replace-mismatch), a paraphrase cited from a passage below
 * the floor, drift accepted per annotation after the check says to lock a source re-cited as refuting;
 * each asserts that no false annotation is left behind. A claim no passage says is recorded as
 * searched with no source found (`unsourced`), and the check reports it apart from the uncovered.
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { repoRoot } from "./harness";

const cliBundle = path.join(repoRoot, "dist", "cli.js");
const fixture = path.join(repoRoot, "test", "fixtures", "agent-flow");
const FILE = "answer.sourcecheck.json";

/** The agent's own translations, asked for only when a result says the corpus holds another script. */
const TRANSLATIONS: Record<string, string> = {
    "In a survey of developers in China, 78% of teams finished setup within ten minutes.":
        "百分之七十八的团队在十分钟内完成了安装配置",
    "Harbor will ship a graphical query builder in the next release.": "Harbor 下一个版本将提供图形化查询构建器",
};

/** The judge's key (never shown to the agent): the document and words each claim's source must hold. */
const KEY: [claimWords: string, path: string, fact: string][] = [
    ["40% faster", "sources/release-notes.md", "40%"],
    ["Dead-letter", "sources/release-notes.md", "replayed"],
    ["Tiered storage", "sources/release-notes.md", "seven days"],
    ["Java 17", "sources/release-notes.md", "Java 17"],
    ["2.x protocol", "sources/release-notes.md", "2.x"],
    ["1.8 million", "sources/benchmarks.md", "1.8 million"],
    ["4 milliseconds", "sources/benchmarks.md", "4 milliseconds"],
    ["TLS", "sources/benchmarks.md", "12 percent"],
    ["900 milliseconds", "sources/benchmarks.md", "900"],
    ["list topic names", "sources/security-advisory.md", "topic names"],
    ["CVE-2024-31337", "sources/security-advisory.md", "CVE-2024-31337"],
    ["3.1.5", "sources/security-advisory.md", "3.1.5"],
    ["localhost", "sources/security-advisory.md", "localhost"],
    ["is deprecated", "sources/migration-guide.md", "deprecated"],
    ["30 June 2025", "sources/migration-guide.md", "30 June 2025"],
    ["cursor-based", "sources/migration-guide.md", "cursor-based"],
    ["OAuth", "sources/migration-guide.md", "OAuth 2.0"],
    ["72 hours", "sources/operations.md", "72 hours"],
    ["90 days", "sources/operations.md", "90 days"],
    ["15 minutes", "sources/operations.md", "15 minutes"],
    ["2 TB", "sources/operations.md", "40 minutes"],
    ["9404", "sources/operations.md", "9404"],
    ["10,000", "sources/operations.md", "10,000"],
    ["Starter", "sources/pricing.md", "49 dollars"],
    ["Business plan", "sources/pricing.md", "99.95%"],
    ["3 dollars", "sources/pricing.md", "3 dollars"],
    ["78%", "sources/survey-zh.md", "百分之七十八"],
];
const UNSOURCED = "graphical query builder";

interface Hit {
    path: string;
    text: string;
    sentence?: { index: number; length: number };
}
interface SpanEntry {
    valid: boolean;
    path?: string;
    text?: string;
    warnings?: { code: string; lockedText?: string; text?: string }[];
    polarity?: string;
}
interface CheckReport {
    exitCode: number;
    /** Each entry names its annotation from 1 (the check tool never gives a 0-based index). */
    entries: { annotation: number; valid: boolean; claim: SpanEntry; sources: SpanEntry[] }[];
}
interface Remaining {
    annotation: number;
    role: "claim" | "source";
    source?: number;
    code: string;
    next: { action: string };
}

/** A client that counts its calls, by tool. */
class CountingAgent {
    readonly calls: string[] = [];
    constructor(private readonly client: Client) {}
    async call<T>(name: string, args: Record<string, unknown>): Promise<{ result: CallToolResult; data: T }> {
        this.calls.push(name);
        const result = (await this.client.callTool({ name, arguments: args })) as CallToolResult;
        return { result, data: result.structuredContent as T };
    }
    since(mark: number): number {
        return this.calls.length - mark;
    }
}

/** The words of a text that are numbers (what a claim's fact most often hangs on). */
function numbers(text: string): string[] {
    return text.match(/\d+(?:[.,]\d+)*/g) ?? [];
}

describe("agent flow over MCP, counted (issue 33)", function () {
    this.timeout(240000);
    let root: string;
    let client: Client;
    let agent: CountingAgent;
    let cached: string;

    before(async () => {
        root = fs.mkdtempSync(path.join(os.tmpdir(), "sourcecheck-agent-flow-"));
        fs.cpSync(fixture, root, { recursive: true });
        cached = fs.mkdtempSync(path.join(os.tmpdir(), "sourcecheck-agent-flow-cache-"));
        const transport = new StdioClientTransport({
            command: process.execPath,
            args: [cliBundle, "mcp", "--root", root],
            stderr: "pipe",
            env: { ...(process.env as Record<string, string>), XDG_CACHE_HOME: cached },
        });
        client = new Client({ name: "sourcecheck-agent-flow", version: "1.0.0" });
        await client.connect(transport);
        agent = new CountingAgent(client);
    });

    after(async () => {
        await client?.close();
        for (const dir of [root, cached]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
    });

    async function check(): Promise<CheckReport> {
        const { result, data } = await agent.call<CheckReport>("check", { file: FILE });
        assert.equal(result.isError, undefined, JSON.stringify(result.content));
        return data;
    }

    /** The hit's marked sentence, or its whole text when it is one sentence. */
    function quoteOf(hit: Hit): string {
        return hit.sentence ? hit.text.slice(hit.sentence.index, hit.sentence.index + hit.sentence.length) : hit.text;
    }

    it("cites 27 claims over 7 documents in at most 2.2 calls per annotation, abstaining where no source says it", async () => {
        const claims = fs
            .readFileSync(path.join(root, "answer.md"), "utf8")
            .split("\n")
            .filter((line) => line !== "" && !line.startsWith("#"));
        assert.equal(claims.length, 28);
        const annotations: { claim: { path: string; quote: string }; sources: Record<string, unknown>[] }[] = [];
        for (const claim of claims) {
            let { data } = await agent.call<{ hits: Hit[]; note?: string }>("evidence", {
                query: claim,
                answer: "answer.md",
                topK: 1,
            });
            // The result says the corpus holds text in another script: ask again in its language.
            if (data.hits.length === 0 && data.note && TRANSLATIONS[claim])
                ({ data } = await agent.call<{ hits: Hit[]; note?: string }>("evidence", {
                    query: TRANSLATIONS[claim],
                    answer: "answer.md",
                    topK: 1,
                }));
            const hit = data.hits[0];
            if (!hit) continue; // no source says it: left unannotated
            annotations.push({
                claim: { path: "answer.md", quote: claim },
                sources: [{ path: hit.path, quote: quoteOf(hit), polarity: "supports", confidence: 0.9 }],
            });
        }
        const written = await agent.call<{ written: boolean }>("annotate", { file: FILE, annotations, write: true });
        assert.equal(written.result.isError, undefined, JSON.stringify(written.result.content));
        assert.equal(written.data.written, true);
        let report = await check();
        assert.equal(report.exitCode, 0);

        // A retried call (the agent lost the answer): the equal annotation is reported present, not appended.
        const retried = await agent.call<{ present?: boolean; written: boolean; annotation?: number }>("annotate", {
            file: FILE,
            ...annotations[0],
            write: true,
        });
        assert.equal(retried.data.present, true, JSON.stringify(retried.result.content));
        assert.equal(retried.data.written, false);
        assert.equal(retried.data.annotation, 1);
        // An off-by-one replace (the agent counted from 0): refused, nothing written; then the right number.
        const fifth = annotations[4];
        const offByOne = await agent.call<{ error: { code: string } }>("annotate", {
            file: FILE,
            ...fifth,
            replace: 4,
            write: true,
        });
        assert.equal(offByOne.data.error.code, "replace-mismatch", JSON.stringify(offByOne.result.content));
        const right = await agent.call<{ present?: boolean; replaced?: boolean }>("annotate", {
            file: FILE,
            ...fifth,
            replace: 5,
            write: true,
        });
        assert.equal(right.result.isError, undefined, JSON.stringify(right.result.content));
        const after = await check();
        assert.deepEqual(
            after.entries.map((e) => [e.annotation, e.claim.text, e.sources.map((src) => src.text)]),
            report.entries.map((e) => [e.annotation, e.claim.text, e.sources.map((src) => src.text)]),
            "no annotation added, moved or changed by the retry and the off-by-one replace",
        );
        report = after;
        const lock = await agent.call<{ written: boolean }>("lock", { file: FILE, write: true });
        assert.equal(lock.data.written, true, JSON.stringify(lock.result.content));

        // Judged with the key: every answerable claim cited from the document that holds its fact.
        assert.equal(report.entries.length, KEY.length, "27 annotations; the unsourced sentence left out");
        for (const [claimWords, expectedPath, fact] of KEY) {
            const entry = report.entries.find((e) => e.claim.text?.includes(claimWords));
            assert.ok(entry, `no annotation for "${claimWords}"`);
            assert.equal(entry.sources[0].path, expectedPath, claimWords);
            assert.ok(entry.sources[0].text?.includes(fact), `${claimWords}: ${entry.sources[0].text}`);
        }
        assert.ok(!report.entries.some((e) => e.claim.text?.includes(UNSOURCED)));
        // The retry, the off-by-one replace, its correction and the check after them are the slips' cost.
        const perAnnotation = (agent.calls.length - 4) / report.entries.length;
        assert.ok(perAnnotation <= 2.2, `${agent.calls.length} calls for ${report.entries.length}: ${agent.calls}`);
        console.log(`      citing: ${agent.calls.length} calls for ${report.entries.length} annotations`);
    });

    it("recovers after the sources are edited in at most one call per drifted ref", async () => {
        const edit = (file: string, change: (text: string) => string) => {
            const at = path.join(root, file);
            const before = fs.readFileSync(at, "utf8");
            const after = change(before);
            assert.notEqual(after, before, `the edit of ${file} changed nothing`);
            fs.writeFileSync(at, after);
        };
        // Lines inserted above every cited line.
        edit("sources/release-notes.md", (t) =>
            t.replace("\n\n## Highlights", "\n\nReleased on 2 May 2024.\n\n## Highlights"),
        );
        // A section moved below the next one.
        edit("sources/operations.md", (t) => {
            const backups = t.slice(t.indexOf("## Backups"), t.indexOf("## Monitoring"));
            return `${t.replace(backups, "")}\n${backups.trimEnd()}\n`;
        });
        // A cited sentence deleted from its line.
        edit("sources/benchmarks.md", (t) =>
            t.replace("Sustained publish throughput reached 1.8 million messages per second. ", ""),
        );
        // A sentence reworded, its fact kept.
        edit("sources/pricing.md", (t) =>
            t.replace("49 dollars per month and includes", "49 dollars a month and includes"),
        );
        // A sentence reworded, its fact changed.
        edit("sources/migration-guide.md", (t) => t.replace("30 June 2025", "31 December 2025"));

        const mark = agent.calls.length;
        const first = await check();
        const drifted = driftedRefs(first);
        assert.ok(drifted.length >= 10, `${drifted.length} drifted refs: ${JSON.stringify(drifted)}`);

        // Certain repairs applied at once; the rest come back with a next step each.
        const repair = await agent.call<{ remaining: Remaining[]; written: number }>("repair", {
            file: FILE,
            write: true,
        });
        assert.ok(repair.data.written > 0, JSON.stringify(repair.result.content));
        // From the last annotation back, so the numbers of those still to remove stay as reported.
        // A text changed under the lock (accept-text) is read below, not removed.
        const remaining = repair.data.remaining
            .filter((r) => r.next.action !== "accept-text")
            .sort((a, b) => b.annotation - a.annotation);
        for (const left of remaining) {
            // Its text is gone from the source: the claim has no source now, so the annotation goes.
            if (left.role === "source" && ["remove-source", "cite-again", "re-anchor"].includes(left.next.action)) {
                const removed = await agent.call("annotate", { file: FILE, remove: left.annotation, write: true });
                assert.equal(removed.result.isError, undefined, JSON.stringify(removed.result.content));
            } else assert.fail(`no step for ${JSON.stringify(left)}`);
        }
        // Text changed under a lock: keep it when the claim's numbers are still in the new text,
        // otherwise the source now says something else: cite it as refuting.
        const removedCount = remaining.length;
        const accept: number[] = [];
        let recitedNumber: number | undefined;
        for (const entry of first.entries) {
            const changed = entry.sources[0]?.warnings?.find((w) => w.code === "text-changed");
            if (!changed?.text || !entry.claim.text || remaining.some((r) => r.annotation === entry.annotation))
                continue;
            const kept = numbers(entry.claim.text).every((n) => changed.text?.includes(n));
            const number = entry.annotation - removedBefore(remaining, entry.annotation);
            accept.push(number);
            if (kept) continue;
            recitedNumber = number;
            const recited = await agent.call("annotate", {
                file: FILE,
                replace: { annotation: number, source: 1 },
                sources: [{ path: entry.sources[0].path, quote: changed.text, polarity: "refutes", confidence: 0.9 }],
                write: true,
            });
            assert.equal(recited.result.isError, undefined, JSON.stringify(recited.result.content));
        }
        // The check now says to lock the source re-cited as refuting (not to re-cite it again, in a loop).
        const advice = await agent.call("check", { file: FILE });
        const adviceText = (advice.result.content as { text: string }[])[0].text;
        assert.match(
            adviceText,
            new RegExp(
                `annotation ${recitedNumber} cites the changed text as refuting: .*accept: \\[${recitedNumber}\\]`,
            ),
        );
        // Accepted per annotation: only those whose new text the agent read and judged.
        const accepted = await agent.call<{ written: boolean; accepted: number }>("lock", {
            file: FILE,
            accept,
            write: true,
        });
        assert.equal(accepted.data.written, true, JSON.stringify(accepted.result.content));
        assert.equal(accepted.data.accepted, accept.length, JSON.stringify(accepted.result.content));
        const last = await check();

        assert.equal(last.exitCode, 0);
        assert.deepEqual(driftedRefs(last), [], "nothing fails or drifts any more");
        assert.equal(last.entries.length, KEY.length - removedCount);
        assert.ok(removedCount >= 1, "the deleted sentence's annotation is gone");
        const deadline = last.entries.find((e) => e.claim.text?.includes("30 June 2025"));
        assert.equal(deadline?.sources[0].polarity, "refutes");
        assert.ok(deadline?.sources[0].text?.includes("31 December 2025"));
        const calls = agent.since(mark);
        console.log(
            `      recovery: ${calls} calls for ${drifted.length} drifted refs (${agent.calls.slice(mark).join(", ")})`,
        );
        assert.ok(
            calls <= drifted.length,
            `${calls} calls for ${drifted.length} drifted refs: ${agent.calls.slice(mark).join(", ")}`,
        );
    });

    it("cites a paraphrased claim from a passage below the floor, and records an unsupported one as searched", async () => {
        fs.cpSync(
            path.join(repoRoot, "test", "fixtures", "evidence-paraphrases", "corpus"),
            path.join(root, "tessera"),
            {
                recursive: true,
            },
        );
        const paraphrase = "API calls do not go through the CDN; they end at load balancers in each region.";
        const unsupported = "Tessera offers a command-line client for Linux.";
        fs.writeFileSync(path.join(root, "tessera", "answer.md"), `# Tessera\n\n${paraphrase}\n${unsupported}\n`);
        // The agent's own reading of a passage (what a model judges): the words that would say its claim.
        const says: Record<string, string> = { [paraphrase]: "bypasses the CDN", [unsupported]: "command-line" };
        const file = "tessera/answer.sourcecheck.json";
        const mark = agent.calls.length;
        for (const claim of [paraphrase, unsupported]) {
            const { data } = await agent.call<{ hits: Hit[]; belowFloor?: Hit[] }>("evidence", {
                query: claim,
                corpus: "tessera",
                answer: "tessera/answer.md",
            });
            if (claim === paraphrase) assert.equal(data.hits.length, 0, "the paraphrase holds too few words for a hit");
            const passages = [...data.hits, ...(data.belowFloor ?? [])];
            const sentence = passages
                .flatMap((p) => p.text.split(/(?<=\.)\s+/).map((text) => ({ path: p.path, text })))
                .find((s) => s.text.includes(says[claim]));
            if (!sentence) {
                // Judged: no passage says it. Recorded as searched with no source found, never annotated.
                const recorded = await agent.call<{ unsourced: number; written: boolean }>("annotate", {
                    file,
                    claim: { path: "tessera/answer.md", quote: claim },
                    unsourced: true,
                    write: true,
                });
                assert.deepEqual([recorded.data.unsourced, recorded.data.written], [1, true]);
                continue;
            }
            const written = await agent.call("annotate", {
                file,
                claim: { path: "tessera/answer.md", quote: claim },
                sources: [{ path: sentence.path, quote: sentence.text, polarity: "supports", confidence: 0.8 }],
                write: true,
            });
            assert.equal(written.result.isError, undefined, JSON.stringify(written.result.content));
        }
        const { data, result } = await agent.call<
            CheckReport & {
                coverage: { documents: { path: string; unsourced: number; unsourcedLines: unknown[] }[] };
            }
        >("check", { file });
        assert.equal(data.exitCode, 0);
        // The check tells the claim searched with no source found from one never looked at (the heading).
        const [answer] = data.coverage.documents;
        assert.deepEqual(
            [answer.path, answer.unsourced, answer.unsourcedLines],
            ["tessera/answer.md", 1, [{ line: 4, of: 1 }]],
        );
        const text = (result.content as { text: string }[])[0].text;
        assert.match(
            text,
            /coverage: "tessera\/answer\.md": 1 of 3 sentences no claim covers, line 1; 1 searched with no source found, line 4\./,
        );
        assert.deepEqual(
            data.entries.map((e) => [e.claim.text, e.sources.map((src) => [src.path, src.text])]),
            [
                [
                    paraphrase,
                    [
                        [
                            "tessera/architecture.md",
                            "API traffic bypasses the CDN and terminates at the regional load balancers.",
                        ],
                    ],
                ],
            ],
            "the paraphrase cited from its passage below the floor; no false annotation for the unsupported claim",
        );
        const calls = agent.since(mark);
        console.log(`      below the floor: ${calls} calls for 2 claims, 1 annotation, 1 recorded unsourced`);
        assert.equal(calls, 5, agent.calls.slice(mark).join(", "));
    });
});

/** The refs a check reports failing or changed since locked. */
function driftedRefs(report: CheckReport): string[] {
    const found: string[] = [];
    for (const entry of report.entries) {
        const spans = [entry.claim, ...entry.sources];
        spans.forEach((span, at) => {
            if (!span.valid || span.warnings?.some((w) => w.code === "text-changed"))
                found.push(`${entry.annotation}:${at === 0 ? "claim" : `source ${at}`}`);
        });
    }
    return found;
}

/** How many annotations before number `n` (from 1) the agent removed. */
function removedBefore(remaining: readonly Remaining[], n: number): number {
    return remaining.filter((r) => r.annotation < n).length;
}
