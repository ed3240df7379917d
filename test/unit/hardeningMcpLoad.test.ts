/**
 * A server that bounds its load (docs/agents.md, "Load"): 1,000 `check` calls sent at once to
 * `sourcecheck mcp` over stdio are each answered, some run (at most CALL_BOUNDS.running at once, the
 * next CALL_BOUNDS.waiting in turn), the rest refused at once with the code `busy`, a retry hint and
 * the load; and the server's peak resident memory grows by less than the stated bound (bytes read
 * from /proc, never a time).
 */
import * as assert from "node:assert/strict";
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { CALL_BOUNDS } from "../../server/src/mcp/callGate";

const cliBundle = path.resolve(__dirname, "../../../dist/cli.js");
const CALLS = 1000;
/** The stated bound (docs/agents.md, "Load"): peak RSS growth for 1,000 concurrent checks of this file. */
const MAX_GROWTH_BYTES = 384 * 1024 * 1024;

/** A document of 3,000 lines and an annotation file citing each line: a check's report is about 2 MB. */
function workspace(dir: string): void {
    const lines = Array.from(
        { length: 3000 },
        (_, i) => `Line ${i + 1} says the cache of node ${i + 1} holds ${i * 7} items.`,
    );
    fs.writeFileSync(path.join(dir, "doc.md"), `${lines.join("\n")}\n`);
    const annotations = lines.map((_, i) => ({
        claim: { path: "doc.md", start: { line: i + 1, str: `Line ${i + 1} ` }, end: { line: i + 1, str: "items." } },
        sources: [
            {
                path: "doc.md",
                start: { line: i + 1, str: `node ${i + 1} ` },
                end: { line: i + 1, str: "holds" },
                polarity: "supports",
                confidence: 0.9,
            },
        ],
    }));
    fs.writeFileSync(path.join(dir, "a.sourcecheck.json"), JSON.stringify({ annotations }));
}

/** Peak and current resident set of a process, in bytes (Linux /proc). */
function memory(pid: number): { peak: number; now: number } {
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status)?.[1]) * 1024;
    return { peak: kb("VmHWM"), now: kb("VmRSS") };
}

describe("hardening: the MCP server bounds its load", function () {
    this.timeout(300000);
    let dir: string;
    before(() => {
        dir = fs.mkdtempSync(path.join(os.tmpdir(), "sourcecheck-mcp-load-"));
        workspace(dir);
    });
    after(() => fs.rmSync(dir, { recursive: true, force: true }));

    it("1,000 concurrent checks: each answered, the excess refused with busy, peak memory growth under the bound", async () => {
        const child = spawn(process.execPath, [cliBundle, "mcp", "--root", dir], { stdio: ["pipe", "pipe", "pipe"] });
        const answers = new Map<number, Record<string, unknown>>();
        let waiting: { id: number; resolve: () => void } | undefined;
        // A prompt reader: each chunk scanned once, a line parsed when whole (the answers are megabytes).
        let pending: Buffer[] = [];
        child.stdout.on("data", (chunk: Buffer) => {
            let from = 0;
            for (let newline = chunk.indexOf(10); newline !== -1; newline = chunk.indexOf(10, from)) {
                pending.push(chunk.subarray(from, newline));
                const message = JSON.parse(Buffer.concat(pending).toString("utf8"));
                pending = [];
                from = newline + 1;
                // Only what the test reads is kept: a megabyte report per answer would be the client's memory.
                const result = message.result;
                if (result && !result.isError)
                    result.structuredContent = { exitCode: result.structuredContent?.exitCode };
                if (result) result.content = [];
                answers.set(message.id, message);
                if (waiting && answers.has(waiting.id)) waiting.resolve();
            }
            if (from < chunk.length) pending.push(chunk.subarray(from));
        });
        const answered = (id: number) =>
            new Promise<void>((resolve) => {
                if (answers.has(id)) resolve();
                else waiting = { id, resolve };
            });
        const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
        try {
            send({
                jsonrpc: "2.0",
                id: 0,
                method: "initialize",
                params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "load", version: "1" } },
            });
            await answered(0);
            send({ jsonrpc: "2.0", method: "notifications/initialized" });
            // One call first, so the tools are loaded and the baseline is a working server's.
            send({
                jsonrpc: "2.0",
                id: 1,
                method: "tools/call",
                params: { name: "check", arguments: { file: "a.sourcecheck.json" } },
            });
            await answered(1);
            const baseline = memory(child.pid as number).now;
            const lines: string[] = [];
            for (let id = 2; id < CALLS + 2; id++)
                lines.push(
                    JSON.stringify({
                        jsonrpc: "2.0",
                        id,
                        method: "tools/call",
                        params: { name: "check", arguments: { file: "a.sourcecheck.json" } },
                    }),
                );
            child.stdin.write(`${lines.join("\n")}\n`);
            for (let id = 2; id < CALLS + 2; id++) await answered(id);
            const peak = memory(child.pid as number).peak;

            let ran = 0;
            let refused = 0;
            for (let id = 2; id < CALLS + 2; id++) {
                const result = (
                    answers.get(id) as { result: { isError?: boolean; structuredContent: Record<string, any> } }
                ).result;
                if (!result.isError) {
                    assert.equal(result.structuredContent.exitCode, 0);
                    ran++;
                    continue;
                }
                const error = result.structuredContent.error;
                assert.equal(error.code, "busy", JSON.stringify(error));
                assert.equal(error.retryAfterMs, CALL_BOUNDS.retryAfterMs);
                assert.match(error.message, /call again in \d+ ms/);
                // Refused only with every running and waiting place taken.
                assert.deepEqual(error.load, { running: CALL_BOUNDS.running, waiting: CALL_BOUNDS.waiting });
                refused++;
            }
            assert.equal(ran + refused, CALLS);
            assert.ok(ran >= CALL_BOUNDS.running + CALL_BOUNDS.waiting, `${ran} ran`);
            assert.ok(refused > 0, "some calls past the bound were refused");
            const growth = peak - baseline;
            console.log(
                `      ${ran} ran, ${refused} refused; peak RSS ${Math.round(peak / 2 ** 20)} MiB, growth ${Math.round(growth / 2 ** 20)} MiB`,
            );
            assert.ok(growth < MAX_GROWTH_BYTES, `peak RSS grew by ${growth} bytes`);
        } finally {
            child.stdin.end();
            child.kill();
        }
    });
});
