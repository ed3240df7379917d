/**
 * `review --post` against a loopback server (127.0.0.1 only) that answers as GitHub does: the PR's
 * files replayed from a real git history, 422 for a comment outside the diff, and every request's
 * method, path, query and body fields checked against GitHub's published OpenAPI description
 * (@octokit/openapi). Each case reruns the poster on the state the last run left.
 */
import * as assert from "node:assert/strict";
import { postReview } from "../../server/src/cli/githubReview";
import type { ReviewReport } from "../../server/src/cli/reviewFormats";
import { runCliAsync } from "./cliRun";
import { type Failure, FakeGitHub } from "./fakeGitHub";
import { manyFindingsRepository, pullRequestRepository, type ReviewRepository } from "./reviewRepo";

async function reviewOf(repo: ReviewRepository): Promise<ReviewReport> {
    const run = await runCliAsync(["review", "--base", "main", "--head", "pr", "--format", "json"], { cwd: repo.dir });
    return JSON.parse(run.stdout);
}

function post(report: ReviewReport, apiUrl: string) {
    const env = { GITHUB_TOKEN: "test-token", GITHUB_REPOSITORY: "o/r", GITHUB_API_URL: apiUrl };
    return postReview(report, { env, pullNumber: 7, sleep: async () => {} });
}

describe("sourcecheck review --post (a loopback GitHub)", () => {
    it("one review whose suggestions fix the new file, one summary naming the rest; a rerun posts nothing twice; the fix removes the comments", async () => {
        const repo = pullRequestRepository();
        const github = new FakeGitHub(repo);
        const api = await github.start();
        try {
            const report = await reviewOf(repo);
            const said = await post(report, api);
            assert.deepEqual(github.violations, []);
            assert.equal(github.reviews, 1);
            // Inline: only the added file c, whose lines are in the diff, with a suggestion.
            assert.deepEqual([...new Set(github.reviewComments.map((c) => c.path))], ["c.sourcecheck.json"]);
            assert.equal(github.reviewComments.length, 1, "the ref's two findings in one comment");
            assert.match(github.reviewComments[0].body, /```suggestion\n.*"line": 6, "str": "The beta".*\n```/);
            // The summary: a (its document changed, the file did not) and b (drift, no certain repair).
            assert.equal(github.issueComments.length, 1);
            const summary = github.issueComments[0].body;
            assert.match(summary, /`a\.sourcecheck\.json:6` `boundary-not-found`/);
            assert.match(summary, /`b\.sourcecheck\.json:6` `text-changed`/);
            assert.match(summary, /Fix: `sourcecheck repair --write a\.sourcecheck\.json`/);
            assert.match(
                summary,
                /\[`docs\/rapport-été\.md` line 1\]\(https:\/\/github\.com\/o\/r\/blob\/[0-9a-f]+\/docs\/rapport-%C3%A9t%C3%A9\.md#L1\)/,
            );
            assert.ok(!summary.includes("d.sourcecheck.json"), "nothing about untouched files");
            assert.match(
                said,
                /2 findings newly commented inline, 0 already commented, 3 in the summary, 0 outdated comments removed/,
            );

            // A rerun: no new review, the summary edited in place (unchanged: not even edited).
            const before = github.requests.length;
            await post(report, api);
            assert.equal(github.reviews, 1);
            assert.equal(github.reviewComments.length, 1);
            assert.equal(github.issueComments.length, 1);
            assert.ok(!github.requests.slice(before).some((r) => r.startsWith("POST") || r.startsWith("PATCH")));

            // The fix pushed: every finding gone, the bot's comment deleted, the summary says so.
            await post(
                { ...report, findings: [], files: report.files.map((f) => ({ ...f, exitCode: 0 })), exitCode: 0 },
                api,
            );
            assert.deepEqual(github.reviewComments, []);
            assert.equal(github.issueComments.length, 1);
            assert.match(
                github.issueComments[0].body,
                /Every ref this change affects resolves\.\n\n1 earlier comment removed: its finding is gone\./,
            );
            assert.deepEqual(github.violations, []);
        } finally {
            github.stop();
        }
    });

    it("40 findings: 30 inline comments in one review, the other 10 in the summary", async function () {
        this.timeout(180_000); // 40 files checked and repaired, two runs
        const repo = manyFindingsRepository(40);
        const github = new FakeGitHub(repo);
        const api = await github.start();
        try {
            const report = await reviewOf(repo);
            assert.equal(report.findings.length, 40);
            await post(report, api);
            assert.equal(github.reviews, 1);
            assert.equal(github.reviewComments.length, 30);
            const items = github.issueComments[0].body.split("\n").filter((line) => line.startsWith("- "));
            assert.equal(items.length, 10);
            assert.match(
                github.issueComments[0].body,
                /40 findings on refs this change affects: 30 inline, 10 below\./,
            );
            // The rerun adds the 10 left over, in a second review; nothing twice.
            await post(report, api);
            assert.equal(github.reviewComments.length, 40);
            assert.equal(new Set(github.reviewComments.map((c) => c.body)).size, 40);
            assert.deepEqual(github.violations, []);
        } finally {
            github.stop();
        }
    });

    it("an API failure ends the run with the request, the status and GitHub's message (exit 2)", async () => {
        const repo = pullRequestRepository();
        const github = new FakeGitHub(repo);
        const api = await github.start();
        try {
            const report = await reviewOf(repo);
            const unknown = { ...report };
            await assert.rejects(
                postReview(unknown, {
                    env: { GITHUB_TOKEN: "t", GITHUB_REPOSITORY: "o/r", GITHUB_API_URL: api },
                    pullNumber: 8,
                    sleep: async () => {},
                }),
                (error: Error & { exitCode?: number }) => {
                    assert.match(error.message, /GitHub API GET \/repos\/o\/r\/pulls\/8\/files: 404 Not Found/);
                    return true;
                },
            );
        } finally {
            github.stop();
        }
    });

    it("a saved review posted to a PR number whose head is another commit is refused before anything is written", async () => {
        const repo = pullRequestRepository();
        const github = new FakeGitHub(repo);
        const api = await github.start();
        try {
            const report = await reviewOf(repo);
            const env = { GITHUB_TOKEN: "t", GITHUB_REPOSITORY: "o/r", GITHUB_API_URL: api };
            await assert.rejects(
                postReview({ ...report, head: repo.base }, { env, pullNumber: 7, checkPullHead: true }),
                (error: Error & { exitCode?: number }) => {
                    assert.equal(error.exitCode, 2);
                    assert.match(
                        error.message,
                        /^review: pull request #7's head is [0-9a-f]{12}, the review is of [0-9a-f]{12}$/,
                    );
                    return true;
                },
            );
            assert.deepEqual(github.requests, ["GET /repos/o/r/pulls/7"]);
            assert.deepEqual(github.violations, []);
        } finally {
            github.stop();
        }
    });

    describe("rate limits (the clock and the sleep injected: the waits asked for are asserted, none is waited)", () => {
        const NOW = 1_800_000_000_000;
        const env = (api: string) => ({ GITHUB_TOKEN: "t", GITHUB_REPOSITORY: "o/r", GITHUB_API_URL: api });

        /** The poster run once on the PR, with the failures given answered first; the waits it asked for. */
        async function postThrough(failures: Omit<Failure, "request">[], request: string) {
            const repo = pullRequestRepository();
            const github = new FakeGitHub(repo);
            const api = await github.start();
            try {
                const report = await reviewOf(repo);
                github.failures.push(...failures.map((f) => ({ ...f, request })));
                const waits: number[] = [];
                const options = { env: env(api), pullNumber: 7, now: () => NOW };
                const outcome = await postReview(report, {
                    ...options,
                    sleep: async (ms) => {
                        waits.push(ms);
                    },
                }).then(
                    (said) => ({ said, error: undefined }),
                    (error: Error & { exitCode?: number }) => ({ said: undefined, error }),
                );
                return { github, waits, ...outcome, tries: github.requests.filter((r) => r === request).length };
            } finally {
                github.stop();
            }
        }

        it("403 with x-ratelimit-remaining: 0 waits until x-ratelimit-reset (+1 s), then retries and succeeds", async () => {
            const reset = String(NOW / 1000 + 30);
            const limited = { status: 403, message: "API rate limit exceeded for installation ID 1." };
            const headers = { "x-ratelimit-limit": "5000", "x-ratelimit-remaining": "0", "x-ratelimit-reset": reset };
            const r = await postThrough([{ ...limited, headers }], "GET /repos/o/r/pulls/7/files");
            assert.equal(r.error, undefined);
            assert.deepEqual(r.waits, [31_000]);
            assert.equal(r.tries, 2);
            assert.equal(r.github.reviews, 1);
            assert.deepEqual(r.github.violations, []);
        });

        it("429 with retry-after waits its seconds, each time, up to 3 retries, then succeeds", async () => {
            const secondary = { status: 429, message: "You have exceeded a secondary rate limit." };
            const r = await postThrough(
                [
                    { ...secondary, headers: { "retry-after": "7" } },
                    { ...secondary, headers: { "retry-after": "0" } },
                    { ...secondary, headers: { "retry-after": "60" } },
                ],
                "POST /repos/o/r/pulls/7/reviews",
            );
            assert.equal(r.error, undefined);
            assert.deepEqual(r.waits, [7_000, 0, 60_000]);
            assert.equal(r.tries, 4);
            assert.equal(r.github.reviews, 1, "one review, however many tries");
        });

        it("past the bound (a 4th limit, a wait over 60 s, a reset an hour away): exit 2 with GitHub's message, nothing waited past it", async () => {
            const secondary = { status: 429, message: "You have exceeded a secondary rate limit." };
            const again = await postThrough(
                Array.from({ length: 4 }, () => ({ ...secondary, headers: { "retry-after": "1" } })),
                "GET /repos/o/r/pulls/7/files",
            );
            assert.deepEqual(again.waits, [1_000, 1_000, 1_000]);
            assert.equal(again.tries, 4);
            assert.equal(again.error?.exitCode, 2);
            assert.match(
                again.error?.message ?? "",
                /^review: GitHub API GET \/repos\/o\/r\/pulls\/7\/files: 429 You have exceeded a secondary rate limit\.$/,
            );
            assert.equal(again.github.reviews, 0);

            const long = await postThrough(
                [{ ...secondary, headers: { "retry-after": "61" } }],
                "POST /repos/o/r/pulls/7/reviews",
            );
            assert.deepEqual(long.waits, []);
            assert.equal(long.error?.exitCode, 2);
            assert.match(
                long.error?.message ?? "",
                /POST \/repos\/o\/r\/pulls\/7\/reviews: 429 You have exceeded a secondary rate limit\./,
            );

            const reset = String(NOW / 1000 + 3600);
            const hour = await postThrough(
                [
                    {
                        status: 403,
                        message: "API rate limit exceeded for installation ID 1.",
                        headers: { "x-ratelimit-remaining": "0", "x-ratelimit-reset": reset },
                    },
                ],
                "GET /repos/o/r/issues/7/comments",
            );
            assert.deepEqual(hour.waits, []);
            assert.equal(hour.error?.exitCode, 2);
            assert.match(
                hour.error?.message ?? "",
                /GET \/repos\/o\/r\/issues\/7\/comments: 403 API rate limit exceeded for installation ID 1\./,
            );
        });

        it("a 403 that is no rate limit (no retry-after, requests remaining) is not retried", async () => {
            const r = await postThrough(
                [
                    {
                        status: 403,
                        message: "Resource not accessible by integration",
                        headers: { "x-ratelimit-remaining": "4999" },
                    },
                ],
                "POST /repos/o/r/pulls/7/reviews",
            );
            assert.deepEqual(r.waits, []);
            assert.equal(r.tries, 1);
            assert.equal(r.error?.exitCode, 2);
            assert.match(
                r.error?.message ?? "",
                /POST \/repos\/o\/r\/pulls\/7\/reviews: 403 Resource not accessible by integration/,
            );
        });
    });

    it("GITHUB_API_URL with GitHub Enterprise Server's path prefix: every request goes under /api/v3", async () => {
        const repo = pullRequestRepository();
        const github = new FakeGitHub(repo, { prefix: "/api/v3" });
        const api = await github.start();
        try {
            assert.match(api, /\/api\/v3$/);
            await post(await reviewOf(repo), `${api}/`);
            assert.equal(github.reviews, 1);
            assert.ok(github.requests.length >= 5);
            assert.deepEqual(github.violations, [], "no request outside the prefix, all in the description");
        } finally {
            github.stop();
        }
    });
});
