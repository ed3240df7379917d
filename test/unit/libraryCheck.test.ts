/**
 * The library's `check(workspace, { paths, locked })` (docs/library.md) returns the very object
 * `sourcecheck check --json` prints for the same files on disk: through the Node workspace and through
 * the memory workspace holding the same files, for one file, a folder, `--locked`, a drifted ref and
 * an unusable lock (exit 2 everywhere, and no output names another exit).
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { check, createMemoryWorkspace, createNodeWorkspace } from "../../server/src/index";
import { runCli, runCliAsync } from "./cliRun";

const ANSWER = "Orbit 2.4 ships in May.\nIt is faster by 37%.\n";
const NOTES = "# Notes\nOrbit 2.4 ships in May, says the plan.\nBench: faster by 37% on average.\n";

function ref(pathName: string, line: number, start: string, end: string) {
    return { path: pathName, start: { line, str: start }, end: { line, str: end } };
}

const ANNOTATIONS = {
    annotations: [
        {
            claim: ref("answer.md", 1, "Orbit", "May."),
            sources: [{ ...ref("notes/plan.md", 2, "Orbit", "May,"), polarity: "supports", confidence: 0.9 }],
        },
        {
            claim: ref("answer.md", 2, "faster", "37%"),
            sources: [{ ...ref("notes/plan.md", 3, "faster", "37%"), polarity: "supports", confidence: 0.8 }],
        },
        {
            claim: ref("answer.md", 2, "It", "nowhere"),
            sources: [{ ...ref("notes/gone.md", 1, "a", "b"), polarity: "refutes", confidence: 0.5 }],
        },
    ],
};

function tree(files: Record<string, string>): string {
    const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "sourcecheck-library-")));
    for (const [name, text] of Object.entries(files)) {
        fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
        fs.writeFileSync(path.join(dir, name), text);
    }
    return dir;
}

/** Every file under `dir`, by path relative to it: what the memory workspace is given. */
function filesOf(dir: string): Record<string, string> {
    const out: Record<string, string> = {};
    for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
        if (!entry.isFile()) continue;
        const full = path.join(entry.parentPath, entry.name);
        out[path.relative(dir, full).split(path.sep).join("/")] = fs.readFileSync(full, "utf8");
    }
    return out;
}

async function cliJson(dir: string, args: string[]): Promise<{ json: unknown; status: number }> {
    const run = await runCliAsync(["check", "--json", ...args], { cwd: dir });
    return { json: JSON.parse(run.stdout), status: run.status };
}

async function sameEverywhere(dir: string, args: string[], options: { paths?: string[]; locked?: boolean }) {
    const cli = await cliJson(dir, args);
    const disk = await check(createNodeWorkspace(dir), options);
    const memory = await check(createMemoryWorkspace(filesOf(dir)), options);
    assert.deepStrictEqual(disk, cli.json, `library on disk = check --json ${args.join(" ")}`);
    assert.deepStrictEqual(memory, cli.json, `library in memory = check --json ${args.join(" ")}`);
    assert.equal((cli.json as { exitCode: number }).exitCode, cli.status, "the JSON names the exit status");
    return cli;
}

describe("library: check(workspace) is `check --json`", () => {
    it("one file, a folder, with a lock and drift, and --locked: the same object on disk and in memory", async () => {
        const dir = tree({
            "answer.md": ANSWER,
            "notes/plan.md": NOTES,
            "answer.sourcecheck.json": `${JSON.stringify(ANNOTATIONS, null, 2)}\n`,
            "empty.sourcecheck.json": '{ "annotations": [] }\n',
            "sub/sourcecheck.config.json": "{}\n",
            "sub/doc.md": "Local text here.\n",
            "sub/local.annotations.json": JSON.stringify([
                {
                    claim: ref("doc.md", 1, "Local", "here."),
                    sources: [{ ...ref("doc.md", 1, "text", "text"), polarity: "supports", confidence: 1 }],
                },
            ]),
        });
        const first = await sameEverywhere(dir, ["answer.sourcecheck.json"], { paths: ["answer.sourcecheck.json"] });
        assert.equal(first.status, 1);
        await sameEverywhere(dir, ["."], {});
        // Locked, then a cited text changes: drift is a warning, --locked an error.
        assert.equal(runCli(["lock", "answer.sourcecheck.json"], { cwd: dir }).status, 1);
        fs.writeFileSync(path.join(dir, "notes/plan.md"), NOTES.replace("faster by 37%", "faster by nearly 37%"));
        const drift = await sameEverywhere(dir, ["answer.sourcecheck.json"], { paths: ["answer.sourcecheck.json"] });
        assert.equal((drift.json as { lock: { changed: number } }).lock.changed, 1, "the changed text is counted");
        assert.match(JSON.stringify(drift.json), /"text-changed"/);
        await sameEverywhere(dir, ["--locked", "."], { locked: true });
        await sameEverywhere(dir, ["--locked", "empty.sourcecheck.json"], {
            paths: ["empty.sourcecheck.json"],
            locked: true,
        });
    });

    it("an unparsable lock is exit 2 on the library and every CLI output, and no output names another exit", async () => {
        const dir = tree({
            "answer.md": ANSWER,
            "notes/plan.md": NOTES,
            "answer.sourcecheck.json": JSON.stringify({ annotations: ANNOTATIONS.annotations.slice(0, 1) }),
            "answer.sourcecheck.lock.json": "{ not json",
        });
        const cli = await sameEverywhere(dir, ["answer.sourcecheck.json"], { paths: ["answer.sourcecheck.json"] });
        assert.equal(cli.status, 2);
        assert.equal((cli.json as { lockError: { code: string } }).lockError.code, "lock-invalid-json");
        for (const format of [[], ["--format", "sarif"], ["--format", "github"]]) {
            const run = runCli(["check", ...format, "answer.sourcecheck.json"], { cwd: dir });
            assert.equal(run.status, 2, `check ${format.join(" ")}`);
            const exits = [...run.stdout.matchAll(/\(exit (\d)\)/g)].map((m) => m[1]);
            assert.ok(
                exits.every((code) => code === "2"),
                `check ${format.join(" ")} names only exit 2: ${run.stdout}`,
            );
        }
        assert.match(runCli(["check", "answer.sourcecheck.json"], { cwd: dir }).stdout, /\(exit 2\)/);
        const render = runCli(["render", "-o", "out.html", "answer.sourcecheck.json"], { cwd: dir });
        assert.equal(render.status, 2, "render");
        assert.match(render.stderr, /lock-invalid-json/);
    });

    it("a memory workspace is checked without a disk, and every read is one of its files", async () => {
        const workspace = createMemoryWorkspace({
            "answer.md": ANSWER,
            "notes/plan.md": NOTES,
            "answer.sourcecheck.json": JSON.stringify(ANNOTATIONS),
        });
        const report = (await check(workspace, { paths: ["answer.sourcecheck.json"] })) as {
            validCount: number;
            invalidCount: number;
            exitCode: number;
        };
        assert.deepEqual([report.validCount, report.invalidCount, report.exitCode], [2, 1, 1]);
        const read = new Set(workspace.reads);
        for (const file of ["answer.sourcecheck.json", "answer.md", "notes/plan.md", "notes/gone.md"])
            assert.ok(read.has(`/workspace/${file}`), `${file} asked for`);
        for (const asked of read) assert.ok(asked.startsWith("/workspace"), `${asked} is under the root`);
    });
});
