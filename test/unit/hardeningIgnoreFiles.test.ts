/**
 * Ignore files read as git reads them, bounded (docs/security.md, "Resource bounds"): per-line and
 * per-file limits with a warning naming the file, memory bounded whatever the bytes, a non-regular
 * file passed over with a warning. Bytes and warnings are counted, never time.
 */
import * as assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { readIgnoreFile } from "../../server/src/workspace/ignoreFile";
import { MAX_IGNORE_KEPT_BYTES, MAX_IGNORE_LINE_BYTES, MAX_IGNORE_LINES } from "../../server/src/workspace/ignoreLines";
import { nodeDiscovery } from "../../server/src/workspace/nodeDiscovery";
import { runCliAsync } from "./cliRun";

function keptBytes(lines: readonly string[]): number {
    return lines.reduce((sum, line) => sum + Buffer.byteLength(line) + 1, 0);
}

describe("hardening: ignore files bounded", () => {
    let dir: string;
    beforeEach(() => {
        dir = fs.mkdtempSync(path.join(os.tmpdir(), "sourcecheck-ignore-"));
        fs.writeFileSync(path.join(dir, "kept.sourcecheck.json"), "[]");
        fs.writeFileSync(path.join(dir, "ignored.sourcecheck.json"), "[]");
    });
    afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

    it("a 40,000-character line is passed over with a warning naming the file (not exit 3, no echo) and the other lines apply", async () => {
        fs.writeFileSync(path.join(dir, ".gitignore"), `${"a*".repeat(30_000)}\nignored.sourcecheck.json\n`);
        const run = await runCliAsync(["check", "."], { cwd: dir });
        assert.notEqual(run.status, 3, run.stderr.slice(0, 500));
        assert.match(run.stderr, /warning: .*\.gitignore: 1 line\(s\) over 4096 bytes ignored \(the first is line 1\)/);
        assert.ok(run.stderr.length < 2000, `stderr is ${run.stderr.length} characters`);
        assert.match(run.stdout, /kept\.sourcecheck\.json/);
        assert.doesNotMatch(run.stdout, /ignored\.sourcecheck\.json/);
    });

    it("16 MB of NUL bytes and a 99 MB file keep at most the limits' bytes, with a warning naming the file", () => {
        const nul = path.join(dir, "nul");
        fs.writeFileSync(nul, "ignored.sourcecheck.json\n");
        fs.truncateSync(nul, 16 * 1024 * 1024); // the rest is NUL bytes: one line of 16 MB
        const fromNul = readIgnoreFile(nul);
        assert.deepEqual(fromNul?.lines, ["ignored.sourcecheck.json", ""]);
        assert.match(
            fromNul?.warnings.join("\n") ?? "",
            /nul: 1 line\(s\) over 4096 bytes ignored \(the first is line 2\)/,
        );

        // 99 MB of short lines, under git's 100 MiB cap: only the first lines are kept.
        const many = path.join(dir, "many");
        const block = Buffer.from("x/*.log\n".repeat(128 * 1024)); // 1 MiB
        const fd = fs.openSync(many, "w");
        for (let i = 0; i < 99; i++) fs.writeSync(fd, block);
        fs.closeSync(fd);
        const fromMany = readIgnoreFile(many);
        assert.equal(fromMany?.lines.length, MAX_IGNORE_LINES);
        assert.ok(keptBytes(fromMany?.lines ?? []) <= MAX_IGNORE_KEPT_BYTES);
        assert.match(fromMany?.warnings.join("\n") ?? "", /many: only its first 10,000 lines are applied/);

        // Long lines each under the line cap: the kept bytes stop at the file's cap.
        const wide = path.join(dir, "wide");
        fs.writeFileSync(wide, `${"w".repeat(MAX_IGNORE_LINE_BYTES - 1)}\n`.repeat(600));
        const fromWide = readIgnoreFile(wide);
        assert.ok(keptBytes(fromWide?.lines ?? []) <= MAX_IGNORE_KEPT_BYTES);
        assert.ok((fromWide?.lines.length ?? 0) < 600);
        assert.match(fromWide?.warnings.join("\n") ?? "", /only its first/);
    });

    it("a FIFO .gitignore is skipped with a warning naming it, from the CLI and from the walk the language server runs", async () => {
        execFileSync("mkfifo", [path.join(dir, ".gitignore")]);
        const run = await runCliAsync(["check", "."], { cwd: dir });
        assert.match(
            run.stderr,
            /warning: .*\.gitignore: is not a regular file \(a FIFO, socket or device\); its patterns are not applied/,
        );
        assert.match(run.stdout, /ignored\.sourcecheck\.json/);
        const warnings: string[] = [];
        const discovery = nodeDiscovery({ base: dir, onWarning: (message) => warnings.push(message) });
        const files = discovery.walkSync(dir).files.map((file) => file.fromBase);
        assert.deepEqual(files.filter((name) => name.endsWith(".json")).sort(), [
            "ignored.sourcecheck.json",
            "kept.sourcecheck.json",
        ]);
        assert.equal(warnings.length, 1);
        assert.ok(warnings[0].startsWith(path.join(dir, ".gitignore")), warnings[0]);
    });

    it("the walk the language server runs indexes the rest of a file with an over-long line", () => {
        fs.writeFileSync(path.join(dir, ".gitignore"), `${"b?".repeat(30_000)}\nignored.sourcecheck.json\n`);
        const warnings: string[] = [];
        const discovery = nodeDiscovery({ base: dir, onWarning: (message) => warnings.push(message) });
        const files = discovery.walkSync(dir).files.map((file) => file.fromBase);
        assert.deepEqual(
            files.filter((name) => name.endsWith(".json")),
            ["kept.sourcecheck.json"],
        );
        assert.equal(warnings.length, 1, warnings.join("\n"));
    });
});
