/**
 * Synchronous writes to a file descriptor, for streaming output (docs/ci.md). Node writes to pipes
 * asynchronously and queues what the reader has not taken yet, so a large report would pile up in
 * memory; writing synchronously, waiting briefly when the pipe is full, keeps memory flat.
 */
import * as fs from "node:fs";

const pause = new Int32Array(new SharedArrayBuffer(4));

export function writeAllSync(fd: number, text: string): void {
    const bytes = Buffer.from(text, "utf8");
    let offset = 0;
    while (offset < bytes.length) {
        try {
            offset += fs.writeSync(fd, bytes, offset, bytes.length - offset);
        } catch (error) {
            // A non-blocking pipe whose reader is behind: wait a moment and write the rest.
            if ((error as NodeJS.ErrnoException).code !== "EAGAIN") throw error;
            Atomics.wait(pause, 0, 0, 2);
        }
    }
}

/**
 * Collects small pieces of text and hands them on in chunks, so a stream of entries is not a write
 * each. Concatenation (a rope in V8) is flattened once, when the chunk is written. A chunk stays
 * under 32K characters: a flat string of 128 KB or more goes to V8's large-object space, an mmap
 * each, and at 256K characters `check --json` of a 100,000-annotation session file spent about 9%
 * more wall time, most of it in the kernel (docs/benchmarks-cases.md, "A session file").
 */
export class ChunkedWriter {
    private pending = "";

    constructor(
        private readonly write: (text: string) => void,
        private readonly chunkSize = 32 * 1024,
    ) {}

    add(text: string): void {
        this.pending += text;
        if (this.pending.length >= this.chunkSize) this.flush();
    }

    flush(): void {
        if (this.pending.length === 0) return;
        const text = this.pending;
        this.pending = "";
        this.write(text);
    }
}
