/**
 * Writes that lose nothing to another writer (docs/security.md, "Writes"), raced for real: the MCP
 * server's `annotate write:true` (the MCP disk context, whose write of an existing annotation file
 * is repair's too) against a worker thread that, at a random moment of each round, either rewrites
 * the file in place (`open(O_TRUNC)` + `write`, as many editors save) or gives it a second name (a
 * hard link). Lost edits and split files are counted, never time; so are the rounds that wrote and
 * the rounds refused, which proves the race was run, not avoided. Files live on tmpfs when there is
 * one, so that a round is not a flush to disk.
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Worker } from "node:worker_threads";
import type { ToolOutcome } from "../../server/src/agentTools/tools";
import { diskToolRunner } from "../../server/src/mcp/diskContext";

const ROUNDS = 10_000;
const FILE = "a.sourcecheck.json";

/**
 * The other writer. control[0]: the round to run (-1 stops it); control[1]: the last round done;
 * control[2]: how long to wait first, in microseconds (spinning, so it lands anywhere in the write).
 */
const OTHER_WRITER = `
const { workerData } = require("node:worker_threads");
const fs = require("node:fs");
const path = require("node:path");
const control = new Int32Array(workerData.shared);
let round = 0;
for (;;) {
    // Once per round: a wake-up that finds the same round (spurious, or a notify meant for the last
    // one) waits again, or the same link would be made twice (EEXIST under load, seen in CI).
    while (Atomics.load(control, 0) === round) Atomics.wait(control, 0, round);
    round = Atomics.load(control, 0);
    if (round < 0) break;
    const until = process.hrtime.bigint() + BigInt(control[2]) * 1000n;
    while (process.hrtime.bigint() < until);
    if (workerData.mode === "in-place") {
        const fd = fs.openSync(workerData.target, "w");
        fs.writeSync(fd, "// theirs " + round + "\\n" + workerData.body);
        fs.closeSync(fd);
    } else {
        try {
            fs.linkSync(workerData.target, path.join(path.dirname(workerData.target), "other-" + round + ".json"));
        } catch (error) {
            // The link found the old file by its name, and it had no name left when the link was made.
            if (error.code !== "ENOENT") throw error;
        }
    }
    Atomics.store(control, 1, round);
    Atomics.notify(control, 1);
}
`;

/** An annotation file with one annotation; each call below adds a second one. */
const BODY = `${JSON.stringify(
    {
        annotations: [
            {
                claim: { path: "answer.md", start: { line: 1, str: "The sky" }, end: { line: 1, str: "blue." } },
                sources: [
                    {
                        path: "source.md",
                        start: { line: 1, str: "the sky" },
                        end: { line: 1, str: "clear days" },
                        polarity: "supports",
                        confidence: 0.9,
                    },
                ],
            },
        ],
    },
    null,
    2,
)}\n`;
const ADDED = {
    claim: { path: "answer.md", quote: "Water is wet." },
    sources: [{ path: "source.md", quote: "Water is wet when it rains", polarity: "supports", confidence: 0.8 }],
};

interface Race {
    dir: string;
    target: string;
    control: Int32Array;
    worker: Worker;
    call: () => Promise<ToolOutcome>;
    /** What annotate makes of BODY (the marker line above it is kept as it is). */
    annotatedBody: string;
    /** One call's length on this machine now, in microseconds (it steers the other writer, never a verdict). */
    callMicros: number;
    /**
     * When the other writer acts, in microseconds after our call starts: around `center`, give or take
     * a tenth of a call. The center is steered towards the moment of our write: later when the other writer
     * came before it, earlier when after, so rounds keep landing on both sides of it and in it.
     */
    center: number;
}

async function startRace(mode: "in-place" | "hard-link"): Promise<Race> {
    const tmp = fs.existsSync("/dev/shm") ? "/dev/shm" : os.tmpdir();
    const dir = fs.realpathSync(fs.mkdtempSync(path.join(tmp, "sourcecheck-race-")));
    fs.writeFileSync(path.join(dir, "answer.md"), "The sky is blue.\nWater is wet.\n");
    fs.writeFileSync(
        path.join(dir, "source.md"),
        "Observations: the sky is blue on clear days.\nWater is wet when it rains.\n",
    );
    const target = path.join(dir, FILE);
    const run = diskToolRunner(dir);
    const call = () => run("annotate", { file: FILE, annotations: [ADDED], write: true });
    fs.writeFileSync(target, `// warm-up\n${BODY}`);
    const warm = await call();
    assert.ok(warm.ok, JSON.stringify(warm));
    const annotatedBody = fs.readFileSync(target, "utf8").replace("// warm-up\n", "");
    assert.notEqual(annotatedBody, BODY);
    // The length of a call as this machine runs it now (it steers the other writer only, never a verdict).
    const started = process.hrtime.bigint();
    for (let i = 0; i < 20; i++) {
        fs.writeFileSync(target, BODY);
        await call();
    }
    const callMicros = Number(process.hrtime.bigint() - started) / 20 / 1000;
    const shared = new SharedArrayBuffer(12);
    const control = new Int32Array(shared);
    const worker = new Worker(OTHER_WRITER, { eval: true, workerData: { shared, target, mode, body: BODY } });
    return { dir, target, control, worker, call, annotatedBody, callMicros, center: callMicros / 2 };
}

/** One round: the other writer set off, our call made meanwhile, both finished; the call's outcome. */
async function raceRound(race: Race, round: number): Promise<ToolOutcome> {
    const { control } = race;
    control[2] = Math.max(0, Math.floor(race.center + (Math.random() - 0.5) * 0.2 * race.callMicros));
    Atomics.store(control, 0, round);
    Atomics.notify(control, 0);
    const started = process.hrtime.bigint();
    const outcome = await race.call();
    race.callMicros = 0.95 * race.callMicros + 0.05 * (Number(process.hrtime.bigint() - started) / 1000);
    // A worker that died never answers: fail after a minute of waits rather than hang.
    for (let waits = 0; Atomics.load(control, 1) !== round; waits++) {
        assert.ok(waits < 60, `the other writer did not finish round ${round}`);
        Atomics.wait(control, 1, Atomics.load(control, 1), 1000);
    }
    return outcome;
}

/** The other writer came before our write (`1`: act later next time) or after it (`-1`: earlier). */
function steer(race: Race, side: 1 | -1): void {
    race.center = Math.max(0, race.center + side * 0.03 * race.callMicros);
}

async function stopRace(race: Race): Promise<void> {
    Atomics.store(race.control, 0, -1);
    Atomics.notify(race.control, 0);
    await race.worker.terminate();
    fs.rmSync(race.dir, { recursive: true, force: true });
}

/**
 * The outcome's kind: written, refused by the writer (and its clause), or nothing written for another
 * reason (the call read the file between the other writer's truncate and its write: not JSON).
 */
function kindOf(outcome: ToolOutcome): { wrote: boolean; refusal?: string } {
    if (outcome.ok) return { wrote: outcome.structured.written === true };
    if (outcome.error.code !== "write-failed") return { wrote: false };
    return { wrote: false, refusal: outcome.error.message };
}

describe("hardening: writes raced by another writer lose nothing", function () {
    this.timeout(600_000);

    it(`${ROUNDS.toLocaleString("en-US")} rounds of MCP annotate against open(O_TRUNC) + write: 0 edits lost`, async () => {
        const race = await startRace("in-place");
        const tally = { lost: 0, empty: 0, wroteThenTheirs: 0, wroteOnTheirs: 0, refused: 0, putBack: 0, other: 0 };
        const lost: string[] = [];
        try {
            for (let round = 1; round <= ROUNDS; round++) {
                fs.writeFileSync(race.target, `// base ${round}\n${BODY}`);
                const { wrote, refusal } = kindOf(await raceRound(race, round));
                const theirs = `// theirs ${round}\n${BODY}`;
                const now = fs.readFileSync(race.target, "utf8");
                // The other writer wrote in every round: its text must be there, as it wrote it, or with
                // our annotation added when our call read it first.
                if (now === "") tally.empty++;
                if (now !== theirs && now !== `// theirs ${round}\n${race.annotatedBody}`) {
                    tally.lost++;
                    if (lost.length < 3) lost.push(`round ${round}: ${refusal ?? wrote}: ${JSON.stringify(now)}`);
                }
                if (wrote && now === theirs) {
                    tally.wroteThenTheirs++;
                    steer(race, -1);
                } else if (wrote) {
                    tally.wroteOnTheirs++;
                    steer(race, 1);
                } else if (refusal && /changed by someone else/.test(refusal)) {
                    tally.refused++;
                    // Inside our write's window: wander either way, so the rounds keep landing on all three
                    // sides of it whatever the call's speed (unsteered, a slower call stayed refused).
                    steer(race, Math.random() < 0.5 ? 1 : -1);
                    if (/put back/.test(refusal)) tally.putBack++;
                } else tally.other++;
            }
        } finally {
            await stopRace(race);
        }
        const report = JSON.stringify(tally);
        console.log(`      in-place race: ${report}`);
        assert.deepEqual({ lost: tally.lost, empty: tally.empty }, { lost: 0, empty: 0 }, `${report} ${lost}`);
        // The race was run on every side: at least 2% of the rounds each wrote before the other writer,
        // wrote over its text, and were refused (it came in between). How the rest split depends on how
        // long the call's read-to-write span is on this machine, so only the floor is held.
        const floor = ROUNDS / 50;
        assert.ok(tally.wroteThenTheirs >= floor && tally.wroteOnTheirs >= floor && tally.refused >= floor, report);
    });

    it(`${ROUNDS.toLocaleString("en-US")} rounds of MCP annotate against a hard-link maker: 0 files split`, async () => {
        const race = await startRace("hard-link");
        const tally = { split: 0, wrote: 0, refused: 0, putBack: 0, other: 0, linkFailed: 0 };
        try {
            for (let round = 1; round <= ROUNDS; round++) {
                fs.writeFileSync(race.target, `// base ${round}\n${BODY}`);
                const { wrote, refusal } = kindOf(await raceRound(race, round));
                const other = path.join(race.dir, `other-${round}.json`);
                // Both names must lead to one file, whatever the order: a split leaves one on the old text.
                // (A link that found the old file after it lost its last name fails: no second name, no split.)
                if (!fs.existsSync(other)) tally.linkFailed++;
                else if (fs.statSync(race.target).ino !== fs.statSync(other).ino) tally.split++;
                // Refused: the link came before our rename (or just after, and was put back).
                if (wrote) {
                    tally.wrote++;
                    steer(race, -1);
                } else if (refusal && /hard link/.test(refusal)) {
                    steer(race, 1);
                    tally.refused++;
                    if (/put back/.test(refusal)) tally.putBack++;
                } else tally.other++;
                fs.rmSync(other, { force: true });
            }
        } finally {
            await stopRace(race);
        }
        const report = JSON.stringify(tally);
        console.log(`      hard-link race: ${report}`);
        assert.equal(tally.split, 0, report);
        assert.ok(tally.wrote >= ROUNDS / 10, report);
        assert.ok(tally.refused >= ROUNDS / 10, report);
    });
});
