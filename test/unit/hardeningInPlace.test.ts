/**
 * Writes that lose nothing to an editor writing in place (docs/security.md, "Writes"): a worker
 * thread truncates and writes the target (`open(O_TRUNC)` + `write`, as many editors save) at a
 * random moment during each safe write. Whatever the order, the other writer wrote last in every
 * round, so the file must end holding its bytes: lost edits are counted, never time.
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Worker } from "node:worker_threads";
import { SafeWriteError, snapshotOf, writeFileSafely } from "../../server/src/workspace/safeWrite";

const ROUNDS = 10_000;

/** The other writer: waits for a round, spins a random while, then rewrites the file in place. */
const WRITER = `
const { workerData } = require("node:worker_threads");
const fs = require("node:fs");
const control = new Int32Array(workerData.shared);
let round = 0;
for (;;) {
    Atomics.wait(control, 0, round);
    round = Atomics.load(control, 0);
    if (round < 0) break;
    const spin = control[2];
    for (let i = 0; i < spin; i++) Math.sqrt(i);
    const fd = fs.openSync(workerData.target, "w");
    fs.writeSync(fd, "theirs " + round + "\\n");
    fs.closeSync(fd);
    Atomics.store(control, 1, round);
    Atomics.notify(control, 1);
}
`;

describe("hardening: writes that lose nothing to in-place writers", () => {
    it(`${ROUNDS.toLocaleString("en-US")} rounds against open(O_TRUNC) + write: 0 edits lost, never left empty`, async function () {
        this.timeout(600_000);
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sourcecheck-inplace-"));
        const target = path.join(dir, "a.sourcecheck.json");
        const shared = new SharedArrayBuffer(12);
        const control = new Int32Array(shared);
        const worker = new Worker(WRITER, { eval: true, workerData: { shared, target } });
        const tally = { lost: 0, empty: 0, refused: 0, written: 0 };
        try {
            for (let round = 1; round <= ROUNDS; round++) {
                fs.writeFileSync(target, `base ${round}\n`);
                const bytes = fs.readFileSync(target);
                const expected = snapshotOf(fs.statSync(target), bytes);
                control[2] = Math.floor(Math.random() * 40_000);
                Atomics.store(control, 0, round);
                Atomics.notify(control, 0);
                try {
                    writeFileSafely(target, `ours ${round}\n`, { expected, fsync: false });
                    tally.written++;
                } catch (error) {
                    assert.ok(error instanceof SafeWriteError, String(error));
                    assert.equal(error.code, "changed");
                    tally.refused++;
                }
                while (Atomics.load(control, 1) !== round) Atomics.wait(control, 1, Atomics.load(control, 1), 1000);
                const now = fs.readFileSync(target, "utf8");
                if (now === "") tally.empty++;
                if (now !== `theirs ${round}\n`) tally.lost++;
            }
        } finally {
            Atomics.store(control, 0, -1);
            Atomics.notify(control, 0);
            await worker.terminate();
            fs.rmSync(dir, { recursive: true, force: true });
        }
        assert.deepEqual({ lost: tally.lost, empty: tally.empty }, { lost: 0, empty: 0 }, JSON.stringify(tally));
        assert.equal(tally.written + tally.refused, ROUNDS);
        // Both orders happened: the race was run, not avoided.
        assert.ok(tally.written > 0 && tally.refused > 0, JSON.stringify(tally));
    });
});
