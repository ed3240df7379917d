/**
 * What the main thread and the worker threads of `check --jobs N` share (docs/ci.md): the slots of
 * a SharedArrayBuffer through which files are claimed and progress is seen, and the messages.
 */
import type { MessagePort } from "node:worker_threads";
import type { FileJob, FileTotals, OutputFormat } from "./checkFile";
import { isCliError } from "./files";

/** Slots of the shared Int32Array. */
export const Slot = {
    /** The next file index to claim (Atomics.add): every thread takes files in list order. */
    next: 0,
    /** Files written so far, in list order: a worker stays within a window ahead of it. */
    written: 1,
    /** Replies posted by all workers: the main thread waits on it when it has nothing to check. */
    posted: 2,
    /** 1 once worker i has checked its last file. */
    ended: (worker: number) => 3 + 2 * worker,
    /** Replies of worker i posted and not yet read: a worker streaming a large file stays a few ahead. */
    unread: (worker: number) => 4 + 2 * worker,
} as const;

/** Chunks of a file a worker may have posted and the main thread not yet read. */
export const MAX_UNREAD = 4;

export function sharedSlots(workers: number): Int32Array {
    return new Int32Array(new SharedArrayBuffer(Slot.ended(workers) * Int32Array.BYTES_PER_ELEMENT));
}

/** Given to a worker at start, before the files are known. */
export interface WorkerSetup {
    slots: Int32Array;
    index: number;
    /** Replies go here; the main thread reads them synchronously between its own files. */
    port: MessagePort;
}

/** Sent once the files are known. */
export interface WorkOrder {
    jobs: FileJob[];
    format: OutputFormat;
    /** How far ahead of the written output a file may be claimed. */
    window: number;
}

/** Output of a file: `startsItem` puts the item separator before the text. */
export interface Piece {
    text: string;
    startsItem: boolean;
}

export interface Failure {
    message: string;
    /** Not a CliError: an internal error (exit 3), as in one thread. */
    internal: boolean;
}

/** An error thrown while checking a file, as it travels between threads. */
export function failureOf(error: unknown): Failure {
    return { message: error instanceof Error ? error.message : String(error), internal: !isCliError(error) };
}

/** Pieces of file `id`; with `totals` or `failure` the file is complete. */
export interface WorkReply {
    id: number;
    pieces: Piece[];
    totals?: FileTotals;
    failure?: Failure;
}

/** Output buffered per file before it is handed on (a file's pieces are concatenated up to this). */
export const CHUNK_CHARS = 256 * 1024;

/** A file's pieces collected: text after a piece joins it, until an item starts or the chunk is full. */
export class PieceBuffer {
    pieces: Piece[] = [];
    size = 0;

    add(text: string, startsItem: boolean): void {
        const last = this.pieces[this.pieces.length - 1];
        if (startsItem || !last) this.pieces.push({ text, startsItem });
        else last.text += text;
        this.size += text.length;
    }

    take(): Piece[] {
        const pieces = this.pieces;
        this.pieces = [];
        this.size = 0;
        return pieces;
    }
}
