/**
 * Writes that lose nothing (issue 35 item 5; docs/security.md, "Writes"): an edit slipped in between
 * the last check and the rename is put back, a hard-linked file is refused rather than split, and a
 * temp file left by a killed write is removed when the next write to the same target starts.
 */
import * as assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { readTextFile } from "../../server/src/workspace/safeFile";
import { writeFileSafely } from "../../server/src/workspace/safeWrite";
import { runCli } from "./cliRun";
import { refusal, tempDir as sharedTempDir } from "./safeWriteRefusal";

const tempDir = () => sharedTempDir("sourcecheck-keep-");

/** Run `fn` with fs.renameSync calling `before(from, to)` first (the writer's last step, found by fault injection). */
function aroundRename<T>(before: (from: string, to: string) => void, fn: () => T): T {
    // The module itself (`import * as` gives a view of getters over it).
    const real = (fs as unknown as { default: { renameSync: typeof fs.renameSync } }).default;
    const original = real.renameSync;
    real.renameSync = (from, to) => {
        before(String(from), String(to));
        original(from, to);
    };
    try {
        return fn();
    } finally {
        real.renameSync = original;
    }
}

describe("hardening: writes that lose nothing", () => {
    it("an edit written into the file between the last check and the rename is put back, and the write refused", () => {
        const dir = tempDir();
        try {
            const target = path.join(dir, "a.sourcecheck.json");
            fs.writeFileSync(target, "[]\n", { mode: 0o640 });
            fs.chmodSync(target, 0o640);
            const read = readTextFile(target, { snapshot: true });
            assert.ok(read.ok && read.snapshot);
            let renames = 0;
            const error = refusal(() =>
                aroundRename(
                    (_from, to) => {
                        // The other edit lands in the very window the last compare cannot see: just before the rename.
                        if (renames++ === 0 && path.basename(to) === "a.sourcecheck.json")
                            fs.writeFileSync(target, "THEIRS\n");
                    },
                    () => writeFileSafely(target, "OURS\n", { expected: read.snapshot }),
                ),
            );
            assert.equal(error.code, "changed");
            assert.match(error.message, /their edit was put back/);
            assert.equal(fs.readFileSync(target, "utf8"), "THEIRS\n");
            assert.equal(fs.statSync(target).mode & 0o777, 0o640, "the restored file keeps its mode");
            assert.deepEqual(
                fs.readdirSync(dir).filter((name) => name.endsWith(".tmp")),
                [],
                "no temp file left",
            );
            // Without a slipped-in edit the same write goes through.
            const again = readTextFile(target, { snapshot: true });
            assert.ok(again.ok);
            writeFileSafely(target, "OURS\n", { expected: again.snapshot });
            assert.equal(fs.readFileSync(target, "utf8"), "OURS\n");
        } finally {
            fs.rmSync(dir, { recursive: true, force: true });
        }
    });

    it("a file with two names (a hard link) is refused with code hard-link, both names untouched", () => {
        const dir = tempDir();
        try {
            const target = path.join(dir, "session.json");
            const other = path.join(dir, "other-name.json");
            fs.writeFileSync(target, "OLD\n");
            fs.linkSync(target, other);
            const error = refusal(() => writeFileSafely(target, "NEW\n"));
            assert.equal(error.code, "hard-link");
            assert.match(error.message, /2 names \(hard links\)/);
            assert.equal(fs.readFileSync(target, "utf8"), "OLD\n");
            assert.equal(fs.statSync(target).ino, fs.statSync(other).ino, "still one file");
            // Through the CLI: exit 2, a one-line reason.
            fs.writeFileSync(path.join(dir, "doc.md"), "Text.\n");
            const run = runCli(["session", "doc.md", "-o", "session.json"], { cwd: dir });
            assert.equal(run.status, 2, run.stderr);
            assert.match(run.stderr, /cannot write session\.json: it has 2 names \(hard links\)/);
            assert.equal(fs.readFileSync(other, "utf8"), "OLD\n");
        } finally {
            fs.rmSync(dir, { recursive: true, force: true });
        }
    });

    it("temp files are named .NAME.sourcecheck-PID-….tmp; one of a process that is gone is removed by the next write", async () => {
        const dir = tempDir();
        const sleeper = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"]);
        try {
            const target = path.join(dir, "out.html");
            // A pid that certainly ended: a process that has exited.
            const gone = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]).stdout;
            const stale = `.out.html.sourcecheck-${String(gone)}-k1ll3d.tmp`;
            const running = `.out.html.sourcecheck-${sleeper.pid}-w0rk1n.tmp`;
            const otherTarget = `.other.html.sourcecheck-${String(gone)}-k1ll3d.tmp`;
            for (const name of [stale, running, otherTarget, "notes.tmp"]) fs.writeFileSync(path.join(dir, name), "x");
            let tempName = "";
            aroundRename(
                (from) => {
                    tempName = path.basename(from);
                },
                () => writeFileSafely(target, "<p>report</p>\n"),
            );
            assert.match(tempName, new RegExp(`^\\.out\\.html\\.sourcecheck-${process.pid}-[a-z0-9]+\\.tmp$`));
            const left = fs.readdirSync(dir).sort();
            assert.ok(!left.includes(stale), "the dead process's temp file is gone");
            assert.ok(left.includes(running), "a running process's temp file is its write in progress: kept");
            assert.ok(left.includes(otherTarget), "another target's temp file is not this write's business");
            assert.ok(left.includes("notes.tmp"));
            assert.equal(fs.readFileSync(target, "utf8"), "<p>report</p>\n");
        } finally {
            sleeper.kill();
            fs.rmSync(dir, { recursive: true, force: true });
        }
    });
});
