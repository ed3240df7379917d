/**
 * Many annotation files checked in order, on worker threads when `--jobs` > 1 (docs/ci.md). Output is
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

interface Pending {
    pieces: { text: string; startsItem: boolean }[];
    totals?: FileTotals;
}

class Pool {
    private nextToSend = 0;
    private nextToWrite = 0;
    private readonly pending = new Map<number, Pending>();
    private readonly window: number;
    private readonly idle: Worker[] = [];
    private readonly all: Worker[] = [];

    constructor(
        private readonly jobs: FileJob[],
        private readonly format: OutputFormat,
        private readonly size: number,
        private readonly sink: PieceSink,
    ) {
        this.window = size * 4;
    }

    run(): Promise<void> {
        return new Promise<void>((resolve, reject) => {
            const fail = (error: Error) => {
                void this.stop();
                reject(error);
            };
            for (let i = 0; i < this.size; i++) {
                const worker = new Worker(nodePath.join(__dirname, "checkWorker.js"));
                this.all.push(worker);
                worker.on("message", (reply: WorkReply) => {
                    try {
                        if (this.receive(worker, reply)) {
                            void this.stop();
                            resolve();
                        }
                    } catch (error) {
                        fail(error as Error);
                    }
                });
                worker.on("error", fail);
                worker.on("exit", (code) => {
                    if (this.nextToWrite < this.jobs.length) fail(new Error(`a check worker stopped (exit ${code})`));
                });
                this.idle.push(worker);
            }
            this.dispatch();
        });
    }

    /** Handle one reply; true when every file has been written. */
    private receive(worker: Worker, reply: WorkReply): boolean {
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
            this.idle.push(worker);
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

    private dispatch(): void {
        while (
            this.idle.length > 0 &&
            this.nextToSend < this.jobs.length &&
            this.nextToSend < this.nextToWrite + this.window
        ) {
            const worker = this.idle.pop() as Worker;
            const request: WorkRequest = { id: this.nextToSend, job: this.jobs[this.nextToSend], format: this.format };
            this.nextToSend++;
            worker.postMessage(request);
        }
    }

    private async stop(): Promise<void> {
        await Promise.all(this.all.map((worker) => worker.terminate()));
    }
}
