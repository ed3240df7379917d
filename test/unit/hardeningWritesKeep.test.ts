/**
 * Writes that lose nothing (issue 35 item 5; docs/security.md, "Writes"): an edit slipped in between
 * the last check and the rename is put back, a hard-linked file is refused rather than split, and a
 * temp file left by a killed write is removed when the next write to the same target starts.
 */
import * as assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { Worker } from "node:worker_threads";
import { readTextFile } from "../../server/src/workspace/safeFile";
import { writeFileSafely } from "../../server/src/workspace/safeWrite";
import { runCli } from "./cliRun";
import { refusal, tempDir as sharedTempDir } from "./safeWriteRefusal";

const tempDir = () => sharedTempDir("sourcecheck-keep-");

type PathCall = "renameSync" | "linkSync" | "unlinkSync";

/** Run `fn` with fs[call] calling `before(...paths)` first (a step of the writer, found by fault injection). */
function around<T>(call: PathCall, before: (...paths: string[]) => void, fn: () => T): T {
    // The module itself (`import * as` gives a view of getters over it).
    const real = (fs as unknown as { default: Record<PathCall, (...args: unknown[]) => void> }).default;
    const original = real[call];
    real[call] = (...args: unknown[]) => {
        before(...args.map(String));
        original(...args);
    };
    try {
        return fn();
    } finally {
        real[call] = original;
    }
}

function aroundRename<T>(before: (from: string, to: string) => void, fn: () => T): T {
    return around("renameSync", (from, to) => before(from, to), fn);
}

/** The names in `dir` ending in .tmp (temp files and the writer's second names). */
function temps(dir: string): string[] {
    return fs.readdirSync(dir).filter((name) => name.endsWith(".tmp"));
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

    it("the file put back is the very file the other writer wrote into: same inode, and what it writes later lands in it", () => {
        const dir = tempDir();
        try {
            const target = path.join(dir, "a.sourcecheck.json");
            fs.writeFileSync(target, "[]\n");
            const read = readTextFile(target, { snapshot: true });
            assert.ok(read.ok && read.snapshot);
            const inode = fs.statSync(target).ino;
            let theirs: number | undefined;
            const error = refusal(() =>
                aroundRename(
                    (_from, to) => {
                        // An editor opens the file in place (truncating it) just before our rename, and writes after.
                        if (theirs === undefined && path.basename(to) === "a.sourcecheck.json")
                            theirs = fs.openSync(target, "w");
                    },
                    () => writeFileSafely(target, "OURS\n", { expected: read.snapshot }),
                ),
            );
            assert.equal(error.code, "changed");
            assert.ok(theirs !== undefined);
            fs.writeSync(theirs, "THEIRS, written after the write was refused\n");
            fs.closeSync(theirs);
            assert.equal(fs.readFileSync(target, "utf8"), "THEIRS, written after the write was refused\n");
            assert.equal(fs.statSync(target).ino, inode);
            assert.deepEqual(temps(dir), []);
        } finally {
            fs.rmSync(dir, { recursive: true, force: true });
        }
    });

    it("a hard link made between the last check and the rename: put back with both names, refused with hard-link", () => {
        const dir = tempDir();
        try {
            const target = path.join(dir, "a.sourcecheck.json");
            const other = path.join(dir, "other.json");
            fs.writeFileSync(target, "[]\n");
            const read = readTextFile(target, { snapshot: true });
            assert.ok(read.ok);
            let linked = false;
            const error = refusal(() =>
                aroundRename(
                    () => {
                        if (!linked) fs.linkSync(target, other);
                        linked = true;
                    },
                    () => writeFileSafely(target, "OURS\n", { expected: read.snapshot }),
                ),
            );
            assert.equal(error.code, "hard-link");
            assert.match(error.message, /put back with both names/);
            assert.equal(fs.statSync(target).ino, fs.statSync(other).ino, "still one file");
            assert.equal(fs.readFileSync(other, "utf8"), "[]\n");
            assert.deepEqual(temps(dir), []);
        } finally {
            fs.rmSync(dir, { recursive: true, force: true });
        }
    });

    it("a hard link that found the file before the rename and was made after it: put back with both names", () => {
        const dir = tempDir();
        try {
            const target = path.join(dir, "out.html");
            const other = path.join(dir, "other.html");
            fs.writeFileSync(target, "<p>old</p>\n");
            let linked = false;
            const error = refusal(() =>
                around(
                    "unlinkSync",
                    (gone) => {
                        // The old file's second name is dropped once the write is done: a link that
                        // looked the old file up by the target's name lands now (made here through that name).
                        if (!linked && gone.endsWith(".tmp")) fs.linkSync(gone, other);
                        linked = true;
                    },
                    () => writeFileSafely(target, "<p>new</p>\n"),
                ),
            );
            assert.equal(error.code, "hard-link");
            assert.equal(fs.statSync(target).ino, fs.statSync(other).ino, "still one file");
            assert.equal(fs.readFileSync(target, "utf8"), "<p>old</p>\n");
            assert.deepEqual(temps(dir), []);
        } finally {
            fs.rmSync(dir, { recursive: true, force: true });
        }
    });

    it("where hard links cannot be made, an edit slipped in before the rename is put back by its bytes", () => {
        const dir = tempDir();
        try {
            const target = path.join(dir, "a.sourcecheck.json");
            fs.writeFileSync(target, "[]\n");
            const read = readTextFile(target, { snapshot: true });
            assert.ok(read.ok);
            let slipped = false;
            const error = refusal(() =>
                around(
                    "linkSync",
                    () => {
                        throw Object.assign(new Error("operation not permitted"), { code: "EPERM" });
                    },
                    () =>
                        aroundRename(
                            () => {
                                if (!slipped) fs.writeFileSync(target, "THEIRS\n");
                                slipped = true;
                            },
                            () => writeFileSafely(target, "OURS\n", { expected: read.snapshot }),
                        ),
                ),
            );
            assert.equal(error.code, "changed");
            assert.match(error.message, /their edit was put back/);
            assert.equal(fs.readFileSync(target, "utf8"), "THEIRS\n");
            assert.deepEqual(temps(dir), []);
            // And without a slipped-in edit the same write goes through there.
            const again = readTextFile(target, { snapshot: true });
            assert.ok(again.ok);
            around(
                "linkSync",
                () => {
                    throw Object.assign(new Error("operation not permitted"), { code: "EPERM" });
                },
                () => writeFileSafely(target, "OURS\n", { expected: again.snapshot }),
            );
            assert.equal(fs.readFileSync(target, "utf8"), "OURS\n");
        } finally {
            fs.rmSync(dir, { recursive: true, force: true });
        }
    });

    it("a second name left by a killed write is removed first: the next write is not refused as a hard link", () => {
        const dir = tempDir();
        try {
            const target = path.join(dir, "a.sourcecheck.json");
            fs.writeFileSync(target, "[]\n");
            const gone = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]).stdout;
            fs.linkSync(target, path.join(dir, `.a.sourcecheck.json.sourcecheck-${String(gone)}-k1ll3d.tmp`));
            assert.equal(fs.statSync(target).nlink, 2);
            const read = readTextFile(target, { snapshot: true });
            assert.ok(read.ok);
            writeFileSafely(target, "OURS\n", { expected: read.snapshot });
            assert.equal(fs.readFileSync(target, "utf8"), "OURS\n");
            assert.deepEqual(temps(dir), []);
        } finally {
            fs.rmSync(dir, { recursive: true, force: true });
        }
    });

    it("an empty file read while another writer is between its truncate and its write: the write waits, then is refused", () => {
        const dir = tempDir();
        const shared = new Int32Array(new SharedArrayBuffer(4));
        try {
            const target = path.join(dir, "a.sourcecheck.json");
            fs.writeFileSync(target, "[]\n");
            // The other writer truncates (open with O_TRUNC), tells us, and writes once our write is under
            // way (its temp file is there): in the pause an empty read must wait out, never after our rename.
            const worker = new Worker(
                `const { workerData } = require("node:worker_threads");
                const fs = require("node:fs");
                const flag = new Int32Array(workerData.shared);
                const fd = fs.openSync(workerData.target, "w");
                Atomics.store(flag, 0, 1);
                Atomics.notify(flag, 0);
                const dir = require("node:path").dirname(workerData.target);
                while (!fs.readdirSync(dir).some((name) => name.endsWith(".tmp")));
                fs.writeSync(fd, "THEIRS\\n");
                fs.closeSync(fd);`,
                { eval: true, workerData: { shared: shared.buffer, target } },
            );
            Atomics.wait(shared, 0, 0, 10_000);
            const read = readTextFile(target, { snapshot: true });
            assert.ok(read.ok);
            assert.equal(read.text, "", "read between their truncate and their write");
            const error = refusal(() => writeFileSafely(target, "OURS\n", { expected: read.snapshot }));
            assert.equal(error.code, "changed");
            return new Promise<void>((resolve) => worker.on("exit", () => resolve())).then(() => {
                assert.equal(fs.readFileSync(target, "utf8"), "THEIRS\n");
            });
        } finally {
            // The worker has exited (or the test failed before it was waited on).
            setTimeout(() => fs.rmSync(dir, { recursive: true, force: true }), 1000).unref();
        }
    });
});
