// Side-by-side timing: both sides run alternately in one process after a warm-up, so machine noise
// hits both alike; which side goes first alternates too (caches, GC debt and CPU frequency favour
// neither side). A case is judged on the ratio of medians, never on absolute times.
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

async function timed(work) {
    const t0 = performance.now();
    await work();
    return performance.now() - t0;
}

/**
 * Time `ours` and `baseline` alternately: `warmup` discarded rounds, then `runs` measured ones (ms).
 * Even rounds run ours first, odd rounds the baseline first; memory is collected before each side.
 */
export async function sideBySide(ours, baseline, { runs = 5, warmup = 1 } = {}) {
    const a = [];
    const b = [];
    let oursFirst = 0;
    for (let i = 0; i < warmup + runs; i++) {
        let tOurs;
        let tBaseline;
        globalThis.gc?.();
        if (i % 2 === 0) {
            tOurs = await timed(ours);
            globalThis.gc?.();
            tBaseline = await timed(baseline);
        } else {
            tBaseline = await timed(baseline);
            globalThis.gc?.();
            tOurs = await timed(ours);
        }
        if (i >= warmup) {
            a.push(tOurs);
            b.push(tBaseline);
            if (i % 2 === 0) oursFirst++;
        }
    }
    return { ours: stats(a), baseline: stats(b), oursFirst, runs };
}

/** A CliIo for running the CLI in process: output dropped, errors shown. */
export function quietIo(cwd) {
    return {
        cwd,
        stdout() {},
        stderr(text) {
            process.stderr.write(text);
        },
        readStdin: () => Buffer.alloc(0),
        stdinIsPiped: false,
        version: "bench",
    };
}
