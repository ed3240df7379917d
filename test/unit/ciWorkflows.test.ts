/**
 * The workflows docs/ci.md gives to copy and paste, parsed as YAML (js-yaml) and checked against
 * what they name: every input given to this repository's action is one action.yml declares, every
 * flag given to `sourcecheck` is one its usage lists, and the review workflows are the fork-safe
 * flow of docs/review.md: the history fetched, the unprivileged job writing nothing, the privileged
 * one checking out nothing and posting the very file the first uploaded.
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { runCliAsync } from "./cliRun";

const repo = path.resolve(__dirname, "../../..");
const yaml = require("js-yaml") as { load(text: string): unknown };
const ACTION = "sourcecheck/sourcecheck-vscode@";
/** A GitHub expression, as a workflow writes it. */
const expression = (text: string) => `\${{ ${text} }}`;

interface Step {
    uses?: string;
    run?: string;
    if?: string;
    with?: Record<string, unknown>;
    env?: Record<string, unknown>;
}
interface Job {
    "runs-on": string;
    if?: string;
    permissions?: Record<string, string>;
    steps: Step[];
}
interface Workflow {
    name?: string;
    on: unknown;
    permissions?: Record<string, string>;
    jobs: Record<string, Job>;
}

/** Every YAML block of docs/ci.md, parsed, in the page's order. */
function blocks(): unknown[] {
    const page = fs.readFileSync(path.join(repo, "docs", "ci.md"), "utf8");
    return [...page.matchAll(/^```yaml\n([\s\S]*?)^```$/gm)].map((block) => yaml.load(block[1]));
}

/** The workflows among them (a block with `jobs`; a fragment showing a matrix has no name and no trigger). */
function workflows(): Workflow[] {
    return blocks().filter((v): v is Workflow => typeof v === "object" && v !== null && "jobs" in v);
}

/** Every `run` command of every block, fragments of steps included. */
function runs(value: unknown): string[] {
    if (Array.isArray(value)) return value.flatMap(runs);
    if (typeof value !== "object" || value === null) return [];
    const own = typeof (value as Step).run === "string" ? [(value as Step).run as string] : [];
    return [...own, ...Object.values(value).flatMap(runs)];
}

const steps = (w: Workflow) => Object.values(w.jobs).flatMap((job) => job.steps);
const named = (name: string) => {
    const w = workflows().find((x) => x.name === name);
    assert.ok(w, `docs/ci.md has the workflow "${name}"`);
    return w;
};
const actionStep = (w: Workflow) => {
    const s = steps(w).find((x) => x.uses?.startsWith(ACTION));
    assert.ok(s, `${w.name} uses the action`);
    return s;
};
const checkout = (w: Workflow) => steps(w).find((x) => x.uses?.startsWith("actions/checkout@"));

describe("docs/ci.md's workflows", () => {
    it("are valid YAML workflows: a trigger, and jobs of steps that each use an action or run a command", () => {
        const all = workflows();
        assert.ok(all.length >= 7, `${all.length} workflows`);
        for (const w of all) {
            assert.ok(w.on !== undefined || w.name === undefined, `${w.name}: a trigger`);
            for (const [id, job] of Object.entries(w.jobs)) {
                assert.equal(typeof job["runs-on"], "string", `${w.name}/${id}: runs-on`);
                assert.ok(Array.isArray(job.steps) && job.steps.length > 0, `${w.name}/${id}: steps`);
                for (const s of job.steps)
                    assert.ok((s.uses === undefined) !== (s.run === undefined), JSON.stringify(s));
            }
        }
    });

    it("give the action only inputs action.yml declares", () => {
        const action = yaml.load(fs.readFileSync(path.join(repo, "action.yml"), "utf8")) as {
            inputs: Record<string, { description: string }>;
        };
        const inputs = new Set(Object.keys(action.inputs));
        let used = 0;
        for (const w of workflows()) {
            for (const s of steps(w).filter((x) => x.uses?.startsWith(ACTION))) {
                for (const input of Object.keys(s.with ?? {})) {
                    assert.ok(inputs.has(input), `${w.name}: input ${input} is not in action.yml`);
                    used++;
                }
            }
        }
        assert.ok(used >= 8, `${used} inputs given`);
    });

    it("give sourcecheck only commands and flags its usage lists", async () => {
        const usages = new Map<string, string>();
        let flags = 0;
        for (const run of blocks().flatMap(runs)) {
            for (const call of run.matchAll(/sourcecheck ([a-z]+)((?: +(?!\|)[^|\n]+)?)/g)) {
                const command = call[1];
                if (!usages.has(command)) {
                    const help = await runCliAsync([command, "--help"], { cwd: repo });
                    usages.set(command, help.stdout + help.stderr);
                }
                const usage = usages.get(command) ?? "";
                assert.match(usage, new RegExp(`sourcecheck ${command}\\b`), `${command} is a command`);
                for (const flag of call[2].match(/--[a-z][a-z-]*/g) ?? []) {
                    assert.ok(usage.includes(flag), `sourcecheck ${command} ${flag}`);
                    flags++;
                }
            }
        }
        assert.ok(usages.has("review") && usages.has("check"), [...usages.keys()].join());
        assert.ok(flags >= 6, `${flags} flags checked`);
    });

    it("review a same-repository PR with the history fetched and the right to comment", () => {
        const w = named("citations review");
        assert.equal(w.permissions?.["pull-requests"], "write");
        assert.deepEqual(checkout(w)?.with, {
            ref: expression("github.event.pull_request.head.sha"),
            "fetch-depth": 0,
        });
        assert.deepEqual(actionStep(w).with, { review: true });
    });

    it("review a fork's PR in two stages: the unprivileged one uploads the review, the privileged one posts it and checks nothing out", () => {
        const all = workflows().filter((w) => w.name === "citations review");
        const first = all.find((w) => actionStep(w).with?.["review-file"] !== undefined);
        assert.ok(first, "a pull_request workflow saving the review");
        assert.equal(first.on, "pull_request");
        const writes = (p: Record<string, string> | undefined) =>
            Object.entries(p ?? {}).filter(([, v]) => v === "write");
        assert.deepEqual(writes(first.permissions), [], "stage 1 has no write permission");
        for (const job of Object.values(first.jobs)) assert.deepEqual(writes(job.permissions), []);
        assert.equal(checkout(first)?.with?.["fetch-depth"], 0);
        const saved = actionStep(first).with?.["review-file"];
        const upload = steps(first).find((s) => s.uses?.startsWith("actions/upload-artifact@"));
        assert.equal(upload?.with?.path, saved);
        assert.equal(upload?.if, "always()", "uploaded even when the review fails the step");

        const second = named("citations post");
        const on = second.on as { workflow_run: { workflows: string[]; types: string[] } };
        assert.deepEqual(on.workflow_run.workflows, [first.name]);
        assert.deepEqual(second.permissions, { actions: "read", "pull-requests": "write" });
        assert.equal(checkout(second), undefined, "the privileged workflow never checks out the PR's code");
        assert.ok(
            steps(second).every((s) => s.run === undefined),
            "and runs no command of its own",
        );
        const download = steps(second).find((s) => s.uses?.startsWith("actions/download-artifact@"));
        assert.equal(download?.with?.name, upload?.with?.name);
        assert.equal(download?.with?.["run-id"], expression("github.event.workflow_run.id"));
        assert.deepEqual(actionStep(second).with, { review: true, "review-file": saved });
    });

    it("route rdjsonl into reviewdog's github-pr-review reporter", () => {
        const w = named("citations reviewdog");
        const run = steps(w).find((s) => s.run?.includes("reviewdog"))?.run ?? "";
        assert.match(
            run,
            /sourcecheck review --base "\$\{\{ github\.event\.pull_request\.base\.sha \}\}" --format rdjsonl\n?\s*\| reviewdog -f=rdjsonl -reporter=github-pr-review/,
        );
        assert.equal(checkout(w)?.with?.["fetch-depth"], 0);
    });
});
