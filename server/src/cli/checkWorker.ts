/**
 * A worker thread of `check --jobs N` (docs/ci.md). Started before the files are discovered; once
 * sent the list, it claims files in order from a shared counter (as the main thread does), checks
 * each and posts its output, then marks itself ended and exits. No message per file is needed to
 * hand work out, and the main thread reads the replies between its own files.
 */
import { parentPort, workerData } from "node:worker_threads";
import { checkFileInto, DocumentCache } from "./checkFile";
import {
    CHUNK_CHARS,
    failureOf,
    MAX_UNREAD,
    PieceBuffer,
    Slot,
    type WorkerSetup,
    type WorkOrder,
    type WorkReply,
} from "./checkProtocol";

const setup = workerData as WorkerSetup | undefined;
if (parentPort && setup) parentPort.once("message", (order: WorkOrder) => work(order, setup));

function work({ jobs, format, window }: WorkOrder, { slots, index, port }: WorkerSetup): void {
    const documents = new DocumentCache();
    const unread = Slot.unread(index);
    const post = (reply: WorkReply) => {
        Atomics.add(slots, unread, 1);
        port.postMessage(reply);
        Atomics.add(slots, Slot.posted, 1);
        Atomics.notify(slots, Slot.posted);
    };
    for (let id = Atomics.add(slots, Slot.next, 1); id < jobs.length; id = Atomics.add(slots, Slot.next, 1)) {
        // Within the window ahead of the output, so replies waiting their turn stay few.
        waitFor(slots, Slot.written, (written) => id < written + window);
        const buffer = new PieceBuffer();
        try {
            const totals = checkFileInto(
                jobs[id],
                format,
                (text, startsItem) => {
                    buffer.add(text, startsItem);
                    if (buffer.size < CHUNK_CHARS) return;
                    // A large output streams, once its file is the one being written, as fast as it
                    // is read: never held whole, here or in the main thread.
                    waitFor(slots, Slot.written, (written) => written >= id);
                    waitFor(slots, unread, (count) => count < MAX_UNREAD);
                    post({ id, pieces: buffer.take() });
                },
                documents,
            );
            post({ id, pieces: buffer.take(), totals });
        } catch (error) {
            post({ id, pieces: buffer.take(), failure: failureOf(error) });
        }
        documents.trim();
    }
    Atomics.store(slots, Slot.ended(index), 1);
}

/** Block this worker until a slot's value satisfies `ready`. */
function waitFor(slots: Int32Array, slot: number, ready: (value: number) => boolean): void {
    for (;;) {
        const value = Atomics.load(slots, slot);
        if (ready(value)) return;
        Atomics.wait(slots, slot, value);
    }
}
