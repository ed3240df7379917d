/**
 * Hardening: the one safe reader cannot be raced (docs/security.md, "Reads"). A child process swaps
 * a cited folder (or file) for a symlink leading out of the root in a loop, for a bounded time, while
 * the reader reads: no read may ever return the outside content.
 */
import * as assert from "node:assert/strict";
import { type ChildProcess, execFileSync, spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { readDocumentUnderRoot } from "../../server/src/workspace/diskDocuments";
import { nodeDiscovery } from "../../server/src/workspace/nodeDiscovery";
import { readFileBytes } from "../../server/src/workspace/safeFile";
import { runCli } from "./cliRun";

function tempDir(): string {
    return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "sourcecheck-reads-")));
}

/** A child process that swaps `target` for a symlink to `outside` and back until killed (at most `ms`). */
function startSwapper(target: string, outside: string, ms: number): ChildProcess {
    const script = `
        const fs = require("node:fs");
        const [target, outside, ms] = process.argv.slice(1);
        const end = Date.now() + Number(ms);
        let swaps = 0;
        while (Date.now() < end) {
            try {
                fs.renameSync(target, target + ".real");
                fs.symlinkSync(outside, target);
                fs.renameSync(target, target + ".link");
                fs.renameSync(target + ".real", target);
                fs.unlinkSync(target + ".link");
                swaps++;
            } catch {}
            if (swaps === 1) process.stdout.write("swapping\\n");
        }`;
    return spawn(process.execPath, ["-e", script, target, outside, String(ms)], {
        stdio: ["ignore", "pipe", "inherit"],
    });
}

async function started(child: ChildProcess): Promise<void> {
    await new Promise<void>((resolve) => child.stdout?.once("data", () => resolve()));
}

async function stopped(child: ChildProcess): Promise<void> {
    if (child.exitCode !== null) return;
    await new Promise<void>((resolve) => {
        child.once("exit", () => resolve());
        child.kill();
    });
}

describe("hardening: the one safe reader", () => {
    it("never returns content from outside the root while a cited folder is swapped for a symlink", async function () {
        this.timeout(30_000);
        const root = tempDir();
        const outside = tempDir();
        fs.mkdirSync(path.join(root, "docs"));
        fs.writeFileSync(path.join(root, "docs", "a.md"), "INSIDE\n");
        fs.writeFileSync(path.join(outside, "a.md"), "OUTSIDE\n");
        const swapper = startSwapper(path.join(root, "docs"), outside, 10_000);
        try {
            await started(swapper);
            const outcomes = { inside: 0, outside: 0, refused: 0 };
            const end = Date.now() + 1500;
            let reads = 0;
            while (Date.now() < end || reads < 2000) {
                reads++;
                const read = readDocumentUnderRoot(root, "docs/a.md");
                if (!read.ok) outcomes.refused++;
                else if (read.content.startsWith("OUTSIDE")) outcomes.outside++;
                else outcomes.inside++;
                if (reads > 200_000) break;
            }
            assert.equal(outcomes.outside, 0, `outside content read: ${JSON.stringify(outcomes)}`);
            assert.ok(outcomes.inside > 0, `some reads succeed: ${JSON.stringify(outcomes)}`);
            assert.ok(outcomes.refused > 0, `the swap was exercised: ${JSON.stringify(outcomes)}`);
        } finally {
            await stopped(swapper);
        }
    });

    it("never returns content from outside the root while a cited file is swapped for a symlink", async function () {
        this.timeout(30_000);
        const root = tempDir();
        const outside = tempDir();
        fs.writeFileSync(path.join(root, "a.md"), "INSIDE\n");
        fs.writeFileSync(path.join(outside, "a.md"), "OUTSIDE\n");
        const swapper = startSwapper(path.join(root, "a.md"), path.join(outside, "a.md"), 10_000);
        try {
            await started(swapper);
            let outsideReads = 0;
            let insideReads = 0;
            const end = Date.now() + 1500;
            for (let reads = 0; (Date.now() < end || reads < 2000) && reads < 200_000; reads++) {
                const read = readDocumentUnderRoot(root, "a.md");
                if (read.ok && read.content.startsWith("OUTSIDE")) outsideReads++;
                if (read.ok && read.content.startsWith("INSIDE")) insideReads++;
            }
            assert.equal(outsideReads, 0);
            assert.ok(insideReads > 0);
        } finally {
            await stopped(swapper);
        }
    });

    it("reads no FIFO, device or symlink in a binary cache file's place, and caps its size", () => {
        const dir = tempDir();
        const fifo = path.join(dir, "fifo");
        execFileSync("mkfifo", [fifo]);
        assert.equal((readFileBytes(fifo, { noFollow: true }) as { reason: string }).reason, "not-regular");
        fs.writeFileSync(path.join(dir, "big"), Buffer.alloc(1000));
        fs.symlinkSync(path.join(dir, "big"), path.join(dir, "link"));
        assert.equal(readFileBytes(path.join(dir, "link"), { noFollow: true }).ok, false);
        const capped = readFileBytes(path.join(dir, "big"), { maxBytes: 999 });
        assert.equal(capped.ok, false);
        assert.equal((capped as { reason: string }).reason, "too-large");
    });

    it("evidence with a FIFO or a symlink in its index's place: no hang, an error naming the file and the way out", () => {
        const dir = tempDir();
        fs.mkdirSync(path.join(dir, "corpus"));
        fs.writeFileSync(path.join(dir, "corpus", "a.md"), "# Sky\n\nThe sky is blue on clear days.\n");
        const args = ["evidence", "--corpus", "corpus", "--query", "sky", "--index-dir", "idx"];
        assert.equal(runCli(args, { cwd: dir }).status, 0);
        const [name] = fs.readdirSync(path.join(dir, "idx"));
        const index = path.join(dir, "idx", name);
        fs.writeFileSync(path.join(dir, "big"), Buffer.alloc(1 << 20));
        for (const kind of ["fifo", "symlink"]) {
            fs.rmSync(index);
            if (kind === "fifo") execFileSync("mkfifo", [index]);
            else fs.symlinkSync(path.join(dir, "big"), index);
            const run = runCli(args, { cwd: dir });
            assert.equal(run.status, 2, kind);
            assert.ok(run.stderr.includes(`${index} is ${kind === "fifo" ? "a FIFO" : "a symbolic link"}`), run.stderr);
            assert.match(run.stderr, /remove it, and the index is rebuilt/);
            assert.doesNotMatch(run.stderr, /--follow-symlinks/, "evidence has no such option");
            assert.equal(kind === "fifo" ? fs.lstatSync(index).isFIFO() : fs.lstatSync(index).isSymbolicLink(), true);
        }
        fs.rmSync(index);
        assert.equal(runCli(args, { cwd: dir }).status, 0, "rebuilt once removed");
    });

    it("caps stdin and annotation input with --max-size", () => {
        const dir = tempDir();
        const big = `${JSON.stringify({ annotations: [] })}${" ".repeat(5000)}`;
        const run = runCli(["check", "--max-size", "1000", "-"], { cwd: dir, stdin: big });
        assert.equal(run.status, 2);
        assert.match(run.stderr, /stdin: it is over the 1000 B size cap/);
        fs.writeFileSync(path.join(dir, "a.sourcecheck.json"), big);
        const file = runCli(["check", "--max-size", "1000", "a.sourcecheck.json"], { cwd: dir });
        assert.equal(file.status, 2);
        assert.match(file.stderr, /over the 1000 B size cap/);
    });

    it("a search lists a symlinked annotation file only when it stays inside the searched tree", async () => {
        const dir = tempDir();
        const tree = path.join(dir, "tree");
        fs.mkdirSync(path.join(dir, "outside"));
        fs.mkdirSync(path.join(tree, "sub"), { recursive: true });
        const annotation = '{ "annotations": [] }\n';
        fs.writeFileSync(path.join(dir, "outside", "x.sourcecheck.json"), annotation);
        fs.writeFileSync(path.join(tree, "sub", "in.sourcecheck.json"), annotation);
        fs.symlinkSync(path.join(dir, "outside", "x.sourcecheck.json"), path.join(tree, "out.sourcecheck.json"));
        fs.symlinkSync(path.join(tree, "sub", "in.sourcecheck.json"), path.join(tree, "alias.sourcecheck.json"));
        const names = (files: { fromBase: string }[]) => files.map((f) => f.fromBase).sort();
        const discovery = nodeDiscovery({ base: tree });
        const expected = ["alias.sourcecheck.json", "sub/in.sourcecheck.json"];
        assert.deepEqual(names(discovery.walkSync(tree).files), expected);
        assert.deepEqual(names((await discovery.walk(tree)).files), expected);
        // The CLI as a user runs it (the built bin: `check .` of several files runs asynchronously).
        const bin = path.resolve(__dirname, "../../../bin/sourcecheck.js");
        const run = spawnSync(process.execPath, [bin, "check", "--json", "."], { cwd: tree, encoding: "utf8" });
        const listed = (JSON.parse(run.stdout).files as { file: string }[]).map((f) => f.file).sort();
        assert.deepEqual(listed, expected, run.stderr);
    });
});
