/**
 * Repair's default history (the annotation file's last commit: git runs for it) is asked only when a
 * ref's repair looks at it (operations/repair.ts): a file whose refs all hold runs no git, with a lock
 * beside it or not, and a broken ref still gets the history and its name in the evidence.
 */
import * as assert from "node:assert/strict";
import { Session, SessionDocument } from "../../server/src/core";
import { LOCK_VERSION, type LockFile } from "../../server/src/core/lock";
import { type RepairCapabilities, repairSteps, runSteps } from "../../server/src/operations/repair";
import { sha256 } from "../../server/src/workspace/sha256";

const BEFORE = "# Notes\n\nThe cache makes cold start 37% faster.\nOffline sync arrives in 2.4.\n";
/** Two lines inserted above the cited one: a ref written against BEFORE no longer resolves. */
const AFTER = "# Notes\n\nAdded.\nAdded too.\n\nThe cache makes cold start 37% faster.\nOffline sync arrives in 2.4.\n";

const annotationFile = (line: number) =>
    JSON.stringify({
        annotations: [
            {
                claim: { path: "doc.md", start: { line, str: "The cache" }, end: { line, str: "faster." } },
                sources: [
                    {
                        path: "doc.md",
                        start: { line: line + 1, str: "Offline" },
                        end: { line: line + 1, str: "2.4." },
                        polarity: "supports",
                        confidence: 0.9,
                    },
                ],
            },
        ],
    });

/** Capabilities over one document, counting how often the last commit is asked for. */
function capabilities(now: string, lock?: LockFile) {
    const asked = { lastCommit: 0 };
    const current = new Session([new SessionDocument("doc.md", now)]);
    const caps: RepairCapabilities = {
        documents: { get: (path) => current.get(path), candidatePaths: () => ["doc.md"] },
        lock: () => ({ path: "answer.sourcecheck.lock.json", lock }),
        history: {
            at: () => {
                throw new Error("no --since here");
            },
            lastCommit: () => {
                asked.lastCommit++;
                return { documents: new Session([new SessionDocument("doc.md", BEFORE)]), label: "commit 1a2b3c4" };
            },
        },
        sha256,
    };
    return { caps, asked };
}

describe("repair asks for the last commit only when a ref needs it", () => {
    it("refs that all hold: no history asked, with or without a lock beside the file", () => {
        const emptyLock: LockFile = {
            lockVersion: LOCK_VERSION,
            annotationFile: "answer.sourcecheck.json",
            entries: {},
        };
        for (const lock of [undefined, emptyLock]) {
            const { caps, asked } = capabilities(BEFORE, lock);
            const plan = runSteps(repairSteps({ text: annotationFile(3) }, caps));
            assert.deepEqual(plan.result.remaining, []);
            assert.deepEqual(plan.result.repairs, []);
            assert.equal(asked.lastCommit, 0, lock ? "with a lock" : "without a lock");
        }
    });

    it("a broken ref: the history is asked once, followed, and named in the evidence", () => {
        const { caps, asked } = capabilities(AFTER);
        const plan = runSteps(repairSteps({ text: annotationFile(3), detail: "full" }, caps));
        assert.equal(asked.lastCommit, 1);
        const certain = plan.result.repairs.filter((repair) => repair.certain);
        assert.equal(certain.length, 2);
        for (const repair of certain) {
            assert.equal(repair.evidenceKind, "history");
            assert.match(repair.evidence ?? "", /since commit 1a2b3c4 moved line/);
        }
        assert.equal(plan.repaired?.applied, 2);
    });
});
