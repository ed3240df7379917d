// Agent tools over MCP (docs/agents.md, docs/benchmarks.md): the round trip of `cite` and `check`
// on the demo against a no-op tool call, through `sourcecheck mcp` and the MCP SDK's own client over
// stdio, as an agent's host calls them. The no-op is a call of a tool that does not exist: the same
// transport, parsing and dispatch, an immediate answer, no work. Both sides run alternately.
import { cpSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { sideBySide } from "./measure.mjs";

const require = createRequire(import.meta.url);
const repo = dirname(dirname(fileURLToPath(import.meta.url)));
const { Client } = require("@modelcontextprotocol/sdk/client/index.js");
const { StdioClientTransport } = require("@modelcontextprotocol/sdk/client/stdio.js");

export async function agentCases({ scratch, smoke, record, results }) {
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
        await listingAndParaphrases(client, scratch, results);
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

/**
 * What a model reads before and while it cites (docs/agents.md, "Context"): the size of tools/list, and
 * recall on the paraphrased claims of test/fixtures/evidence-paraphrases over MCP, their passage in the
 * hits or below the floor (target 95%) and in the hits alone (reported), with the share of passage text
 * in each evidence result's text.
 */
async function listingAndParaphrases(client, scratch, results) {
    const { tools } = await client.listTools();
    const listed = JSON.stringify(tools).length;
    results.push({
        name: "mcp tools/list size (characters)",
        ratio: null,
        target: null,
        pass: null,
        characters: listed,
    });
    console.log(`     mcp tools/list: ${listed} characters`);
    const fixture = join(repo, "test", "fixtures", "evidence-paraphrases");
    // A root of its own: the demo's configuration names its sources, which would leave the corpus out.
    const root = join(scratch, "agents-paraphrases");
    cpSync(join(fixture, "corpus"), join(root, "tessera"), { recursive: true });
    const transport = new StdioClientTransport({
        command: process.execPath,
        args: [join(repo, "dist", "cli.js"), "mcp", "--root", root],
        stderr: "inherit",
    });
    const own = new Client({ name: "sourcecheck-bench-paraphrases", version: "1.0.0" });
    await own.connect(transport);
    try {
        await paraphraseRows(own, fixture, results);
    } finally {
        await own.close();
    }
}

async function paraphraseRows(client, fixture, results) {
    const { claims } = JSON.parse(readFileSync(join(fixture, "paraphrases.json"), "utf8"));
    let inHits = 0;
    let inHitsOrBelow = 0;
    let passageChars = 0;
    let textChars = 0;
    for (const claim of claims) {
        const content = readFileSync(join(fixture, "corpus", claim.path), "utf8");
        const line = content.slice(0, content.indexOf(claim.passage)).split("\n").length;
        const result = await client.callTool({
            name: "evidence",
            arguments: { query: claim.claim, corpus: "tessera" },
        });
        const answer = result.structuredContent;
        const holds = (p) => p.path === `tessera/${claim.path}` && p.startLine <= line && line <= p.endLine;
        const below = answer.belowFloor ?? [];
        if (answer.hits.some(holds)) inHits++;
        if (answer.hits.some(holds) || below.some(holds)) inHitsOrBelow++;
        textChars += result.content[0].text.length;
        passageChars += [...answer.hits, ...below].reduce((sum, p) => sum + p.text.length, 0);
    }
    const recall = inHitsOrBelow / claims.length;
    results.push({
        name: `evidence recall on ${claims.length} paraphrased claims, hits or below the floor (mcp, top 3)`,
        ratio: Number(recall.toFixed(3)),
        target: 0.95,
        atLeast: true,
        pass: recall >= 0.95,
    });
    results.push({
        name: `evidence recall on ${claims.length} paraphrased claims, hits alone (reported)`,
        ratio: Number((inHits / claims.length).toFixed(3)),
        target: null,
        pass: null,
    });
    results.push({
        name: "evidence result text that is passage text (paraphrased claims)",
        ratio: Number((passageChars / textChars).toFixed(3)),
        target: 0.5,
        atLeast: true,
        pass: passageChars / textChars >= 0.5,
    });
    console.log(
        `     paraphrases: ${inHitsOrBelow} of ${claims.length} in hits or below the floor, ${inHits} in hits alone; ` +
            `passage text ${((100 * passageChars) / textChars).toFixed(1)}% of the result text`,
    );
}
