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

/** Collects small pieces of text and hands them on in chunks, so a stream of entries is not a write each. */
export class ChunkedWriter {
    private parts: string[] = [];
    private size = 0;

    constructor(
        private readonly write: (text: string) => void,
        private readonly chunkSize = 64 * 1024,
    ) {}

    add(text: string): void {
        this.parts.push(text);
        this.size += text.length;
        if (this.size >= this.chunkSize) this.flush();
    }

    flush(): void {
        if (this.parts.length === 0) return;
        const text = this.parts.join("");
        this.parts = [];
        this.size = 0;
        this.write(text);
    }
}
