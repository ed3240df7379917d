/**
 * Running a long computation written as steps (a generator that yields between units of work) on the
 * one thread of a server without holding up its other callers: the steps run for a slice of time,
 * then other work gets its turn (docs/security.md, "Resource bounds").
 */

/** How long the steps run before other work gets its turn, in milliseconds. */
export const SLICE_MS = 10;

export async function runCooperatively<T>(steps: Generator<void, T, void>, sliceMs = SLICE_MS): Promise<T> {
    let sliceStart = performance.now();
    let next = steps.next();
    while (!next.done) {
        if (performance.now() - sliceStart >= sliceMs) {
            await new Promise((resolve) => setImmediate(resolve));
            sliceStart = performance.now();
        }
        next = steps.next();
    }
    return next.value;
}
