/**
 * What the agent tools do (docs/agents.md), over a small context that says where documents come
 * from: the disk under a root for the MCP server, the language server's view (unsaved buffers
 * included) for VS Code's agents. No file system here. Every failure is a ToolError with a stable code.
 */

import type { z } from "zod";
import { baseNameOf, isCitationFileName } from "../../../shared/fileNames";
import { sourceLabel } from "../../../shared/numbering";
import type { CiteCandidate } from "../core/cite";
import type { LockRefSite } from "../core/lock/sites";
import { nearestPaths } from "../core/nearestPaths";
import type { NextStep } from "../core/nextStep";
import { numberedLines } from "../core/numberedLines";
import { normalizeRefPath } from "../core/refPath";
import type { DocumentMoves } from "../core/repair/types";
import { type DocumentFailure, type DocumentLookup, isDocumentFailure, type SessionDocument } from "../core/session";
import type { SeverityPolicy } from "../core/severity";
import { type AnnotateDone, annotateSteps } from "../operations/annotate";
import { type CheckOutcome, checkReport, checkSteps } from "../operations/check";
import { cite as citeOperation, withNearestPaths } from "../operations/cite";
import { isOperationError, type OperationErrorCode } from "../operations/errors";
import {
    defaultAnnotationPath,
    defaultAnswerPath,
    type ImportJson,
    importJson,
    importResponse,
    isInlineContent,
} from "../operations/import";
import { type LockResult, lockSteps } from "../operations/lock";
import { wordNext } from "../operations/nextWords";
import { placeLabel } from "../operations/numbers";
import { repairSteps } from "../operations/repair";
import type { LockAccess } from "../workspace/lockPaths";
import { sha256 } from "../workspace/sha256";
import { briefCheckText } from "./briefCheck";
import { type Cancelled, OperationCancelled, runCooperatively, SLICE_MS } from "./cooperative";
import { boundEchoes, longInputs } from "./echoes";
import { repairBrief } from "./repairBrief";
import type {
    annotateInput,
    checkInput,
    citeInput,
    evidenceInput,
    evidenceOutput,
    importInput,
    indexInput,
    lockInput,
    repairInput,
} from "./schemas";
import { TOOL_DEFINITIONS, type ToolName, toolDefinition } from "./schemas";

export type ToolErrorCode =
    | "unknown-tool"
    | "invalid-arguments"
    | "path-outside-root"
    | "unreadable-document"
    | "line-out-of-range"
    | "quote-not-found"
    | "quote-ambiguous"
    | "self-citation"
    | "unknown-path"
    | "write-failed"
    | "invalid-lock"
    | "internal-error"
    | "invalid-response"
    | "invalid-request"
    | "unknown-provider"
    | "answer-differs"
    /** The MCP server is at its bound of calls in flight (mcp/callGate.ts): call again later. */
    | "busy"
    /** The caller cancelled the call (ToolContext.cancelled) before it wrote anything. */
    | "cancelled"
    | OperationErrorCode;

export interface ToolErrorShape {
    code: ToolErrorCode;
    message: string;
    lines?: number[];
    /** Which quote failed (annotate): the role a word, the source from 1, the request's pointer. */
    role?: "claim" | "source";
    source?: number;
    pointer?: string;
    /** What to do next, as data (docs/contract.md, "Next steps"). */
    next?: NextStep;
}

export class ToolError extends Error {
    constructor(
        readonly code: ToolErrorCode,
        message: string,
        readonly lines?: number[],
        /** Near matches offered with `quote-not-found` (never certain). */
        readonly candidates?: CiteCandidate[],
        /** More of the shape: where the failure is and the next step (the operation's own fields). */
        readonly details: Omit<ToolErrorShape, "code" | "message" | "lines"> = {},
    ) {
        super(message);
    }

    get shape(): ToolErrorShape {
        const shape: ToolErrorShape = { code: this.code, message: this.message };
        if (this.lines !== undefined) shape.lines = this.lines;
        return { ...shape, ...this.details };
    }
}

/** An annotation file to repair: its text as stored (or in its open buffer), and how to replace it. */
export interface AnnotationFileAccess {
    text: string;
    /** Replace the whole text at once: atomically on disk, as one undoable edit in the editor. */
    write(text: string): Promise<void>;
}

/** An annotation file to append to; `text` is undefined when there is no such file yet. */
export interface NewAnnotationFileAccess {
    text: string | undefined;
    /** Replace (or create) the whole file at once: atomically on disk, as one undoable edit in the editor. */
    write(text: string): Promise<void>;
}

export type EvidenceAnswer = z.infer<typeof evidenceOutput>;

/** The lock beside an annotation file (docs/lock.md): none, valid, or why it cannot be used; and how to write it. */
export type { LockAccess };

/** The documents one annotation file's refs resolve against, paths relative to its document root. */
export interface RefScope {
    /** The document root, relative to the tools' root (`/`-separated, "" when it is that root). */
    base?: string;
    /** A lookup for one call. */
    documents(): DocumentLookup;
    /** Every file under that document root (relative paths), for repairing a ref whose path names none. */
    files(): Iterable<string>;
    /**
     * The documents as they were at a git revision (`repair` with `since`); throws a ToolError when
     * the root is not in a git work tree or the revision is unknown.
     */
    revision(rev: string): DocumentLookup;
    /** The documents at the annotation file's last commit and how to name it; undefined without git or a commit. */
    lastCommit(): { documents: DocumentLookup; label: string } | undefined;
    /**
     * Where a document that is gone may have moved (docs/repair.md, "Renamed documents"): its hash among
     * the files under the root, git's renames since `since` (else the lock's, else the file's last commit),
     * as `sourcecheck repair` follows them.
     */
    moves?(since: string | undefined): DocumentMoves;
    /** The level of each code for this file (its sourcecheck.config.json; in the editor, the setting over it). */
    severity?: SeverityPolicy;
}

/**
 * Where the tools find documents and annotation files; paths are relative to the root (the MCP
 * server's --root, the agents' workspace folder).
 */
export interface ToolContext {
    /** A document (path safety applied), as the caller sees it. */
    document(path: string): SessionDocument | DocumentFailure;
    /** A lookup for the refs of one `check` call (workspace mode). */
    documents(): DocumentLookup;
    annotationFile(path: string): AnnotationFileAccess | DocumentFailure;
    /** As annotationFile, but a missing file (in a folder that exists) is not a failure: `annotate` creates it. */
    annotationFileToWrite(path: string): NewAnnotationFileAccess | DocumentFailure;
    /** Every file under the root (relative paths), for repairing a ref whose path names none. */
    files(): Iterable<string>;
    /**
     * The evidence search over a folder under the root (default the root), hit paths relative to the
     * root. Throws a ToolError when the folder cannot be searched.
     */
    evidence(args: z.infer<typeof evidenceInput>): EvidenceAnswer;
    /**
     * Where the refs of an annotation file (a path relative to the root) resolve: the folder of the
     * nearest sourcecheck.config.json above it, never above the root, else the root (docs/config.md).
     * Throws a ToolError when that configuration file is broken.
     */
    refScope(file: string): RefScope;
    /** The lock beside an annotation file (a path relative to the root); absent where locks are not read. */
    lockFor?(file: string): LockAccess;
    /** How tools are named to the model reading the results (`sourcecheck_annotate` in VS Code); default the name. */
    toolName?: (name: string) => string;
    /**
     * Whether the caller gave up (an LSP request the client cancelled): check, lock, repair and annotate
     * stop between annotations and write nothing, and the call fails with `cancelled`. Absent: never.
     */
    cancelled?: Cancelled;
}

export type ToolOutcome =
    | {
          ok: true;
          /** The CLI's `--json` shape. */
          structured: Record<string, unknown>;
          /** What a model reads: the same JSON, or numbered lines for `index`. */
          text: string;
      }
    | { ok: false; error: ToolErrorShape; candidates?: CiteCandidate[] };

/** A range of `index` is cut after this many lines or characters, whichever comes first. */
export const MAX_INDEX_LINES = 2000;
export const MAX_INDEX_CHARS = 200_000;

/** Runs one tool call by name on raw arguments; never throws. */
export type ToolRunner = (name: string, rawArguments: unknown) => Promise<ToolOutcome>;

/** The tools run on `context`. */
export function toolRunner(context: ToolContext): ToolRunner {
    return (name, rawArguments) => runTool(name, rawArguments, context);
}

/** Run one tool call; never throws. Every echo of a long input string is cut (agentTools/echoes.ts). */
export async function runTool(name: string, rawArguments: unknown, context: ToolContext): Promise<ToolOutcome> {
    const outcome = await runUnbounded(name, rawArguments, context);
    return boundEchoes(outcome, longInputs(rawArguments));
}

async function runUnbounded(name: string, rawArguments: unknown, context: ToolContext): Promise<ToolOutcome> {
    try {
        const definition = toolDefinition(name);
        if (!definition) {
            const names = TOOL_DEFINITIONS.map((tool) => tool.name).join(", ");
            throw new ToolError("unknown-tool", `there is no tool ${JSON.stringify(name)}: the tools are ${names}`);
        }
        const parsed = definition.input.safeParse(rawArguments ?? {});
        if (!parsed.success) {
            throw new ToolError("invalid-arguments", `${name}: ${describeIssues(parsed.error)}`);
        }
        return await IMPLEMENTATIONS[definition.name](parsed.data as never, context);
    } catch (error) {
        if (error instanceof OperationCancelled)
            return { ok: false, error: { code: "cancelled", message: `${name} was cancelled: nothing was written` } };
        if (isOperationError(error)) return { ok: false, error: { code: error.code, message: error.message } };
        if (error instanceof ToolError) {
            return error.candidates
                ? { ok: false, error: error.shape, candidates: error.candidates }
                : { ok: false, error: error.shape };
        }
        const message = error instanceof Error ? error.message : String(error);
        return { ok: false, error: { code: "internal-error", message: `${name} failed: ${message}` } };
    }
}

/** Zod's issues as one line a model can act on: `quote: expected string, received number`. */
function describeIssues(error: z.ZodError): string {
    return error.issues
        .slice(0, 5)
        .map(
            (issue) =>
                `${issue.path.length > 0 ? issue.path.join(".") : "arguments"}: ${issue.message}${numberingHint(issue.path)}`,
        )
        .join("; ");
}

/**
 * A number a model may have counted from 0 gets the numbering in its error (docs/contract.md,
 * "Numbers"): "startLine: Too small: expected number to be >=1 (lines count from 1)".
 */
function numberingHint(path: readonly PropertyKey[]): string {
    const key = [...path].reverse().find((part) => typeof part === "string");
    if (typeof key !== "string") return "";
    if (/line$/i.test(key)) return " (lines count from 1)";
    if (key === "annotation" || key === "replace" || key === "remove" || key === "accept")
        return " (annotations count from 1)";
    if (key === "source") return " (sources count from 1)";
    return "";
}

type Implementation = (args: never, context: ToolContext) => ToolOutcome | Promise<ToolOutcome>;

const IMPLEMENTATIONS: Record<ToolName, Implementation> = {
    check: (args: z.infer<typeof checkInput>, context) => check(args, context),
    index: (args: z.infer<typeof indexInput>, context) => index(args, context),
    cite: (args: z.infer<typeof citeInput>, context) => cite(args, context),
    annotate: (args: z.infer<typeof annotateInput>, context) => annotate(args, context),
    repair: (args: z.infer<typeof repairInput>, context) => repair(args, context),
    evidence: (args: z.infer<typeof evidenceInput>, context) => {
        const answer = context.evidence(args);
        return { ok: true, structured: answer as Record<string, unknown>, text: evidenceText(answer) };
    },
    lock: (args: z.infer<typeof lockInput>, context) => lock(args, context),
    import: (args: z.infer<typeof importInput>, context) => importTool(args, context),
};

/**
 * What a model reads of an evidence answer (docs/agents.md, "Evidence as text"): the passages first,
 * each under one short line (where, how much of the query it holds), the passages below the floor
 * marked as such, then the message and the search summary once. The structured content has every
 * field (refs, rejected, the patterns).
 */
export function evidenceText(answer: EvidenceAnswer): string {
    const lines: string[] = [];
    const place = (p: EvidenceAnswer["hits"][number]) =>
        `${p.path}:${p.startLine}-${p.endLine} (${Math.round(p.coverage * 100)}% of the query)`;
    // Passages are numbered for people in the order shown: hits, then those below the floor.
    let shown = 0;
    for (const hit of answer.hits) lines.push(`passage ${++shown}, a hit: ${place(hit)}`, hit.text);
    for (const passage of answer.belowFloor ?? [])
        lines.push(`passage ${++shown}, below the floor (judge it): ${place(passage)}`, passage.text);
    if (answer.message !== undefined) lines.push(answer.message);
    if (answer.note !== undefined) lines.push(answer.note);
    const answers =
        answer.searched.answers.length > 0 ? `; left out as answers: ${answer.searched.answers.join(", ")}` : "";
    lines.push(`searched ${answer.searched.documents} documents${answers}`);
    return lines.join("\n");
}

function json(structured: object): ToolOutcome {
    return { ok: true, structured: structured as Record<string, unknown>, text: JSON.stringify(structured) };
}

function documentOrFail(context: ToolContext, path: string): SessionDocument {
    const entry = context.document(path);
    if (isDocumentFailure(entry))
        throw new ToolError(
            entry.code,
            withNearestPaths(entry, path, () => context.files()),
        );
    return entry;
}

async function check(args: z.infer<typeof checkInput>, context: ToolContext): Promise<ToolOutcome> {
    if ((args.file === undefined) === (args.annotations === undefined)) {
        throw new ToolError("invalid-arguments", "check: give either file or annotations (not both, not neither)");
    }
    if (args.file !== undefined && args.documents !== undefined) {
        throw new ToolError(
            "invalid-arguments",
            "check: documents go with inline annotations, not with a file (a file embeds its own session)",
        );
    }
    let nearest: (path: string) => string[] = (path) => nearestPaths(path, context.files());
    let outcome: CheckOutcome;
    if (args.file !== undefined) {
        const text = documentOrFail(context, refPath(args.file)).content;
        const scope = context.refScope(args.file);
        // "Did you mean": where git records the document renamed to (since the lock's commit, as repair
        // follows renames), then the nearest names; asked only of a document that is gone.
        nearest = (path) => {
            const renamed = scope.moves?.(undefined).renamesOf(path) ?? [];
            return [...renamed, ...nearestPaths(path, scope.files()).filter((near) => !renamed.includes(near))];
        };
        // The very operation `sourcecheck check` runs, with the lock beside the file (docs/lock.md).
        const access = context.lockFor?.(args.file);
        const lock =
            access &&
            (access.lock || access.error ? { path: access.path, lock: access.lock, error: access.error } : {});
        // A long check yields to other calls between annotations (one slow call never holds up the rest).
        outcome = await runCooperatively(
            checkSteps(
                { text, locked: args.locked, keep: true, severity: scope.severity, coverage: true },
                { documents: scope.documents(), lock, sha256 },
            ),
            SLICE_MS,
            context.cancelled,
        );
    } else {
        const input = args.documents ? { documents: args.documents, annotations: args.annotations } : args.annotations;
        outcome = await runCooperatively(
            checkSteps(
                { value: input, locked: args.locked, keep: true, coverage: true },
                { documents: args.documents ? NO_DOCUMENTS : context.documents(), sha256 },
            ),
            SLICE_MS,
            context.cancelled,
        );
    }
    // The structured content is the whole report, as `check --json` prints it; the text is brief unless asked for in full.
    const structured = numberedEntries(checkReport(outcome));
    let text: string;
    if (args.detail === "full") text = JSON.stringify(structured);
    else {
        text = briefCheckText(outcome.result, args.file, {
            nearest,
            lock: outcome.lockCounts,
            exitCode: outcome.exitCode,
            coverage: outcome.coverage,
        });
        const lockError = outcome.extras.lockError as { file: string; code: string; message: string } | undefined;
        if (lockError) text = `${lockError.file}: ${lockError.code}: ${lockError.message}\n${text}`;
    }
    return { ok: true, structured, text };
}

const NO_DOCUMENTS: DocumentLookup = { get: () => undefined };

/**
 * The report as a model reads it (docs/agents.md, "Numbers"): each entry names its annotation from 1
 * (`annotation`), never by the 0-based `index` of `check --json`, which a model took for the number.
 */
function numberedEntries(report: Record<string, unknown>): Record<string, unknown> {
    const entries = report.entries as ({ index: number } & Record<string, unknown>)[];
    return {
        ...report,
        entries: entries.map(({ index, ...entry }) => ({ annotation: index + 1, ...entry })),
    };
}

function index(args: z.infer<typeof indexInput>, context: ToolContext): ToolOutcome {
    const document = documentOrFail(context, args.path);
    const lines = document.lines;
    const startLine = args.startLine ?? 1;
    if (startLine > lines.lineCount) {
        throw new ToolError(
            "line-out-of-range",
            `startLine ${startLine} is past the end: ${JSON.stringify(args.path)} has ${lines.lineCount} lines`,
        );
    }
    if (args.endLine !== undefined && args.endLine < startLine) {
        throw new ToolError("invalid-arguments", `index: endLine ${args.endLine} comes before startLine ${startLine}`);
    }
    const wanted = Math.min(args.endLine ?? lines.lineCount, lines.lineCount);
    const shown: { line: number; text: string }[] = [];
    let chars = 0;
    for (let line = startLine; line <= wanted && shown.length < MAX_INDEX_LINES; line++) {
        const text = lines.line(line);
        chars += text.length;
        if (chars > MAX_INDEX_CHARS && shown.length > 0) break;
        shown.push({ line, text });
    }
    const endLine = startLine + shown.length - 1;
    const truncated = endLine < wanted;
    const structured = { path: args.path, lineCount: lines.lineCount, startLine, endLine, lines: shown, truncated };
    const more = truncated
        ? `\n[lines ${endLine + 1}-${wanted} not shown: call index with startLine ${endLine + 1}]`
        : "";
    return { ok: true, structured, text: numberedLines(lines, startLine, endLine) + more };
}

/** A ref path as the model typed it, normalised (`./`, `\\`), or the tool error that says why not. */
function refPath(path: string): string {
    const verdict = normalizeRefPath(path);
    if (!verdict.ok) {
        throw new ToolError(verdict.code === "invalid-path" ? "invalid-arguments" : verdict.code, verdict.message);
    }
    return verdict.path;
}

function cite(args: z.infer<typeof citeInput>, context: ToolContext): ToolOutcome {
    // The very operation `sourcecheck cite` runs; its output is the structured content as it is.
    const outcome = citeOperation(args, { document: (path) => context.document(path), files: () => context.files() });
    if (!outcome.ok) {
        const { error, candidates } = outcome.failure;
        const details = error.next ? { next: error.next } : {};
        throw new ToolError(error.code as ToolErrorCode, error.message, error.lines, candidates, details);
    }
    const { output } = outcome;
    if (!output.warnings) return json(output);
    const notes = output.warnings.map((warning) => `${warning.code}: ${warning.message}`);
    return {
        ok: true,
        structured: output as unknown as Record<string, unknown>,
        text: [JSON.stringify({ ref: output.ref, text: output.text }), ...notes].join("\n"),
    };
}

/** `accept` as the lock operation takes it: all, none, or the refs of annotations numbered from 1. */
export function acceptOf(accept: boolean | readonly number[] | undefined): boolean | ((site: LockRefSite) => boolean) {
    if (accept === undefined || typeof accept === "boolean") return accept === true;
    const wanted = new Set(accept.map((number) => number - 1));
    return (site) => wanted.has(site.annotation);
}

async function lock(args: z.infer<typeof lockInput>, context: ToolContext): Promise<ToolOutcome> {
    const file = context.annotationFile(args.file);
    if ("code" in file) throw new ToolError(file.code, file.message);
    const access = context.lockFor?.(args.file);
    if (!access) throw new ToolError("invalid-arguments", "lock: locks are not available here");
    // The very operation `sourcecheck lock` and the editor's Lock Refs run (operations/lock.ts).
    const plan = await runCooperatively(
        lockSteps(
            { text: file.text, fileName: baseName(args.file), accept: acceptOf(args.accept) },
            { documents: context.refScope(args.file).documents(), lock: () => access, sha256 },
        ),
        SLICE_MS,
        context.cancelled,
    );
    if (!plan.ok) {
        const { code, message } = plan.error;
        if (plan.kind === "invalid-lock") throw new ToolError("invalid-lock", `${access.path}: ${code}: ${message}`);
        throw new ToolError("invalid-arguments", `lock: ${args.file}: ${code}: ${message}`);
    }
    let written = false;
    if (args.write === true) {
        try {
            await access.write(plan.content);
        } catch (error) {
            throw new ToolError("write-failed", `cannot write ${access.path}: ${(error as Error).message}`);
        }
        written = true;
    }
    const structured = { ...plan.result, written };
    return { ok: true, structured, text: lockText(args.file, structured, context.toolName) };
}

function baseName(path: string): string {
    return path.slice(Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\")) + 1);
}

async function repair(args: z.infer<typeof repairInput>, context: ToolContext): Promise<ToolOutcome> {
    const file = context.annotationFile(args.file);
    if ("code" in file) throw new ToolError(file.code, file.message);
    const scope = context.refScope(args.file);
    const lookup = scope.documents();
    const access = context.lockFor?.(args.file);
    const detail = args.detail ?? "brief";
    // The very operation `sourcecheck repair` runs: the lock, history, the only reading (docs/repair.md).
    // A long repair yields to other calls between refs (one slow call never holds up the rest).
    const plan = await runCooperatively(
        repairSteps(
            { text: file.text, since: args.since, detail },
            {
                documents: {
                    get: (path) => lookup.get(path),
                    // Lock and annotation files hold citations, never a candidate (shared/fileNames.ts).
                    candidatePaths: () => [...scope.files()].filter((path) => !isCitationFileName(baseNameOf(path))),
                    moves: scope.moves?.(args.since),
                },
                lock: access && (() => access),
                history: { at: (rev) => scope.revision(rev), lastCommit: () => scope.lastCommit() },
                sha256,
            },
        ),
        SLICE_MS,
        context.cancelled,
    );
    let written = 0;
    if (args.write === true && plan.repaired && plan.repaired.applied > 0) {
        try {
            await file.write(plan.repaired.text);
        } catch (error) {
            throw new ToolError("write-failed", `cannot write ${args.file}: ${(error as Error).message}`);
        }
        written = plan.repaired.applied;
    }
    const structured = { ...plan.result, written };
    const text =
        detail === "full"
            ? JSON.stringify(structured)
            : repairBrief(args.file, plan, written, args.write === true, context.toolName);
    return { ok: true, structured, text };
}

/** Writes of one annotation file wait for the one before: each appends to the text the last one wrote. */
const pendingWrites = new Map<string, Promise<unknown>>();

async function annotate(args: z.infer<typeof annotateInput>, context: ToolContext): Promise<ToolOutcome> {
    const scope = context.refScope(args.file);
    const { file: name, write, ...request } = args;
    const run = async (): Promise<ToolOutcome> => {
        const file = context.annotationFileToWrite(name);
        if ("code" in file) throw new ToolError(file.code, file.message);
        // The very operation `sourcecheck annotate` runs (operations/annotate.ts), yielding to other
        // calls between the annotations it cites or checks.
        const outcome = await runCooperatively(
            annotateSteps(
                { file: name, ...request },
                { documents: scope.documents(), files: () => scope.files(), text: file.text },
            ),
            SLICE_MS,
            context.cancelled,
        );
        if (!outcome.ok) {
            const { code, message, lines, candidates, role, pointer, next } = outcome.error;
            const toolCode = code === "invalid-path" ? "invalid-arguments" : code;
            const source = outcome.error.role === "source" ? { source: outcome.error.source } : {};
            const details = { role, ...source, pointer, ...(next ? { next } : {}) };
            throw new ToolError(toolCode, message, lines, candidates, details);
        }
        const { done } = outcome;
        // An equal annotation already in the file (a retry) is reported, the file left as it is.
        const writes = write === true && done.kind !== "present";
        if (writes) {
            try {
                await file.write(done.text);
            } catch (error) {
                throw new ToolError(
                    "write-failed",
                    `cannot write ${name}: ${(error as Error).message}; nothing changed`,
                );
            }
        }
        const structured = { ...done.output, written: writes };
        return { ok: true, structured, text: annotateText(done, writes, context.toolName) };
    };
    if (write !== true) return run();
    // Writes of one annotation file wait for the one before: each edits the text the last one wrote.
    const previous = pendingWrites.get(name) ?? Promise.resolve();
    const mine = previous.catch(() => undefined).then(run);
    pendingWrites.set(name, mine);
    try {
        return await mine;
    } finally {
        if (pendingWrites.get(name) === mine) pendingWrites.delete(name);
    }
}

/** What a model reads: one line (numbers from 1), the JSON of what was built, then any mid-word note. */
function annotateText(done: AnnotateDone, written: boolean, toolName = (name: string) => name): string {
    const verb = { append: "appended", replace: "replaced", remove: "removed", present: "" }[done.kind];
    const done_ = { append: "Wrote", replace: "Replaced", remove: "Removed", present: "" }[done.kind];
    const recorded = done.output.unsourced !== undefined;
    const head =
        done.kind === "present"
            ? recorded
                ? `${done.what}: already recorded (searched, no source found), nothing appended.`
                : `${done.what}: already present (same claim and sources), nothing appended; do not annotate it again.`
            : written
              ? `${done_} ${done.what}.`
              : `${done.what}: would be ${verb}, not written: call ${toolName("annotate")} again with write: true.`;
    const { warnings: _warnings, ...shown } = done.output;
    const notes = done.warnings.map(
        (w) => `${w.code} (${w.role === "claim" ? "claim" : sourceLabel(w.role)}): ${w.message}`,
    );
    return [head, JSON.stringify(shown), ...notes].join("\n");
}

/** What a model reads from lock: the counts, then each ref not locked with its next call (numbers from 1). */
function lockText(file: string, result: LockResult, toolName = (name: string) => name): string {
    const head =
        `${result.lock}: ${result.locked} ref${result.locked === 1 ? "" : "s"} locked` +
        (result.accepted > 0 ? `, ${result.accepted} changed text${result.accepted === 1 ? "" : "s"} accepted` : "") +
        (result.notLocked.length > 0 ? `, ${result.notLocked.length} not` : "") +
        (result.written ? " (written)." : `: not written, call ${toolName("lock")} again with write: true.`);
    const lines = result.notLocked.map(
        (n) =>
            `- ${placeLabel(n)} (line ${n.line} of ${file}): ${n.code}: ${n.message}. Next: ${wordNext(n.next, "tool", { file, place: n, toolName })}`,
    );
    return [head, ...lines, JSON.stringify(result)].join("\n");
}

/**
 * `import` (docs/import.md): the very operation `sourcecheck import` and the library's `importCitations`
 * run (operations/import.ts), over the documents of the annotation file's document root; the answer and
 * the annotation file are written as annotate writes a file (atomically on disk, as an edit in the editor).
 */
async function importTool(args: z.infer<typeof importInput>, context: ToolContext): Promise<ToolOutcome> {
    const response = importArgument(args.response, "response", context);
    const request = args.request === undefined ? undefined : importArgument(args.request, "request", context);
    if (args.answer === undefined && response.path === undefined)
        throw new ToolError(
            "invalid-arguments",
            "import: a response given inline needs answer (the answer file's path)",
        );
    const answer = refPath(args.answer ?? defaultAnswerPath(response.path as string));
    const output = defaultAnnotationPath(answer);
    const scope = context.refScope(output);
    const base = scope.base ?? "";
    /** A path from the tools' root as the refs of the annotation file name it (from its document root). */
    const inScope = (path: string, what: string) => {
        const normal = refPath(path);
        if (base === "") return normal;
        if (!normal.startsWith(`${base}/`))
            throw new ToolError(
                "path-outside-root",
                `import: the ${what} ${normal} is not under the document root ${base}`,
            );
        return normal.slice(base.length + 1);
    };
    const answerFile = context.annotationFileToWrite(answer);
    if ("code" in answerFile) throw new ToolError(answerFile.code, answerFile.message);
    const outputFile = context.annotationFileToWrite(output);
    if ("code" in outputFile) throw new ToolError(outputFile.code, outputFile.message);
    const lookup = scope.documents();
    const outcome = importResponse(
        {
            response: response.content,
            request: request?.content,
            answerPath: inScope(answer, "answer"),
            existingAnswer: answerFile.text,
            documents: Object.entries(args.documents ?? {}).map(([key, path]) => ({
                key,
                path: inScope(path, `document ${key}`),
            })),
            exclude: [response.path, request?.path, output].flatMap((path) =>
                path === undefined || (base !== "" && !path.startsWith(`${base}/`)) ? [] : [inScope(path, "file")],
            ),
        },
        {
            document: (path) => lookup.get(path) ?? { code: "unreadable-document", message: `no file "${path}"` },
            files: () => scope.files(),
        },
    );
    if (!outcome.ok) throw new ToolError(outcome.error.code as ToolErrorCode, `import: ${outcome.error.message}`);
    const { result } = outcome;
    if (args.write === true) {
        try {
            if (result.writeAnswer) await answerFile.write(result.answerText);
            await outputFile.write(result.annotationText);
        } catch (error) {
            throw new ToolError(
                "write-failed",
                `import: cannot write ${answer} or ${output}: ${(error as Error).message}`,
            );
        }
    }
    const structured = { ...importJson(result, answer, output), written: args.write === true };
    return { ok: true, structured, text: importText(structured, context.toolName) };
}

/** The response or request: a file under the root when it is a path, else as given. */
function importArgument(value: unknown, what: string, context: ToolContext): { content: unknown; path?: string } {
    if (typeof value !== "string" || isInlineContent(value)) return { content: value };
    const path = refPath(value);
    const entry = context.document(path);
    if (isDocumentFailure(entry)) throw new ToolError(entry.code, `import: the ${what} ${entry.message}`);
    return { content: entry.content, path };
}

/** At most this many citations not converted are listed in the text (all are in the structured content). */
const IMPORT_LISTED = 20;

/** What a model reads from import: the counts, each citation not converted, the next call. */
function importText(result: ImportJson & { written: boolean }, toolName = (name: string) => name): string {
    const total = result.converted + result.notConverted.length;
    const head =
        `${result.annotationFile}: ${result.converted} of ${total} ${result.provider} citation${total === 1 ? "" : "s"} imported` +
        (result.written
            ? `, written with the answer ${result.answer}.`
            : `: not written, call ${toolName("import")} again with write: true.`);
    const lines = result.notConverted
        .slice(0, IMPORT_LISTED)
        .map((n) => `- citation ${n.citation}: ${n.reason}: ${n.message}`);
    if (result.notConverted.length > IMPORT_LISTED)
        lines.push(`- … ${result.notConverted.length - IMPORT_LISTED} more in notConverted`);
    const next = result.written
        ? [`Next: ${toolName("lock")} with file ${result.annotationFile} and write: true.`]
        : [];
    return [head, ...lines, ...next].join("\n");
}
