/**
 * Hardening: the one safe writer (docs/security.md, "Writes"). Every `-o`, every in-place rewrite and
 * the evidence index go through workspace/safeWrite.ts; these tests drive it directly and through the
 * commands. Devices are made with mknod in a temp folder (never the machine's /dev).
 */
import * as assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as net from "node:net";
import * as path from "node:path";
import type { Edit } from "jsonc-parser";
import { runTool } from "../../server/src/agentTools/tools";
import { applyOffsetEdits } from "../../server/src/core/annotationEdits";
import { diskToolContext } from "../../server/src/mcp/diskContext";
import { readTextFile } from "../../server/src/workspace/safeFile";
import { writeFileSafely } from "../../server/src/workspace/safeWrite";
import { runCli } from "./cliRun";
import { refusal, tempDir as sharedTempDir } from "./safeWriteRefusal";

const tempDir = () => sharedTempDir("sourcecheck-writes-");

const ANSWER = "The sky is blue.\nWater is wet.\n";
const SOURCE = "Observations: the sky is blue on clear days.\n";

function annotated(dir: string, line = 1): string {
    fs.writeFileSync(path.join(dir, "answer.md"), ANSWER);
    fs.writeFileSync(path.join(dir, "source.md"), SOURCE);
    const file = path.join(dir, "a.sourcecheck.json");
    fs.writeFileSync(
        file,
        `${JSON.stringify(
            {
                annotations: [
                    {
                        claim: { path: "answer.md", start: { line, str: "The sky" }, end: { line, str: "blue." } },
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
        )}\n`,
    );
    return file;
}

describe("hardening: the one safe writer", () => {
    it("refuses a character device as target and leaves it a device (mknod in a temp folder)", () => {
        const dir = tempDir();
        const device = path.join(dir, "null");
        // Root makes a real device; otherwise a FIFO stands in (still not a regular file).
        if (process.getuid?.() === 0) execFileSync("mknod", [device, "c", "1", "3"]);
        else execFileSync("mkfifo", [device]);
        const error = refusal(() => writeFileSafely(device, "x"));
        assert.equal(error.code, "not-regular");
        const stats = fs.lstatSync(device);
        assert.ok(stats.isCharacterDevice() || stats.isFIFO(), "the device is still a device");
        // And through the CLI: render -o DEVICE is a usage error (exit 2), the device untouched.
        const file = annotated(dir);
        const run = runCli(["render", "-o", "null", path.basename(file)], { cwd: dir });
        assert.equal(run.status, 2);
        assert.match(run.stderr, /cannot write null: it is (a device|a FIFO), not a regular file/);
        assert.ok(!fs.lstatSync(device).isFile());
    });

    it("refuses a FIFO, a socket and a directory", async () => {
        const dir = tempDir();
        const fifo = path.join(dir, "fifo");
        execFileSync("mkfifo", [fifo]);
        assert.equal(refusal(() => writeFileSafely(fifo, "x")).code, "not-regular");
        assert.ok(fs.lstatSync(fifo).isFIFO());
        const socketPath = path.join(dir, "sock");
        const server = net.createServer();
        await new Promise<void>((resolve) => server.listen(socketPath, resolve));
        try {
            assert.equal(refusal(() => writeFileSafely(socketPath, "x")).code, "not-regular");
            assert.ok(fs.lstatSync(socketPath).isSocket());
        } finally {
            server.close();
        }
        fs.mkdirSync(path.join(dir, "folder"));
        assert.equal(refusal(() => writeFileSafely(path.join(dir, "folder"), "x")).code, "not-regular");
        assert.ok(fs.lstatSync(path.join(dir, "folder")).isDirectory());
    });

    it("refuses a symlink unless symlinks are followed, and then replaces the file, keeping the link", () => {
        const dir = tempDir();
        fs.writeFileSync(path.join(dir, "real.txt"), "old");
        fs.symlinkSync("real.txt", path.join(dir, "link.txt"));
        assert.equal(refusal(() => writeFileSafely(path.join(dir, "link.txt"), "new")).code, "symlink");
        assert.equal(fs.readFileSync(path.join(dir, "real.txt"), "utf8"), "old");
        writeFileSafely(path.join(dir, "link.txt"), "new", { followSymlinks: true });
        assert.ok(fs.lstatSync(path.join(dir, "link.txt")).isSymbolicLink());
        assert.equal(fs.readFileSync(path.join(dir, "real.txt"), "utf8"), "new");
        // The CLI: -o link is refused; --follow-symlinks writes through it.
        const file = annotated(dir);
        const refused = runCli(["session", "-o", "link.txt", "answer.md"], { cwd: dir });
        assert.equal(refused.status, 2);
        assert.match(refused.stderr, /link\.txt: it is a symbolic link/);
        const followed = runCli(["session", "-o", "link.txt", "--follow-symlinks", "answer.md"], { cwd: dir });
        assert.equal(followed.status, 0, followed.stderr);
        assert.match(fs.readFileSync(path.join(dir, "real.txt"), "utf8"), /"documents"/);
        assert.ok(file);
    });

    it("refuses writing over an input of the same command (render -o IN IN, a cited document, session)", () => {
        const dir = tempDir();
        const file = annotated(dir);
        const before = fs.readFileSync(file, "utf8");
        const self = runCli(["render", "-o", "a.sourcecheck.json", "a.sourcecheck.json"], { cwd: dir });
        assert.equal(self.status, 2);
        assert.match(self.stderr, /is also an input of this command/);
        assert.equal(fs.readFileSync(file, "utf8"), before);
        const cited = runCli(["render", "-o", "answer.md", "a.sourcecheck.json"], { cwd: dir });
        assert.equal(cited.status, 2);
        assert.equal(fs.readFileSync(path.join(dir, "answer.md"), "utf8"), ANSWER);
        const session = runCli(["session", "-o", "answer.md", "answer.md", "source.md"], { cwd: dir });
        assert.equal(session.status, 2);
        assert.equal(fs.readFileSync(path.join(dir, "answer.md"), "utf8"), ANSWER);
        // A hard link to an input is the same file.
        fs.linkSync(path.join(dir, "answer.md"), path.join(dir, "hard.md"));
        assert.equal(runCli(["session", "-o", "hard.md", "answer.md"], { cwd: dir }).status, 2);
    });

    it("keeps the mode and the owner of the file it replaces, and refuses a read-only file", () => {
        const dir = tempDir();
        const target = path.join(dir, "out.json");
        fs.writeFileSync(target, "old");
        fs.chmodSync(target, 0o600);
        if (process.getuid?.() === 0) fs.chownSync(target, 4321, 4322);
        writeFileSafely(target, "new");
        const stats = fs.statSync(target);
        assert.equal(stats.mode & 0o777, 0o600);
        if (process.getuid?.() === 0) assert.deepEqual([stats.uid, stats.gid], [4321, 4322]);
        assert.equal(fs.readFileSync(target, "utf8"), "new");
        fs.chmodSync(target, 0o444);
        assert.equal(refusal(() => writeFileSafely(target, "newer")).code, "read-only");
        assert.equal(fs.readFileSync(target, "utf8"), "new");
    });

    it("refuses an in-place rewrite of a file changed since it was read, writing nothing (the other edit kept)", () => {
        const dir = tempDir();
        const target = path.join(dir, "a.json");
        fs.writeFileSync(target, "version one");
        const read = readTextFile(target, { snapshot: true });
        assert.ok(read.ok && read.snapshot);
        // Same size, same second: only the hash tells.
        fs.writeFileSync(target, "version two");
        fs.utimesSync(target, new Date(read.snapshot.mtimeMs), new Date(read.snapshot.mtimeMs));
        const error = refusal(() => writeFileSafely(target, "repaired", { expected: read.snapshot }));
        assert.equal(error.code, "changed");
        assert.equal(fs.readFileSync(target, "utf8"), "version two");
        assert.deepEqual(
            fs.readdirSync(dir).filter((name) => name.endsWith(".tmp")),
            [],
            "no temp file left behind",
        );
        // Replaced by another file (new inode): refused too.
        const again = readTextFile(target, { snapshot: true });
        assert.ok(again.ok);
        fs.rmSync(target);
        fs.writeFileSync(target, "version two");
        assert.equal(refusal(() => writeFileSafely(target, "repaired", { expected: again.snapshot })).code, "changed");
    });

    it("repair --write keeps a UTF-8 BOM, the mode, and refuses a 0444 file", () => {
        const dir = tempDir();
        const file = annotated(dir, 2); // the claim's line is off by one: a certain line-shift repair
        const text = fs.readFileSync(file);
        fs.writeFileSync(file, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), text]));
        fs.chmodSync(file, 0o600);
        const run = runCli(["repair", "--write", "a.sourcecheck.json"], { cwd: dir });
        assert.equal(run.status, 0, run.stdout + run.stderr);
        const written = fs.readFileSync(file);
        assert.deepEqual([...written.subarray(0, 3)], [0xef, 0xbb, 0xbf], "the BOM is kept");
        assert.match(written.toString("utf8"), /"line": 1/);
        assert.equal(fs.statSync(file).mode & 0o777, 0o600);

        const readOnly = annotated(tempDir(), 2);
        fs.chmodSync(readOnly, 0o444);
        const before = fs.readFileSync(readOnly, "utf8");
        const refused = runCli(["repair", "--write", path.basename(readOnly)], { cwd: path.dirname(readOnly) });
        assert.equal(refused.status, 2);
        assert.match(refused.stderr, /read-only/);
        assert.equal(fs.readFileSync(readOnly, "utf8"), before);
    });

    it("MCP repair {write: true} never writes outside the root when a folder is swapped for a symlink", async () => {
        const root = tempDir();
        const outside = tempDir();
        const sub = path.join(root, "sub");
        fs.mkdirSync(sub);
        const file = annotated(sub, 2);
        // Its refs resolve against the root (no configuration file in sub).
        fs.copyFileSync(path.join(sub, "answer.md"), path.join(root, "answer.md"));
        fs.copyFileSync(path.join(sub, "source.md"), path.join(root, "source.md"));
        // The same file name outside, so a redirected write would land there.
        fs.copyFileSync(file, path.join(outside, "a.sourcecheck.json"));
        fs.copyFileSync(path.join(sub, "answer.md"), path.join(outside, "answer.md"));
        fs.copyFileSync(path.join(sub, "source.md"), path.join(outside, "source.md"));
        const outsideBefore = fs.readFileSync(path.join(outside, "a.sourcecheck.json"), "utf8");
        const base = diskToolContext(root);
        // Swap sub for a symlink to `outside` between the read and the write.
        const context = {
            ...base,
            annotationFile(p: string) {
                const access = base.annotationFile(p);
                if ("code" in access) return access;
                fs.renameSync(sub, `${sub}.moved`);
                fs.symlinkSync(outside, sub);
                return access;
            },
        };
        const outcome = await runTool("repair", { file: "sub/a.sourcecheck.json", write: true }, context);
        assert.equal(fs.readFileSync(path.join(outside, "a.sourcecheck.json"), "utf8"), outsideBefore);
        assert.equal(outcome.ok, false, JSON.stringify(outcome));
        assert.match(JSON.stringify(outcome), /write-failed/);
    });

    it("splices many edits in one linear pass (work counted, doubling the input doubles it)", () => {
        const workFor = (n: number) => {
            const line = '{"line": 12, "str": "abc"},\n';
            const text = line.repeat(n);
            const edits: Edit[] = [];
            for (let i = 0; i < n; i++) edits.push({ offset: i * line.length + 9, length: 2, content: "345" });
            const work = { copied: 0 };
            const out = applyOffsetEdits(text, edits.reverse(), work);
            assert.equal(out, '{"line": 345, "str": "abc"},\n'.repeat(n));
            return work.copied;
        };
        const small = workFor(10_000);
        const large = workFor(20_000);
        // Each character of the result is copied once: exactly linear.
        assert.equal(small, '{"line": 345, "str": "abc"},\n'.length * 10_000);
        assert.equal(large, 2 * small);
    });
});
