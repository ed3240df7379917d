import * as assert from "node:assert/strict";
import { PassThrough } from "node:stream";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { LineTransport } from "../../server/src/mcp/lineTransport";

function setUp(maxBytes: number) {
    const input = new PassThrough();
    const output = new PassThrough();
    const transport = new LineTransport(input, output, maxBytes);
    const received: JSONRPCMessage[] = [];
    const errors: string[] = [];
    let written = "";
    output.on("data", (chunk: Buffer) => {
        written += chunk.toString();
    });
    transport.onmessage = (message) => received.push(message);
    transport.onerror = (error) => errors.push(error.message);
    return { input, transport, received, errors, written: () => written };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe("mcp line transport", () => {
    it("reads messages split across chunks, several in one chunk, CRLF and blank lines", async () => {
        const { input, transport, received } = setUp(1024);
        await transport.start();
        const a = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" });
        const b = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "ping" });
        input.write(a.slice(0, 10));
        input.write(`${a.slice(10)}\r\n\n${b}\n`);
        await flush();
        assert.deepEqual(
            received.map((m) => (m as { id: number }).id),
            [1, 2],
        );
    });

    it("answers an oversized request by its id and goes on with the next line", async () => {
        const { input, transport, received, errors, written } = setUp(1024);
        await transport.start();
        const big = JSON.stringify({
            jsonrpc: "2.0",
            method: "tools/call",
            params: { name: "cite", arguments: { id: 99, quote: "x".repeat(5000) } },
            id: 7,
        });
        for (let at = 0; at < big.length; at += 700) input.write(big.slice(at, at + 700));
        input.write(`\n${JSON.stringify({ jsonrpc: "2.0", id: 8, method: "ping" })}\n`);
        await flush();
        const answer = JSON.parse(written().trim()) as { id: number; error: { code: number; message: string } };
        assert.equal(answer.id, 7);
        assert.equal(answer.error.code, -32600);
        assert.match(answer.error.message, /^request-too-large/);
        assert.deepEqual(
            received.map((m) => (m as { id: number }).id),
            [8],
        );
        assert.equal(errors.length, 1);
    });

    it("ignores an unreadable line with an error, and keeps reading", async () => {
        const { input, transport, received, errors } = setUp(1024);
        await transport.start();
        input.write(`{not json\n{"jsonrpc":"2.0","id":3,"method":"ping"}\n`);
        await flush();
        assert.equal(received.length, 1);
        assert.match(errors[0], /unreadable message/);
    });

    it("closes when the input ends", async () => {
        const { input, transport } = setUp(1024);
        let closed = false;
        transport.onclose = () => {
            closed = true;
        };
        await transport.start();
        input.end();
        await flush();
        assert.equal(closed, true);
    });

    it("waits for a slow reader with one drain listener, however many replies are pending", async () => {
        const input = new PassThrough();
        const output = new PassThrough({ highWaterMark: 16 });
        const transport = new LineTransport(input, output, 1024);
        await transport.start();
        const warnings: string[] = [];
        const onWarning = (warning: Error) => warnings.push(warning.name);
        process.on("warning", onWarning);
        const before = output.listenerCount("drain");
        const sent = Array.from({ length: 50 }, (_, id) => transport.send({ jsonrpc: "2.0", id, result: {} }));
        assert.ok(output.listenerCount("drain") <= before + 1, `${output.listenerCount("drain")} drain listeners`);
        let written = "";
        output.on("data", (chunk: Buffer) => {
            written += chunk.toString();
        });
        await Promise.all(sent);
        await flush();
        process.off("warning", onWarning);
        const ids = written
            .trim()
            .split("\n")
            .map((line) => (JSON.parse(line) as { id: number }).id);
        assert.deepEqual(
            ids,
            Array.from({ length: 50 }, (_, id) => id),
        );
        assert.deepEqual(warnings, []);
    });
});
