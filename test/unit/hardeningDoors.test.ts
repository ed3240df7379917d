/**
 * Every remaining read through the safe reader and every write through the safe writer
 * (docs/security.md, "Reads", "Writes", "Agents"): lock sidecars, ignore files, the evidence corpus,
 * the agent tools' lock writes, and `-o` never over a document a command read.
 */
import * as assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { runTool } from "../../server/src/agentTools/tools";
import { diskToolContext } from "../../server/src/mcp/diskContext";
import { workspaceToolContext } from "../../server/src/node/agentTools";
import { readFiles } from "../../server/src/workspace/corpusReader";
import type { WorkspaceIndex } from "../../server/src/workspace/workspaceIndex";
import { runCli, runCliAsync } from "./cliRun";

const DOC = "# Orbit\n\nOrbit 2.4 improves cold start by 37%.\nIt kept serving requests.\n";
const INPUT = {
    annotations: [
        {
            claim: { path: "doc.md", start: { line: 3, str: "improves" }, end: { line: 3, str: "37%" } },
            sources: [
                {
                    path: "cited.md",
                    start: { line: 1, str: "Cold" },
                    end: { line: 1, str: "faster." },
                    polarity: "supports",
                    confidence: 0.9,
                },
            ],
        },
    ],
};
const CITED = "Cold start is 37% faster.\n";
const OUTSIDE = "OUTSIDEMARKER secret text\n";

describe("hardening: every read and write through the safe doors", () => {
    const dirs: string[] = [];
    after(() => {
        for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
    });
    const temp = (name: string) => {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), `sourcecheck-${name}-`));
        dirs.push(dir);
        return dir;
    };
    /** root/sub/{doc.md,cited.md,a.sourcecheck.json}, and a folder outside the root. */
    const layout = () => {
        const top = temp("doors");
        const root = path.join(top, "root");
        const sub = path.join(root, "sub");
        const outside = path.join(top, "outside");
        fs.mkdirSync(sub, { recursive: true });
        fs.mkdirSync(outside);
        for (const dir of [sub, outside]) {
            fs.writeFileSync(path.join(dir, "doc.md"), DOC);
            fs.writeFileSync(path.join(dir, "cited.md"), CITED);
            fs.writeFileSync(path.join(dir, "a.sourcecheck.json"), JSON.stringify(INPUT, null, 2));
        }
        fs.writeFileSync(path.join(outside, "secret.json"), OUTSIDE);
        return { root, sub, outside };
    };

    it("a lock sidecar symlinked outside is refused, never read: MCP lock, check and lock say so without its content", async () => {
        const { root, sub, outside } = layout();
        fs.symlinkSync(path.join(outside, "secret.json"), path.join(sub, "a.sourcecheck.lock.json"));
        const outcome = await runTool("lock", { file: "sub/a.sourcecheck.json" }, diskToolContext(root));
        const said = JSON.stringify(outcome);
        assert.equal(outcome.ok, false, said);
        assert.ok(!said.includes("OUTSIDE"), said);
        assert.match(said, /invalid-lock/);
        for (const args of [
            ["check", "sub/a.sourcecheck.json"],
            ["lock", "sub/a.sourcecheck.json"],
        ]) {
            const run = runCli(args, { cwd: root });
            assert.equal(run.status, 2, `${args.join(" ")}: ${run.stdout}${run.stderr}`);
            assert.ok(!(run.stdout + run.stderr).includes("OUTSIDE"), run.stdout + run.stderr);
            assert.match(run.stdout + run.stderr, /lock-unreadable/);
        }
        assert.equal(fs.readFileSync(path.join(outside, "secret.json"), "utf8"), OUTSIDE);
    });

    it("the editor's agent tool writes a lock only under the root, even when its folder is swapped for a symlink mid-call", async () => {
        const { root, sub, outside } = layout();
        const context = workspaceToolContext({} as WorkspaceIndex, root, {
            buffer: () => undefined,
            applyEdit: async () => false,
        } as unknown as Parameters<typeof workspaceToolContext>[2]);
        const access = context.lockFor?.("sub/a.sourcecheck.json");
        assert.ok(access);
        fs.renameSync(sub, `${sub}.moved`);
        fs.symlinkSync(outside, sub);
        await assert.rejects(Promise.resolve(access.write("{}\n")));
        assert.ok(!fs.existsSync(path.join(outside, "a.sourcecheck.lock.json")), "nothing written outside");
    });

    it("render -o a cited source is refused (exit 2) and leaves it; session and convert -o an input too", async () => {
        const { sub } = layout();
        const cited = path.join(sub, "cited.md");
        const render = runCli(["render", "--root", sub, "-o", cited, path.join(sub, "a.sourcecheck.json")], {
            cwd: sub,
        });
        assert.equal(render.status, 2, render.stdout + render.stderr);
        assert.match(render.stderr, /also an input of this command/);
        assert.equal(fs.readFileSync(cited, "utf8"), CITED);
        const session = runCli(["session", "doc.md", "cited.md", "-o", "cited.md"], { cwd: sub });
        assert.equal(session.status, 2);
        assert.equal(fs.readFileSync(cited, "utf8"), CITED);
        fs.writeFileSync(path.join(sub, "t.jsonl"), "");
        const convert = await runCliAsync(["convert", "-o", "t.jsonl", "t.jsonl"], { cwd: sub });
        assert.equal(convert.status, 2, convert.stdout + convert.stderr);
        assert.match(convert.stderr, /also an input of this command/);
        assert.equal(fs.readFileSync(path.join(sub, "t.jsonl"), "utf8"), "");
    });

    it("a .gitignore symlinked outside is not followed (as git does not), one over git's 100 MiB cap is not read", async () => {
        const { root, sub, outside } = layout();
        fs.writeFileSync(path.join(outside, "ignore-all"), "*.sourcecheck.json\n");
        fs.symlinkSync(path.join(outside, "ignore-all"), path.join(sub, ".gitignore"));
        const listed = async () =>
            JSON.parse((await runCliAsync(["check", "--json", "."], { cwd: root })).stdout).files.map(
                (f: { file: string }) => f.file,
            );
        assert.deepEqual(await listed(), ["sub/a.sourcecheck.json"]);
        // A sparse file: patterns first, then zeros past the cap (git ignores such a pattern file).
        fs.unlinkSync(path.join(sub, ".gitignore"));
        const big = path.join(sub, ".gitignore");
        fs.writeFileSync(big, "*.sourcecheck.json\n");
        fs.truncateSync(big, 100 * 1024 * 1024 + 1);
        assert.deepEqual(await listed(), ["sub/a.sourcecheck.json"]);
    });

    it("a FIFO as .gitignore or .git/info/exclude never hangs check . (run in a child process that must finish)", function () {
        this.timeout(120_000);
        const { root, sub } = layout();
        execFileSync("mkfifo", [path.join(sub, ".gitignore")]);
        fs.mkdirSync(path.join(root, ".git", "info"), { recursive: true });
        execFileSync("mkfifo", [path.join(root, ".git", "info", "exclude")]);
        const cli = path.join(__dirname, "../../server/src/cli.js");
        const script = `require(${JSON.stringify(cli)}).main(["check", "."], { cwd: ${JSON.stringify(root)}, stdout: (t) => process.stdout.write(t), stderr: (t) => process.stderr.write(t), readStdin: () => Buffer.alloc(0), stdinIsPiped: false, version: "test" });`;
        // The bound only ends a hung child: a child that finishes is judged by what it printed.
        const child = spawnSync(process.execPath, ["-e", script], { encoding: "utf8", timeout: 60_000 });
        assert.equal(child.signal, null, "the child hung on the FIFO and was killed");
        assert.match(child.stdout, /sub\/a\.sourcecheck\.json/);
    });

    it("the evidence corpus reader drops a file whose opened descriptor lies outside the corpus root (here and on the worker)", () => {
        const { root, outside } = layout();
        fs.symlinkSync(outside, path.join(root, "link"));
        const paths = [path.join(root, "sub", "doc.md"), path.join(root, "link", "secret.json")];
        for (const minFilesForWorker of [1, 1000]) {
            const kinds: string[] = [];
            const texts: string[] = [];
            readFiles(
                paths,
                1 << 20,
                (_, file) => {
                    kinds.push(file.kind);
                    if (file.kind === "read") texts.push(file.bytes.toString("utf8"));
                },
                { minFilesForWorker, within: fs.realpathSync(root) },
            );
            assert.deepEqual(kinds, ["read", "gone"], `minFilesForWorker ${minFilesForWorker}`);
            assert.ok(!texts.join("").includes("OUTSIDE"));
        }
    });
});
