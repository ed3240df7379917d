/**
 * A lock is streamed through one 1 MB buffer when its basis is compared (workspace/lockFiles.ts), and
 * the entries of refs into changed documents are picked out line by line as it streams. The locks of
 * the property test (lockBasis.test.ts) fit in one chunk; this one is several megabytes, so entry
 * lines straddle the chunks. The oracle is the whole lock parsed and filtered by path.
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { changedDocuments, parseLock } from "../../server/src/core/lock";
import { DiskDocuments } from "../../server/src/workspace/diskDocuments";
import { entriesFor, isLockOnBasis, readLockOnBasis, sha256 } from "../../server/src/workspace/lockFiles";
import { runCli } from "./cliRun";

const LINES = 3000;

describe("a lock of several megabytes streamed for its basis", () => {
    let dir: string;
    before(function () {
        this.timeout(120_000);
        dir = fs.mkdtempSync(path.join(os.tmpdir(), "sourcecheck-lockstream-"));
        fs.mkdirSync(path.join(dir, "docs"));
        const line = (doc: string, i: number) =>
            `${doc} line ${i} says naïve thing number ${i} about queue ${i * 7} and ends here ${i}.`;
        for (const doc of ["a", "b", "c"])
            fs.writeFileSync(
                path.join(dir, `docs/${doc}.md`),
                `${Array.from({ length: LINES }, (_, i) => line(doc, i + 1)).join("\n")}\n`,
            );
        const ref = (doc: string, i: number) => ({
            path: `docs/${doc}.md`,
            start: { line: i, str: `${doc} line ${i} says` },
            end: { line: i, str: `ends here ${i}.` },
        });
        const annotations = Array.from({ length: LINES }, (_, k) => ({
            claim: ref("a", k + 1),
            sources: [
                { ...ref("b", k + 1), polarity: "supports", confidence: 0.9 },
                { ...ref("c", k + 1), polarity: "supports", confidence: 0.9 },
            ],
        }));
        fs.writeFileSync(path.join(dir, "a.sourcecheck.json"), `${JSON.stringify({ annotations }, null, 2)}\n`);
        const locked = runCli(["lock", "--root", dir, path.join(dir, "a.sourcecheck.json")], { cwd: dir });
        assert.equal(locked.status, 0, locked.stderr);
    });
    after(() => fs.rmSync(dir, { recursive: true, force: true }));

    it("picks out exactly the entries of the changed document, lines across chunks included", () => {
        const lockPath = path.join(dir, "a.sourcecheck.lock.json");
        const size = fs.statSync(lockPath).size;
        assert.ok(size > 3 * 1024 * 1024, `the lock is only ${size} bytes: it must span several chunks`);
        fs.appendFileSync(path.join(dir, "docs/b.md"), "A line added after the lock.\n");
        const annotationFile = path.join(dir, "a.sourcecheck.json");
        const text = fs.readFileSync(annotationFile, "utf8");
        const read = readLockOnBasis(annotationFile, () => sha256(text));
        assert.ok(isLockOnBasis(read));
        const changed = changedDocuments(read.basis, new DiskDocuments(dir), sha256);
        assert.deepEqual([...changed], ["docs/b.md"]);
        const partial = entriesFor(read, changed, "a.sourcecheck.json");
        assert.ok(partial, "the streamed entries were refused");
        const whole = parseLock(fs.readFileSync(lockPath, "utf8"), "a.sourcecheck.json").lock;
        assert.ok(whole);
        const expected = Object.entries(whole.entries).filter(([, entry]) => entry.ref.path === "docs/b.md");
        assert.equal(expected.length, LINES);
        assert.deepEqual(Object.entries(partial.entries), expected);
    });

    it("refuses the streamed entries when the lock's entries changed after its basis was read", () => {
        const annotationFile = path.join(dir, "a.sourcecheck.json");
        const lockPath = path.join(dir, "a.sourcecheck.lock.json");
        const text = fs.readFileSync(annotationFile, "utf8");
        const read = readLockOnBasis(annotationFile, () => sha256(text));
        assert.ok(isLockOnBasis(read));
        const original = fs.readFileSync(lockPath);
        try {
            fs.writeFileSync(
                lockPath,
                original.toString("utf8").replace("naïve thing number 2999", "naive thing number 2999"),
            );
            assert.equal(entriesFor(read, new Set(["docs/b.md"]), "a.sourcecheck.json"), undefined);
            assert.equal(read.bytes(), undefined);
        } finally {
            fs.writeFileSync(lockPath, original);
        }
    });

    it("check says what it says with the same lock read whole (its basis removed)", function () {
        this.timeout(120_000);
        const annotationFile = path.join(dir, "a.sourcecheck.json");
        const lockPath = path.join(dir, "a.sourcecheck.lock.json");
        const streamed = runCli(["check", "--json", "--root", dir, annotationFile], { cwd: dir });
        const original = fs.readFileSync(lockPath, "utf8");
        try {
            const value = JSON.parse(original);
            delete value.basis;
            fs.writeFileSync(lockPath, `${JSON.stringify(value, null, 2)}\n`);
            const whole = runCli(["check", "--json", "--root", dir, annotationFile], { cwd: dir });
            assert.equal(streamed.stdout, whole.stdout);
            assert.equal(streamed.status, whole.status);
        } finally {
            fs.writeFileSync(lockPath, original);
        }
    });
});
