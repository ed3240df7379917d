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
 * Lock-anchored repair (docs/repair.md, "Evidence"): the same workload locked before lines are
 * inserted at the top of every source, so that every moved ref is repaired from its locked text,
 * against a plain `check` of the drifted file. The lock is written with the core's own lock module
 * (core/lock, compiled to out/ by `tsc -p .`).
 */
export async function repairLockCases({ scratch, smoke, record }) {
    const { relock, serializeLock } = require("../out/server/src/core/lock");
    const { createHash } = await import("node:crypto");
    const sha256 = (text) => createHash("sha256").update(text, "utf8").digest("hex");
    const annotations = smoke ? 600 : 6_700;
    const workspace = makeWorkspace(join(scratch, "repair-lock"), {
        annotations,
        totalBytes: annotations * 500,
        documents: 20,
        seed: 11,
    });
    const cache = new Map();
    const documents = {
        get(path) {
            if (!cache.has(path)) {
                cache.set(path, new core.SessionDocument(path, readFileSync(join(workspace.dir, path), "utf8")));
            }
            return cache.get(path);
        },
    };
    const value = JSON.parse(readFileSync(workspace.annotationFile, "utf8"));
    const checked = core.checkInput(value, documents, [], { keepAnnotations: true, keepEntries: false });
    const sites = checked.annotations.flatMap((a) => [
        { ref: a.claim, resolution: a.claimResolution },
        ...a.sources.map((s) => ({ ref: s.ref, resolution: s.resolution })),
    ]);
    const { lock } = relock(undefined, "answer.sourcecheck.json", sites, documents, sha256, {
        acceptChangedText: true,
    });
    writeFileSync(join(workspace.dir, "answer.sourcecheck.lock.json"), serializeLock(lock));
    breakSources(workspace, 3);
    const broken = brokenRefs(workspace);
    const run = (command) => main([command, "--root", workspace.dir, workspace.annotationFile], quietIo(workspace.dir));
    if (run("check") !== 1) throw new Error("the broken workload should fail the check");
    if (run("repair") === 2) throw new Error("repair failed on the locked workload");
    const measured = alternated(
        () => run("repair"),
        () => run("check"),
        { runs: smoke ? 3 : 7, warmup: 1 },
    );
    record(
        `lock-anchored repair vs check, ${broken} refs broken by lines inserted above them, every ref locked`,
        { ratio: measured.ours.median / measured.baseline.median },
        3.0,
        { ours: measured.ours, baseline: measured.baseline, baselineName: "sourcecheck check of the same file" },
    );
}
