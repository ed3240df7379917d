/**
 * The annotate operation (docs/annotate.md, docs/contract.md section 7): quotes become annotations,
 * each quote cited as `cite` cites it, and the annotation file's text is edited with its layout kept.
 * One call appends one annotation or several, replaces or removes an annotation or one of its
 * sources (numbered from 1). `sourcecheck annotate` and the `annotate` tools run it; each front end
 * reads the file, writes the text this returns (only when asked) and words the result.
 */
import { annotationLabel, ordinal, type RefRole, refRoleOf, sourceLabel } from "../../../shared/numbering";
import {
    type AnnotateError,
    type AnnotateRequest,
    type AnnotateWarning,
    annotateQuotes,
    editAnnotationFile,
    editUnsourced,
    type SourceQuoteRequest,
} from "../core/annotate";
import { applyOffsetEdits, removeSource, replaceSource } from "../core/annotationEdits";
import { checkInputSteps, runSteps } from "../core/check";
import { didYouMean, nearestPaths } from "../core/nearestPaths";
import type { NextStep } from "../core/nextStep";
import { parseJsonText } from "../core/parse";
import { resolveRef } from "../core/resolve";
import { type DocumentLookup, namesNoFile, noFileMessage } from "../core/session";
import type { Annotation } from "../core/types";
import { cite, nextAfterUncited } from "./cite";
import { OperationError } from "./errors";

/** An annotation, or one source of it, numbered from 1. */
export type Target = number | { annotation: number; source: number };

export interface AnnotateOperationRequest {
    /** The annotation file as its reader names it (messages). */
    file: string;
    claim?: AnnotateRequest["claim"];
    sources?: readonly SourceQuoteRequest[];
    /** Several annotations appended in one call (all or nothing). */
    annotations?: readonly AnnotateRequest[];
    /** Put the new annotation in place of annotation N, or the one new source in place of source M of N. */
    replace?: Target;
    /** Remove annotation N, or source M of annotation N. */
    remove?: Target;
    /** Replace even when the annotation replaced claims other text. */
    force?: boolean;
    /**
     * The claim was searched and no source found: record it in the file's `unsourced` list (with
     * `claim`, no sources), or with `remove: N` remove entry N of that list (docs/annotate.md, "Unsourced").
     */
    unsourced?: boolean;
}

export interface AnnotateCapabilities {
    /** Where the quotes are found: the documents under the file's document root. */
    documents: DocumentLookup;
    /** Every file there, for "did you mean" after a path that names none. */
    files(): Iterable<string>;
    /** The annotation file's text; undefined when there is no such file yet. */
    text: string | undefined;
}

export interface AnnotateDone {
    /** The file's new text (the front end writes it only when asked). */
    text: string;
    /** The result as every front end returns it (`written` is the front end's to add). */
    output: Record<string, unknown>;
    /** What changed, for people: "annotation 4 of answer.sourcecheck.json" (numbered from 1). */
    what: string;
    /** `present`: an equal annotation is already in the file, nothing appended (docs/annotate.md, "Retries"). */
    kind: "append" | "replace" | "remove" | "present";
    warnings: AnnotateWarning[];
}

/**
 * A quote that could not be cited, as every front end reports it (docs/contract.md, "Numbers" and
 * "Next steps"): `role` "claim" or "source" with `source` from 1, and what to do next as data.
 */
export type AnnotateFailure = Omit<AnnotateError, "role"> & RefRole & { next?: NextStep };

/** A quote that could not be cited: `badInput` when a document cannot be had (exit 2), else exit 1. */
export type AnnotateOutcome =
    | { ok: true; done: AnnotateDone }
    | { ok: false; error: AnnotateFailure; badInput: boolean };

/** A warning as front ends report it: the ref's role a word, its source counted from 1. */
function publicWarning({ role, ...warning }: AnnotateWarning): Record<string, unknown> {
    return { ...warning, ...refRoleOf(role) };
}

/** `lines` only where there are occurrences, as cite answers; the same object on every front end. */
function publicFailure({ role, lines, ...error }: AnnotateError, path: string): AnnotateFailure {
    const next = nextAfterUncited(error.code, path, lines, error.candidates, error.message);
    const occurrences = lines !== undefined && lines.length > 0 ? { lines } : {};
    return { ...error, ...occurrences, ...refRoleOf(role), ...(next ? { next } : {}) };
}

export function annotate(request: AnnotateOperationRequest, capabilities: AnnotateCapabilities): AnnotateOutcome {
    return runSteps(annotateSteps(request, capabilities));
}

/**
 * The operation as steps: it yields after each annotation it cites (its quotes looked up in their
 * documents) and each annotation of the file it checks, so a server can answer others meanwhile.
 */
export function* annotateSteps(
    request: AnnotateOperationRequest,
    capabilities: AnnotateCapabilities,
): Generator<void, AnnotateOutcome, void> {
    checkShape(request);
    if (request.unsourced === true) return unsourced(request, capabilities);
    if (request.remove !== undefined) return { ok: true, done: remove(request, request.remove, capabilities) };
    if (request.annotations !== undefined) return yield* appendSeveral(request, request.annotations, capabilities);
    const replace = request.replace;
    if (typeof replace === "object") return yield* replaceOneSource(request, replace, capabilities);
    const built = build({ claim: request.claim!, sources: request.sources! }, capabilities);
    if (!built.ok) return built;
    const current = capabilities.text;
    if (replace !== undefined && request.force !== true)
        yield* refuseMismatch(request.file, current, replace, built.annotation.claim, capabilities);
    const present = replace === undefined ? equalAnnotation(current, built.annotation) : undefined;
    if (present !== undefined) return { ok: true, done: alreadyPresent(request.file, current!, present, built) };
    const edit = replace === undefined ? { kind: "append" as const } : { kind: "replace" as const, index: replace - 1 };
    const edited = editAnnotationFile(current, request.file, edit, built.annotation);
    if (!edited.ok) {
        const missing = "count" in edited && edited.count !== undefined;
        throw new OperationError(
            missing ? "no-such-annotation" : "invalid-arguments",
            fromOne(edited, request.file, replace ?? 0),
        );
    }
    const output: Record<string, unknown> = { annotation: ordinal(edited.index), cited: built.annotation };
    if (edit.kind === "replace") output.replaced = true;
    if (built.warnings.length > 0) output.warnings = built.warnings.map(publicWarning);
    const what = `${annotationLabel(edited.index)} of ${request.file}`;
    return { ok: true, done: { text: edited.text, output, what, kind: edit.kind, warnings: built.warnings } };
}

function checkShape(request: AnnotateOperationRequest): void {
    const bad = (message: string) => new OperationError("invalid-arguments", `annotate: ${message}`);
    const quotes = request.claim !== undefined || request.sources !== undefined;
    if (request.unsourced === true) {
        if (request.annotations !== undefined || request.replace !== undefined || request.sources !== undefined)
            throw bad("unsourced takes a claim and no sources (or remove: N), not annotations, sources or replace");
        if (typeof request.remove === "object") throw bad("unsourced with remove takes the entry's number N (from 1)");
        if ((request.remove === undefined) === (request.claim === undefined))
            throw bad("unsourced takes a claim (to record) or remove: N (to remove entry N), not both");
        return;
    }
    if (request.remove !== undefined) {
        if (quotes || request.annotations || request.replace !== undefined)
            throw bad("remove takes no quotes and no replace");
        return;
    }
    if (request.annotations !== undefined) {
        if (quotes || request.replace !== undefined) throw bad("give annotations, or claim and sources, not both");
        if (request.annotations.length === 0) throw bad("annotations is empty");
        return;
    }
    if (typeof request.replace === "object") {
        if (request.sources?.length !== 1)
            throw bad("replace: { annotation, source } takes exactly one source (and the annotation's claim, checked)");
        return;
    }
    if (request.claim === undefined || request.sources === undefined || request.sources.length === 0)
        throw bad("give claim and sources (at least one), or annotations, or remove");
}

type Built = { ok: true; annotation: Annotation; warnings: AnnotateWarning[] };
type Failed = Extract<AnnotateOutcome, { ok: false }>;

/** Every quote of one annotation cited, or the first failure (a missing file's message names near paths). */
function build(request: AnnotateRequest, capabilities: AnnotateCapabilities): Built | Failed {
    const built = annotateQuotes(request, capabilities.documents);
    if (built.ok) return built;
    const error = { ...built.error };
    const quote = error.role === "claim" ? request.claim : request.sources[error.role];
    if (namesNoFile(error))
        error.message += didYouMean(nearestPaths(quote.path.replace(/^\.\//, ""), capabilities.files()));
    const uncitable =
        error.code === "quote-not-found" || error.code === "quote-ambiguous" || error.code === "self-citation";
    return { ok: false, error: publicFailure(error, quote.path), badInput: !uncitable };
}

/**
 * A replace must not silently overwrite another claim (docs/annotate.md, "Replace"): when the
 * annotation replaced has a claim that resolves, its text must be the new claim's text.
 */
function* refuseMismatch(
    file: string,
    text: string | undefined,
    number: number,
    claim: Annotation["claim"],
    capabilities: AnnotateCapabilities,
): Generator<void, void, void> {
    if (text === undefined) return; // no such annotation: the edit says so
    const parsed = parseJsonText(text);
    const checked = yield* checkInputSteps(parsed.value, capabilities.documents, parsed.syntaxErrors, {
        keepAnnotations: true,
        unlistedSyntaxErrors: parsed.unlistedSyntaxErrors,
    });
    const target = checked.annotations.find((a) => a.index === number - 1);
    const old = target?.claimResolution;
    if (!old?.valid) return; // a broken claim is what a replace repairs: nothing to compare
    const newText = resolveRef(capabilities.documents, claim);
    if (!newText.valid || newText.text === old.text) return;
    const holder = checked.annotations.find((a) => a.claimResolution?.valid && a.claimResolution.text === newText.text);
    const hint = holder
        ? `${annotationLabel(holder.index)} holds this claim: replace ${ordinal(holder.index)}`
        : "replace the annotation that holds this claim";
    throw new OperationError(
        "replace-mismatch",
        `${annotationLabel(number - 1)} of ${file} claims ${echo(old.text)}, not the new claim ${echo(newText.text)}: ${hint} (annotations count from 1), or give force to replace it anyway`,
        1,
    );
}

function* appendSeveral(
    request: AnnotateOperationRequest,
    annotations: readonly AnnotateRequest[],
    capabilities: AnnotateCapabilities,
): Generator<void, AnnotateOutcome, void> {
    const builts: Built[] = [];
    for (const [at, one] of annotations.entries()) {
        if (at > 0) yield;
        const built = build(one, capabilities);
        if (!built.ok) {
            const { error } = built;
            const pointer = `/annotations/${at}${error.pointer}`;
            return { ...built, error: { ...error, message: `item ${at + 1}: ${error.message}`, pointer } };
        }
        builts.push(built);
    }
    let text = capabilities.text;
    const added: Record<string, unknown>[] = [];
    const warnings: AnnotateWarning[] = [];
    for (const built of builts) {
        const present = equalAnnotation(text, built.annotation);
        if (present !== undefined) {
            added.push({ annotation: ordinal(present), cited: built.annotation, present: true });
            continue;
        }
        const edited = editAnnotationFile(text, request.file, { kind: "append" }, built.annotation);
        if (!edited.ok) throw new OperationError("invalid-arguments", `annotate: ${edited.message}`);
        text = edited.text;
        const item: Record<string, unknown> = { annotation: ordinal(edited.index), cited: built.annotation };
        if (built.warnings.length > 0) item.warnings = built.warnings.map(publicWarning);
        warnings.push(...built.warnings);
        added.push(item);
    }
    const numbers = added.filter((item) => item.present !== true).map((item) => item.annotation as number);
    const presentCount = added.length - numbers.length;
    const labels = (list: number[]) =>
        `${annotationLabel(list[0] - 1)}${list.length > 1 ? ` to ${annotationLabel(list[list.length - 1] - 1)}` : ""}`;
    const what =
        numbers.length === 0
            ? `${labels(added.map((item) => item.annotation as number))} of ${request.file}`
            : `${labels(numbers)} of ${request.file}${presentCount > 0 ? ` (${presentCount} already present, not appended)` : ""}`;
    const kind = numbers.length === 0 ? ("present" as const) : ("append" as const);
    return { ok: true, done: { text: text!, output: { added }, what, kind, warnings } };
}

function* replaceOneSource(
    request: AnnotateOperationRequest,
    target: { annotation: number; source: number },
    capabilities: AnnotateCapabilities,
): Generator<void, AnnotateOutcome, void> {
    const text = existing(request.file, capabilities.text);
    if (request.claim !== undefined && request.force !== true) {
        const claim = build({ claim: request.claim, sources: [] }, capabilities);
        if (!claim.ok) return claim;
        yield* refuseMismatch(request.file, text, target.annotation, claim.annotation.claim, capabilities);
    }
    const quote = request.sources![0];
    const cited = cite(quote, {
        document: (path) =>
            capabilities.documents.get(path) ?? { code: "unreadable-document", message: noFileMessage(path) },
        files: () => capabilities.files(),
    });
    if (!cited.ok) {
        const { code, message, lines } = cited.failure.error;
        const error = {
            code: (code === "invalid-arguments" ? "invalid-path" : code) as AnnotateError["code"],
            message: `${sourceLabel(target.source - 1)}: ${message}`,
            role: 0,
            pointer: "/sources/0",
            ...(lines ? { lines } : {}),
            ...(cited.failure.candidates ? { candidates: cited.failure.candidates } : {}),
        };
        return { ok: false, error: publicFailure(error, quote.path), badInput: cited.badInput };
    }
    const source = { ...cited.output.ref, polarity: quote.polarity, confidence: quote.confidence };
    const edited = replaceSource(text, request.file, target.annotation - 1, target.source - 1, source);
    if (!edited.ok) throw new OperationError("no-such-source", edited.message);
    const output = { annotation: target.annotation, source: target.source, cited: source, replaced: true };
    const what = `${sourceLabel(target.source - 1)} of ${annotationLabel(target.annotation - 1)} of ${request.file}`;
    const warnings = (cited.output.warnings ?? []).map((w) => ({ ...w, role: target.source - 1 }));
    return {
        ok: true,
        done: { text: applyOffsetEdits(text, edited.edits), output, what, kind: "replace", warnings },
    };
}

function remove(request: AnnotateOperationRequest, target: Target, capabilities: AnnotateCapabilities): AnnotateDone {
    const text = existing(request.file, capabilities.text);
    if (typeof target === "number") {
        const removed = editAnnotationFile(text, request.file, { kind: "remove", index: target - 1 });
        if (!removed.ok) throw new OperationError("no-such-annotation", fromOne(removed, request.file, target));
        const what = `${annotationLabel(target - 1)} of ${request.file}`;
        return {
            text: removed.text,
            output: { annotation: ordinal(removed.index), removed: true },
            what,
            kind: "remove",
            warnings: [],
        };
    }
    const edited = removeSource(text, request.file, target.annotation - 1, target.source - 1);
    if (!edited.ok) throw new OperationError("no-such-source", edited.message);
    const what = `${sourceLabel(target.source - 1)} of ${annotationLabel(target.annotation - 1)} of ${request.file}`;
    const output = { annotation: target.annotation, source: target.source, removed: true };
    return { text: applyOffsetEdits(text, edited.edits), output, what, kind: "remove", warnings: [] };
}

/**
 * A claim searched with no source found, recorded in (or removed from) the file's `unsourced` list:
 * the claim cited as `cite` cites it; an equal ref already in the list is reported present.
 */
function unsourced(request: AnnotateOperationRequest, capabilities: AnnotateCapabilities): AnnotateOutcome {
    const file = request.file;
    if (typeof request.remove === "number") {
        const removed = editUnsourced(existing(file, capabilities.text), file, { remove: request.remove - 1 });
        if (!removed.ok) throw new OperationError("no-such-annotation", removed.message);
        const output = { unsourced: request.remove, removed: true };
        const what = `unsourced claim ${request.remove} of ${file}`;
        return { ok: true, done: { text: removed.text, output, what, kind: "remove", warnings: [] } };
    }
    const built = build({ claim: request.claim!, sources: [] }, capabilities);
    if (!built.ok) return built;
    const claim = built.annotation.claim;
    const text = capabilities.text;
    const present = unsourcedList(text).findIndex((item) => refKey(item) === refKey(claim));
    const warnings = built.warnings.length > 0 ? { warnings: built.warnings.map(publicWarning) } : {};
    if (present >= 0) {
        const output = { unsourced: ordinal(present), cited: claim, present: true, ...warnings };
        const what = `unsourced claim ${ordinal(present)} of ${file}`;
        return { ok: true, done: { text: text!, output, what, kind: "present", warnings: built.warnings } };
    }
    const edited = editUnsourced(text, file, { claim });
    if (!edited.ok) throw new OperationError("invalid-arguments", `annotate: ${edited.message}`);
    const output = { unsourced: ordinal(edited.index), cited: claim, ...warnings };
    const what = `unsourced claim ${ordinal(edited.index)} of ${file}`;
    return { ok: true, done: { text: edited.text, output, what, kind: "append", warnings: built.warnings } };
}

/** The file's `unsourced` list as parsed (empty when there is none or the file does not parse). */
function unsourcedList(text: string | undefined): unknown[] {
    if (text === undefined || text.trim() === "") return [];
    const value = parseJsonText(text).value as { unsourced?: unknown } | undefined;
    return typeof value === "object" && value !== null && Array.isArray(value.unsourced) ? value.unsourced : [];
}

/**
 * The 0-based place of an annotation in `text` equal to `annotation`: the same claim span and the
 * same sources (span, polarity and confidence, in any order). A retried call finds its own
 * annotation here instead of appending it twice.
 */
function equalAnnotation(text: string | undefined, annotation: Annotation): number | undefined {
    if (text === undefined || text.trim() === "") return undefined;
    const value = parseJsonText(text).value as { annotations?: unknown } | unknown[] | undefined;
    const list = Array.isArray(value) ? value : (value as { annotations?: unknown } | undefined)?.annotations;
    if (!Array.isArray(list)) return undefined;
    const claimKey = refKey(annotation.claim);
    const sourceKeys = annotation.sources.map(sourceKey).sort().join("\n");
    const found = list.findIndex((item) => {
        const existing = item as Partial<Annotation> | null;
        if (typeof existing !== "object" || existing === null || !Array.isArray(existing.sources)) return false;
        if (refKey(existing.claim) !== claimKey) return false;
        return existing.sources.map(sourceKey).sort().join("\n") === sourceKeys;
    });
    return found < 0 ? undefined : found;
}

function refKey(ref: unknown): string {
    const r = ref as Partial<Annotation["claim"]> | undefined;
    return JSON.stringify([r?.path, r?.start?.line, r?.start?.str, r?.end?.line, r?.end?.str]);
}

function sourceKey(source: unknown): string {
    const { polarity, confidence } = (source ?? {}) as { polarity?: unknown; confidence?: unknown };
    return `${refKey(source)}${JSON.stringify([polarity, confidence])}`;
}

/** An equal annotation is there already: the file unchanged, the result says which one (from 1). */
function alreadyPresent(file: string, text: string, index: number, built: Built): AnnotateDone {
    const output: Record<string, unknown> = { annotation: ordinal(index), cited: built.annotation, present: true };
    if (built.warnings.length > 0) output.warnings = built.warnings.map(publicWarning);
    const what = `${annotationLabel(index)} of ${file}`;
    return { text, output, what, kind: "present", warnings: built.warnings };
}

/** An input string as a result quotes it: JSON, cut to about 200 characters (docs/agents.md, "Bounded echoes"). */
export function echo(text: string, max = ECHO_CHARS): string {
    return JSON.stringify(text.length <= max ? text : `${text.slice(0, max)}…`);
}

const ECHO_CHARS = 200;

function existing(file: string, text: string | undefined): string {
    if (text === undefined)
        throw new OperationError("no-such-annotation", `${file} does not exist; there is nothing to edit`);
    return text;
}

/** A missing annotation said as people count (from 1); other refusals as they are. */
function fromOne(refused: { message: string; count?: number }, file: string, number: number): string {
    if (refused.count === undefined) return refused.message;
    const held = refused.count === 0 ? "it has none" : `it has ${refused.count}, numbered 1 to ${refused.count}`;
    return `${file} has no ${annotationLabel(number - 1)} (${held})`;
}
