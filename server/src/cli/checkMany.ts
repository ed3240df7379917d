/**
 * Many annotation files checked in order; with `--jobs N` > 1 by the main thread and N - 1 worker
 * threads (docs/ci.md). Output is written in the order of the file list whatever finishes first, so
 * the report does not depend on the number of jobs; a file is claimed at most a window ahead of the
 * one being written, so output waiting its turn stays bounded.
 *
 * The workers start before discovery (their start-up overlaps it). Every thread claims the next file
 * from a shared counter; the main thread checks files synchronously, as with one job, and between
 * two of its files reads the workers' replies without a turn of the event loop.
 */
import * as nodePath from "node:path";
import type { MessagePort, Worker } from "node:worker_threads";

/** Required when workers start (--jobs N), not when a single check loads the CLI (start-up). */
const workerThreads = () => require("node:worker_threads") as typeof import("node:worker_threads");

import { checkFileInto, DocumentCache, type FileJob, type FileTotals, type OutputFormat } from "./checkFile";
import {
    CHUNK_CHARS,
    type Failure,
    failureOf,
    type Piece,
    PieceBuffer,
    Slot,
    sharedSlots,
    type WorkerSetup,
    type WorkOrder,
    type WorkReply,
} from "./checkProtocol";
import { CliError } from "./files";

/** Where a run's output goes: pieces of each file in order, items separated by the run writer. */
export interface PieceSink {
    piece(text: string, startsItem: boolean): void;
    /** The file's output is complete. */
    fileDone(totals: FileTotals): void;
}

/** Thrown out of a check on the main thread to put the file off (Workers.checkHere). */
const PUT_OFF = Symbol("put off");

/** Files a thread may claim ahead of the one being written, per thread. */
const WINDOW_PER_THREAD = 8;

/**
 * Worker threads for a run of `parallel` jobs, started now so that they load while the files are
 * being found; undefined for one job. Give them to checkFiles, or close them.
 */
export function startWorkers(parallel: number): Workers | undefined {
    return parallel > 1 ? new Workers(parallel - 1) : undefined;
}

export async function checkFiles(
    jobs: FileJob[],
    format: OutputFormat,
    parallel: number,
    sink: PieceSink,
    workers = startWorkers(parallel),
): Promise<void> {
    // No more threads than files: the main thread counts as one.
    workers?.keep(Math.min(parallel, jobs.length) - 1);
    if (!workers || workers.count === 0) {
        const documents = new DocumentCache();
        for (const job of jobs) {
            let totals: FileTotals;
            try {
                totals = checkFileInto(job, format, (text, startsItem) => sink.piece(text, startsItem), documents);
            } catch (error) {
                throw failureError(job, failureOf(error));
            }
            documents.trim();
            sink.fileDone(totals);
        }
        return;
    }
    await workers.run(jobs, format, sink);
}

interface Thread {
    worker: Worker;
    port: MessagePort;
    index: number;
}

interface Pending {
    pieces: Piece[];
    totals?: FileTotals;
    failure?: Failure;
}

/** A waitAsync is in ES2024; Node 20 has it. */
type WaitAsync = (
    array: Int32Array,
    index: number,
    value: number,
    timeout?: number,
) => { async: boolean; value: Promise<string> | string };

export class Workers {
    private readonly slots: Int32Array;
    private threads: Thread[] = [];
    private jobs: FileJob[] = [];
    private sink: PieceSink | undefined;
    private nextToWrite = 0;
    private window = 0;
    private readonly pending = new Map<number, Pending>();
    private finished = false;
    private readonly stopped = new Set<Worker>();
    /** A file the main thread put off until its turn (see checkHere). */
    private deferred: number | undefined;
    /** Rejected when a worker fails outside a file (it cannot start, or dies). */
    private readonly broken: Promise<never>;
    private breakRun: (error: Error) => void = () => {};

    constructor(size: number) {
        this.slots = sharedSlots(size);
        this.broken = new Promise<never>((_, reject) => {
            this.breakRun = reject;
        });
        this.broken.catch(() => {}); // seen by run(), or by nobody when no run follows
        for (let index = 0; index < size; index++) {
            const { port1, port2 } = new (workerThreads().MessageChannel)();
            const setup: WorkerSetup = { slots: this.slots, index, port: port2 };
            const worker = new (workerThreads().Worker)(nodePath.join(__dirname, "checkWorker.js"), {
                workerData: setup,
                transferList: [port2],
            });
            worker.on("error", (error) => this.fail(error));
            worker.on("exit", (code) => {
                if (!this.stopped.has(worker) && !Atomics.load(this.slots, Slot.ended(index)))
                    this.fail(new Error(`a check worker stopped (exit ${code})`));
            });
            this.threads.push({ worker, port: port1, index });
        }
    }

    get count(): number {
        return this.threads.length;
    }

    /** Keep at most `count` workers; stop the others. */
    keep(count: number): void {
        for (const thread of this.threads.slice(Math.max(0, count))) this.stopThread(thread);
        this.threads = this.threads.slice(0, Math.max(0, count));
    }

    /** Stop every worker (no run follows). */
    close(): void {
        this.keep(0);
        this.finished = true;
    }

    async run(jobs: FileJob[], format: OutputFormat, sink: PieceSink): Promise<void> {
        this.jobs = jobs;
        this.sink = sink;
        this.window = WINDOW_PER_THREAD * (this.threads.length + 1);
        const order: WorkOrder = { jobs, format, window: this.window };
        for (const { worker } of this.threads) worker.postMessage(order);
        const documents = new DocumentCache();
        try {
            for (;;) {
                this.drain();
                if (this.nextToWrite >= jobs.length) return;
                // A file put off (below) is checked once its turn has come; until then no other is taken.
                const id = this.deferred !== undefined ? this.deferredIfDue() : this.claim();
                if (id !== undefined) {
                    this.checkHere(id, format, documents);
                    continue;
                }
                // Nothing to check here: wait for a worker's reply (or its failure).
                const seen = Atomics.load(this.slots, Slot.posted);
                if (this.drain()) continue;
                const wait = (Atomics as unknown as { waitAsync: WaitAsync }).waitAsync(
                    this.slots,
                    Slot.posted,
                    seen,
                    1000,
                );
                if (wait.async) await Promise.race([wait.value, this.broken]);
            }
        } finally {
            this.finished = true;
            // No file is claimed after this; workers still checking one are stopped.
            Atomics.store(this.slots, Slot.next, jobs.length);
            for (const thread of this.threads) this.stopThread(thread);
        }
    }

    private deferredIfDue(): number | undefined {
        const id = this.deferred;
        if (id !== this.nextToWrite) return undefined;
        this.deferred = undefined;
        return id;
    }

    /** The next file for the main thread, within the window; undefined when there is none. */
    private claim(): number | undefined {
        const next = Atomics.load(this.slots, Slot.next);
        if (next >= this.jobs.length || next >= this.nextToWrite + this.window) return undefined;
        const id = Atomics.add(this.slots, Slot.next, 1);
        return id < this.jobs.length ? id : undefined;
    }

    /**
     * Check a file on the main thread: written as it is made when its turn has come, else kept. The
     * main thread cannot wait in the middle of a file, so a file whose output outgrows a chunk while
     * an earlier one is still being checked elsewhere is put off, its output dropped, and checked
     * again when its turn has come (the same output: a check is deterministic). Nothing is held whole.
     */
    private checkHere(id: number, format: OutputFormat, documents: DocumentCache): void {
        const sink = this.sink as PieceSink;
        const buffer = new PieceBuffer();
        let elsewhere: unknown; // an earlier file's failure, met while reading replies
        const emit = (text: string, startsItem: boolean) => {
            if (id === this.nextToWrite) {
                sink.piece(text, startsItem);
                return;
            }
            buffer.add(text, startsItem);
            if (buffer.size < CHUNK_CHARS) return;
            try {
                this.drain();
            } catch (error) {
                elsewhere = error;
                throw PUT_OFF;
            }
            if (id !== this.nextToWrite) throw PUT_OFF;
            for (const piece of buffer.take()) sink.piece(piece.text, piece.startsItem);
        };
        const reply: WorkReply = { id, pieces: [] };
        try {
            reply.totals = checkFileInto(this.jobs[id], format, emit, documents);
        } catch (error) {
            if (error === PUT_OFF) {
                if (elsewhere !== undefined) throw elsewhere;
                this.deferred = id;
                return;
            }
            reply.failure = failureOf(error);
        }
        documents.trim();
        reply.pieces = buffer.take();
        this.receive(reply);
    }

    /** Read every reply the workers have posted; true if there was one. */
    private drain(): boolean {
        let any = false;
        const { receiveMessageOnPort } = workerThreads();
        for (const { port, index } of this.threads) {
            for (let message = receiveMessageOnPort(port); message; message = receiveMessageOnPort(port)) {
                any = true;
                Atomics.sub(this.slots, Slot.unread(index), 1);
                Atomics.notify(this.slots, Slot.unread(index));
                this.receive(message.message as WorkReply);
            }
        }
        return any;
    }

    /** Output of a file, written if its turn has come, else kept until it has. */
    private receive(reply: WorkReply): void {
        if (reply.id !== this.nextToWrite) {
            let pending = this.pending.get(reply.id);
            if (!pending) {
                pending = { pieces: [] };
                this.pending.set(reply.id, pending);
            }
            for (const piece of reply.pieces) pending.pieces.push(piece);
            pending.totals = reply.totals;
            pending.failure = reply.failure;
            if (reply.failure) Atomics.store(this.slots, Slot.next, this.jobs.length); // nothing after it is needed
            return;
        }
        const sink = this.sink as PieceSink;
        for (const piece of reply.pieces) sink.piece(piece.text, piece.startsItem);
        if (reply.failure) throw failureError(this.jobs[reply.id], reply.failure);
        if (!reply.totals) return;
        sink.fileDone(reply.totals);
        this.pending.delete(this.nextToWrite);
        this.nextToWrite++;
        // Files after it that are complete, or started, follow.
        for (let next = this.pending.get(this.nextToWrite); next; next = this.pending.get(this.nextToWrite)) {
            for (const piece of next.pieces) sink.piece(piece.text, piece.startsItem);
            next.pieces = [];
            if (next.failure) throw failureError(this.jobs[this.nextToWrite], next.failure);
            if (!next.totals) break;
            sink.fileDone(next.totals);
            this.pending.delete(this.nextToWrite);
            this.nextToWrite++;
        }
        Atomics.store(this.slots, Slot.written, this.nextToWrite);
        Atomics.notify(this.slots, Slot.written);
    }

    private fail(error: Error): void {
        if (!this.finished) this.breakRun(error);
    }

    /** A worker that has ended exits by itself; one still running is stopped. */
    private stopThread({ worker }: Thread): void {
        this.stopped.add(worker);
        worker.unref();
        void worker.terminate();
    }
}

/**
 * The error that stops the run at a file that failed, naming it: the same whatever thread checked
 * it. A CliError keeps its exit status 2; anything else is an internal error (exit 3).
 */
function failureError(job: FileJob, failure: Failure): Error {
    const message = `${job.shown}: ${failure.message}`;
    return failure.internal ? new Error(message) : new CliError(message);
}
