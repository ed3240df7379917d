/**
 * `sourcecheck mcp` driven by the SDK's own client over stdio, as an agent's host would: the tools
 * listed with their schemas, every call answering what the CLI's `--json` answers, hostile paths and
 * arguments turned into tool errors with stable codes, and the server still answering afterwards.
 */
import * as assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { main } from "../../server/src/cli";
import type { CliIo } from "../../server/src/cli/commands";
import { toolList } from "../../server/src/mcp/toolList";
import { copyDemo, repoRoot } from "./harness";

const cliBundle = path.join(repoRoot, "dist", "cli.js");
const SECRET = "outside-the-root secret words";
const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), "sourcecheck-mcp-cache-"));

async function connect(root: string): Promise<{ client: Client; stderr: () => string }> {
    const transport = new StdioClientTransport({
        command: process.execPath,
        args: [cliBundle, "mcp", "--root", root],
        stderr: "pipe",
        // Evidence indexes go to the cache directory: a temporary one, not the user's.
        env: { ...(process.env as Record<string, string>), XDG_CACHE_HOME: cacheDir },
    });
    let stderr = "";
    transport.stderr?.on("data", (chunk: Buffer) => {
        stderr += chunk.toString();
    });
    const client = new Client({ name: "sourcecheck-protocol-test", version: "1.0.0" });
    await client.connect(transport);
    return { client, stderr: () => stderr };
}

/** The CLI run in-process with `--json`, for the answer the tool must match. */
/**
 * `check --json` as the check tool gives it to a model: each entry named by `annotation` from 1, not
 * by the 0-based `index` (docs/agents.md, "Numbers").
 */
function numberedFromOne(report: unknown): unknown {
    const { entries, ...rest } = report as { entries: ({ index: number } & Record<string, unknown>)[] };
    return { ...rest, entries: entries.map(({ index, ...entry }) => ({ annotation: index + 1, ...entry })) };
}

async function cliJson(args: string[], cwd: string): Promise<{ status: number; json: unknown; stdout: string }> {
    let stdout = "";
    const io: CliIo = {
        cwd,
        stdout: (t) => {
            stdout += t;
        },
        stderr: () => undefined,
        readStdin: () => Buffer.alloc(0),
        stdinIsPiped: false,
        version: "test",
    };
    const status = await main(args, io);
    let json: unknown;
    try {
        json = JSON.parse(stdout);
    } catch {
        json = undefined;
    }
    // The CLI's envelope (docs/cli.md: `ok`, `exitCode`, the exit status) is its own: the tools leave it out.
    if (json && typeof json === "object" && "exitCode" in json && !("entries" in json) && !("files" in json)) {
        const { ok, exitCode, ...rest } = json as Record<string, unknown>;
        assert.deepEqual([ok, exitCode], [status === 0, status], "the --json envelope names the exit status");
        json = rest;
    }
    return { status, json, stdout };
}

async function call(client: Client, name: string, args: unknown): Promise<CallToolResult> {
    return (await client.callTool({ name, arguments: args as Record<string, unknown> })) as CallToolResult;
}

function errorCode(result: CallToolResult): string {
    assert.equal(result.isError, true, JSON.stringify(result));
    const structured = result.structuredContent as { error: { code: string; message: string } };
    assert.ok(structured.error.message.length > 0);
    const text = (result.content[0] as { text: string }).text;
    assert.ok(text.startsWith(`${structured.error.code}: `), text);
    return structured.error.code;
}

function assertNoSecret(result: CallToolResult): void {
    assert.ok(!JSON.stringify(result).includes(SECRET), "content from outside the root leaked");
}

describe("mcp: sourcecheck mcp over stdio with the SDK client", function () {
    this.timeout(60000);
    let root: string;
    let client: Client;
    let stderr: () => string;

    before(async () => {
        root = copyDemo();
        const outside = fs.mkdtempSync(path.join(fs.realpathSync(os.tmpdir()), "sourcecheck-mcp-outside-"));
        fs.writeFileSync(path.join(outside, "secret.md"), `${SECRET}\n`);
        fs.writeFileSync(
            path.join(outside, "secret.sourcecheck.json"),
            JSON.stringify({ annotations: [], note: SECRET }),
        );
        fs.symlinkSync(path.join(outside, "secret.md"), path.join(root, "link.md"));
        fs.symlinkSync(outside, path.join(root, "linkdir"));
        fs.writeFileSync(path.join(root, "binary.md"), Buffer.from([0x61, 0x00, 0x62]));
        fs.writeFileSync(path.join(root, "latin1.md"), Buffer.from([0x63, 0x61, 0x66, 0xe9]));
        execFileSync("mkfifo", [path.join(root, "pipe.md")]);
        fs.writeFileSync(
            path.join(root, "long.md"),
            Array.from({ length: 5000 }, (_, i) => `line ${i + 1}`).join("\n"),
        );
        ({ client, stderr } = await connect(root));
    });

    after(async () => {
        await client?.close();
    });

    it("lists the tools, each with an input and an output schema", async () => {
        const { tools } = await client.listTools();
        const names = tools.map((tool) => tool.name).sort();
        assert.deepEqual(names, ["annotate", "check", "cite", "evidence", "import", "index", "lock", "repair"]);
        for (const tool of tools) {
            assert.equal(tool.inputSchema.type, "object", tool.name);
            assert.equal(tool.outputSchema?.type, "object", tool.name);
            assert.ok((tool.description ?? "").length > 80, tool.name);
        }
        const cite = tools.find((tool) => tool.name === "cite");
        assert.deepEqual(cite?.inputSchema.required, ["path", "quote"]);
        // Output schemas are trimmed to field names and types (docs/agents.md, "Output schemas"): the
        // whole listing was 25 KB, 15 KB of it output schemas restating refs and report entries.
        const outputChars = tools.reduce((sum, tool) => sum + JSON.stringify(tool.outputSchema).length, 0);
        // annotate's several annotations and source edits added about 0.4 KB of fields (docs/agents.md).
        // lock's changed, unresolved and per-ref next step (one lock operation, numbers from 1) about 0.2 KB.
        // cite's and annotate's errors name the quote (role, source, pointer) and the next step: about 0.45 KB.
        // annotate's present flag and its cited annotation (numbers from 1, no index): about 0.03 KB.
        // import's result (the contract's `import --json` and written): about 0.9 KB.
        // evidence's passages below the floor listed with a hit's fields (they come with their text): 0.2 KB.
        // check's coverage (by sentence, with the unsourced list) and annotate's unsourced entry: 0.2 KB.
        assert.ok(outputChars < 10_700, `${outputChars} characters of output schemas`);
        // The lock tool (docs/lock.md) adds about 1 KB to the listing, annotate's several annotations,
        // source-level replace and remove and force about 2 KB more; the fields of ref errors and warnings
        // the schemas lacked while the types had them (test/unit/toolSchemaTypes.ts) 0.1 KB, cite's and
        // annotate's error places and next steps 0.45 KB: 23 KB in all. The import tool adds 2.4 KB: 25.3 KB.
        // Descriptions that say what a model needs, the rest left to the schemas (issue 44): 1.3 KB less, 24.3 KB
        // (bench/agents.mjs records the size).
        assert.ok(JSON.stringify(tools).length < 24_500, `${JSON.stringify(tools).length} characters listed`);
        const evidence = tools.find((tool) => tool.name === "evidence")?.outputSchema as unknown as {
            anyOf: { properties: Record<string, { items?: { properties?: Record<string, unknown> } }> }[];
        };
        const [success, failure] = evidence.anyOf;
        assert.deepEqual(Object.keys(success.properties).sort(), [
            "belowFloor",
            "cutAt",
            "floor",
            "hits",
            "maxChars",
            "message",
            "note",
            "rejected",
            "rejectedOmitted",
            "searched",
            "topK",
            "truncatedHits",
        ]);
        assert.ok(success.properties.hits.items?.properties?.text, "a hit's fields are listed");
        assert.ok(failure.properties.error, "the error branch is listed");
        assert.ok(!JSON.stringify(tools.map((tool) => tool.outputSchema)).includes("additionalProperties"));
        assert.equal(client.getInstructions()?.includes("cite"), true);
    });

    it("lists exactly the tools made from the zod schemas, though the build wrote the list in (scripts/build.mjs)", async () => {
        const { tools } = await client.listTools();
        assert.deepEqual(JSON.parse(JSON.stringify(tools)), JSON.parse(JSON.stringify(toolList())));
    });

    it("cite answers what `sourcecheck cite --json` answers, success and failure", async () => {
        for (const quote of [
            "cold-start latency by 37%",
            "adds offline sync for mobile clients.\nEarly adopters",
            "release",
            "not in the answer",
            "Under Ten Minutes",
        ]) {
            const result = await call(client, "cite", { path: "answer.md", quote });
            const expected = await cliJson(["cite", "--json", "--root", root, "answer.md", quote], root);
            assert.deepEqual(result.structuredContent, expected.json, quote);
            assert.equal(result.isError === true, expected.status !== 0, quote);
        }
        const misquoted = await call(client, "cite", { path: "answer.md", quote: "Under Ten Minutes" });
        assert.equal(errorCode(misquoted), "quote-not-found");
        const candidates = (misquoted.structuredContent as { candidates: { text: string; certain: boolean }[] })
            .candidates;
        assert.deepEqual(
            candidates.map((c) => [c.text, c.certain]),
            [["under ten minutes", false]],
        );
        const ambiguous = await call(client, "cite", { path: "answer.md", quote: "release" });
        assert.equal(errorCode(ambiguous), "quote-ambiguous");
        assert.deepEqual((ambiguous.structuredContent as { error: { lines: number[] } }).error.lines, [4, 7, 7]);
    });

    it("check answers what `sourcecheck check --json` answers, for a file and for inline annotations", async () => {
        const result = await call(client, "check", { file: "answer.sourcecheck.json" });
        const expected = await cliJson(["check", "--json", "--root", root, "answer.sourcecheck.json"], root);
        assert.equal(result.isError, undefined);
        assert.deepEqual(result.structuredContent, numberedFromOne(expected.json));
        assert.ok(!JSON.stringify(result.structuredContent).includes('"index"'), "no 0-based index for a model");
        assert.equal((result.structuredContent as { exitCode: number }).exitCode, 1);

        const annotations = JSON.parse(fs.readFileSync(path.join(root, "answer.sourcecheck.json"), "utf8"));
        const list = Array.isArray(annotations) ? annotations : annotations.annotations;
        const inline = await call(client, "check", { annotations: list });
        assert.deepEqual(inline.structuredContent, numberedFromOne(expected.json));

        const embedded = await call(client, "check", {
            annotations: [
                {
                    claim: { path: "a", start: { line: 1, str: "37%" }, end: { line: 1, str: "37%" } },
                    sources: [
                        {
                            path: "b",
                            start: { line: 1, str: "delta" },
                            end: { line: 1, str: "-37%" },
                            polarity: "supports",
                            confidence: 0.9,
                        },
                    ],
                },
            ],
            documents: [
                { path: "a", content: "latency down 37%" },
                { path: "b", content: "delta: -37%" },
            ],
        });
        assert.equal((embedded.structuredContent as { exitCode: number }).exitCode, 0);
        const schema = await call(client, "check", { annotations: [{ claim: 3 }] });
        assert.equal((schema.structuredContent as { exitCode: number }).exitCode, 2);
    });

    it("index answers the CLI's numbered lines, a range of them, and cuts a long document", async () => {
        const whole = await call(client, "index", { path: "answer.md" });
        const expected = await cliJson(["index", "answer.md"], root);
        assert.equal(`${(whole.content[0] as { text: string }).text}\n`, expected.stdout);
        const range = await call(client, "index", { path: "answer.md", startLine: 3, endLine: 4 });
        const structured = range.structuredContent as { lines: { line: number; text: string }[]; lineCount: number };
        assert.deepEqual(
            structured.lines.map((l) => l.line),
            [3, 4],
        );
        assert.equal(structured.lines[0].text, fs.readFileSync(path.join(root, "answer.md"), "utf8").split("\n")[2]);
        const long = await call(client, "index", { path: "long.md" });
        const cut = long.structuredContent as { endLine: number; truncated: boolean; lineCount: number };
        assert.equal(cut.truncated, true);
        assert.equal(cut.lineCount, 5000);
        assert.ok(cut.endLine < 5000);
        assert.match((long.content[0] as { text: string }).text, new RegExp(`startLine ${cut.endLine + 1}`));
        assert.equal(errorCode(await call(client, "index", { path: "answer.md", startLine: 99 })), "line-out-of-range");
        assert.equal(
            errorCode(await call(client, "index", { path: "answer.md", startLine: 4, endLine: 2 })),
            "invalid-arguments",
        );
    });

    it("hostile paths are tool errors with their code, and nothing from outside the root comes back", async () => {
        const cases: [string, string][] = [
            ["../secret.md", "path-outside-root"],
            ["/etc/passwd", "path-outside-root"],
            ["~/secret.md", "path-outside-root"],
            ["file:///etc/passwd", "path-outside-root"],
            ["C:\\Windows\\win.ini", "path-outside-root"],
            ["sources/../../secret.md", "path-outside-root"],
            ["link.md", "path-outside-root"],
            ["linkdir/secret.md", "path-outside-root"],
            ["linkdir/secret.sourcecheck.json", "path-outside-root"],
            ["a\0b", "path-outside-root"],
            ["sources", "unreadable-document"],
            ["pipe.md", "unreadable-document"],
            ["binary.md", "unreadable-document"],
            ["latin1.md", "unreadable-document"],
            ["missing.md", "unreadable-document"],
        ];
        for (const [hostile, code] of cases) {
            const cite = await call(client, "cite", { path: hostile, quote: "secret" });
            assert.equal(errorCode(cite), code, `cite ${hostile}`);
            assertNoSecret(cite);
            const index = await call(client, "index", { path: hostile });
            assert.equal(errorCode(index), code, `index ${hostile}`);
            assertNoSecret(index);
            const check = await call(client, "check", { file: hostile });
            assert.equal(errorCode(check), code, `check ${hostile}`);
            assertNoSecret(check);
            const repair = await call(client, "repair", { file: hostile, write: true });
            assert.equal(errorCode(repair), code, `repair ${hostile}`);
            assertNoSecret(repair);
        }
        // Refs inside a checked file obey the same safety: the report says so, and shows no content.
        const refs = await call(client, "check", {
            annotations: [
                {
                    claim: { path: "link.md", start: { line: 1, str: "secret" }, end: { line: 1, str: "words" } },
                    sources: [
                        {
                            path: "../secret.md",
                            start: { line: 1, str: "secret" },
                            end: { line: 1, str: "words" },
                            polarity: "supports",
                            confidence: 1,
                        },
                    ],
                },
            ],
        });
        assertNoSecret(refs);
        const entry = (refs.structuredContent as { entries: { claim: { error: { code: string } } }[] }).entries[0];
        assert.equal(entry.claim.error.code, "path-outside-root");
    });

    it("wrong types, missing and extra arguments, and unknown tools are tool errors with a code", async () => {
        const cases: [string, unknown][] = [
            ["cite", { path: 3, quote: "x" }],
            ["cite", { path: "answer.md" }],
            ["cite", { path: "answer.md", quote: "" }],
            ["cite", { path: "answer.md", quote: ["x"] }],
            ["cite", { path: "answer.md", quote: "x", extra: true }],
            ["index", { path: "answer.md", startLine: 0 }],
            ["index", { path: "answer.md", startLine: 1.5 }],
            ["index", { path: "answer.md", endLine: "3" }],
            ["index", {}],
            ["check", {}],
            ["check", { file: "answer.sourcecheck.json", annotations: [] }],
            ["check", { file: "answer.sourcecheck.json", documents: [] }],
            ["check", { annotations: "[]" }],
            ["check", { annotations: [], documents: [{ path: "a" }] }],
            ["repair", { file: "answer.sourcecheck.json", write: "yes" }],
            ["repair", {}],
            ["evidence", { query: "" }],
            ["evidence", { query: "latency", topK: 0 }],
            ["evidence", { query: "latency", topK: 21 }],
            ["evidence", { query: "latency", corpus: 7 }],
        ];
        for (const [name, args] of cases) {
            assert.equal(
                errorCode(await call(client, name, args)),
                "invalid-arguments",
                `${name} ${JSON.stringify(args)}`,
            );
        }
        assert.equal(errorCode(await call(client, "delete-everything", {})), "unknown-tool");
    });

    it("a huge argument is refused with a code, and the server keeps answering", async () => {
        const huge = "x".repeat(20 * 1024 * 1024);
        const result = await call(client, "cite", { path: "answer.md", quote: huge });
        assert.equal(errorCode(result), "invalid-arguments");
        const hugePath = await call(client, "index", { path: "a/".repeat(100_000) });
        assert.equal(errorCode(hugePath), "invalid-arguments");
        const after = await call(client, "cite", { path: "answer.md", quote: "under ten minutes" });
        assert.equal(after.isError, undefined);
    });

    it("answers concurrent calls, each with its own result", async () => {
        const quotes = ["cold-start latency", "offline sync", "under ten minutes", "Linux, macOS and Windows"];
        const sequential: CallToolResult[] = [];
        for (const quote of quotes) sequential.push(await call(client, "cite", { path: "answer.md", quote }));
        const calls = Array.from({ length: 60 }, (_, i) => {
            if (i % 5 === 4) return call(client, "check", { file: "answer.sourcecheck.json" });
            if (i % 7 === 6) return call(client, "cite", { path: "../secret.md", quote: "secret" });
            return call(client, "cite", { path: "answer.md", quote: quotes[i % quotes.length] });
        });
        const results = await Promise.all(calls);
        results.forEach((result, i) => {
            if (i % 5 === 4) assert.equal((result.structuredContent as { exitCode: number }).exitCode, 1);
            else if (i % 7 === 6) assert.equal(errorCode(result), "path-outside-root");
            else assert.deepEqual(result, sequential[i % quotes.length]);
        });
    });

    it("evidence answers what `sourcecheck evidence --json` answers, paths relative to the root", async () => {
        const query = "cold start latency benchmark";
        const whole = await call(client, "evidence", { query, topK: 3 });
        const expected = await cliJson(
            ["evidence", "--json", "--corpus", root, "--query", query, "--top-k", "3", "--index-dir", cacheDir],
            root,
        );
        assert.equal(whole.isError, undefined);
        assert.deepEqual(whole.structuredContent, expected.json);
        const hits = (whole.structuredContent as { hits: { path: string }[] }).hits;
        assert.ok(hits.length > 0, "the demo has evidence for cold-start latency");

        const folder = await call(client, "evidence", { query, corpus: "sources" });
        const inFolder = await cliJson(
            ["evidence", "--json", "--corpus", path.join(root, "sources"), "--query", query, "--index-dir", cacheDir],
            root,
        );
        type Hit = { path: string; ref: { path: string } | null; chunkRef: { path: string } | null };
        const prefixed = (inFolder.json as { hits: Hit[] }).hits.map((hit) => ({
            ...hit,
            path: `sources/${hit.path}`,
            ref: hit.ref && { ...hit.ref, path: `sources/${hit.ref.path}` },
            chunkRef: hit.chunkRef && { ...hit.chunkRef, path: `sources/${hit.chunkRef.path}` },
        }));
        assert.deepEqual((folder.structuredContent as { hits: Hit[] }).hits, prefixed);
        // A hit's ref can be used as it is: check resolves it under the root.
        const ref = (folder.structuredContent as { hits: Hit[] }).hits.find((hit) => hit.ref)?.ref;
        assert.ok(ref);
        const checked = await call(client, "check", {
            annotations: [{ claim: ref, sources: [{ ...ref, polarity: "supports", confidence: 1 }] }],
        });
        assert.equal((checked.structuredContent as { exitCode: number }).exitCode, 0);
    });

    it("evidence refuses a corpus outside the root or that is not a folder", async () => {
        for (const [corpus, code] of [
            ["..", "path-outside-root"],
            ["/etc", "path-outside-root"],
            ["linkdir", "path-outside-root"],
            ["answer.md", "unreadable-document"],
            ["missing", "unreadable-document"],
        ]) {
            const result = await call(client, "evidence", { query: "secret words", corpus });
            assert.equal(errorCode(result), code, corpus);
            assertNoSecret(result);
        }
    });

    it("logged nothing fatal, and still answers a ping after everything above", async () => {
        await client.ping();
        assert.ok(!/uncaught|unhandled/.test(stderr()), stderr());
    });
});

describe("mcp: the command line", function () {
    this.timeout(20000);

    it("refuses a root that is not a directory, with exit 2", () => {
        let status = 0;
        let stderr = "";
        try {
            execFileSync(process.execPath, [cliBundle, "mcp", "--root", path.join(repoRoot, "package.json")], {
                stdio: ["ignore", "pipe", "pipe"],
            });
        } catch (error) {
            status = (error as { status: number }).status;
            stderr = String((error as { stderr: Buffer }).stderr);
        }
        assert.equal(status, 2);
        assert.match(stderr, /not a directory/);
    });

    it("exits 0 when the client closes stdin", () => {
        const output = execFileSync(process.execPath, [cliBundle, "mcp", "--root", repoRoot], {
            input: "",
            stdio: ["pipe", "pipe", "pipe"],
        });
        assert.equal(output.length, 0);
    });
});

/** A ref resolved by the format's rules, independently of the server: the text it cites, or undefined. */
function resolveByHand(root: string, ref: { path: string; start: Boundary; end: Boundary }): string | undefined {
    const lines = fs.readFileSync(path.join(root, ref.path), "utf8").split("\n");
    const only = (line: string, str: string) => {
        const first = line.indexOf(str);
        return first !== -1 && line.indexOf(str, first + 1) === -1 ? first : -1;
    };
    const startLine = lines[ref.start.line - 1];
    const endLine = lines[ref.end.line - 1];
    if (startLine === undefined || endLine === undefined) return undefined;
    const from = only(startLine, ref.start.str);
    const to = only(endLine, ref.end.str);
    if (from === -1 || to === -1) return undefined;
    const span = lines.slice(ref.start.line - 1, ref.end.line).join("\n");
    const end = span.length - endLine.length + to + ref.end.str.length;
    return span.slice(from, end);
}

interface Boundary {
    line: number;
    str: string;
}

interface RepairJson {
    repairs: {
        pointer: string;
        reason: string;
        certain: boolean;
        before: { path: string; start: Boundary; end: Boundary };
        after: { path: string; start: Boundary; end: Boundary };
        text: string;
    }[];
    remaining: { annotation: number; role: string | number; code: string }[];
    written: number;
}

describe("mcp: repair proposes, and writes only certain repairs when asked", function () {
    this.timeout(60000);
    let root: string;
    let client: Client;

    before(async () => {
        root = copyDemo();
        ({ client } = await connect(root));
    });

    after(async () => {
        await client?.close();
    });

    it("after lines are inserted above cited text, the certain repairs cite the same text again", async () => {
        const file = path.join(root, "answer.sourcecheck.json");
        const notes = path.join(root, "sources", "release-notes.md");
        const annotations = (
            JSON.parse(fs.readFileSync(file, "utf8")) as {
                annotations: { sources: { path: string; start: Boundary; end: Boundary }[] }[];
            }
        ).annotations;
        const citedBefore = new Map<string, string | undefined>();
        for (const [a, annotation] of annotations.entries()) {
            for (const [index, source] of annotation.sources.entries()) {
                if (source.path === "sources/release-notes.md")
                    citedBefore.set(`/annotations/${a}/sources/${index}`, resolveByHand(root, source));
            }
        }
        fs.writeFileSync(notes, `Two lines inserted\nabove everything.\n${fs.readFileSync(notes, "utf8")}`);
        const original = fs.readFileSync(file, "utf8");

        const proposed = await call(client, "repair", { file: "answer.sourcecheck.json", detail: "full" });
        const json = proposed.structuredContent as unknown as RepairJson;
        assert.equal(json.written, 0);
        const cli = await cliJson(["repair", "--json", "--root", root, "answer.sourcecheck.json"], root);
        assert.deepEqual(json, cli.json, "repair answers what `sourcecheck repair --json` answers");
        assert.equal(fs.readFileSync(file, "utf8"), original, "proposing must not write");
        const shifted = json.repairs.filter((r) => r.certain && citedBefore.get(r.pointer) !== undefined);
        assert.ok(shifted.length >= 2, JSON.stringify(json.repairs.map((r) => [r.pointer, r.reason, r.certain])));
        for (const repair of shifted) {
            assert.equal(repair.reason, "line-shift");
            assert.equal(repair.after.start.line, repair.before.start.line + 2);
            assert.equal(resolveByHand(root, repair.after), citedBefore.get(repair.pointer));
            assert.equal(repair.text, citedBefore.get(repair.pointer));
        }

        const written = await call(client, "repair", { file: "answer.sourcecheck.json", write: true, detail: "full" });
        const after = written.structuredContent as unknown as RepairJson;
        const certain = after.repairs.filter((r) => r.certain);
        assert.equal(after.written, certain.length);
        const text = fs.readFileSync(file, "utf8");
        // Only the repaired values changed: the same lines, each equal but for its numbers and strings.
        const before = original.split("\n");
        const now = text.split("\n");
        assert.equal(now.length, before.length);
        const changed = now.filter((line, i) => line !== before[i]);
        assert.ok(changed.length > 0 && changed.length <= certain.length * 2, changed.join("\n"));
        // Every certain repair is in the file; every uncertain one is not.
        const value = JSON.parse(text);
        const at = (pointer: string) =>
            pointer
                .slice(1)
                .split("/")
                .reduce((node: Record<string, unknown>, key) => node[key] as Record<string, unknown>, value);
        for (const repair of after.repairs) {
            const ref = at(repair.pointer) as { start: Boundary; end: Boundary };
            if (repair.certain)
                assert.deepEqual(
                    { start: ref.start, end: ref.end },
                    { start: repair.after.start, end: repair.after.end },
                );
            else
                assert.deepEqual(
                    { start: ref.start, end: ref.end },
                    { start: repair.before.start, end: repair.before.end },
                );
        }
        const again = await call(client, "repair", { file: "answer.sourcecheck.json" });
        assert.equal((again.structuredContent as unknown as RepairJson).repairs.filter((r) => r.certain).length, 0);
    });

    it("keeps CRLF line endings and everything else of the file byte for byte", async () => {
        const file = path.join(root, "crlf.sourcecheck.json");
        // Distinctive boundaries one line off: a shift the engine is certain of.
        const ref = {
            path: "answer.md",
            start: { line: 5, str: "Early adopters in China" },
            end: { line: 5, str: "under ten minutes." },
        };
        const shiftedRef = { ...ref, start: { ...ref.start, line: 6 }, end: { ...ref.end, line: 6 } };
        const body = JSON.stringify(
            { annotations: [{ claim: shiftedRef, sources: [{ ...ref, polarity: "supports", confidence: 0.5 }] }] },
            null,
            "\t",
        ).replace(/\n/g, "\r\n");
        fs.writeFileSync(file, body);
        const result = await call(client, "repair", { file: "crlf.sourcecheck.json", write: true });
        const json = result.structuredContent as unknown as RepairJson;
        const text = fs.readFileSync(file, "utf8");
        assert.equal(json.written, 1, JSON.stringify(json));
        assert.match(text, /"line": 5,/);
        assert.doesNotMatch(text, /"line": 6,/);
        assert.equal(text.replace(/"line": \d+/g, ""), body.replace(/"line": \d+/g, ""));
        assert.ok(!/[^\r]\n/.test(text), "a line ending lost its CR");
    });
});

describe("mcp: locks (lock tool, drift in check)", function () {
    this.timeout(60000);

    it("lock writes only on request; check then reports text-changed on the changed ref only, as the CLI does", async () => {
        const root = copyDemo();
        const { client } = await connect(root);
        try {
            const lockFile = path.join(root, "answer.sourcecheck.lock.json");
            const dry = await call(client, "lock", { file: "answer.sourcecheck.json" });
            const dryJson = dry.structuredContent as {
                lock: string;
                locked: number;
                written: boolean;
                notLocked: unknown[];
            };
            assert.equal(dry.isError, undefined, JSON.stringify(dry));
            assert.equal(dryJson.lock, "answer.sourcecheck.lock.json");
            assert.equal(dryJson.written, false);
            assert.ok(!fs.existsSync(lockFile), "no write without write: true");
            const written = await call(client, "lock", { file: "answer.sourcecheck.json", write: true });
            assert.equal((written.structuredContent as { written: boolean }).written, true);
            const cliLock = await cliJson(["lock", "--json", "--root", root, "answer.sourcecheck.json"], root);
            assert.equal((cliLock.json as { exitCode: number }).exitCode, dryJson.notLocked.length > 0 ? 1 : 0);

            const value = JSON.parse(fs.readFileSync(path.join(root, "answer.sourcecheck.json"), "utf8"));
            const valid = (await call(client, "check", { file: "answer.sourcecheck.json" })).structuredContent as {
                entries: {
                    sources: { valid: boolean; path: string; text: string; range: { start: { line: number } } }[];
                }[];
                lock: { changed: number };
                exitCode: number;
                invalidCount: number;
            };
            assert.equal(valid.lock.changed, 0);
            // Change one word inside one cited source span.
            const target = valid.entries
                .flatMap((e) => e.sources)
                .find((s) => s.valid && /\w{4,} \w{4,}/.test(s.text))!;
            const word = target.text.match(/\w{4,}/g)!.at(-2)!;
            const docPath = path.join(root, target.path);
            const lines = fs.readFileSync(docPath, "utf8").split("\n");
            const lineIndex = target.range.start.line - 1;
            lines[lineIndex] = lines[lineIndex].replace(word, `${word}X`);
            fs.writeFileSync(docPath, lines.join("\n"));
            const after = await call(client, "check", { file: "answer.sourcecheck.json" });
            const report = after.structuredContent as {
                exitCode: number;
                entries: { sources: { warnings?: { code: string; lockedText: string; text: string }[] }[] }[];
                lock: { changed: number };
            };
            const cli = await cliJson(["check", "--json", "--root", root, "answer.sourcecheck.json"], root);
            assert.deepEqual(
                report.entries,
                (numberedFromOne(cli.json) as { entries: unknown }).entries,
                "check answers as the CLI, numbered from 1",
            );
            const warned = report.entries.flatMap((e) => e.sources).filter((s) => s.warnings);
            assert.ok(warned.length >= 1 && report.lock.changed === warned.length);
            for (const s of warned) {
                assert.equal(s.warnings![0].code, "text-changed");
                assert.ok(s.warnings![0].text.includes(`${word}X`) && !s.warnings![0].lockedText.includes(`${word}X`));
            }
            assert.equal(report.exitCode, valid.exitCode, "a warning leaves the exit status alone");
            const locked = (await call(client, "check", { file: "answer.sourcecheck.json", locked: true }))
                .structuredContent as { exitCode: number; invalidCount: number };
            assert.equal(locked.exitCode, 1);
            assert.ok(locked.invalidCount > valid.invalidCount, "--locked makes the changed annotation invalid");
            assert.ok(value.annotations.length > 0);

            fs.writeFileSync(lockFile, "{ broken");
            const bad = (await call(client, "check", { file: "answer.sourcecheck.json" })).structuredContent as {
                exitCode: number;
                lockError: { code: string };
            };
            assert.equal(bad.exitCode, 2);
            assert.equal(bad.lockError.code, "lock-invalid-json");
            assert.equal(
                errorCode(await call(client, "lock", { file: "answer.sourcecheck.json", write: true })),
                "invalid-lock",
            );
            assert.equal(fs.readFileSync(lockFile, "utf8"), "{ broken");
        } finally {
            await client.close();
        }
    });
});
