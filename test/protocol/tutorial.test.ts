/**
 * docs/tutorial.md is run, as Rust's documentation tests and `mdbook test` run theirs: its `sh` and
 * `console` blocks are executed in order, in one shell, in an empty temp folder, with `sourcecheck` on
 * PATH as this repository's built bin/sourcecheck.js; each `$ command` of a `console` block must print
 * exactly the lines shown under it (trailing spaces aside), and an `sh` block must print nothing. A
 * changed message breaks this test, not the tutorial. `bash` blocks are shown, not run: the global
 * install (replaced by the PATH above) and opening VS Code.
 */
import * as assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { repoRoot } from "./harness";

type Block = { lang: string; body: string; line: number };
type Step = { command: string; expected: string; line: number };

/** The fenced blocks of a Markdown text, with the line (from 1) of their opening fence. */
function fencedBlocks(markdown: string): Block[] {
    const blocks: Block[] = [];
    const lines = markdown.split("\n");
    for (let i = 0; i < lines.length; i++) {
        const open = /^(```+)\s*(\S*)\s*$/.exec(lines[i]);
        if (!open) continue;
        const end = lines.findIndex((l, j) => j > i && l.startsWith(open[1]) && l.trim() === open[1]);
        assert.ok(end > i, `the block opened on line ${i + 1} is closed`);
        blocks.push({ lang: open[2], body: lines.slice(i + 1, end).join("\n"), line: i + 1 });
        i = end;
    }
    return blocks;
}

/** The steps of the runnable blocks: each `$ ` line of a console block with the lines under it, each sh block whole. */
function tutorialSteps(blocks: Block[]): Step[] {
    const steps: Step[] = [];
    for (const block of blocks) {
        if (block.lang === "sh") steps.push({ command: block.body, expected: "", line: block.line });
        if (block.lang !== "console") continue;
        const lines = block.body.split("\n");
        assert.ok(lines[0].startsWith("$ "), `the console block on line ${block.line} starts with a command`);
        const own: { step: Step; printed: string[] }[] = [];
        lines.forEach((text, i) => {
            if (text.startsWith("$ "))
                own.push({ step: { command: text.slice(2), expected: "", line: block.line + 1 + i }, printed: [] });
            else own[own.length - 1].printed.push(text);
        });
        for (const { step, printed } of own) steps.push({ ...step, expected: printed.join("\n") });
    }
    return steps;
}

const normalise = (text: string) =>
    text
        .split("\n")
        .map((l) => l.trimEnd())
        .join("\n")
        .replace(/\n+$/, "");

describe("docs/tutorial.md, run as written", () => {
    const tutorial = fs.readFileSync(path.join(repoRoot, "docs", "tutorial.md"), "utf8");
    const blocks = fencedBlocks(tutorial);
    let dir: string;
    before(() => {
        dir = fs.mkdtempSync(path.join(fs.realpathSync(os.tmpdir()), "sourcecheck-tutorial-"));
    });
    after(() => fs.rmSync(dir, { recursive: true, force: true }));

    it("shows only the global install and opening VS Code without running them", () => {
        const shown = blocks.filter((b) => b.lang !== "sh" && b.lang !== "console").map((b) => `${b.lang}: ${b.body}`);
        assert.deepEqual(shown, ["bash: npm i -g sourcecheck", "bash: code ."]);
    });

    it("prints what the tutorial shows, command by command", function () {
        this.timeout(120_000);
        const steps = tutorialSteps(blocks);
        assert.ok(steps.length >= 14, `${steps.length} steps`);
        const bin = path.join(dir, "bin");
        const work = path.join(dir, "work");
        fs.mkdirSync(bin);
        fs.mkdirSync(work);
        // `npm i -g sourcecheck` puts the package's bin on PATH; here, this checkout's.
        const shim = path.join(bin, "sourcecheck");
        const cli = path.join(repoRoot, "bin", "sourcecheck.js");
        fs.writeFileSync(shim, `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(cli)} "$@"\n`);
        fs.chmodSync(shim, 0o755);
        const marker = `@@sourcecheck-tutorial-step-${process.pid}@@`;
        const script = steps.map((s, i) => `printf '\\n%s\\n' '${marker}${i}'\n{\n${s.command}\n} 2>&1`).join("\n");
        const run = spawnSync("bash", ["-c", script], {
            cwd: work,
            encoding: "utf8",
            env: {
                ...process.env,
                PATH: `${bin}${path.delimiter}${process.env.PATH}`,
                HOME: dir,
                XDG_CACHE_HOME: path.join(dir, "cache"),
                NO_COLOR: "1",
            },
        });
        assert.equal(run.error, undefined);
        const outputs = run.stdout.split(new RegExp(`\\n${marker}\\d+\\n`)).slice(1);
        assert.equal(outputs.length, steps.length, run.stdout + run.stderr);
        steps.forEach((step, i) => {
            assert.equal(
                normalise(outputs[i]),
                normalise(step.expected),
                `docs/tutorial.md line ${step.line}: ${step.command.split("\n")[0]}`,
            );
        });
        // The answer ends checked and locked: the files the tutorial says it made.
        const made = path.join(work, "tutorial");
        for (const file of ["answer.sourcecheck.json", "answer.sourcecheck.lock.json"])
            assert.ok(fs.existsSync(path.join(made, file)), file);
    });

    it("splits a console block into commands and the lines each prints", () => {
        const steps = tutorialSteps(fencedBlocks("```console\n$ a\none\n two \n$ b\n```\n```sh\nx\ny\n```\n"));
        assert.deepEqual(
            steps.map((s) => [s.command, s.expected, s.line]),
            [
                ["a", "one\n two ", 2],
                ["b", "", 5],
                ["x\ny", "", 7],
            ],
        );
    });
});
