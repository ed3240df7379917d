// Agent tools over MCP (docs/agents.md, docs/benchmarks.md): the round trip of `cite` and `check`
// on the demo against a no-op tool call, through `sourcecheck mcp` and the MCP SDK's own client over
// stdio, as an agent's host calls them. The no-op is a call of a tool that does not exist: the same
// transport, parsing and dispatch, an immediate answer, no work. Both sides run alternately.
import { cpSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { sideBySide } from "./measure.mjs";

const require = createRequire(import.meta.url);
const repo = dirname(dirname(fileURLToPath(import.meta.url)));
const { Client } = require("@modelcontextprotocol/sdk/client/index.js");
const { StdioClientTransport } = require("@modelcontextprotocol/sdk/client/stdio.js");

export async function agentCases({ scratch, smoke, record }) {
    const root = join(scratch, "agents-demo");
    // Timestamps kept: the demo's files are old, as a workspace's mostly are (docs/agents.md, "Speed").
    cpSync(join(repo, "examples", "demo"), root, { recursive: true, preserveTimestamps: true });
    const transport = new StdioClientTransport({
        command: process.execPath,
        args: [join(repo, "dist", "cli.js"), "mcp", "--root", root],
        stderr: "inherit",
    });
    const client = new Client({ name: "sourcecheck-bench", version: "1.0.0" });
    await client.connect(transport);
    const batch = smoke ? 20 : 300;
    const calls = (name, args, expectError) => async () => {
        for (let i = 0; i < batch; i++) {
            const result = await client.callTool({ name, arguments: args });
            if ((result.isError === true) !== expectError) throw new Error(`${name}: ${JSON.stringify(result)}`);
        }
    };
    const noop = calls("no-op", {}, true);
    try {
        const cases = [
            ["cite", { path: "answer.md", quote: "adds offline sync for mobile clients.\nEarly adopters" }],
            ["check", { file: "answer.sourcecheck.json" }],
        ];
        for (const [name, args] of cases) {
            const measured = await sideBySide(calls(name, args, false), noop, { runs: smoke ? 3 : 15, warmup: 3 });
            record(
                `mcp ${name} on the demo vs no-op tool call`,
                { ratio: measured.ours.median / measured.baseline.median },
                2,
                {
                    ours: measured.ours,
                    baseline: measured.baseline,
                    baselineName: `${batch} calls of a tool that does not exist`,
                    batch,
                },
            );
        }
    } finally {
        await client.close();
    }
}
