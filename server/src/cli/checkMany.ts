/**
 * Many annotation files checked in order; with `--jobs N` > 1 by the main thread and N - 1 worker
 * threads (docs/ci.md). Output is
 * written in the order of the file list whatever finishes first, so the report does not depend on
 * the number of jobs; files are handed out at most a window ahead of the one being written, so
 * output waiting its turn stays bounded.
 */
import * as nodePath from "node:path";
import { Worker } from "node:worker_threads";
import { checkFileInto, DocumentCache, type FileJob, type FileTotals, type OutputFormat } from "./checkFile";
import type { WorkReply, WorkRequest } from "./checkWorker";
import { CliError } from "./files";

/** Where a run's output goes: pieces of each file in order, items separated by the run writer. */
export interface PieceSink {
    piece(text: string, startsItem: boolean): void;
    /** The file's output is complete. */
    fileDone(totals: FileTotals): void;
}

export async function checkFiles(
    jobs: FileJob[],
    format: OutputFormat,
    parallel: number,
    sink: PieceSink,
): Promise<void> {
    const workers = Math.min(parallel, jobs.length);
    if (workers <= 1) {
        const documents = new DocumentCache();
        for (const job of jobs) {
            const totals = checkFileInto(job, format, (text, startsItem) => sink.piece(text, startsItem), documents);
            documents.trim();
            sink.fileDone(totals);
        }
        return;
    }
    await new Pool(jobs, format, workers, sink).run();
}

/** Files queued per worker: enough to hide a message's round trip, few enough to keep the load even. */
const PER_WORKER = 4;

interface Pending {
    pieces: { text: string; startsItem: boolean }[];
    totals?: FileTotals;
}

class Pool {
    private nextToSend = 0;
    private nextToWrite = 0;
    private readonly pending = new Map<number, Pending>();
    private readonly window: number;
    /** Files sent to each worker and not done yet: a few each, so no worker waits on a round trip. */
    private readonly inFlight = new Map<Worker, number>();
    private readonly all: Worker[] = [];
    /** The main thread checks files too, between handling messages: one worker fewer to start. */
    private readonly localDocuments = new DocumentCache();
    private localScheduled = false;
    private finished = false;
    private onFinished: () => void = () => {};
    private onFailed: (error: Error) => void = () => {};

    constructor(
        private readonly jobs: FileJob[],
        private readonly format: OutputFormat,
        private readonly size: number,
        private readonly sink: PieceSink,
    ) {
        this.window = size * PER_WORKER * 2;
    }

    run(): Promise<void> {
        return new Promise<void>((resolve, reject) => {
            const fail = (error: Error) => {
                if (this.finished) return;
                this.finished = true;
                void this.stop();
                reject(error);
            };
            this.onFailed = fail;
            this.onFinished = () => {
                if (this.finished) return;
                this.finished = true;
                void this.stop();
                resolve();
            };
            for (let i = 0; i < this.size - 1; i++) {
                const worker = new Worker(nodePath.join(__dirname, "checkWorker.js"));
                this.all.push(worker);
                worker.on("message", (reply: WorkReply) => {
                    try {
                        if (this.receive(worker, reply)) this.onFinished();
                    } catch (error) {
                        fail(error as Error);
                    }
                });
                worker.on("error", fail);
                worker.on("exit", (code) => {
                    if (!this.finished) fail(new Error(`a check worker stopped (exit ${code})`));
                });
                this.inFlight.set(worker, 0);
            }
            this.dispatch();
        });
    }

    /** Check the next file on the main thread, then give the event loop back (worker messages wait). */
    private localTick(): void {
        this.localScheduled = false;
        if (this.finished || !this.canSend()) return;
        const id = this.nextToSend++;
        try {
            const totals = checkFileInto(
                this.jobs[id],
                this.format,
                (text, startsItem) => this.receive(undefined, { id, kind: "piece", text, startsItem }),
                this.localDocuments,
            );
            this.localDocuments.trim();
            if (this.receive(undefined, { id, kind: "done", totals })) this.onFinished();
        } catch (error) {
            this.onFailed(error instanceof CliError ? error : new Error((error as Error).message));
        }
    }

    private canSend(): boolean {
        return this.nextToSend < this.jobs.length && this.nextToSend < this.nextToWrite + this.window;
    }

    /** Handle one reply (from a worker, or the main thread's own check); true when every file is written. */
    private receive(worker: Worker | undefined, reply: WorkReply): boolean {
        if (reply.kind === "failed") {
            // A CliError keeps its exit status 2; anything else is an internal error (exit 3), as in one thread.
            const message = `${this.jobs[reply.id].shown}: ${reply.message}`;
            throw reply.internal ? new Error(message) : new CliError(message);
        }
        if (reply.id === this.nextToWrite) {
            if (reply.kind === "piece") this.sink.piece(reply.text, reply.startsItem);
            else this.sink.fileDone(reply.totals);
        } else {
            let pending = this.pending.get(reply.id);
            if (!pending) {
                pending = { pieces: [] };
                this.pending.set(reply.id, pending);
            }
            if (reply.kind === "piece") pending.pieces.push({ text: reply.text, startsItem: reply.startsItem });
            else pending.totals = reply.totals;
        }
        if (reply.kind === "done") {
            if (worker) this.inFlight.set(worker, (this.inFlight.get(worker) ?? 1) - 1);
            if (reply.id === this.nextToWrite) this.advance();
            this.dispatch();
        }
        return this.nextToWrite >= this.jobs.length;
    }

    /** The file being written is complete: write the ones after it that are complete too. */
    private advance(): void {
        this.nextToWrite++;
        for (;;) {
            const pending = this.pending.get(this.nextToWrite);
            if (!pending) return;
            for (const piece of pending.pieces) this.sink.piece(piece.text, piece.startsItem);
            pending.pieces = [];
            if (!pending.totals) return; // still being checked: the rest arrives directly
            this.sink.fileDone(pending.totals);
            this.pending.delete(this.nextToWrite);
            this.nextToWrite++;
        }
    }

    /** Hand out files in order, each to the least busy worker, within the window ahead of the output. */
    private dispatch(): void {
        if (!this.localScheduled && !this.finished && this.canSend()) {
            this.localScheduled = true;
            setImmediate(() => this.localTick());
        }
        while (this.canSend()) {
            let worker: Worker | undefined;
            let least = PER_WORKER;
            for (const [candidate, count] of this.inFlight) {
                if (count < least) {
                    worker = candidate;
                    least = count;
                }
            }
            if (!worker) return;
            const request: WorkRequest = { id: this.nextToSend, job: this.jobs[this.nextToSend], format: this.format };
            this.nextToSend++;
            this.inFlight.set(worker, least + 1);
            worker.postMessage(request);
        }
    }

    private async stop(): Promise<void> {
        await Promise.all(this.all.map((worker) => worker.terminate()));
    }
}
