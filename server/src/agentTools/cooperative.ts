/**
 * Running a long computation written as steps (a generator that yields between units of work) on the
 * one thread of a server without holding up its other callers: the steps run for a slice of time,
 * then other work gets its turn (docs/security.md, "Resource bounds").
 */

/** How long the steps run before other work gets its turn, in milliseconds. */
export const SLICE_MS = 10;

/** setImmediate on Node, a timer in a web worker, which has none (docs/web.md). */
const turn: (resolve: () => void) => void =
    typeof setImmediate === "function" ? (resolve) => setImmediate(resolve) : (resolve) => setTimeout(resolve, 0);

/**
 * One turn of the event loop: what is already queued (a cancellation, file events of a file written
 * just before a request) is handled before the caller goes on.
 */
export function nextTurn(): Promise<void> {
    return new Promise(turn);
}

/**
 * Thrown when the caller cancelled a computation between its steps (an LSP request the client
 * cancelled): nothing the steps computed is written; the language server answers RequestCancelled.
 */
export class OperationCancelled extends Error {
    constructor() {
        super("the operation was cancelled");
        this.name = "OperationCancelled";
    }
}

/** Whether the caller gave up; asked between steps. Absent: never. */
export type Cancelled = () => boolean;

/** Throws OperationCancelled once `cancelled` says so. */
export function throwIfCancelled(cancelled: Cancelled | undefined): void {
    if (cancelled?.()) throw new OperationCancelled();
}

export async function runCooperatively<T>(
    steps: Generator<void, T, void>,
    sliceMs = SLICE_MS,
    cancelled?: Cancelled,
): Promise<T> {
    let sliceStart = performance.now();
    let next = steps.next();
    while (!next.done) {
        if (performance.now() - sliceStart >= sliceMs) {
            await nextTurn();
            sliceStart = performance.now();
        }
        // Between steps (one annotation, one ref): a cancellation that arrived during the turn stops here.
        if (cancelled?.()) {
            steps.return(undefined as never);
            throw new OperationCancelled();
        }
        next = steps.next();
    }
    // Nor is a result computed after the cancellation returned (its caller would write it).
    throwIfCancelled(cancelled);
    return next.value;
}
