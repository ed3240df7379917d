/**
 * The language server's lock reader (workspace/lockFiles.ts) parses a lock again only when it
 * changed on disk: the same read while unchanged, a fresh one after a write, none once deleted.
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { LockReader } from "../../server/src/workspace/lockFiles";

describe("lock reader: parsed again only when the lock changes", () => {
    it("returns the same read while the lock is unchanged, a new one after a write, none after a delete", () => {
        const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "sourcecheck-lockreader-")));
        const annotations = path.join(dir, "a.sourcecheck.json");
        const lock = path.join(dir, "a.sourcecheck.lock.json");
        fs.writeFileSync(annotations, '{ "annotations": [] }\n');
        const reader = new LockReader();
        assert.deepEqual(reader.readBeside(annotations), { path: lock }, "no lock yet");
        fs.writeFileSync(lock, '{ "lockVersion": 1, "annotationFile": "a.sourcecheck.json", "entries": {} }\n');
        const fresh = reader.readBeside(annotations);
        assert.notEqual(
            reader.readBeside(annotations),
            fresh,
            "written moments ago: read again (it may change in the same tick)",
        );
        // Settled: last written a minute ago.
        const past = new Date(Date.now() - 60_000);
        fs.utimesSync(lock, past, past);
        const first = reader.readBeside(annotations);
        assert.deepEqual(first.lock?.entries, {});
        assert.equal(reader.readBeside(annotations), first, "unchanged: not parsed again");
        fs.writeFileSync(lock, "{ not json, and longer than before }\n");
        const second = reader.readBeside(annotations);
        assert.notEqual(second, first);
        assert.equal(second.error?.code, "lock-invalid-json");
        fs.rmSync(lock);
        assert.deepEqual(reader.readBeside(annotations), { path: lock });
    });
});
