/**
 * Bounded echoes (docs/agents.md, "Bounded echoes") over `sourcecheck mcp` with the SDK's client:
 * every string argument of every tool, in turn, is replaced by hostile text (a megabyte of one
 * letter, text full of characters JSON escapes, many words), and no result, text and structured
 * content together, may exceed 8,000 characters. The cases are generated from the base calls and
 * counted, so a tool or a field added later is covered without a new line here.
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { copyDemo, repoRoot } from "./harness";

const LIMIT = 8000;
const cliBundle = path.join(repoRoot, "dist", "cli.js");

const ref = (path: string, line: number, start: string, end: string) => ({
    path,
    start: { line, str: start },
    end: { line, str: end },
});

/** One valid call per tool on the demo workspace; each string in it becomes hostile in turn. */
const BASE_CALLS: [string, Record<string, unknown>][] = [
    [
        "check",
        {
            annotations: [
                {
                    claim: ref("answer.md", 4, "The release", "clients."),
                    sources: [{ ...ref("sources/release-notes.md", 1, "#", "#"), polarity: "supports", confidence: 1 }],
                },
            ],
        },
    ],
    [
        "check",
        {
            documents: [{ path: "a.md", content: "alpha gamma beta" }],
            annotations: [
                {
                    claim: ref("a.md", 1, "alpha", "gamma"),
                    sources: [{ ...ref("a.md", 1, "beta", "beta"), polarity: "supports", confidence: 1 }],
                },
            ],
        },
    ],
    ["check", { file: "answer.sourcecheck.json" }],
    ["cite", { path: "answer.md", quote: "offline sync for mobile clients" }],
    [
        "annotate",
        {
            file: "hostile.sourcecheck.json",
            claim: { path: "answer.md", quote: "offline sync for mobile clients" },
            sources: [
                {
                    path: "sources/release-notes.md",
                    quote: "mobile clients now queue changes",
                    polarity: "supports",
                    confidence: 1,
                },
            ],
        },
    ],
    ["index", { path: "answer.md" }],
    ["evidence", { query: "offline sync for mobile clients" }],
    ["repair", { file: "answer.sourcecheck.json" }],
    ["lock", { file: "answer.sourcecheck.json" }],
];

/** Every path to a string in `value`, e.g. ["annotations", 0, "claim", "start", "str"]. */
function stringPaths(value: unknown, at: (string | number)[] = []): (string | number)[][] {
    if (typeof value === "string") return [at];
    if (typeof value !== "object" || value === null) return [];
    return Object.entries(value).flatMap(([key, item]) =>
        stringPaths(item, [...at, Array.isArray(value) ? Number(key) : key]),
    );
}

function withValue(value: unknown, at: (string | number)[], replacement: string): unknown {
    if (at.length === 0) return replacement;
    const copy = (Array.isArray(value) ? [...value] : { ...(value as object) }) as Record<string | number, unknown>;
    copy[at[0]] = withValue(copy[at[0]], at.slice(1), replacement);
    return copy;
}

/** The hostile texts for one field: as long as the tool accepts (and longer), escapes, many words. */
function hostile(original: string, field: string | number): string[] {
    const cap = field === "path" || field === "file" ? 4000 : field === "content" ? 1_000_000 : 99_000;
    const escapes = '"\\\n\t\u2028é𝄞'.repeat(Math.floor(cap / 8));
    return [
        "x".repeat(cap),
        escapes,
        `${original} ${"word ".repeat(Math.floor(cap / 5) - 1)}`,
        `${original}${"y".repeat(1_000_000)}`,
    ];
}

describe("mcp: no result echoes an input string whole (bounded echoes)", function () {
    this.timeout(240000);
    let root: string;
    let client: Client;

    before(async () => {
        root = copyDemo();
        const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), "sourcecheck-echo-cache-"));
        const transport = new StdioClientTransport({
            command: process.execPath,
            args: [cliBundle, "mcp", "--root", root],
            stderr: "pipe",
            env: { ...(process.env as Record<string, string>), XDG_CACHE_HOME: cacheDir },
        });
        client = new Client({ name: "sourcecheck-echo-test", version: "1.0.0" });
        await client.connect(transport);
    });

    after(async () => {
        await client?.close();
    });

    it(`every string argument of every tool made hostile: no result over ${LIMIT} characters`, async () => {
        let cases = 0;
        let largest = { size: 0, what: "" };
        const over: string[] = [];
        for (const [tool, base] of BASE_CALLS) {
            for (const at of stringPaths(base)) {
                const original = at.reduce<unknown>((v, k) => (v as Record<string | number, unknown>)[k], base);
                for (const text of hostile(original as string, at[at.length - 1])) {
                    const args = withValue(base, at, text) as Record<string, unknown>;
                    const result = await client.callTool({ name: tool, arguments: args });
                    const size = JSON.stringify(result).length;
                    const what = `${tool} ${at.join(".")} (${text.length.toLocaleString("en-US")} characters)`;
                    if (size > largest.size) largest = { size, what };
                    if (size > LIMIT) over.push(`${what}: ${size.toLocaleString("en-US")} characters`);
                    cases++;
                }
            }
        }
        // The resolved text of an inline document is the input itself: cut as an echo too.
        const inline = "alpha " + "z".repeat(1_000_000) + " beta";
        const resolved = await client.callTool({
            name: "check",
            arguments: {
                documents: [
                    { path: "a.md", content: inline },
                    { path: "b.md", content: "beta" },
                ],
                annotations: [
                    {
                        claim: ref("a.md", 1, "alpha", "beta"),
                        sources: [{ ...ref("b.md", 1, "beta", "beta"), polarity: "supports", confidence: 1 }],
                    },
                ],
            },
        });
        const resolvedSize = JSON.stringify(resolved).length;
        if (resolvedSize > LIMIT) over.push(`check of a 1 MB inline span: ${resolvedSize} characters`);
        assert.match(
            JSON.stringify(resolved.structuredContent),
            /alpha z+… \(/,
            "the resolved text is cut, not dropped",
        );
        cases++;
        assert.deepEqual(over, []);
        assert.ok(cases >= 100, `${cases} cases ran`);
        console.log(`      ${cases} hostile calls; largest result ${largest.size} characters (${largest.what})`);
    });
});
