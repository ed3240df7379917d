// Locks (docs/lock.md), on the 100k-annotation workload of the cli case:
// - `sourcecheck lock` of a locked file nothing changed in, against `sourcecheck check` of the same
//   file (target <= 1.5x): the lock's basis holds, so its bytes are written again as they are;
// - the first `lock` (no lock yet) against `check` (no target; reported): every entry built and written;
// - `check` of a file with a lock beside it against the same file without one (target <= 1.3x), while
//   nothing changed (the basis holds: no entry read), and after one of the 20 documents changed (every
//   entry read and compared: reported against the same target).
// Both sides alternate in one process (measure.mjs).
import { appendFileSync, copyFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { quietIo, round, sideBySide } from "./measure.mjs";
import { makeWorkspace } from "./workload.mjs";

const require = createRequire(import.meta.url);
const { main } = require("../dist/cli.js");

function run(args, cwd, expected = 0) {
    const status = main(args, quietIo(cwd));
    if (status !== expected) throw new Error(`${args.join(" ")} exited ${status}`);
}

export async function lockCases({ scratch, smoke, record }) {
    const annotations = smoke ? 1_000 : 100_000;
    const workspace = makeWorkspace(join(scratch, "lock"), {
        annotations,
        totalBytes: smoke ? 2_000_000 : 50_000_000,
        documents: 20,
        seed: annotations,
    });
    const dir = workspace.dir;
    const locked = workspace.annotationFile;
    // The same annotations under a name with no lock beside it.
    const unlocked = join(dir, "unlocked.sourcecheck.json");
    copyFileSync(locked, unlocked);
    const lock = () => run(["lock", "--root", dir, locked], dir);
    lock();

    const lockVsCheck = await sideBySide(lock, () => run(["check", "--root", dir, locked], dir), {
        runs: 5,
        warmup: 1,
    });
    record(
        `lock vs check, ${annotations} annotations`,
        { ratio: lockVsCheck.ours.median / lockVsCheck.baseline.median },
        smoke ? undefined : 1.5,
        { ours: lockVsCheck.ours, baseline: lockVsCheck.baseline, baselineName: "check of the same file" },
    );
    const withLock = await sideBySide(
        () => run(["check", "--root", dir, locked], dir),
        () => run(["check", "--root", dir, unlocked], dir),
        { runs: 5, warmup: 1 },
    );
    record(
        `check with a lock vs without, ${annotations} annotations`,
        { ratio: withLock.ours.median / withLock.baseline.median },
        smoke ? undefined : 1.3,
        { ours: withLock.ours, baseline: withLock.baseline, baselineName: "check of the same annotations, no lock" },
    );
    const lockPath = locked.replace(/\.json$/, ".lock.json");
    const firstLock = await sideBySide(
        () => {
            rmSync(lockPath, { force: true });
            lock();
        },
        () => run(["check", "--root", dir, locked], dir),
        { runs: 3, warmup: 1 },
    );
    record(
        `first lock (no lock yet) vs check, ${annotations} annotations`,
        { ratio: firstLock.ours.median / firstLock.baseline.median },
        undefined,
        { ours: firstLock.ours, baseline: firstLock.baseline, baselineName: "check of the same file" },
    );
    // One document changed since the lock (a line added at its end: no ref moves, every entry is compared).
    appendFileSync(join(dir, "docs/source-0.md"), "\nA line added after the lock.\n");
    const changed = await sideBySide(
        () => run(["check", "--root", dir, locked], dir),
        () => run(["check", "--root", dir, unlocked], dir),
        { runs: 5, warmup: 1 },
    );
    record(
        `check with a lock vs without, one of 20 documents changed since the lock, ${annotations} annotations`,
        { ratio: changed.ours.median / changed.baseline.median },
        smoke ? undefined : 1.3,
        { ours: changed.ours, baseline: changed.baseline, baselineName: "check of the same annotations, no lock" },
    );
    return round(withLock.ours.median);
}
