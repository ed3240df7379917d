// Repair benchmark (docs/repair.md): `sourcecheck repair` of a file whose refs were all broken by
// lines inserted at the top of every cited source, against a plain `sourcecheck check` of the same
// file, timed side by side with the order of the sides alternating.
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { quietIo, stats } from "./measure.mjs";
import { makeWorkspace } from "./workload.mjs";

const require = createRequire(import.meta.url);
const { main } = require("../dist/cli.js");
const core = require("../dist/index.js");

/** Lines inserted at the top of every source document: every ref into it moves by that much. */
function breakSources(workspace, lines) {
    for (const path of workspace.documents.filter((p) => p.startsWith("docs/"))) {
        const file = join(workspace.dir, path);
        writeFileSync(
            file,
            `${Array.from({ length: lines }, (_, i) => `Inserted note ${i}.`).join("\n")}\n${readFileSync(file, "utf8")}`,
        );
    }
}

function brokenRefs(workspace) {
    const value = JSON.parse(readFileSync(workspace.annotationFile, "utf8"));
    const lookup = { cache: new Map() };
    const documents = {
        get(path) {
            if (!lookup.cache.has(path)) {
                lookup.cache.set(path, new core.SessionDocument(path, readFileSync(join(workspace.dir, path), "utf8")));
            }
            return lookup.cache.get(path);
        },
    };
    const result = core.checkInput(value, documents, [], { keepEntries: false });
    return new Set(result.problems.map((p) => p.pointer.replace(/\/(start|end|path).*$/, ""))).size;
}

/** Both sides timed in one process, which goes first alternating round by round (ms). */
function alternated(ours, baseline, { runs, warmup }) {
    const a = [];
    const b = [];
    for (let i = 0; i < warmup + runs; i++) {
        const order = i % 2 === 0 ? [ours, baseline] : [baseline, ours];
        const times = order.map((side) => {
            const t0 = performance.now();
            side();
            return performance.now() - t0;
        });
        const [tOurs, tBase] = i % 2 === 0 ? times : [times[1], times[0]];
        if (i >= warmup) {
            a.push(tOurs);
            b.push(tBase);
        }
        globalThis.gc?.();
    }
    return { ours: stats(a), baseline: stats(b) };
}

export async function repairCases({ scratch, smoke, record }) {
    const annotations = smoke ? 600 : 6_700;
    const workspace = makeWorkspace(join(scratch, "repair"), {
        annotations,
        totalBytes: annotations * 500,
        documents: 20,
        seed: 11,
    });
    breakSources(workspace, 3);
    const broken = brokenRefs(workspace);
    const run = (command) => main([command, "--root", workspace.dir, workspace.annotationFile], quietIo(workspace.dir));
    // Sanity: the plain check fails, and the repair runs to its verdict (the pseudo-prose's tiny
    // vocabulary makes some refs honestly undecidable, so not every repair is certain).
    if (run("check") !== 1) throw new Error("the broken workload should fail the check");
    if (run("repair") === 2) throw new Error("repair failed on the workload");
    const measured = alternated(
        () => run("repair"),
        () => run("check"),
        { runs: smoke ? 3 : 7, warmup: 1 },
    );
    record(
        `repair vs check, ${broken} refs broken by lines inserted above them`,
        { ratio: measured.ours.median / measured.baseline.median },
        3.0,
        { ours: measured.ours, baseline: measured.baseline, baselineName: "sourcecheck check of the same file" },
    );
}

/**
 * Lock-anchored repair (docs/repair.md, "Evidence"): the same workload locked (`sourcecheck lock`)
 * before lines are inserted at the top of every source, so that every moved ref is repaired from
 * its locked text, against a plain `sourcecheck check` of the drifted file (which reads the lock too).
 * The run fails unless the lock holds every ref and most repairs name it as their evidence: an
 * earlier version wrote its lock through a second copy of the core, got an empty lock, and so timed
 * repair without a lock under this row's name.
 */
export async function repairLockCases({ scratch, smoke, record }) {
    const annotations = smoke ? 600 : 6_700;
    const workspace = makeWorkspace(join(scratch, "repair-lock"), {
        annotations,
        totalBytes: annotations * 500,
        documents: 20,
        seed: 11,
    });
    const lockArgs = ["lock", "--root", workspace.dir, workspace.annotationFile];
    if (main(lockArgs, quietIo(workspace.dir)) !== 0) throw new Error("sourcecheck lock failed on the workload");
    const lockFile = workspace.annotationFile.replace(/\.json$/, ".lock.json");
    const entries = Object.keys(JSON.parse(readFileSync(lockFile, "utf8")).entries).length;
    if (entries === 0) throw new Error("the lock of the workload has no entries");
    breakSources(workspace, 3);
    const broken = brokenRefs(workspace);
    const run = (command) => main([command, "--root", workspace.dir, workspace.annotationFile], quietIo(workspace.dir));
    if (run("check") !== 1) throw new Error("the broken workload should fail the check");
    if (run("repair") === 2) throw new Error("repair failed on the locked workload");
    const byLock = lockEvidenceShare(workspace);
    if (byLock < 0.9) throw new Error(`only ${Math.round(byLock * 100)}% of the repairs rest on the lock`);
    const measured = alternated(
        () => run("repair"),
        () => run("check"),
        { runs: smoke ? 3 : 7, warmup: 1 },
    );
    record(
        `lock-anchored repair vs check, ${broken} refs broken by lines inserted above them, every ref locked`,
        { ratio: measured.ours.median / measured.baseline.median },
        3.0,
        {
            ours: measured.ours,
            baseline: measured.baseline,
            baselineName: "sourcecheck check of the same file",
            repairedFromLock: Math.round(byLock * 1000) / 1000,
        },
    );
}

/** The share of certain repairs whose evidence is the lock (`repair --json`). */
function lockEvidenceShare(workspace) {
    let out = "";
    const io = { ...quietIo(workspace.dir), stdout: (t) => (out += t) };
    main(["repair", "--json", "--root", workspace.dir, workspace.annotationFile], io);
    const certain = JSON.parse(out).repairs.filter((r) => r.certain);
    return certain.length === 0 ? 0 : certain.filter((r) => r.evidenceKind === "lock").length / certain.length;
}
