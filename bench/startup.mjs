// CLI start-up (docs/benchmarks.md): every command of `sourcecheck`, as a whole process through the
// installed entry point (bin/sourcecheck.js), on a tiny input, against a bare `node -e 0`. Both sides
// are spawned the same way and alternate (measure.mjs); the ratio is of medians. For `mcp`, the time
// is from spawning to the server's reply to `tools/list` after `initialize` over stdio (what a client
// does before it can call a tool; then stdin closes). A reported row without target gives the floor
// under `mcp`: a process that only loads the MCP SDK's server, bundled as the CLI bundles it.
// Nothing here reaches the network: the only URLs are loopback ones, refused by the CLI's guards
// before any connection (docs/security.md).
import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { sideBySide } from "./measure.mjs";

const repo = dirname(dirname(fileURLToPath(import.meta.url)));
const bin = join(repo, "bin", "sourcecheck.js");
export const STARTUP_TARGET = 1.5;

/** A tiny workspace: one document, one annotation file citing it, a trace, notes and a report. */
export function tinyWorkspace(dir) {
    mkdirSync(dir, { recursive: true });
    const file = (name, text) => writeFileSync(join(dir, name), text);
    file("doc.md", "# Notes\n\nThe cache makes cold start 37% faster.\nOffline sync arrives in 2.4.\n");
    file("answer.md", "Cold start is 37% faster.\n");
    const ref = (path, line, start, end) => ({ path, start: { line, str: start }, end: { line, str: end } });
    file(
        "answer.sourcecheck.json",
        `${JSON.stringify({
            annotations: [
                {
                    claim: ref("answer.md", 1, "Cold", "faster."),
                    sources: [{ ...ref("doc.md", 3, "The cache", "faster."), polarity: "supports", confidence: 0.9 }],
                },
            ],
        })}\n`,
    );
    file("facts.txt", "answer=42\n");
    const trace = (content) =>
        `${[
            { type: "tool_call", run_id: "r", call_id: "c1", tool: "read" },
            {
                type: "tool_result",
                run_id: "r",
                call_id: "c1",
                ok: true,
                sources: [{ id: "s1", uri: "file:facts.txt", title: "facts", content }],
            },
            {
                type: "answer",
                run_id: "r",
                claims: [{ text: "The answer is 42.", citations: [{ source_id: "s1", quote: "answer=42" }] }],
            },
        ]
            .map((event) => JSON.stringify(event))
            .join("\n")}\n`;
    file("trace.jsonl", trace("answer=42\n"));
    file("trace-new.jsonl", trace("answer=42\nchecked=yes\n"));
    file("notes.txt", "claim: c\nquote: some quoted words here\nurl: http://127.0.0.1/page\n");
    file("report.md", "# Report\n\n> Quote: “some quoted words”\n> Source: [page](http://127.0.0.1/page)\n");
    mkdirSync(join(dir, "corpus"), { recursive: true });
    writeFileSync(join(dir, "corpus", "a.md"), "# Cache\n\nThe cache makes cold start faster.\n");
    return dir;
}

/** Each command line of the registry and the first wave, on the tiny workspace (cwd). */
export const STARTUP_COMMANDS = [
    ["check", "answer.sourcecheck.json"],
    ["session", "doc.md"],
    ["validate", "session.json", "answer.sourcecheck.json"],
    ["index", "doc.md"],
    ["cite", "doc.md", "cold start 37%"],
    [
        "annotate",
        "answer.sourcecheck.json",
        "--claim",
        "answer.md",
        "37% faster",
        "--source",
        "supports",
        "0.9",
        "doc.md",
        "37% faster",
    ],
    ["mcp"],
    ["evidence", "--corpus", "corpus", "--query", "cache", "--index-dir", "evidence-index"],
    ["trace", "trace.jsonl"],
    ["trace", "verify-files", "trace.jsonl"],
    ["trace", "compare", "trace.jsonl", "trace-new.jsonl"],
    ["notes", "notes.txt"],
    ["report-check", "report.md"],
    ["convert", "trace.jsonl"],
    ["repair", "answer.sourcecheck.json"],
    ["lock", "answer.sourcecheck.json"],
    ["render", "-o", "answer.html", "answer.sourcecheck.json"],
];

/** Resolves with the process's exit code once it has exited. */
function runToExit(args, cwd) {
    return new Promise((resolve, reject) => {
        const child = spawn(process.execPath, args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
        let stderr = "";
        child.stdout.resume();
        child.stderr.on("data", (chunk) => {
            stderr += chunk;
        });
        child.on("error", reject);
        child.on("close", (code) =>
            code === 0 || code === 1 || code === 2 ? resolve(code) : reject(new Error(stderr)),
        );
    });
}

/** `sourcecheck mcp`: resolves at its reply to `tools/list`; the process is left to exit on its own. */
function mcpUntilToolsListed(cwd) {
    return new Promise((resolve, reject) => {
        const child = spawn(process.execPath, [bin, "mcp"], { cwd, stdio: ["pipe", "pipe", "inherit"] });
        let out = "";
        child.on("error", reject);
        child.stdout.on("data", (chunk) => {
            out += chunk;
            const replies = out
                .split("\n")
                .slice(0, -1)
                .map((line) => JSON.parse(line));
            if (!replies.some((reply) => reply.id === 2)) return;
            const listed = replies.find((reply) => reply.id === 2).result?.tools;
            if (!replies.some((reply) => reply.id === 1 && reply.result) || !listed?.length) {
                reject(new Error(`mcp: ${out}`));
            }
            resolve();
            child.stdin.end();
            child.stdout.resume();
        });
        const messages = [
            {
                jsonrpc: "2.0",
                id: 1,
                method: "initialize",
                params: {
                    protocolVersion: "2025-06-18",
                    capabilities: {},
                    clientInfo: { name: "bench", version: "1" },
                },
            },
            { jsonrpc: "2.0", method: "notifications/initialized" },
            { jsonrpc: "2.0", id: 2, method: "tools/list" },
        ];
        child.stdin.write(messages.map((message) => `${JSON.stringify(message)}\n`).join(""));
    });
}

/** A script that loads the MCP SDK's server and nothing else, bundled the way scripts/build.mjs bundles the CLI. */
async function sdkServerOnly(dir) {
    const outfile = join(dir, "sdk-server-only.js");
    await build({
        stdin: {
            contents:
                'import { Server } from "@modelcontextprotocol/sdk/server/index.js";\nglobalThis.loaded = Server;\n',
            resolveDir: repo,
        },
        bundle: true,
        platform: "node",
        target: "node20",
        format: "cjs",
        mainFields: ["module", "main"],
        outfile,
        logLevel: "warning",
    });
    return outfile;
}

export async function startupCases({ scratch, smoke, record }) {
    const dir = tinyWorkspace(join(scratch, "startup"));
    await runToExit([bin, "session", "doc.md", "answer.md", "-o", "session.json"], dir);
    const bare = () => runToExit(["-e", "0"], dir);
    const runs = smoke ? 3 : 21;
    for (const argv of STARTUP_COMMANDS) {
        const ours = argv[0] === "mcp" ? () => mcpUntilToolsListed(dir) : () => runToExit([bin, ...argv], dir);
        const measured = await sideBySide(ours, bare, { runs, warmup: 2 });
        const name = argv[0] === "trace" && argv[1] !== "trace.jsonl" ? `trace ${argv[1]}` : argv[0];
        record(
            `start-up: sourcecheck ${name} on a tiny input vs node -e 0`,
            { ratio: measured.ours.median / measured.baseline.median },
            smoke ? undefined : STARTUP_TARGET,
            {
                ours: measured.ours,
                baseline: measured.baseline,
                baselineName: "node -e 0 (whole process)",
                command: argv[0] === "mcp" ? "mcp (until its reply to tools/list after initialize)" : argv.join(" "),
            },
        );
    }
    // The floor under `mcp`: no MCP server on the SDK starts faster than a process that only loads it.
    const sdkOnly = await sdkServerOnly(dir);
    const floor = await sideBySide(() => runToExit([sdkOnly], dir), bare, { runs, warmup: 2 });
    record(
        "start-up floor: a process loading only the MCP SDK's Server (bundled) vs node -e 0",
        { ratio: floor.ours.median / floor.baseline.median },
        undefined,
        {
            ours: floor.ours,
            baseline: floor.baseline,
            baselineName: "node -e 0 (whole process)",
            command: "node sdk-server-only.js",
        },
    );
}
