/**
 * `sourcecheck review [--base REV] [--head REV] [--format text|json|rdjsonl|sarif] [--post] [PATH...]`
 * (docs/review.md): only the refs a change affects, checked as `check` checks them, each broken one
 * with its certain repair as whole lines; `--post` makes them a GitHub pull-request review
 * (cli/githubReview.ts). Exit statuses as `check`; a GitHub API failure is exit 2.
 */
import * as fs from "node:fs";
import * as nodePath from "node:path";
import { type ExitStatus, worstExit } from "../../../shared/exitCodes";
import { reviewScope } from "../operations/review";
import { CitationGraph } from "../workspace/citationGraph";
import { GitChangesError, gitTopLevel } from "../workspace/gitChanges";
import { lockPathFor } from "../workspace/lockFiles";
import { nodeProjectConfigs } from "../workspace/nodeConfigs";
import { createNodeWorkspace } from "../workspace/nodeWorkspace";
import { DocumentCache } from "./checkFile";
import { sourceCheckExits } from "./command";
import { type CommandSpec, defineCommand, usageError } from "./commandLine";
import type { CliIo } from "./commands";
import { discoverFiles } from "./discovery";
import { CliError } from "./files";
import { citedDocuments, type ReviewedFile, type ReviewFinding, reviewFile } from "./reviewFindings";
import { formatReview, type ReviewFormat, type ReviewReport } from "./reviewFormats";

const USAGE = `  sourcecheck review [--base REV] [--head REV] [--format text|json|rdjsonl|sarif] [--root DIR] [PATH...]
  sourcecheck review --post [--from-file REVIEW.json] [--pr N] [--base REV] [--head REV] [PATH...]
            check only the refs a change affects: the annotation files changed in base...head
            (head: the checked-out commit; without --head, the work tree), and those citing a
            document changed, renamed or deleted there; each broken ref with its certain repair.
            rdjsonl is the Reviewdog Diagnostic Format (reviewdog -f=rdjsonl). --post makes a
            GitHub pull-request review from Actions (GITHUB_TOKEN, GITHUB_REPOSITORY,
            GITHUB_EVENT_PATH, GITHUB_API_URL; --base and --head default to the event's);
            --from-file posts a review saved by --format json, without git (docs/ci.md)`;

const SPEC: CommandSpec = {
    name: "review",
    usage: USAGE,
    exits: sourceCheckExits({
        clean: "every affected ref resolves",
        findings: "an affected ref fails to resolve",
        usage: "invalid JSON, schema or usage error, or a GitHub API failure",
    }),
};

const FORMATS: readonly ReviewFormat[] = ["text", "json", "rdjsonl", "sarif"];

export const reviewCommand = defineCommand({
    spec: SPEC,
    options: {
        base: { type: "string" },
        head: { type: "string" },
        format: { type: "string" },
        root: { type: "string" },
        post: { type: "boolean" },
        "from-file": { type: "string" },
        pr: { type: "string" },
    },
    async run({ values, positionals }, io): Promise<ExitStatus> {
        const format = (values.format ?? "text") as ReviewFormat;
        if (!FORMATS.includes(format)) throw usageError(SPEC, `: --format takes ${FORMATS.join(", ")}`);
        if (values["from-file"] !== undefined && !values.post) throw usageError(SPEC, ": --from-file goes with --post");
        if (values.pr !== undefined && !values.post) throw usageError(SPEC, ": --pr goes with --post");
        const event = values.post ? readEvent(process.env) : undefined;
        let report: ReviewReport;
        let texts = new Map<string, string>();
        if (values["from-file"] !== undefined) {
            if (positionals.length > 0 || values.base || values.head)
                throw usageError(SPEC, ": --from-file posts the saved review as it is (no PATH, --base or --head)");
            report = readSavedReview(nodePath.resolve(io.cwd, values["from-file"]));
        } else {
            const made = makeReview(
                {
                    base: values.base ?? event?.base,
                    head: values.head ?? event?.head,
                    paths: positionals,
                    root: values.root,
                },
                io,
            );
            report = made.report;
            texts = made.texts;
            io.stdout(formatReview(report, format, texts, { version: io.version, repository: made.repository }));
        }
        if (!values.post) return report.exitCode;
        const { postReview } = require("./githubReview") as typeof import("./githubReview");
        const posted = await postReview(report, {
            env: process.env,
            pullNumber: values.pr !== undefined ? parsePullNumber(values.pr) : event?.number,
            headLabel: event?.headLabel,
            checkPullHead: values["from-file"] !== undefined,
            eventHead: event?.head,
        });
        io.stderr(`${posted}\n`);
        return report.exitCode;
    },
});

interface ReviewRequest {
    base?: string;
    head?: string;
    paths: string[];
    root?: string;
}

/** The review of the change `base...head` in the repository holding the current folder. */
export function makeReview(
    request: ReviewRequest,
    io: Pick<CliIo, "cwd">,
): { report: ReviewReport; texts: Map<string, string>; repository: string } {
    try {
        return makeReviewGit(request, io);
    } catch (error) {
        if (error instanceof GitChangesError) throw new CliError(`review: ${error.message}`, 2);
        throw error;
    }
}

function makeReviewGit(request: ReviewRequest, io: Pick<CliIo, "cwd">) {
    if (request.base === undefined) throw usageError(SPEC, " needs --base REV (or a pull_request event with --post)");
    const repository = fs.realpathSync(gitTopLevel(io.cwd));
    // base...head through the workspace's one door for history (git on Node).
    const { base, head, changes } = gitWorkspaceHistory(repository, request.base, request.head);
    const configs = nodeProjectConfigs();
    const explicitRoot = request.root !== undefined ? nodePath.resolve(io.cwd, request.root) : undefined;
    const context = { repository, cwd: io.cwd, explicitRoot, configs };
    const relative = (absolute: string) => nodePath.relative(repository, absolute).split(nodePath.sep).join("/");
    const found = discoverFiles(request.paths.length > 0 ? request.paths : [repository], {
        cwd: io.cwd,
        exclude: [],
        configs,
    }).map((file) => fs.realpathSync(file.path));
    const annotationFiles = found.map(relative).filter((file) => !file.startsWith(".."));
    // The index "cited document -> annotation files citing it" (workspace/citationGraph.ts), over repository paths.
    const graph = new CitationGraph();
    for (const file of annotationFiles) {
        const cited = citedDocuments(nodePath.join(repository, file), context);
        graph.set(file, new Map(cited.map((path) => [path, [path]])));
    }
    const locks = new Map(
        annotationFiles.map((file) => [relative(lockPathFor(nodePath.join(repository, file))), file]),
    );
    const scope = reviewScope(changes, {
        annotationFiles,
        citing: (path) => graph.citing(path),
        lockOwner: (path) => locks.get(path),
    });
    const documents = new DocumentCache();
    const findings: ReviewFinding[] = [];
    const files: ReviewedFile[] = [];
    const texts = new Map<string, string>();
    for (const affected of scope) {
        const one = reviewFile(affected, { ...context, base, documents });
        findings.push(...one.findings);
        files.push(one.reviewed);
        texts.set(affected.file, one.text);
    }
    const exitCode = worstExit(files.map((f) => f.exitCode));
    const report: ReviewReport = { sourcecheckReview: 1, base, head: head ?? null, files, findings, exitCode };
    return { report, texts, repository };
}

interface ReviewEvent {
    number?: number;
    base?: string;
    head?: string;
    /** A workflow_run's head as `owner:branch`, to find its pull request by (a fork's run lists none). */
    headLabel?: string;
}

function gitWorkspaceHistory(repository: string, base: string, head: string | undefined) {
    const history = createNodeWorkspace(repository).history;
    if (!history?.changesBetween) throw new CliError("review: this host has no history", 2);
    return history.changesBetween(repository, base, head);
}

/** What the pull_request (or workflow_run) event says: the PR's number, base and head commits. */
function readEvent(env: NodeJS.ProcessEnv): ReviewEvent | undefined {
    const path = env.GITHUB_EVENT_PATH;
    if (!path) return undefined;
    let event: {
        pull_request?: { number?: unknown; base?: { sha?: unknown }; head?: { sha?: unknown } };
        workflow_run?: {
            head_sha?: unknown;
            head_branch?: unknown;
            head_repository?: { owner?: { login?: unknown } };
            pull_requests?: { number?: unknown }[];
        };
    };
    try {
        event = JSON.parse(fs.readFileSync(path, "utf8"));
    } catch (error) {
        throw new CliError(`review: cannot read the event GITHUB_EVENT_PATH names: ${(error as Error).message}`, 2);
    }
    const sha = (value: unknown) => (typeof value === "string" && /^[0-9a-f]{40,64}$/.test(value) ? value : undefined);
    const number = (value: unknown) =>
        Number.isSafeInteger(value) && (value as number) > 0 ? (value as number) : undefined;
    if (event.pull_request) {
        return {
            number: number(event.pull_request.number),
            base: sha(event.pull_request.base?.sha),
            head: sha(event.pull_request.head?.sha),
        };
    }
    if (event.workflow_run) {
        const run = event.workflow_run;
        const owner = run.head_repository?.owner?.login;
        const branch = run.head_branch;
        // A login and a branch name, as the label `owner:branch` GitHub's `head` filter takes.
        const plain = (v: unknown): v is string =>
            typeof v === "string" && /^[^\s:]{1,255}$/.test(v) && !/\p{Cc}/u.test(v);
        return {
            number: number(run.pull_requests?.[0]?.number),
            head: sha(run.head_sha),
            headLabel: plain(owner) && plain(branch) ? `${owner}:${branch}` : undefined,
        };
    }
    return {};
}

function parsePullNumber(text: string): number {
    if (!/^[1-9][0-9]{0,9}$/.test(text))
        throw usageError(SPEC, `: --pr takes a pull request number, not ${JSON.stringify(text)}`);
    return Number(text);
}

/** A review saved by `--format json` (an untrusted file in the fork-safe workflow): checked field by field. */
function readSavedReview(path: string): ReviewReport {
    const { parseSavedReview } = require("./reviewPlan") as typeof import("./reviewPlan");
    let text: string;
    try {
        text = fs.readFileSync(path, "utf8");
    } catch (error) {
        throw new CliError(`review: cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? "error"}`, 2);
    }
    const parsed = parseSavedReview(text);
    if (typeof parsed === "string") throw new CliError(`review: ${path} is not a saved review: ${parsed}`, 2);
    return parsed;
}
