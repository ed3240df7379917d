/**
 * What `review --post` does on a pull request, decided before any write (docs/review.md, "Posting"):
 * which findings become inline comments (only lines inside the PR's diff hunks, at most 30 new ones
 * a run, a ```suggestion only for a certain repair of an affected annotation file), which go in the
 * one summary comment, and which of the bot's earlier comments are gone. Pure: the PR's files and the
 * bot's comments in, a plan out; cli/githubReview.ts carries it out.
 */
import { createHash } from "node:crypto";
import { EXIT } from "../../../shared/exitCodes";
import type { ReviewFinding } from "./reviewFindings";
import type { ReviewReport } from "./reviewFormats";

/** At most this many new inline comments in one review; the rest go in the summary. */
export const MAX_INLINE_COMMENTS = 30;
/** At most this many findings listed in the summary (a comment holds at most 65,536 characters). */
export const MAX_SUMMARY_ITEMS = 150;

const MARK = "sourcecheck-review";
export const SUMMARY_MARKER = `<!-- ${MARK}:summary -->`;
const FINGERPRINT = new RegExp(`<!-- ${MARK}:fp=([0-9a-f]{16}) -->`);

/** A file of the pull request, as `GET /repos/{owner}/{repo}/pulls/{pull_number}/files` lists it. */
export interface PullFile {
    filename: string;
    status: string;
    patch?: string;
    blob_url?: string;
    previous_filename?: string;
}

/** A comment of the bot's found on the pull request. */
export interface PostedComment {
    id: number;
    body: string;
}

export interface InlineComment {
    path: string;
    line: number;
    side: "RIGHT";
    start_line?: number;
    start_side?: "RIGHT";
    body: string;
}

export interface PostPlan {
    /** The one review of this run; absent when it has no new comment. */
    review?: { body: string; comments: InlineComment[] };
    /** The bot's inline comments whose finding is gone. */
    deleteComments: number[];
    /** The summary comment: edited in place when one exists, created when there is something to say. */
    summary?: { id?: number; body: string };
    counts: { inline: number; kept: number; summary: number; deleted: number };
}

/** The new-side line ranges of each hunk of a unified diff patch (lines from 1). */
export function hunkRanges(patch: string | undefined): { from: number; to: number }[] {
    if (!patch) return [];
    const hunks: { from: number; to: number }[] = [];
    let line = 0;
    let current: { from: number; to: number } | undefined;
    for (const text of patch.split("\n")) {
        const header = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(text);
        if (header) {
            line = Number(header[1]);
            current = { from: line, to: line - 1 };
            hunks.push(current);
        } else if (current && (text.startsWith("+") || text.startsWith(" "))) {
            current.to = line++;
        }
    }
    return hunks.filter((h) => h.to >= h.from);
}

/** A finding's fingerprint: what it is, not where its lines are, so a rerun recognises it. */
export function fingerprint(f: ReviewFinding): string {
    const parts = [f.file, f.code, f.pointer, f.message, ...(f.suggestion?.lines ?? [])];
    return createHash("sha256").update(parts.join("\0")).digest("hex").slice(0, 16);
}

export function fingerprintOf(body: string): string | undefined {
    return FINGERPRINT.exec(body)?.[1];
}

/** What one inline comment says: the findings of one ref, grouped when a certain repair fixes them all. */
interface Item {
    findings: ReviewFinding[];
    /** The one with the repair, or the only one. */
    lead: ReviewFinding;
    print: string;
}

/** The findings of a ref whose certain repair fixes it go in one comment with that repair; others alone. */
function itemsOf(findings: readonly ReviewFinding[]): Item[] {
    const refKey = (f: ReviewFinding) =>
        f.place && `${f.file}\0${f.place.annotation}\0${f.place.role === "source" ? f.place.source : "claim"}`;
    const repaired = new Map<string, Item>();
    for (const f of findings) {
        const key = refKey(f);
        if (f.suggestion && key !== undefined && !repaired.has(key))
            repaired.set(key, { findings: [f], lead: f, print: "" });
    }
    const items: Item[] = [];
    for (const f of findings) {
        const key = refKey(f);
        const group = key !== undefined ? repaired.get(key) : undefined;
        if (group && group.lead !== f) group.findings.push(f);
        else if (!group) items.push({ findings: [f], lead: f, print: "" });
        else items.push(group);
    }
    for (const item of items) {
        const prints = item.findings.map(fingerprint);
        item.print =
            prints.length === 1 ? prints[0] : createHash("sha256").update(prints.join("\0")).digest("hex").slice(0, 16);
    }
    return items;
}

export function planPost(
    report: ReviewReport,
    pullFiles: readonly PullFile[],
    posted: { inline: readonly PostedComment[]; summary?: PostedComment },
): PostPlan {
    const hunks = new Map(pullFiles.map((f) => [f.filename, hunkRanges(f.patch)]));
    const annotationFiles = new Set(report.files.map((f) => f.file));
    const items = itemsOf(report.findings);
    const current = new Set(items.map((item) => item.print));
    const postedPrints = new Set(posted.inline.map((c) => fingerprintOf(c.body)));
    const comments: InlineComment[] = [];
    const inSummary: ReviewFinding[] = [];
    let kept = 0;
    for (const item of items) {
        const place = inlinePlace(item.lead, hunks.get(item.lead.file) ?? [], annotationFiles.has(item.lead.file));
        if (place && postedPrints.has(item.print)) kept += item.findings.length;
        else if (place && comments.length < MAX_INLINE_COMMENTS) {
            const { suggest: _, ...at } = place;
            comments.push({ ...at, body: inlineBody(item, place) });
        } else inSummary.push(...item.findings);
    }
    const gone = posted.inline.filter((c) => !current.has(fingerprintOf(c.body) ?? ""));
    const inline = report.findings.length - kept - inSummary.length;
    const counts = { inline, kept, summary: inSummary.length, deleted: gone.length };
    const plan: PostPlan = { deleteComments: gone.map((c) => c.id), counts };
    if (comments.length > 0) {
        plan.review = {
            body: `**SourceCheck**: ${plural(comments.length, "comment")} on refs this change affects.`,
            comments,
        };
    }
    if (posted.summary || inSummary.length > 0 || gone.length > 0) {
        const body = summaryBody(report, inSummary, pullFiles, counts);
        if (body !== posted.summary?.body) plan.summary = { id: posted.summary?.id, body };
    }
    return plan;
}

type Place = Omit<InlineComment, "body"> & { suggest: boolean };

/**
 * Where a finding can be commented inline: its suggestion's lines (or its token's line) inside one
 * hunk of the diff; undefined when it cannot (GitHub answers 422 for a line outside the diff).
 */
function inlinePlace(
    f: ReviewFinding,
    hunks: readonly { from: number; to: number }[],
    annotation: boolean,
): Place | undefined {
    const within = (from: number, to: number) => hunks.some((h) => h.from <= from && to <= h.to);
    const s = f.suggestion;
    if (s && annotation && within(s.startLine, s.endLine)) {
        const range = s.startLine === s.endLine ? {} : { start_line: s.startLine, start_side: "RIGHT" as const };
        return { path: f.file, line: s.endLine, side: "RIGHT", ...range, suggest: true };
    }
    const line = f.range.start.line;
    return within(line, line) ? { path: f.file, line, side: "RIGHT", suggest: false } : undefined;
}

function inlineBody(item: Item, place: Place): string {
    const f = item.lead;
    const lines = item.findings.map((one) => `**SourceCheck** \`${one.code}\`: ${escapeMarkdown(one.message)}`);
    if (place.suggest && f.suggestion) {
        const fence = fenceFor(f.suggestion.lines);
        lines.push("", `A certain repair (${escapeMarkdown(f.suggestion.evidence)}):`, "", `${fence}suggestion`);
        lines.push(...f.suggestion.lines, fence);
    } else if (f.next) {
        lines.push("", `Next: ${escapeMarkdown(f.next)}`);
    }
    lines.push("", `<!-- ${MARK}:fp=${item.print} -->`);
    return lines.join("\n");
}

/** A fence longer than any run of backticks in the lines it holds. */
function fenceFor(lines: readonly string[]): string {
    const longest = Math.max(0, ...lines.flatMap((l) => (l.match(/`+/g) ?? []).map((run) => run.length)));
    return "`".repeat(Math.max(3, longest + 1));
}

/** Text from the files (cited strings, paths) shown, never acted on: no mention, link or markup. */
export function escapeMarkdown(text: string): string {
    return text.replace(/[\\`*_[\]<>|~#@!]/g, (c) => `\\${c}`).replace(/[\r\n]+/g, " ");
}

function summaryBody(
    report: ReviewReport,
    findings: readonly ReviewFinding[],
    pullFiles: readonly PullFile[],
    counts: PostPlan["counts"],
): string {
    const lines = [SUMMARY_MARKER, "### SourceCheck review", ""];
    const open = counts.inline + counts.kept + counts.summary;
    if (open === 0) lines.push("Every ref this change affects resolves.");
    else {
        lines.push(
            `${plural(open, "finding")} on refs this change affects: ${counts.inline + counts.kept} inline, ` +
                `${counts.summary} below.`,
        );
    }
    if (counts.deleted > 0) {
        lines.push(
            "",
            `${plural(counts.deleted, "earlier comment")} removed: ${counts.deleted === 1 ? "its finding is" : "their findings are"} gone.`,
        );
    }
    if (findings.length > 0)
        lines.push("", ...findings.slice(0, MAX_SUMMARY_ITEMS).map((f) => summaryItem(f, report, pullFiles)));
    if (findings.length > MAX_SUMMARY_ITEMS) {
        lines.push(
            `- and ${findings.length - MAX_SUMMARY_ITEMS} more: run \`sourcecheck review --base ${report.base.slice(0, 12)}\``,
        );
    }
    return lines.join("\n");
}

function summaryItem(f: ReviewFinding, report: ReviewReport, pullFiles: readonly PullFile[]): string {
    const file = `\`${escapeCode(f.file)}:${f.range.start.line}\``;
    const fix = f.suggestion
        ? `\`sourcecheck repair --write ${shellWord(f.file)}\``
        : f.next
          ? escapeMarkdown(f.next)
          : `\`sourcecheck repair ${shellWord(f.file)}\``;
    let item = `- ${file} \`${f.code}\`: ${escapeMarkdown(f.message)}. Fix: ${fix}`;
    const documents = report.files.find((r) => r.file === f.file)?.documents ?? [];
    const links = documents.map((d) => documentLink(d, pullFiles)).filter((l) => l !== undefined);
    if (links.length > 0) item += `. Cites ${links.join(", ")}`;
    return item;
}

/** The cited document's first changed line in this PR, linked (its blob at the PR's head). */
function documentLink(change: { path: string; status: string }, pullFiles: readonly PullFile[]): string | undefined {
    const file = pullFiles.find((f) => f.filename === change.path);
    const name = `\`${escapeCode(change.path)}\``;
    if (!file?.blob_url || change.status === "deleted") return `${name} (${change.status})`;
    const first = firstChangedLine(file.patch);
    const anchor = first === undefined ? "" : `#L${first}`;
    return `[${name} line ${first ?? 1}](${encodeURI(file.blob_url)}${anchor}) (${change.status})`;
}

function firstChangedLine(patch: string | undefined): number | undefined {
    if (!patch) return undefined;
    let line = 0;
    for (const text of patch.split("\n")) {
        const header = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(text);
        if (header) line = Number(header[1]);
        else if (text.startsWith("+")) return line;
        else if (text.startsWith(" ")) line++;
        else if (text.startsWith("-")) return Math.max(line, 1);
    }
    return undefined;
}

function escapeCode(text: string): string {
    return text.replace(/`/g, "'").replace(/[\r\n]+/g, " ");
}

function shellWord(path: string): string {
    return /^[\w./-]+$/.test(path) ? path : `'${escapeCode(path).replace(/'/g, "'\\''")}'`;
}

function plural(n: number, word: string): string {
    return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/**
 * A review saved by `review --format json`, read back by `review --post --from-file`. In the fork-safe
 * workflow the file comes from an unprivileged run of the PR's code, so every field is checked and
 * bounded; a commit id is required (a review is posted on a commit). Returns why when it is not one.
 */
export function parseSavedReview(text: string): ReviewReport | string {
    const { z } = require("zod") as typeof import("zod");
    const sha = z.string().regex(/^[0-9a-f]{40,64}$/);
    const str = z.string().max(10_000);
    const position = z.object({ line: z.number().int().min(1), column: z.number().int().min(1) }).strict();
    const change = z
        .object({
            status: z.enum(["added", "modified", "deleted", "renamed", "copied", "type-changed"]),
            path: str,
            previousPath: str.optional(),
        })
        .strict();
    const place = z.union([
        z.object({ annotation: z.number().int().min(1), role: z.literal("claim") }).strict(),
        z
            .object({ annotation: z.number().int().min(1), role: z.literal("source"), source: z.number().int().min(1) })
            .strict(),
    ]);
    const finding = z
        .object({
            file: str,
            code: z.string().regex(/^[a-z][a-z-]{0,63}$/),
            severity: z.enum(["error", "warning", "info"]),
            message: str,
            pointer: str,
            place: place.optional(),
            range: z.object({ start: position, end: position }).strict(),
            next: str.optional(),
            suggestion: z
                .object({
                    startLine: z.number().int().min(1),
                    endLine: z.number().int().min(1),
                    lines: z.array(str).max(200),
                    evidence: str,
                })
                .strict()
                .refine((s) => s.startLine <= s.endLine)
                .optional(),
        })
        .strict();
    const schema = z
        .object({
            sourcecheckReview: z.literal(1),
            base: sha,
            head: sha,
            files: z
                .array(
                    z
                        .object({
                            file: str,
                            changed: change.optional(),
                            documents: z.array(change).max(10_000),
                            exitCode: z.union([z.literal(EXIT.clean), z.literal(EXIT.findings), z.literal(EXIT.usage)]),
                        })
                        .strict(),
                )
                .max(100_000),
            findings: z.array(finding).max(100_000),
            // The one --json envelope's (docs/cli.md); a report written before it had none.
            ok: z.boolean().optional(),
            exitCode: z.union([z.literal(EXIT.clean), z.literal(EXIT.findings), z.literal(EXIT.usage)]),
        })
        .strict();
    let value: unknown;
    try {
        value = JSON.parse(text);
    } catch (error) {
        return `invalid JSON (${(error as Error).message})`;
    }
    const parsed = schema.safeParse(value);
    if (parsed.success) return parsed.data as ReviewReport;
    const issue = parsed.error.issues[0];
    return `${issue.path.length > 0 ? `/${issue.path.join("/")}` : "the file"}: ${issue.message}${parsed.error.issues.length > 1 ? ` (and ${parsed.error.issues.length - 1} more)` : ""}`;
}
