/**
 * The GitHub Action (action.yml, scripts/github-action.mjs) run as the runner runs it: the
 * environment GitHub gives a step (GITHUB_WORKSPACE, GITHUB_STEP_SUMMARY, GITHUB_OUTPUT, GITHUB_SHA...)
 * simulated with temp files, no network.
 */
import * as assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { pathToFileURL } from "node:url";

const repo = path.resolve(__dirname, "../../..");
const script = path.join(repo, "scripts", "github-action.mjs");
const demo = path.join(repo, "examples", "demo");

interface ActionModule {
    markdownCell(text: string): string;
    parseWorkflowCommands(
        text: string,
    ): { file: string; line: number; column: number; code: string; message: string }[];
}
const importModule = new Function("url", "return import(url)") as (url: string) => Promise<ActionModule>;

/** A checked-out repository holding the demo, and the files the runner gives a step. */
function workspace(): { dir: string; env: NodeJS.ProcessEnv } {
    const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "sourcecheck-action-")));
    fs.mkdirSync(path.join(dir, ".git"));
    fs.cpSync(demo, path.join(dir, "answers"), { recursive: true });
    const runner = fs.mkdtempSync(path.join(os.tmpdir(), "sourcecheck-runner-"));
    const env = {
        GITHUB_ACTIONS: "true",
        GITHUB_WORKSPACE: dir,
        GITHUB_STEP_SUMMARY: path.join(runner, "step_summary"),
        GITHUB_OUTPUT: path.join(runner, "output"),
        GITHUB_SERVER_URL: "https://github.com",
        GITHUB_REPOSITORY: "octo/answers",
        GITHUB_SHA: "0123abc",
        GITHUB_ACTION_PATH: repo,
    };
    for (const file of [env.GITHUB_STEP_SUMMARY, env.GITHUB_OUTPUT]) fs.writeFileSync(file, "");
    return { dir, env };
}

/** The step as action.yml runs it: the inputs as INPUT_* variables, the workspace as current folder. */
function step(dir: string, env: NodeJS.ProcessEnv, inputs: Record<string, string>) {
    const inputEnv = Object.fromEntries(Object.entries(inputs).map(([k, v]) => [`INPUT_${k.toUpperCase()}`, v]));
    const r = spawnSync(process.execPath, [script], {
        cwd: dir,
        encoding: "utf8",
        env: { PATH: process.env.PATH, ...env, ...inputEnv },
    });
    const read = (file: string | undefined) => fs.readFileSync(file ?? "", "utf8");
    const outputs = Object.fromEntries(
        read(env.GITHUB_OUTPUT)
            .trim()
            .split("\n")
            .filter(Boolean)
            .map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]),
    );
    return { status: r.status, log: r.stdout, stderr: r.stderr, summary: read(env.GITHUB_STEP_SUMMARY), outputs };
}

describe("the GitHub Action", function () {
    this.timeout(120_000);

    it("action.yml declares the inputs paths, format, locked, shard and runs the script", () => {
        const yml = fs.readFileSync(path.join(repo, "action.yml"), "utf8");
        for (const input of ["paths", "format", "locked", "shard"]) {
            assert.match(yml, new RegExp(`^  ${input}:\\n    description: `, "m"), input);
            assert.match(yml, new RegExp(`INPUT_${input.toUpperCase()}: \\$\\{\\{ inputs\\.${input} \\}\\}`), input);
        }
        assert.match(yml, /using: composite/);
        assert.match(yml, /node "\$GITHUB_ACTION_PATH\/scripts\/github-action\.mjs"/);
    });

    it("annotates each broken ref, writes a job summary with links and a SARIF file, and fails the step", () => {
        const { dir, env } = workspace();
        const r = step(dir, env, { paths: "answers", format: "sarif", locked: "false", shard: "" });
        assert.equal(r.status, 1, r.stderr);
        // Workflow commands the runner turns into annotations on the pull request.
        const commands = r.log.split("\n").filter((l) => l.startsWith("::error "));
        assert.equal(commands.length, 7);
        assert.ok(
            commands.includes(
                '::error file=answers/answer.sourcecheck.json,line=28,col=111,endLine=28,endColumn=120,title=sourcecheck boundary-ambiguous::end boundary "release" occurs 2 times on line 7 of "answer.md" (columns 30, 75); extend it until it is unique',
            ),
        );
        // The job summary: totals, the file's counts, each broken ref linked to its line.
        assert.match(r.summary, /^## SourceCheck: 4 of 8 annotations invalid$/m);
        assert.match(r.summary, /^1 file, 8 annotations: 4 valid, 4 invalid \(exit 1\)$/m);
        assert.match(
            r.summary,
            /^\| \[answers\/answer\.sourcecheck\.json\]\(https:\/\/github\.com\/octo\/answers\/blob\/0123abc\/answers\/answer\.sourcecheck\.json\) \| 4 \| 4 \| 1 \|$/m,
        );
        assert.match(r.summary, /^### Broken refs \(7\)$/m);
        const links = [...r.summary.matchAll(/\]\((https:[^)]+#L(\d+))\)/g)].map((m) => Number(m[2]));
        assert.deepEqual(links, [28, 36, 42, 42, 48, 49, 49]);
        assert.match(
            r.summary,
            /\| boundary-ambiguous \| end boundary &#34;|\| boundary-ambiguous \| end boundary "release"/,
        );
        // SARIF for upload-sarif, and the step's outputs.
        assert.equal(r.outputs["exit-code"], "1");
        assert.equal(r.outputs["valid-count"], "4");
        assert.equal(r.outputs["invalid-count"], "4");
        assert.equal(r.outputs["sarif-file"], path.join(dir, "sourcecheck.sarif"));
        const sarif = JSON.parse(fs.readFileSync(r.outputs["sarif-file"], "utf8"));
        assert.equal(sarif.runs[0].results.length, 7);
        assert.equal(
            sarif.runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri,
            "answers/answer.sourcecheck.json",
        );
    });

    it("passes a clean repository, and writes no SARIF unless asked", () => {
        const { dir, env } = workspace();
        fs.rmSync(path.join(dir, "answers", "answer.sourcecheck.json"));
        fs.writeFileSync(path.join(dir, "answers", "ok.md"), "All good here.\n");
        const ref = { path: "ok.md", start: { line: 1, str: "All" }, end: { line: 1, str: "here." } };
        fs.writeFileSync(
            path.join(dir, "answers", "ok.sourcecheck.json"),
            JSON.stringify({
                annotations: [{ claim: ref, sources: [{ ...ref, polarity: "supports", confidence: 1 }] }],
            }),
        );
        const r = step(dir, env, { paths: "answers" });
        assert.equal(r.status, 0, r.log + r.stderr);
        assert.match(r.summary, /^## SourceCheck: every ref resolves: 1 annotation valid$/m);
        assert.doesNotMatch(r.summary, /Broken refs/);
        assert.equal(r.outputs["sarif-file"], undefined);
        assert.ok(!fs.existsSync(path.join(dir, "sourcecheck.sarif")));
    });

    it("shards: the matrix of docs/ci.md checks every file exactly once", () => {
        const { dir, env } = workspace();
        for (let i = 0; i < 7; i++)
            fs.cpSync(path.join(dir, "answers"), path.join(dir, `copy ${i}`), { recursive: true });
        const docs = fs.readFileSync(path.join(repo, "docs", "ci.md"), "utf8");
        const matrix = /shard: \[([\d, ]+)\]/.exec(docs);
        assert.ok(matrix, "docs/ci.md shows a shard matrix");
        const shards = matrix[1].split(",").map((s) => Number(s.trim()));
        assert.match(docs, new RegExp(`shard: "?\\$\\{\\{ matrix\\.shard \\}\\}/${shards.length}`));
        const seen: string[] = [];
        for (const k of shards) {
            fs.writeFileSync(env.GITHUB_STEP_SUMMARY ?? "", "");
            const r = step(dir, env, { paths: ".", shard: `${k}/${shards.length}` });
            assert.equal(r.status, 1);
            seen.push(...[...r.summary.matchAll(/^\| \[([^\]]+\.sourcecheck\.json)\]/gm)].map((m) => m[1]));
        }
        assert.equal(seen.length, 8, seen.join(", "));
        assert.deepEqual([...seen].sort(), [...new Set(seen)].sort(), "no file twice");
    });

    it("refuses bad inputs with an error annotation and exit 2", () => {
        const { dir, env } = workspace();
        for (const [input, value] of [
            ["format", "xml"],
            ["locked", "maybe"],
            ["shard", "3"],
        ]) {
            const r = step(dir, env, { paths: "answers", [input]: value });
            assert.equal(r.status, 2);
            assert.match(r.log, new RegExp(`^::error title=sourcecheck action::input ${input}: `, "m"));
        }
    });

    it("keeps Markdown and workflow-command escapes from breaking the summary", async () => {
        const action = await importModule(pathToFileURL(script).href);
        const cell = action.markdownCell("a | b `c` [x](http://e) <img>\nnext");
        assert.ok(!/[|`[\]<>\n]/.test(cell), cell);
        const [p] = action.parseWorkflowCommands(
            "::error file=a%2Cb%3A.json,line=3,col=4,endLine=3,endColumn=5,title=sourcecheck schema::50%25 done%0Anext",
        );
        assert.deepEqual(p, { file: "a,b:.json", line: 3, column: 4, code: "schema", message: "50% done\nnext" });
    });
});
