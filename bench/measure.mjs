// Side-by-side timing: both sides run alternately in one process after a warm-up, so machine noise
// hits both alike; a case is judged on the ratio of medians, never on absolute times.
import { performance } from "node:perf_hooks";

export function stats(samples) {
    const sorted = [...samples].sort((a, b) => a - b);
    const median =
        sorted.length % 2
            ? sorted[(sorted.length - 1) / 2]
            : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
    return { min: round(sorted[0]), median: round(median), max: round(sorted.at(-1)), runs: sorted.length };
}

export function round(value, digits = 3) {
    const f = 10 ** digits;
    return Math.round(value * f) / f;
}

/** Time `ours` and `baseline` alternately: `warmup` discarded rounds, then `runs` measured ones (ms). */
export async function sideBySide(ours, baseline, { runs = 5, warmup = 1 } = {}) {
    const a = [];
    const b = [];
    for (let i = 0; i < warmup + runs; i++) {
        const t0 = performance.now();
        await ours();
        const t1 = performance.now();
        await baseline();
        const t2 = performance.now();
        if (i >= warmup) {
            a.push(t1 - t0);
            b.push(t2 - t1);
        }
        globalThis.gc?.();
    }
    return { ours: stats(a), baseline: stats(b) };
}
