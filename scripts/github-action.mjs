// The GitHub Action (action.yml, docs/ci.md "The action"): runs `sourcecheck check` on the inputs,
// lets its `--format github` workflow commands become annotations on the pull request, writes a
// Markdown job summary to $GITHUB_STEP_SUMMARY and, with `format: sarif`, a SARIF file for
// github/codeql-action/upload-sarif. Exits with check's status. Inputs come as INPUT_* variables
// (action.yml passes them). With `review: true` it reviews the pull request instead (runReview below,
// docs/ci.md "Reviewing pull requests"); only `sourcecheck review --post` talks to GitHub.
import { spawnSync } from "node:child_process";
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const actionRoot = join(dirname(fileURLToPath(import.meta.url)), "..");
const FORMATS = ["github", "sarif"];
/** GitHub caps a step summary at 1 MiB: list at most this many broken refs. */
export const MAX_LISTED = 500;

/** The inputs, checked; throws an Error whose message is shown as is. */
export function readInputs(env) {
    const paths = (env.INPUT_PATHS ?? "").split(/\s+/).filter(Boolean);
    const format = (env.INPUT_FORMAT || "github").trim();
    if (!FORMATS.includes(format))
        throw new Error(`input format: ${JSON.stringify(format)} is not one of ${FORMATS.join(", ")}`);
    const lockedText = (env.INPUT_LOCKED || "false").trim().toLowerCase();
    if (lockedText !== "true" && lockedText !== "false")
        throw new Error(`input locked: ${JSON.stringify(lockedText)} is not true or false`);
    const shard = (env.INPUT_SHARD ?? "").trim();
    if (shard && !/^[1-9]\d*\/[1-9]\d*$/.test(shard))
        throw new Error(`input shard: ${JSON.stringify(shard)} is not K/N`);
    return {
        paths: paths.length > 0 ? paths : ["."],
        format,
        locked: lockedText === "true",
        shard: shard || undefined,
        sarifFile: (env["INPUT_SARIF-FILE"] ?? env.INPUT_SARIF_FILE ?? "").trim() || "sourcecheck.sarif",
        review: flag(env.INPUT_REVIEW, "review"),
        reviewFile: (env["INPUT_REVIEW-FILE"] ?? env.INPUT_REVIEW_FILE ?? "").trim() || undefined,
        base: (env.INPUT_BASE ?? "").trim() || undefined,
    };
}

function flag(value, name) {
    const text = (value || "false").trim().toLowerCase();
    if (text !== "true" && text !== "false")
        throw new Error(`input ${name}: ${JSON.stringify(text)} is not true or false`);
    return text === "true";
}

/** The arguments of `check` shared by every run of it. */
export function checkArguments(inputs) {
    return [
        ...(inputs.locked ? ["--locked"] : []),
        ...(inputs.shard ? ["--shard", inputs.shard] : []),
        "--",
        ...inputs.paths,
    ];
}

/** The toolkit's escaping of workflow command properties, undone. */
function unescapeProperty(value) {
    return value
        .replace(/%2C/g, ",")
        .replace(/%3A/g, ":")
        .replace(/%0A/g, "\n")
        .replace(/%0D/g, "\r")
        .replace(/%25/g, "%");
}

function unescapeData(value) {
    return value.replace(/%0A/g, "\n").replace(/%0D/g, "\r").replace(/%25/g, "%");
}

/** The problems of `check --format github` output: `::error file=…,line=…::message` lines. */
export function parseWorkflowCommands(text) {
    const problems = [];
    for (const line of text.split("\n")) {
        const m = /^::error ([^:]*)::(.*)$/.exec(line);
        if (!m) continue;
        const props = {};
        for (const pair of m[1].split(",")) {
            const at = pair.indexOf("=");
            if (at > 0) props[pair.slice(0, at)] = unescapeProperty(pair.slice(at + 1));
        }
        problems.push({
            file: props.file,
            line: Number(props.line),
            column: Number(props.col),
            code: (props.title ?? "").replace(/^sourcecheck /, ""),
            message: unescapeData(m[2]),
        });
    }
    return problems;
}

/** Text safe in a Markdown table cell: no markup, no pipe, no line break. */
export function markdownCell(text) {
    return String(text)
        .replace(/[\\`*_[\]<>|#!~{}()&]/g, (c) => `&#${c.charCodeAt(0)};`)
        .replace(/\r\n|\r|\n/g, " ");
}

/** The blob URL of a file of the workspace at a line, or undefined outside the workspace. */
export function fileLink(file, line, { cwd, workspace, server, repository, sha }) {
    if (!repository || !sha) return undefined;
    const inRepo = relative(workspace, resolve(cwd, file));
    if (!inRepo || inRepo.startsWith("..") || isAbsolute(inRepo)) return undefined;
    const path = inRepo.split(/[\\/]/).map(encodeURIComponent).join("/");
    return `${server}/${repository}/blob/${sha}/${path}${line ? `#L${line}` : ""}`;
}

const linked = (text, url) => (url ? `[${markdownCell(text)}](${url})` : markdownCell(text));

/**
 * The job summary: totals, one row per file, then the broken refs with links to their lines.
 * `report` is `check --json` output (one file's report, or `{ files, ... }`), `problems` the parsed
 * workflow commands, `where` what links need.
 */
export function jobSummary(report, problems, where, title = "SourceCheck") {
    const files = report.files ?? [{ file: where.single ?? "", ...report }];
    const valid = report.validCount;
    const invalid = report.invalidCount;
    const total = valid + invalid;
    const verdict =
        report.exitCode === 0
            ? `every ref resolves: ${total} annotation${total === 1 ? "" : "s"} valid`
            : report.exitCode === 1
              ? `${invalid} of ${total} annotation${total === 1 ? "" : "s"} invalid`
              : `schema errors (exit ${report.exitCode})`;
    const lines = [`## ${title}: ${verdict}`, ""];
    lines.push(
        `${files.length} file${files.length === 1 ? "" : "s"}, ${total} annotation${total === 1 ? "" : "s"}: ${valid} valid, ${invalid} invalid (exit ${report.exitCode})`,
        "",
    );
    if (files.length > 0) {
        lines.push("| File | Valid | Invalid | Exit |", "|---|---:|---:|---:|");
        for (const f of files) {
            lines.push(
                `| ${linked(f.file, fileLink(f.file, undefined, where))} | ${f.validCount} | ${f.invalidCount} | ${f.exitCode} |`,
            );
        }
        lines.push("");
    }
    if (problems.length > 0) {
        lines.push(`### Broken refs (${problems.length})`, "", "| Where | Code | Problem |", "|---|---|---|");
        for (const p of problems.slice(0, MAX_LISTED)) {
            const at = `${p.file}:${p.line}:${p.column}`;
            lines.push(
                `| ${linked(at, fileLink(p.file, p.line, where))} | ${markdownCell(p.code)} | ${markdownCell(p.message)} |`,
            );
        }
        if (problems.length > MAX_LISTED)
            lines.push("", `… and ${problems.length - MAX_LISTED} more (see the annotations).`);
        lines.push("");
    }
    return `${lines.join("\n")}\n`;
}

function check(args, cwd) {
    return sourcecheck("check", args, cwd);
}

function sourcecheck(command, args, cwd) {
    const r = spawnSync(process.execPath, [join(actionRoot, "bin", "sourcecheck.js"), command, ...args], {
        cwd,
        encoding: "utf8",
        maxBuffer: 1 << 30,
    });
    if (r.error) throw r.error;
    return r;
}

/** The whole step; returns the exit status. `out` receives what goes to the job log. */
export function runAction(env, cwd, out = (t) => process.stdout.write(t)) {
    let inputs;
    try {
        inputs = readInputs(env);
    } catch (error) {
        out(`::error title=sourcecheck action::${error.message}\n`);
        return 2;
    }
    if (inputs.review) return runReview(env, cwd, inputs, out);
    const args = checkArguments(inputs);
    const github = check(["--format", "github", ...args], cwd);
    out(github.stdout);
    if (github.stderr) out(github.stderr);
    const status = github.status ?? 3;
    const json = check(["--json", ...args], cwd);
    let report;
    try {
        report = JSON.parse(json.stdout);
    } catch {
        report = undefined; // a usage error: check's own message is already in the log
    }
    const where = {
        cwd,
        workspace: env.GITHUB_WORKSPACE || cwd,
        server: env.GITHUB_SERVER_URL || "https://github.com",
        repository: env.GITHUB_REPOSITORY,
        sha: env.GITHUB_SHA,
        single: inputs.paths[0],
    };
    const title = inputs.shard ? `SourceCheck (shard ${inputs.shard})` : "SourceCheck";
    const summary = report
        ? jobSummary(report, parseWorkflowCommands(github.stdout), where, title)
        : `## ${title}: the check could not run (exit ${status})\n\n${markdownCell(github.stderr.trim())}\n`;
    if (env.GITHUB_STEP_SUMMARY) appendFileSync(env.GITHUB_STEP_SUMMARY, summary);
    const outputs = [`exit-code=${status}`];
    if (report) outputs.push(`valid-count=${report.validCount}`, `invalid-count=${report.invalidCount}`);
    if (inputs.format === "sarif") {
        const sarif = check(["--format", "sarif", ...args], cwd);
        const file = resolve(cwd, inputs.sarifFile);
        writeFileSync(file, sarif.stdout);
        outputs.push(`sarif-file=${file}`);
    }
    if (env.GITHUB_OUTPUT) appendFileSync(env.GITHUB_OUTPUT, `${outputs.join("\n")}\n`);
    return status;
}

/** What the event file says: its pull request (number, base and head, whether from a fork), or none. */
function readPullRequest(env) {
    let event = {};
    try {
        event = JSON.parse(readFileSync(env.GITHUB_EVENT_PATH ?? "", "utf8"));
    } catch {
        return undefined;
    }
    const pr = event.pull_request;
    if (!pr) return undefined;
    const baseRepo = pr.base?.repo?.full_name ?? event.repository?.full_name;
    const headRepo = pr.head?.repo?.full_name;
    return { base: pr.base?.sha, head: pr.head?.sha, fork: headRepo !== undefined && headRepo !== baseRepo };
}

/**
 * `review: true` (docs/ci.md, "Reviewing pull requests"), by event:
 * - `workflow_run` (stage 2 of the fork-safe flow): post the saved `review-file`, reading no code of the PR;
 * - a pull request with `review-file` (stage 1): save the review there, for upload-artifact; post nothing;
 * - a pull request without: review and post it, unless it comes from a fork (its token cannot
 *   comment): then the findings are shown and a warning names the two-stage flow.
 * Each finding is also a workflow command (an annotation). Exits with review's status.
 */
export function runReview(env, cwd, inputs, out) {
    const fail = (message) => {
        out(`::error title=sourcecheck review::${message}\n`);
        return 2;
    };
    const event = env.GITHUB_EVENT_NAME ?? "";
    let args;
    if (event === "workflow_run") {
        if (!inputs.reviewFile)
            return fail("on workflow_run, review posts a saved review: set review-file to the downloaded file");
        args = ["--post", "--from-file", inputs.reviewFile];
    } else {
        const pr = readPullRequest(env);
        if (!pr)
            return fail(
                `review reviews a pull request: run it on pull_request or workflow_run, not ${event || "this event"}`,
            );
        const base = inputs.base ?? pr.base;
        const saving = inputs.reviewFile !== undefined;
        if (!saving && pr.fork)
            out(
                "::warning title=sourcecheck review::this pull request comes from a fork, whose token cannot comment: the review is only shown here; post it with the two-stage workflow of docs/ci.md (review-file)\n",
            );
        const post = !saving && !pr.fork ? ["--post"] : [];
        args = [
            ...post,
            "--format",
            "json",
            ...(base ? ["--base", base] : []),
            ...(pr.head ? ["--head", pr.head] : []),
        ];
        args.push("--", ...inputs.paths);
    }
    const run = sourcecheck("review", args, cwd);
    for (const line of run.stderr.split("\n").filter(Boolean))
        out(
            run.status === 2
                ? `::error title=sourcecheck review::${escapeData(line.replace(/^sourcecheck: /, ""))}\n`
                : `${line}\n`,
        );
    const status = run.status ?? 3;
    const outputs = [`exit-code=${status}`];
    const posting = args.includes("--from-file");
    let report;
    try {
        // The saved review was checked field by field by `review` when it exits 0 or 1.
        if (status === 0 || status === 1)
            report = JSON.parse(posting ? readFileSync(resolve(cwd, inputs.reviewFile), "utf8") : run.stdout);
    } catch {
        report = undefined;
    }
    if (report && inputs.reviewFile && !posting) {
        const file = resolve(cwd, inputs.reviewFile);
        writeFileSync(file, run.stdout);
        outputs.push(`review-file=${file}`);
    }
    if (report && !posting) out(reviewCommands(report));
    if (report && env.GITHUB_STEP_SUMMARY) appendFileSync(env.GITHUB_STEP_SUMMARY, reviewSummary(report, status));
    if (env.GITHUB_OUTPUT) appendFileSync(env.GITHUB_OUTPUT, `${outputs.join("\n")}\n`);
    return status;
}

function escapeData(text) {
    return String(text).replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}

function escapeProperty(text) {
    return escapeData(text).replace(/:/g, "%3A").replace(/,/g, "%2C");
}

const LEVEL = { error: "error", warning: "warning", info: "notice" };

/** The review's findings as workflow commands: annotations on the pull request (GitHub shows 10 of each level a step). */
export function reviewCommands(report) {
    return report.findings
        .map((f) => {
            const { start, end } = f.range;
            const props = `file=${escapeProperty(f.file)},line=${start.line},col=${start.column},endLine=${end.line},title=${escapeProperty(`sourcecheck ${f.code}`)}`;
            return `::${LEVEL[f.severity] ?? "error"} ${props}::${escapeData(f.message)}\n`;
        })
        .join("");
}

/** The job summary of a review: the verdict, then each affected file and its findings. */
export function reviewSummary(report, status) {
    const n = report.findings.length;
    const lines = [
        `## SourceCheck review: ${n === 0 ? "every affected ref resolves" : `${n} finding${n === 1 ? "" : "s"}`} (exit ${status})`,
        "",
        `${report.files.length} affected annotation file${report.files.length === 1 ? "" : "s"}, base ${markdownCell(String(report.base).slice(0, 12))}.`,
        "",
    ];
    if (n > 0) {
        lines.push("| Where | Code | Problem |", "|---|---|---|");
        for (const f of report.findings.slice(0, MAX_LISTED))
            lines.push(
                `| ${markdownCell(`${f.file}:${f.range.start.line}:${f.range.start.column}`)} | ${markdownCell(f.code)} | ${markdownCell(f.message)} |`,
            );
        lines.push("");
    }
    return `${lines.join("\n")}\n`;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
    process.exitCode = runAction(process.env, process.cwd());
}
