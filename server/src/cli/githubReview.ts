/**
 * `review --post` (docs/review.md, "Posting"): the plan of cli/reviewPlan.ts carried out over
 * GitHub's REST API with @octokit/rest, from Actions' environment. One review a run, the bot's gone
 * comments deleted, the one summary comment edited in place. A rate limit (403 or 429 with
 * `retry-after`, or `x-ratelimit-remaining: 0` with `x-ratelimit-reset`) is waited out within a bound
 * and the request retried; any other failure is exit 2 with the status and GitHub's message.
 */
import type { Octokit as OctokitType } from "@octokit/rest";
import { visible } from "../core/visible";
import { CliError } from "./files";
import type { ReviewReport } from "./reviewFormats";
import { fingerprintOf, type PostedComment, type PullFile, planPost, SUMMARY_MARKER } from "./reviewPlan";

export interface PostOptions {
    env: NodeJS.ProcessEnv;
    pullNumber?: number;
    /**
     * Without a number, the pull request is the open one whose head is `owner:branch` at the reviewed
     * commit (a `workflow_run` of a fork's pull request lists none).
     */
    headLabel?: string;
    /** Check that the pull request's head is the reviewed commit (a saved review names its PR by an untrusted number). */
    checkPullHead?: boolean;
    /** The commit the triggering event names: a saved review of another commit is refused. */
    eventHead?: string;
    /** The HTTP client (tests: one that reaches only a loopback server); default the global fetch. */
    fetch?: typeof fetch;
    /** How a wait is waited, and what time it is (ms since the epoch, for `x-ratelimit-reset`); default a timer and the clock. */
    sleep?: (ms: number) => Promise<void>;
    now?: () => number;
    /** The longest wait for one rate limit, in seconds, and how many retries a request gets. */
    maxWaitSeconds?: number;
    maxRetries?: number;
}

/** Whose comments are the bot's: the token's user, or Actions' bot for GITHUB_TOKEN (which cannot ask). */
const ACTIONS_BOT = "github-actions[bot]";

export async function postReview(report: ReviewReport, options: PostOptions): Promise<string> {
    const { env } = options;
    const token = env.GITHUB_TOKEN;
    if (!token) throw new CliError("review: --post needs GITHUB_TOKEN (a token with pull-requests: write)", 2);
    const slug = /^([\w.-]+)\/([\w.-]+)$/.exec(env.GITHUB_REPOSITORY ?? "");
    if (!slug) throw new CliError("review: --post needs GITHUB_REPOSITORY as owner/name", 2);
    if (options.pullNumber === undefined && options.headLabel === undefined)
        throw new CliError("review: --post needs a pull request: run on a pull_request event, or give --pr N", 2);
    if (report.head === null)
        throw new CliError(
            "review: --post reviews a commit: give --head (the checked-out commit) or run on a pull_request event",
            2,
        );
    if (options.eventHead !== undefined && options.eventHead !== report.head) {
        throw new CliError(
            `review: the review is of commit ${report.head.slice(0, 12)}, the event's head is ${options.eventHead.slice(0, 12)}`,
            2,
        );
    }
    const octokit = client(token, env.GITHUB_API_URL, options);
    const where = { owner: slug[1], repo: slug[2] };
    try {
        const pull = await pullOf(octokit, { ...where, head: report.head }, options);
        return await post(octokit, report, { ...where, pull, head: report.head });
    } catch (error) {
        throw apiError(error);
    }
}

async function post(
    octokit: OctokitType,
    report: ReviewReport,
    at: { owner: string; repo: string; pull: number; head: string },
): Promise<string> {
    const { owner, repo, pull } = at;
    const login = await ownLogin(octokit);
    const pullFiles: PullFile[] = await octokit.paginate("GET /repos/{owner}/{repo}/pulls/{pull_number}/files", {
        owner,
        repo,
        pull_number: pull,
        per_page: 100,
    });
    const reviewComments = await octokit.paginate("GET /repos/{owner}/{repo}/pulls/{pull_number}/comments", {
        owner,
        repo,
        pull_number: pull,
        per_page: 100,
    });
    const issueComments = await octokit.paginate("GET /repos/{owner}/{repo}/issues/{issue_number}/comments", {
        owner,
        repo,
        issue_number: pull,
        per_page: 100,
    });
    const mine = (c: { user?: { login?: string } | null }) => c.user?.login === login;
    const inline: PostedComment[] = reviewComments
        .filter((c) => mine(c) && fingerprintOf(c.body) !== undefined)
        .map((c) => ({ id: c.id, body: c.body }));
    const summary = issueComments
        .filter((c) => mine(c) && (c.body ?? "").startsWith(SUMMARY_MARKER))
        .map((c) => ({ id: c.id, body: c.body ?? "" }))[0];
    const plan = planPost(report, pullFiles, { inline, summary });
    if (plan.review) {
        await octokit.request("POST /repos/{owner}/{repo}/pulls/{pull_number}/reviews", {
            owner,
            repo,
            pull_number: pull,
            commit_id: at.head,
            event: "COMMENT",
            body: plan.review.body,
            comments: plan.review.comments,
        });
    }
    for (const id of plan.deleteComments) {
        await octokit.request("DELETE /repos/{owner}/{repo}/pulls/comments/{comment_id}", {
            owner,
            repo,
            comment_id: id,
        });
    }
    if (plan.summary?.id !== undefined) {
        await octokit.request("PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}", {
            owner,
            repo,
            comment_id: plan.summary.id,
            body: plan.summary.body,
        });
    } else if (plan.summary) {
        await octokit.request("POST /repos/{owner}/{repo}/issues/{issue_number}/comments", {
            owner,
            repo,
            issue_number: pull,
            body: plan.summary.body,
        });
    }
    const { inline: made, kept, summary: listed, deleted } = plan.counts;
    return (
        `review: pull request #${pull}: ${made} finding${made === 1 ? "" : "s"} newly commented inline, ${kept} already ` +
        `commented, ${listed} in the summary, ${deleted} outdated comment${deleted === 1 ? "" : "s"} removed`
    );
}

/**
 * The pull request to review: the number given (its head checked against the reviewed commit when
 * asked), else the open pull request whose head is `headLabel` at that commit.
 */
async function pullOf(
    octokit: OctokitType,
    at: { owner: string; repo: string; head: string },
    options: PostOptions,
): Promise<number> {
    const { owner, repo, head } = at;
    if (options.pullNumber !== undefined) {
        if (options.checkPullHead) {
            const { data } = await octokit.request("GET /repos/{owner}/{repo}/pulls/{pull_number}", {
                owner,
                repo,
                pull_number: options.pullNumber,
            });
            if (data.head.sha !== head) {
                throw new CliError(
                    `review: pull request #${options.pullNumber}'s head is ${data.head.sha.slice(0, 12)}, the review is of ${head.slice(0, 12)}`,
                    2,
                );
            }
        }
        return options.pullNumber;
    }
    const label = options.headLabel ?? "";
    const pulls = await octokit.paginate("GET /repos/{owner}/{repo}/pulls", {
        owner,
        repo,
        state: "open",
        head: label,
        per_page: 100,
    });
    const found = pulls.find((p) => p.head.sha === head);
    if (!found) {
        throw new CliError(
            `review: no open pull request of ${owner}/${repo} has the head ${visible(label)} at ${head.slice(0, 12)} (give --pr N)`,
            2,
        );
    }
    return found.number;
}

/** The token's login; GITHUB_TOKEN may not ask (403), and is then Actions' bot. */
async function ownLogin(octokit: OctokitType): Promise<string> {
    try {
        return (await octokit.request("GET /user")).data.login;
    } catch (error) {
        const status = (error as { status?: number }).status;
        if (status === 401 || status === 403 || status === 404) return ACTIONS_BOT;
        throw error;
    }
}

function client(token: string, apiUrl: string | undefined, options: PostOptions): OctokitType {
    const { Octokit } = require("@octokit/rest") as typeof import("@octokit/rest");
    const baseUrl = (apiUrl || "https://api.github.com").replace(/\/+$/, "");
    if (!/^https?:\/\//.test(baseUrl))
        throw new CliError(`review: GITHUB_API_URL is not an http(s) URL: ${visible(baseUrl)}`, 2);
    const quiet = () => {};
    const octokit = new Octokit({
        auth: token,
        baseUrl,
        userAgent: "sourcecheck-review",
        log: { debug: quiet, info: quiet, warn: quiet, error: quiet },
        request: options.fetch ? { fetch: options.fetch } : {},
    });
    waitOutRateLimits(octokit, options);
    return octokit;
}

/**
 * GitHub's documented rate limits, waited out: `retry-after` seconds, else until `x-ratelimit-reset`
 * when `x-ratelimit-remaining` is 0; only on 403 and 429, at most `maxRetries` times and never longer
 * than `maxWaitSeconds` at once (a longer wait is the failure, reported).
 */
function waitOutRateLimits(octokit: OctokitType, options: PostOptions): void {
    const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
    const now = options.now ?? Date.now;
    const maxWait = (options.maxWaitSeconds ?? 60) * 1000;
    const maxRetries = options.maxRetries ?? 3;
    octokit.hook.wrap("request", async (request, requestOptions) => {
        for (let attempt = 0; ; attempt++) {
            try {
                return await request(requestOptions);
            } catch (error) {
                const wait = rateLimitWait(error, now());
                if (wait === undefined || attempt >= maxRetries || wait > maxWait) throw error;
                await sleep(wait);
            }
        }
    });
}

export function rateLimitWait(error: unknown, now = Date.now()): number | undefined {
    const e = error as { status?: number; response?: { headers?: Record<string, string | number | undefined> } };
    if (e.status !== 403 && e.status !== 429) return undefined;
    const headers = e.response?.headers ?? {};
    const retryAfter = Number(headers["retry-after"]);
    if (headers["retry-after"] !== undefined && Number.isFinite(retryAfter) && retryAfter >= 0)
        return retryAfter * 1000;
    const reset = Number(headers["x-ratelimit-reset"]);
    if (String(headers["x-ratelimit-remaining"]) === "0" && Number.isFinite(reset))
        return Math.max(0, reset * 1000 - now) + 1000;
    return undefined;
}

/** A failed request as one line: the method, the path, the status and GitHub's message. */
function apiError(error: unknown): unknown {
    const e = error as {
        status?: number;
        request?: { method?: string; url?: string };
        response?: { data?: { message?: string; errors?: unknown } };
        message?: string;
    };
    if (typeof e?.status !== "number") return error instanceof CliError ? error : error;
    const path = e.request?.url ? new URL(e.request.url).pathname : "";
    const message = e.response?.data?.message ?? e.message ?? "";
    const details = e.response?.data?.errors ? ` ${JSON.stringify(e.response.data.errors)}` : "";
    return new CliError(
        `review: GitHub API ${e.request?.method ?? ""} ${path}: ${e.status} ${visible(message)}${visible(details)}`.replace(
            / {2,}/g,
            " ",
        ),
        2,
    );
}
