/**
 * A loopback GitHub (127.0.0.1 only) for `review --post` and the Action's `review: true`: one pull
 * request (#7) of a real git history, its files replayed from `git diff base...head`, 422 for a
 * comment outside the diff, comments kept between runs, and every request's method, path, query and
 * body fields checked against GitHub's published OpenAPI description (@octokit/openapi). It can serve
 * under a path prefix (GitHub Enterprise Server's `/api/v3`) and answer chosen requests with chosen
 * failures first (rate limits).
 */
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { hunkRanges } from "../../server/src/cli/reviewPlan";
import { git, type ReviewRepository } from "./reviewRepo";

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

export interface Comment {
    id: number;
    body: string;
    path?: string;
    line?: number;
    user: { login: string; type: string };
}

/** An answer given instead of the real one to the next request `request` ("GET /repos/o/r/pulls/7/files"). */
export interface Failure {
    request: string;
    status: number;
    headers: Record<string, string>;
    message: string;
}

export interface FakeGitHubOptions {
    /** The API's path prefix: "" for api.github.com, "/api/v3" for GitHub Enterprise Server. */
    prefix?: string;
    /** The owner of the repository the PR's head branch `pr` is in ("o": the same repository; else a fork). */
    headOwner?: string;
}

/** GitHub as the tests need it: one PR (#7) of `repo` in repository o/r, its comments kept between runs. */
export class FakeGitHub {
    readonly violations: string[] = [];
    readonly requests: string[] = [];
    readonly failures: Failure[] = [];
    reviewComments: Comment[] = [];
    issueComments: Comment[] = [];
    reviews = 0;
    private next = 100;
    private readonly prefix: string;
    private readonly headOwner: string;
    private server = http.createServer((req, res) => this.answer(req, res));

    constructor(
        private readonly repo: ReviewRepository,
        options: FakeGitHubOptions = {},
    ) {
        this.prefix = options.prefix ?? "";
        this.headOwner = options.headOwner ?? "o";
    }

    /** The API URL (GITHUB_API_URL), prefix included. */
    async start(): Promise<string> {
        await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
        return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${this.prefix}`;
    }

    stop(): void {
        this.server.close();
    }

    /** The PR's files as GitHub lists them, from `git diff base...head` of the real history. */
    files() {
        const range = `${this.repo.base}...${this.repo.head}`;
        const names = git(this.repo.dir, ["diff", "--name-status", "-z", range]).split("\0");
        const files = [];
        for (let i = 0; i + 1 < names.length; i += 2) {
            const filename = names[i + 1];
            const diff = git(this.repo.dir, ["diff", range, "--", filename]);
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
            if (!url.pathname.startsWith(`${this.prefix}/`))
                this.violations.push(`${url.pathname} is outside the API prefix ${this.prefix}`);
            const path = url.pathname.slice(this.prefix.length);
            const request = `${req.method} ${path}`;
            this.requests.push(request);
            this.conform(req.method ?? "", path, url.searchParams, body);
            const failure = this.failures.findIndex((f) => f.request === request);
            if (failure !== -1) {
                const [f] = this.failures.splice(failure, 1);
                res.writeHead(f.status, { "content-type": "application/json", ...f.headers });
                res.end(JSON.stringify({ message: f.message }));
                return;
            }
            const [status, data] = this.route(req.method ?? "", path, url.searchParams, body);
            res.writeHead(status, { "content-type": "application/json" });
            res.end(data === undefined ? "" : JSON.stringify(data));
        });
    }

    /** Method, path, query parameters and body fields as the description has them. */
    private conform(method: string, path: string, query: URLSearchParams, body: Record<string, unknown> | undefined) {
        const operation = operationOf(method, path);
        if (typeof operation === "string") {
            this.violations.push(operation);
            return;
        }
        const known = new Set(
            (operation.parameters ?? [])
                .map(parameter)
                .filter((p) => p.in === "query")
                .map((p) => p.name),
        );
        for (const name of query.keys())
            if (!known.has(name)) this.violations.push(`query ${name} of ${method} ${path}`);
        const properties = operation.requestBody?.content["application/json"].schema.properties;
        for (const field of Object.keys(body ?? {})) {
            if (!properties || !(field in properties)) this.violations.push(`field ${field} of ${method} ${path}`);
        }
        const itemFields = properties?.comments?.items?.properties ?? {};
        for (const comment of (body?.comments as Record<string, unknown>[] | undefined) ?? []) {
            for (const field of Object.keys(comment))
                if (!(field in itemFields)) this.violations.push(`comment field ${field}`);
        }
    }

    /** The pull request as `GET …/pulls` lists it: its head branch `pr` of the head owner's repository. */
    private pull() {
        return {
            number: 7,
            state: "open",
            head: { sha: this.repo.head, ref: "pr", label: `${this.headOwner}:pr` },
            base: { sha: this.repo.base, ref: "main", label: "o:main" },
        };
    }

    private route(
        method: string,
        path: string,
        query: URLSearchParams,
        body: Record<string, unknown> | undefined,
    ): [number, unknown] {
        const bot = { login: "github-actions[bot]", type: "Bot" };
        const id = Number(path.split("/").pop());
        if (method === "GET" && path === "/user") return [403, { message: "Resource not accessible by integration" }];
        if (method === "GET" && path === "/repos/o/r/pulls") {
            const head = query.get("head");
            return [200, head === null || head === this.pull().head.label ? [this.pull()] : []];
        }
        if (method === "GET" && path === "/repos/o/r/pulls/7") return [200, this.pull()];
        if (method === "GET" && path === "/repos/o/r/pulls/7/files") return [200, this.files()];
        if (method === "GET" && path === "/repos/o/r/pulls/7/comments") return [200, this.reviewComments];
        if (method === "GET" && path === "/repos/o/r/issues/7/comments") return [200, this.issueComments];
        if (method === "POST" && path === "/repos/o/r/pulls/7/reviews") return this.review(body);
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

    /** A review: refused whole (422) when a comment is on a line outside the PR's diff hunks. */
    private review(body: Record<string, unknown> | undefined): [number, unknown] {
        const bot = { login: "github-actions[bot]", type: "Bot" };
        if (body?.commit_id !== this.repo.head) return [422, { message: "Unprocessable Entity" }];
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
}
