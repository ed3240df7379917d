/**
 * MCP over stdio: one JSON-RPC message per line (the protocol's stdio framing). The SDK's own stdio
 * transport closes the connection when a message exceeds its buffer and re-copies its buffer on every
 * chunk; a server that must keep answering after a hostile call needs neither. This one collects a
 * line's chunks in a list (linear time), and answers a line over the cap with a JSON-RPC error for
 * its id when the id can be read from its first or last bytes, then goes on with the next line.
 */
import type { Readable, Writable } from "node:stream";
import { serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { type JSONRPCMessage, JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";

/** The id of something shaped like a request (an object with a method and a string or number id). */
function requestId(value: unknown): string | number | undefined {
    if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
    const { id, method } = value as { id?: unknown; method?: unknown };
    if (typeof method !== "string") return undefined;
    return typeof id === "string" || typeof id === "number" ? id : undefined;
}

/** Largest message read: inline documents of a `check` call may be large, but not unbounded. */
export const MAX_MESSAGE_BYTES = 96 * 1024 * 1024;
/** Bytes of answers the output may hold before the next call waits for it to drain. */
const BACKLOG_BYTES = 1024 * 1024;
const EDGE_BYTES = 4096;

/** A request answered, timed from its line read to its answer written (`sourcecheck mcp --log-timings`). */
export interface RequestTiming {
    id: string | number;
    method: string;
    /** The tool called, for tools/call. */
    tool?: string;
    ms: number;
}

export class LineTransport implements Transport {
    onmessage?: (message: JSONRPCMessage) => void;
    onerror?: (error: Error) => void;
    onclose?: () => void;

    private chunks: Buffer[] = [];
    private size = 0;
    /** Set while skipping the rest of an oversized line: its first bytes, to find its id. */
    private oversized: Buffer | undefined;
    private tail: Buffer = Buffer.alloc(0);
    private closed = false;

    /** Requests being answered, when `timed` is set: the time their line was read. */
    private readonly received = new Map<string | number, Omit<RequestTiming, "ms"> & { at: number }>();

    constructor(
        private readonly input: Readable,
        private readonly output: Writable,
        private readonly maxBytes = MAX_MESSAGE_BYTES,
        /** Told of each request answered, with its time in the server (a bench's or a debugger's channel). */
        private readonly timed?: (timing: RequestTiming) => void,
    ) {}

    async start(): Promise<void> {
        this.input.on("data", this.onData);
        this.input.on("end", this.onEnd);
        this.input.on("error", this.onStreamError);
    }

    /** One wait for the output to drain, shared by every reply sent meanwhile (one listener, not one each). */
    private drained: Promise<void> | undefined;

    /**
     * Resolves once the answers written so far are mostly out (at most BACKLOG_BYTES still buffered):
     * the call gate (callGate.ts) starts the next call only then, so a slow reader never makes the
     * server hold more than a few answers in memory.
     */
    async writable(): Promise<void> {
        while (!this.closed && this.output.writableLength > BACKLOG_BYTES) await this.drain();
    }

    private drain(): Promise<void> {
        this.drained ??= new Promise<void>((resolve) =>
            this.output.once("drain", () => {
                this.drained = undefined;
                resolve();
            }),
        );
        return this.drained;
    }

    async send(message: JSONRPCMessage): Promise<void> {
        if (this.closed) return;
        const written = this.output.write(serializeMessage(message));
        if (this.timed && "id" in message && !("method" in message) && message.id !== undefined) this.tell(message.id);
        if (written) return;
        await this.drain();
    }

    async close(): Promise<void> {
        if (this.closed) return;
        this.closed = true;
        this.input.off("data", this.onData);
        this.input.off("end", this.onEnd);
        this.input.off("error", this.onStreamError);
        this.chunks = [];
        this.onclose?.();
    }

    private tell(id: string | number): void {
        const request = this.received.get(id);
        if (!request) return;
        this.received.delete(id);
        const { at, ...named } = request;
        this.timed?.({ ...named, ms: performance.now() - at });
    }

    private readonly onEnd = () => void this.close();

    private readonly onStreamError = (error: Error) => this.onerror?.(error);

    private readonly onData = (chunk: Buffer) => {
        let from = 0;
        for (let newline = chunk.indexOf(10); newline !== -1; newline = chunk.indexOf(10, from)) {
            this.append(chunk.subarray(from, newline));
            this.endLine();
            from = newline + 1;
        }
        if (from < chunk.length) this.append(chunk.subarray(from));
    };

    private append(part: Buffer): void {
        if (part.length === 0) return;
        if (this.oversized !== undefined) {
            this.tail = Buffer.concat([this.tail, part]).subarray(-EDGE_BYTES);
            return;
        }
        if (this.size + part.length > this.maxBytes) {
            this.oversized = Buffer.concat([...this.chunks, part]).subarray(0, EDGE_BYTES);
            this.tail = Buffer.concat([...this.chunks, part].slice(-2)).subarray(-EDGE_BYTES);
            this.chunks = [];
            this.size = 0;
            return;
        }
        this.chunks.push(part);
        this.size += part.length;
    }

    private endLine(): void {
        const at = performance.now();
        if (this.oversized !== undefined) {
            const head = this.oversized.toString("utf8");
            const tail = this.tail.toString("utf8");
            this.oversized = undefined;
            this.tail = Buffer.alloc(0);
            this.rejectOversized(head, tail);
            return;
        }
        const line = Buffer.concat(this.chunks, this.size).toString("utf8").replace(/\r$/, "");
        this.chunks = [];
        this.size = 0;
        if (line.trim().length === 0) return;
        let value: unknown;
        try {
            value = JSON.parse(line);
        } catch (error) {
            this.onerror?.(new Error(`an unreadable message was answered: ${(error as Error).message.slice(0, 200)}`));
            this.sendError(null, -32700, "parse-error: the message is not JSON");
            return;
        }
        const parsed = JSONRPCMessageSchema.safeParse(value);
        if (!parsed.success) {
            // A request (it has an id and a method) gets a JSON-RPC error, as the spec asks: a client
            // that sent `params: null` must not wait forever. Anything else is logged and dropped.
            const id = requestId(value);
            this.onerror?.(new Error(`a malformed message was ${id === undefined ? "ignored" : "answered"}`));
            if (id !== undefined)
                this.sendError(
                    id,
                    -32600,
                    "invalid-request: the message is not a valid JSON-RPC request (params must be an object)",
                );
            return;
        }
        if (this.timed) this.noteRequest(parsed.data, at);
        this.onmessage?.(parsed.data);
    }

    private noteRequest(message: JSONRPCMessage, at: number): void {
        if (!("method" in message) || !("id" in message)) return;
        const params = message.params as { name?: unknown } | undefined;
        const tool = message.method === "tools/call" && typeof params?.name === "string" ? params.name : undefined;
        this.received.set(message.id, { id: message.id, method: message.method, ...(tool ? { tool } : {}), at });
    }

    private sendError(id: string | number | null, code: number, message: string): void {
        void this.send({ jsonrpc: "2.0", id, error: { code, message } } as unknown as JSONRPCMessage);
    }

    /** Answer an oversized request by its id when it can be found; otherwise it is dropped and logged. */
    private rejectOversized(head: string, tail: string): void {
        // The id is a top-level member: the last one (as the SDK writes requests) or the first ones.
        const value = String.raw`(\d+|"(?:[^"\\]|\\.){0,200}")`;
        const last = new RegExp(String.raw`"id"\s*:\s*${value}\s*}\s*$`).exec(tail);
        const first = new RegExp(String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*${value}`).exec(head);
        const id = (last ?? first)?.[1];
        const limit = `${Math.round(this.maxBytes / (1024 * 1024))} MiB`;
        this.onerror?.(new Error(`a message over ${limit} was refused`));
        if (id === undefined) return;
        void this.send({
            jsonrpc: "2.0",
            id: JSON.parse(id) as string | number,
            error: { code: -32600, message: `request-too-large: the message is over ${limit}; send smaller arguments` },
        });
    }
}
