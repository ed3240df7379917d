/** Shared by the safe writer's tests (hardeningWrites, hardeningWritesKeep): a real temp folder, a refusal. */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { SafeWriteError } from "../../server/src/workspace/safeWrite";

/** A fresh folder under the system's temp folder, symlinks resolved (the writer compares real paths). */
export function tempDir(prefix: string): string {
    return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
}

/** The SafeWriteError `fn` throws; fails the test when it throws something else or nothing. */
export function refusal(fn: () => void): SafeWriteError {
    try {
        fn();
    } catch (error) {
        assert.ok(error instanceof SafeWriteError, `expected a SafeWriteError, got ${String(error)}`);
        return error;
    }
    assert.fail("the write was not refused");
}
