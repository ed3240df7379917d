/**
 * `review --post` against a loopback server (127.0.0.1 only) that answers as GitHub does: the PR's
 * files replayed from a real git history, 422 for a comment outside the diff, and every request's
 * method, path, query and body fields checked against GitHub's published OpenAPI description
 * (@octokit/openapi). Each case reruns the poster on the state the last run left.
 */
import * as assert from "node:assert/strict";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { postReview } from "../../server/src/cli/githubReview";
import type { ReviewReport } from "../../server/src/cli/reviewFormats";
import { hunkRanges } from "../../server/src/cli/reviewPlan";
import { runCliAsync } from "./cliRun";
import { git, manyFindingsRepository, pullRequestRepository, type ReviewRepository } from "./reviewRepo";

type Operation = {
    parameters?: { in: string; name: string }[];
    requestBody?: {
        content: {
            "application/json": { schema: { properties?: Record<string, { items?: { properties?: object } }> } };
        };
    };
};
const openapi = require("@octokit/openapi/generated/api.github.com.json") as {
    paths: Record<string, Record<string, Operation>>;
    components: { parameters: Record<string, { in: string; name: string }> };
};

/** A parameter, its `$ref` into the description's components followed. */
function parameter(p: { in: string; name: string; $ref?: string }): { in: string; name: string } {
    return p.$ref ? openapi.components.parameters[p.$ref.split("/").pop() ?? ""] : p;
}

/** The OpenAPI operation a request is, or why it is none. */
function operationOf(method: string, pathname: string): Operation | string {
    for (const [template, item] of Object.entries(openapi.paths)) {
        const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, "[^/]+")}$`);
        if (pattern.test(pathname))
            return item[method.toLowerCase()] ?? `${method} ${template} is not in the description`;
    }
    return `${pathname} is not in the description`;
}

interface Comment {
    id: number;
    body: string;
    path?: string;
    line?: number;
    user: { login: string; type: string };
}

/** GitHub as the tests need it: one PR (#7) of `repo`, its comments kept between runs. */
class FakeGitHub {
    readonly violations: string[] = [];
    readonly requests: string[] = [];
    reviewComments: Comment[] = [];
    issueComments: Comment[] = [];
    reviews = 0;
    private next = 100;
    private server = http.createServer((req, res) => this.answer(req, res));

    constructor(private readonly repo: ReviewRepository) {}

    async start(): Promise<string> {
        await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
        return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    }

    stop(): void {
        this.server.close();
    }

    /** The PR's files as GitHub lists them, from `git diff base...head` of the real history. */
    files() {
        const names = git(this.repo.dir, [
            "diff",
            "--name-status",
            "-z",
            `${this.repo.base}...${this.repo.head}`,
        ]).split("\0");
        const files = [];
        for (let i = 0; i + 1 < names.length; i += 2) {
            const filename = names[i + 1];
            const diff = git(this.repo.dir, ["diff", `${this.repo.base}...${this.repo.head}`, "--", filename]);
            files.push({
                filename,
                status: names[i] === "A" ? "added" : names[i] === "D" ? "removed" : "modified",
                patch: diff.slice(diff.indexOf("@@")).replace(/\n$/, ""),
                blob_url: `https://github.com/o/r/blob/${this.repo.head}/${filename}`,
            });
        }
        return files;
    }

    private answer(req: http.IncomingMessage, res: http.ServerResponse): void {
        let raw = "";
        req.on("data", (chunk) => {
            raw += chunk;
        });
        req.on("end", () => {
            const url = new URL(req.url ?? "/", "http://127.0.0.1");
            const body = raw ? JSON.parse(raw) : undefined;
            this.requests.push(`${req.method} ${url.pathname}`);
            this.conform(req.method ?? "", url, body);
            const [status, data] = this.route(req.method ?? "", url.pathname, body);
            res.writeHead(status, { "content-type": "application/json" });
            res.end(data === undefined ? "" : JSON.stringify(data));
        });
    }

    /** Method, path, query parameters and body fields as the description has them. */
    private conform(method: string, url: URL, body: Record<string, unknown> | undefined): void {
        const operation = operationOf(method, url.pathname);
        if (typeof operation === "string") {
            this.violations.push(operation);
            return;
        }
        const query = new Set(
            (operation.parameters ?? [])
                .map(parameter)
                .filter((p) => p.in === "query")
                .map((p) => p.name),
        );
        for (const name of url.searchParams.keys())
            if (!query.has(name)) this.violations.push(`query ${name} of ${method} ${url.pathname}`);
        const properties = operation.requestBody?.content["application/json"].schema.properties;
        for (const field of Object.keys(body ?? {})) {
            if (!properties || !(field in properties))
                this.violations.push(`field ${field} of ${method} ${url.pathname}`);
        }
        const itemFields = properties?.comments?.items?.properties ?? {};
        for (const comment of (body?.comments as Record<string, unknown>[] | undefined) ?? []) {
            for (const field of Object.keys(comment))
                if (!(field in itemFields)) this.violations.push(`comment field ${field}`);
        }
    }

    private route(method: string, path: string, body: Record<string, unknown> | undefined): [number, unknown] {
        const bot = { login: "github-actions[bot]", type: "Bot" };
        const id = Number(path.split("/").pop());
        if (method === "GET" && path === "/user") return [403, { message: "Resource not accessible by integration" }];
        if (method === "GET" && path === "/repos/o/r/pulls/7/files") return [200, this.files()];
        if (method === "GET" && path === "/repos/o/r/pulls/7/comments") return [200, this.reviewComments];
        if (method === "GET" && path === "/repos/o/r/issues/7/comments") return [200, this.issueComments];
        if (method === "POST" && path === "/repos/o/r/pulls/7/reviews") {
            const hunks = new Map(this.files().map((f) => [f.filename, hunkRanges(f.patch)]));
            const comments = body?.comments as { path: string; line: number; start_line?: number; body: string }[];
            for (const c of comments) {
                const from = c.start_line ?? c.line;
                if (!(hunks.get(c.path) ?? []).some((h) => h.from <= from && c.line <= h.to)) {
                    return [422, { message: "Unprocessable Entity", errors: ["Line could not be resolved"] }];
                }
            }
            this.reviews++;
            for (const c of comments)
                this.reviewComments.push({ id: this.next++, body: c.body, path: c.path, line: c.line, user: bot });
            return [200, { id: this.next++ }];
        }
        if (method === "DELETE" && path.startsWith("/repos/o/r/pulls/comments/")) {
            this.reviewComments = this.reviewComments.filter((c) => c.id !== id);
            return [204, undefined];
        }
        if (method === "POST" && path === "/repos/o/r/issues/7/comments") {
            const comment = { id: this.next++, body: String(body?.body), user: bot };
            this.issueComments.push(comment);
            return [201, comment];
        }
        if (method === "PATCH" && path.startsWith("/repos/o/r/issues/comments/")) {
            const comment = this.issueComments.find((c) => c.id === id);
            if (comment) comment.body = String(body?.body);
            return comment ? [200, comment] : [404, { message: "Not Found" }];
        }
        return [404, { message: "Not Found" }];
    }
}

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
});
