/**
 * The Action's `review: true` (action.yml, scripts/github-action.mjs, docs/ci.md "Reviewing pull
 * requests") run as the runner runs its step, against a loopback GitHub (fakeGitHub.ts) served under
 * GitHub Enterprise Server's `/api/v3`: a same-repository PR posted directly; a fork's PR in two
 * stages (the pull_request run saves the review and posts nothing; the workflow_run run posts the
 * saved file from a folder holding nothing of the PR); a fork's PR without them; a shallow clone.
 */
import * as assert from "node:assert/strict";
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { FakeGitHub } from "./fakeGitHub";
import { git, pullRequestRepository, type ReviewRepository } from "./reviewRepo";

const repo = path.resolve(__dirname, "../../..");
const script = path.join(repo, "scripts", "github-action.mjs");

interface Step {
    status: number | null;
    log: string;
    stderr: string;
    summary: string;
    outputs: Record<string, string>;
}

/** The runner's files for one step, and the event it runs on. */
function runner(eventName: string, event: unknown, apiUrl: string): NodeJS.ProcessEnv {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sourcecheck-runner-"));
    const env = {
        GITHUB_ACTIONS: "true",
        GITHUB_EVENT_NAME: eventName,
        GITHUB_EVENT_PATH: path.join(dir, "event.json"),
        GITHUB_STEP_SUMMARY: path.join(dir, "step_summary"),
        GITHUB_OUTPUT: path.join(dir, "output"),
        GITHUB_REPOSITORY: "o/r",
        GITHUB_API_URL: apiUrl,
        GITHUB_SERVER_URL: "https://github.com",
        GITHUB_TOKEN: "test-token",
        GITHUB_ACTION_PATH: repo,
    };
    fs.writeFileSync(env.GITHUB_EVENT_PATH, JSON.stringify(event));
    for (const file of [env.GITHUB_STEP_SUMMARY, env.GITHUB_OUTPUT]) fs.writeFileSync(file, "");
    return env;
}

/** The step as action.yml runs it, in a child process (the loopback GitHub answers meanwhile). */
function step(cwd: string, env: NodeJS.ProcessEnv, inputs: Record<string, string>): Promise<Step> {
    const inputEnv = Object.fromEntries(
        Object.entries(inputs).map(([k, v]) => [`INPUT_${k.toUpperCase().replace(/-/g, "_")}`, v]),
    );
    const child = spawn(process.execPath, [script], { cwd, env: { PATH: process.env.PATH, ...env, ...inputEnv } });
    let log = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
        log += chunk;
    });
    child.stderr.on("data", (chunk) => {
        stderr += chunk;
    });
    return new Promise((resolve) =>
        child.on("close", (status) => {
            const read = (file: string | undefined) => fs.readFileSync(file ?? "", "utf8");
            const outputs = Object.fromEntries(
                read(env.GITHUB_OUTPUT)
                    .split("\n")
                    .filter(Boolean)
                    .map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]),
            );
            resolve({ status, log, stderr, summary: read(env.GITHUB_STEP_SUMMARY), outputs });
        }),
    );
}

/** A pull_request event of PR #7, its head in `headRepo`. */
function pullRequestEvent(r: ReviewRepository, headRepo = "o/r") {
    return {
        pull_request: {
            number: 7,
            base: { sha: r.base, repo: { full_name: "o/r" } },
            head: { sha: r.head, repo: { full_name: headRepo } },
        },
        repository: { full_name: "o/r" },
    };
}

/** What one review of the PR must have made: one review, the new file's suggestion inline, one summary. */
function assertPosted(github: FakeGitHub): void {
    assert.deepEqual(github.violations, []);
    assert.equal(github.reviews, 1);
    assert.deepEqual([...new Set(github.reviewComments.map((c) => c.path))], ["c.sourcecheck.json"]);
    assert.match(github.reviewComments[0].body, /```suggestion\n.*"line": 6, "str": "The beta".*\n```/);
    assert.equal(github.issueComments.length, 1);
    assert.match(github.issueComments[0].body, /`a\.sourcecheck\.json:6` `boundary-not-found`/);
    assert.ok(!github.issueComments[0].body.includes("d.sourcecheck.json"), "nothing about untouched files");
}

describe("the GitHub Action's review: true", function () {
    this.timeout(120_000);

    it("action.yml declares review, review-file, base and token, passed to the script", () => {
        const yml = fs.readFileSync(path.join(repo, "action.yml"), "utf8");
        for (const input of ["review", "review-file", "base", "token"]) {
            assert.match(yml, new RegExp(`^  ${input}:\\n    description: `, "m"), input);
        }
        for (const [name, input] of [
            ["INPUT_REVIEW", "review"],
            ["INPUT_REVIEW_FILE", "review-file"],
            ["INPUT_BASE", "base"],
            ["GITHUB_TOKEN", "token"],
        ]) {
            assert.ok(yml.includes(`${name}: \${{ inputs.${input} }}`), name);
        }
    });

    it("a same-repository PR: reviews base...head and posts it (GitHub Enterprise Server's /api/v3)", async () => {
        const r = pullRequestRepository();
        const github = new FakeGitHub(r, { prefix: "/api/v3" });
        const api = await github.start();
        try {
            const env = runner("pull_request", pullRequestEvent(r), api);
            const run = await step(r.dir, env, { review: "true", paths: "." });
            assert.equal(run.status, 1, run.log + run.stderr);
            assertPosted(github);
            assert.ok(
                github.requests.every((q) => !q.includes("/api/v3")),
                "the prefix was stripped once",
            );
            assert.match(run.log, /^::error file=c\.sourcecheck\.json,line=6,col=\d+,endLine=6,title=sourcecheck /m);
            assert.match(run.log, /review: pull request #7: 2 findings newly commented inline/);
            assert.match(run.summary, /^## SourceCheck review: 5 findings \(exit 1\)$/m);
            assert.equal(run.outputs["exit-code"], "1");
        } finally {
            github.stop();
        }
    });

    it("a fork's PR in two stages: pull_request saves the review, workflow_run posts it without the PR's code", async () => {
        const r = pullRequestRepository();
        const github = new FakeGitHub(r, { headOwner: "fork" });
        const api = await github.start();
        try {
            // Stage 1: the unprivileged run. Nothing reaches GitHub; the review is saved.
            const first = runner("pull_request", pullRequestEvent(r, "fork/r"), api);
            const saved = await step(r.dir, first, { review: "true", "review-file": "review.json" });
            assert.equal(saved.status, 1, saved.log + saved.stderr);
            assert.equal(github.requests.length, 0, github.requests.join());
            const file = path.join(r.dir, "review.json");
            assert.equal(saved.outputs["review-file"], file);
            const review = JSON.parse(fs.readFileSync(file, "utf8"));
            assert.equal(review.sourcecheckReview, 1);
            assert.equal(review.head, r.head);

            // Stage 2: the privileged run, in a folder holding only the downloaded artifact (no git, no
            // PR code). workflow_run of a fork lists no pull request: it is found by its head.
            const artifact = fs.mkdtempSync(path.join(os.tmpdir(), "sourcecheck-artifact-"));
            fs.copyFileSync(file, path.join(artifact, "review.json"));
            const workflowRun = {
                workflow_run: {
                    head_sha: r.head,
                    head_branch: "pr",
                    head_repository: { full_name: "fork/r", owner: { login: "fork" } },
                    pull_requests: [],
                },
            };
            const second = runner("workflow_run", workflowRun, api);
            const posted = await step(artifact, second, { review: "true", "review-file": "review.json" });
            assert.equal(posted.status, 1, posted.log + posted.stderr);
            assert.deepEqual(fs.readdirSync(artifact), ["review.json"]);
            assertPosted(github);
            assert.ok(github.requests.includes("GET /repos/o/r/pulls"), "the PR found by its head label");
            assert.match(posted.summary, /^## SourceCheck review: 5 findings \(exit 1\)$/m);

            // A saved review of another commit than the run's head is refused, nothing posted.
            const before = github.requests.length;
            const other = runner(
                "workflow_run",
                { workflow_run: { ...workflowRun.workflow_run, head_sha: r.base } },
                api,
            );
            const refused = await step(artifact, other, { review: "true", "review-file": "review.json" });
            assert.equal(refused.status, 2);
            assert.match(
                refused.log,
                /^::error title=sourcecheck review::review: the review is of commit [0-9a-f]{12}, the event's head is/m,
            );
            assert.equal(github.requests.length, before);
        } finally {
            github.stop();
        }
    });

    it("a fork's PR without review-file: the review is shown and a warning names the two stages; nothing is posted", async () => {
        const r = pullRequestRepository();
        const github = new FakeGitHub(r, { headOwner: "fork" });
        const api = await github.start();
        try {
            const env = runner("pull_request", pullRequestEvent(r, "fork/r"), api);
            const run = await step(r.dir, env, { review: "true" });
            assert.equal(run.status, 1, run.log + run.stderr);
            assert.match(run.log, /^::warning title=sourcecheck review::this pull request comes from a fork/m);
            assert.match(run.log, /^::error file=c\.sourcecheck\.json,/m);
            assert.equal(github.requests.length, 0, github.requests.join());
        } finally {
            github.stop();
        }
    });

    it("a shallow clone fails with one clear line naming fetch-depth: 0, no stack trace", async () => {
        const r = pullRequestRepository();
        const shallow = fs.mkdtempSync(path.join(os.tmpdir(), "sourcecheck-shallow-"));
        git(shallow, ["clone", "-q", "--depth", "1", "--branch", "pr", `file://${r.dir}`, "."]);
        const env = runner("pull_request", pullRequestEvent({ ...r, dir: shallow }), "http://127.0.0.1:9");
        const run = await step(shallow, env, { review: "true", "review-file": "review.json" });
        assert.equal(run.status, 2, run.log + run.stderr);
        assert.match(
            run.log,
            /^::error title=sourcecheck review::review: unknown revision "[0-9a-f]{40}": this clone is shallow and lacks it; check out with the history \(actions\/checkout: fetch-depth: 0\)$/m,
        );
        assert.doesNotMatch(run.log + run.stderr, /^\s+at /m);
        assert.equal(run.outputs["exit-code"], "2");
    });

    it("a push event is refused with one clear line", async () => {
        const r = pullRequestRepository();
        const env = runner("push", { ref: "refs/heads/main" }, "http://127.0.0.1:9");
        const run = await step(r.dir, env, { review: "true" });
        assert.equal(run.status, 2);
        assert.match(
            run.log,
            /^::error title=sourcecheck review::review reviews a pull request: run it on pull_request or workflow_run, not push$/m,
        );
    });
});
