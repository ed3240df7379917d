/**
 * Reading corpus files for the evidence index (docs/benchmarks-evidence.md, "Speed"): one file at a time on
 * this thread, or many on a worker thread that opens, stats and reads them in batches while this
 * thread decodes and indexes the batch before. A cold build is mostly these system calls; with the
 * workers they run on the other core. Files come back in the order asked, whichever way they are read;
 * each file's bytes are valid only during the call that hands them over (their buffer is reused).
 */
import * as fs from "node:fs";
import type { MessagePort, Worker } from "node:worker_threads";
import { descriptorUnder } from "./descriptorPath";

/** A file as read: gone or not a regular file, too big, or its bytes with the stat of its descriptor. */
export type RawFile =
    | { kind: "gone" }
    | { kind: "too-big"; size: number; mtimeMs: number; ino: number }
    | { kind: "read"; bytes: Buffer; size: number; mtimeMs: number; ino: number };

/** Fewer files than this are read on this thread: starting a worker costs more than it saves. */
export const WORKER_MIN_FILES = 256;
const BATCH_FILES = 128;
const BATCH_BYTES = 1 << 20;
/** Batches read but not yet taken: what bounds the worker's lead (and its memory) on a large corpus. */
const BATCHES_AHEAD = 4;

/** Where readInto writes: `scratch` from `used` on (grown, and replaced, when a file does not fit). */
interface Destination {
    scratch: Buffer;
    used: number;
}

/**
 * Reads the file at `absolute` into `into.scratch` at `into.used`, only if it is still a regular file
 * and not a symlink swapped in (O_NOFOLLOW; non-blocking so a FIFO cannot hang us), up to its stat's
 * size (bytes appended since are not read: the stat recorded says the file changed at the next sync),
 * reading to the end only when the stat says 0 bytes (a pseudo-file). Self-contained, with `fsm` as its
 * only outside name: the worker runs it from its source text.
 */
export function readInto(
    fsm: typeof fs,
    absolute: string,
    maxBytes: number,
    into: Destination,
    within?: string,
    under?: typeof descriptorUnder,
): RawFile {
    let fd: number | undefined;
    try {
        const { O_RDONLY, O_NOFOLLOW, O_NONBLOCK } = fsm.constants;
        fd = fsm.openSync(absolute, O_RDONLY | (O_NOFOLLOW ?? 0) | (O_NONBLOCK ?? 0));
        const stats = fsm.fstatSync(fd);
        if (!stats.isFile()) return { kind: "gone" };
        // A folder swapped for a symlink while the corpus is read leads outside: such a file is gone.
        if (within !== undefined && under !== undefined && !under(fsm, fd, absolute, within)) return { kind: "gone" };
        const { size, mtimeMs, ino } = stats;
        if (size > maxBytes) return { kind: "too-big", size, mtimeMs, ino };
        const start = into.used;
        const untilEnd = size === 0;
        let end = start;
        for (;;) {
            if (!untilEnd && end - start >= size) break;
            if (end === into.scratch.length) {
                if (end - start > maxBytes) return { kind: "too-big", size, mtimeMs, ino };
                const wanted = untilEnd ? Math.min((end - start) * 2 + 65536, maxBytes + 1) : size;
                const grown = Buffer.allocUnsafeSlow(Math.max(into.scratch.length * 2, start + wanted));
                into.scratch.copy(grown, 0, 0, end);
                into.scratch = grown;
            }
            const room = into.scratch.length - end;
            const read = fsm.readSync(
                fd,
                into.scratch,
                end,
                untilEnd ? room : Math.min(room, size - (end - start)),
                null,
            );
            if (read === 0) break;
            end += read;
        }
        if (end - start > maxBytes) return { kind: "too-big", size, mtimeMs, ino };
        return { kind: "read", bytes: into.scratch.subarray(start, end), size, mtimeMs, ino };
    } catch {
        return { kind: "gone" };
    } finally {
        if (fd !== undefined) fsm.closeSync(fd);
    }
}

/**
 * A worker: reads batches `first`, `first + stride`, ... of `batchFiles` files each; a batch is posted
 * as one or more messages (one buffer of bytes and its files' stats each, `last` on its final one),
 * never more than `ahead` messages before the reader takes them.
 */
function readerThread(
    fsm: typeof fs,
    threads: typeof import("node:worker_threads"),
    read: typeof readInto,
    under: typeof descriptorUnder,
): void {
    const { paths, maxBytes, within, control, port, first, stride, batchFiles, batchBytes, ahead } = threads.workerData;
    const counters = new Int32Array(control); // posted, taken, failed
    // A batch's buffer comes back once its files are indexed, and is filled again: nothing to free.
    const buffer = () => {
        const back = threads.receiveMessageOnPort(port);
        return back ? Buffer.from(back.message as ArrayBuffer) : Buffer.allocUnsafeSlow(batchBytes);
    };
    const post = (meta: number[], into: { scratch: Buffer }, last: boolean) => {
        for (;;) {
            const taken = Atomics.load(counters, 1);
            if (Atomics.load(counters, 0) - taken < ahead) break;
            Atomics.wait(counters, 1, taken);
        }
        const stats = new Float64Array(meta);
        const bytes = into.scratch.buffer;
        port.postMessage({ stats, bytes, last }, [stats.buffer, bytes]);
        Atomics.add(counters, 0, 1);
        Atomics.notify(counters, 0);
    };
    try {
        for (let batch = first; batch * batchFiles < paths.length; batch += stride) {
            const end = Math.min(paths.length, (batch + 1) * batchFiles);
            let into = { scratch: buffer(), used: 0 };
            let meta: number[] = [];
            for (let next = batch * batchFiles; next < end; next++) {
                if (into.used >= batchBytes) {
                    post(meta, into, false);
                    into = { scratch: buffer(), used: 0 };
                    meta = [];
                }
                const file = read(fsm, paths[next], maxBytes, into, within, under);
                if (file.kind === "read") {
                    meta.push(2, file.size, file.mtimeMs, file.ino, file.bytes.byteOffset, file.bytes.length);
                    into.used = file.bytes.byteOffset + file.bytes.length;
                } else if (file.kind === "too-big") meta.push(1, file.size, file.mtimeMs, file.ino, 0, 0);
                else meta.push(0, 0, 0, 0, 0, 0);
            }
            post(meta, into, true);
        }
    } catch {
        Atomics.store(counters, 2, 1);
        Atomics.notify(counters, 0);
    }
}

const WORKER_SOURCE = `(${readerThread.toString()})(require("node:fs"), require("node:worker_threads"), ${readInto.toString()}, ${descriptorUnder.toString()});`;

/**
 * The files at `paths`, read in order: on a worker thread when there are many (falling back to this
 * thread if it cannot start or fails), else here. `each` gets a file's bytes only for the call.
 * Returns how many were read on workers.
 */
export function readFiles(
    paths: readonly string[],
    maxBytes: number,
    each: (index: number, file: RawFile) => void,
    /** `within`: the real corpus root every opened file must lie under (docs/security.md, "Reads"). */
    options: { minFilesForWorker?: number; within?: string } = {},
): number {
    let done = 0;
    const within = options.within;
    if (paths.length >= (options.minFilesForWorker ?? WORKER_MIN_FILES))
        done = readOnWorker(paths, maxBytes, within, each);
    const into = { scratch: sharedScratch, used: 0 };
    for (let i = done; i < paths.length; i++) {
        into.used = 0;
        each(i, readInto(fs, paths[i], maxBytes, into, within, descriptorUnder));
    }
    // A large file read once does not keep its buffer for the rest of the process.
    sharedScratch = into.scratch.length > SCRATCH_KEPT ? Buffer.allocUnsafe(64 * 1024) : into.scratch;
    return done;
}

/** One buffer for the files read on this thread (a fresh one per file was a tenth of a cold build). */
let sharedScratch = Buffer.allocUnsafe(64 * 1024);
const SCRATCH_KEPT = 4 * 1024 * 1024;

/**
 * Worker threads reading (the batches alternate between them): one. A second raised the bench's peak
 * RSS by 20 MB (0.36 of the peer's, over the 1/3 target) for no cold time measurable at load 11.
 */
const WORKERS = 1;

interface Reader {
    worker: Worker;
    port: MessagePort;
    counters: Int32Array;
}

/** Reads on worker threads as far as they get; returns how many files were handed to `each`. */
function readOnWorker(
    paths: readonly string[],
    maxBytes: number,
    within: string | undefined,
    each: (index: number, file: RawFile) => void,
): number {
    // Loaded here, for a corpus large enough to read on workers: `evidence` on a few files starts without it.
    const { MessageChannel, receiveMessageOnPort, Worker } =
        require("node:worker_threads") as typeof import("node:worker_threads");
    const readers: Reader[] = [];
    const count = Math.min(WORKERS, Math.ceil(paths.length / BATCH_FILES));
    try {
        for (let first = 0; first < count; first++) {
            const control = new SharedArrayBuffer(12);
            const channel = new MessageChannel();
            const workerData = {
                paths,
                maxBytes,
                within,
                control,
                port: channel.port2,
                first,
                stride: count,
                batchFiles: BATCH_FILES,
                batchBytes: BATCH_BYTES,
                ahead: BATCHES_AHEAD,
            };
            const worker = new Worker(WORKER_SOURCE, { eval: true, workerData, transferList: [channel.port2] });
            worker.unref();
            readers.push({ worker, port: channel.port1, counters: new Int32Array(control) });
        }
    } catch {
        for (const reader of readers) void reader.worker.terminate();
        return 0;
    }
    let done = 0;
    try {
        for (let batch = 0; done < paths.length; batch++) {
            const reader = readers[batch % readers.length];
            let last = false;
            while (!last) {
                const message = nextMessage(reader.port, reader.counters, receiveMessageOnPort);
                if (message === undefined) return done; // a worker failed: the rest is read here
                const { stats, bytes } = message;
                last = message.last;
                for (let at = 0; at < stats.length; at += 6) {
                    const [kind, size, mtimeMs, ino, offset, length] = stats.subarray(at, at + 6);
                    let file: RawFile;
                    if (kind === 2)
                        file = { kind: "read", bytes: Buffer.from(bytes, offset, length), size, mtimeMs, ino };
                    else if (kind === 1) file = { kind: "too-big", size, mtimeMs, ino };
                    else file = { kind: "gone" };
                    each(done++, file);
                }
                reader.port.postMessage(bytes, [bytes]); // back to the worker, to be filled again
                Atomics.add(reader.counters, 1, 1);
                Atomics.notify(reader.counters, 1);
            }
        }
    } finally {
        for (const reader of readers) {
            reader.port.close();
            if (done < paths.length) void reader.worker.terminate();
        }
    }
    return done;
}

/** A worker silent this long is given up on, and the rest is read here (a slow disk is not a failure). */
const WORKER_SILENCE_MS = 10_000;

function nextMessage(
    port: MessagePort,
    counters: Int32Array,
    receiveMessageOnPort: typeof import("node:worker_threads").receiveMessageOnPort,
): { stats: Float64Array; bytes: ArrayBuffer; last: boolean } | undefined {
    let waited = 0;
    for (;;) {
        const produced = Atomics.load(counters, 0);
        const received = receiveMessageOnPort(port);
        if (received) return received.message;
        if (Atomics.load(counters, 2) !== 0) return receiveMessageOnPort(port)?.message;
        if (waited >= WORKER_SILENCE_MS) return undefined;
        // Woken when a batch is posted (at once if one was since `produced` was read).
        if (Atomics.wait(counters, 0, produced, 100) === "timed-out") waited += 100;
    }
}
