/**
 * Repairing a whole checked input (docs/repair.md): every broken ref gets its candidates; the result
 * has the shape of `sourcecheck repair --json`, plus the candidates themselves for callers that edit.
 */
import type { CheckResult } from "../check";
import type { NextStep } from "../nextStep";
import type { RefResolution } from "../resolve";
import { Session } from "../session";
import type { ErrorCode, Ref } from "../types";
import { isLocked } from "./certainty";
import { Corroboration, type RepairSite, repairSite } from "./corroborate";
import { landsOn, oppositeOf, oppositeSpans } from "./opposite";
import type { EvidenceKind, LockedSpan, RepairCandidate, RepairDocuments, RepairOptions, RepairReason } from "./types";

export type RepairRole = "claim" | number;

export interface RepairEntry {
    annotation: number;
    role: RepairRole;
    /** JSON pointer of the ref in the checked input, e.g. `/annotations/0/claim`. */
    pointer: string;
    reason: RepairReason;
    certain: boolean;
    before: Ref;
    after: Ref;
    text: string;
    /** What the repair rests on, for people: "the locked text was found on line 9". */
    evidence: string;
    evidenceKind: EvidenceKind;
}

export interface RemainingEntry {
    annotation: number;
    role: RepairRole;
    /** JSON pointer of the ref in the checked input. */
    pointer: string;
    /** The ref's error as checked (before any repair); `text-changed` for a ref on other text than its locked text. */
    code: ErrorCode | "text-changed";
    /** What is wrong, for people. */
    message: string;
    /** What to do about it, as data: each front end words it (docs/contract.md, "Next steps"). */
    next: NextStep;
}

export interface AnnotationRepairs {
    /** Per broken ref: its certain repair, or else every candidate (none certain). */
    repairs: RepairEntry[];
    /** Broken refs without a certain repair. */
    remaining: RemainingEntry[];
}

/**
 * Repairs for every broken ref of a checked input (checked with `keepAnnotations`). Embedded sessions
 * repair against their own documents; workspace input against `documents` (default: what it was
 * checked against). Refs that failed the schema are not repaired (they are schema errors).
 */
export interface RepairCheckedOptions extends Omit<RepairOptions, "locked"> {
    documents?: RepairDocuments;
    /**
     * The lock's entry of each ref, given every ref of the file in order with its resolution (the
     * lock's own matching, core/lock): a ref on other text than its entry's is repaired from it.
     */
    lockedSpans?: (sites: readonly { ref: Ref; resolution: RefResolution }[]) => readonly (LockedSpan | undefined)[];
}

export function repairChecked(result: CheckResult, options: RepairCheckedOptions = {}): AnnotationRepairs {
    const steps = repairCheckedSteps(result, options);
    let next = steps.next();
    while (!next.done) next = steps.next();
    return next.value;
}

/**
 * `repairChecked` as steps: it yields after each ref it judges, so that a server answering several
 * callers on one thread can let other work run in between (the MCP server, agentTools/cooperative.ts).
 */
export function* repairCheckedSteps(
    result: CheckResult,
    options: RepairCheckedOptions = {},
): Generator<void, AnnotationRepairs, void> {
    const documents = result.parts.documents
        ? withSessionPaths(result.lookup)
        : (options.documents ?? withSessionPaths(result.lookup));
    const items: {
        annotation: number;
        role: RepairRole;
        pointer: string;
        ref: Ref;
        resolution: RefResolution;
        code?: ErrorCode | "text-changed";
        message?: string;
        /** The source's polarity (the claim has none): a ref never moves onto what the other polarity cites. */
        polarity?: unknown;
    }[] = [];
    for (const annotation of result.annotations) {
        const refs: { role: RepairRole; pointer: string; ref?: Ref; resolution?: RefResolution }[] = [
            {
                role: "claim",
                pointer: `${annotation.pointer}/claim`,
                ref: annotation.claim,
                resolution: annotation.claimResolution,
            },
            ...annotation.sources.map((source, index) => ({
                role: index,
                pointer: source.pointer,
                ref: source.ref,
                resolution: source.resolution,
            })),
        ];
        for (const item of refs) {
            if (!item.ref || item.resolution === undefined) continue;
            const polarity = item.role === "claim" ? undefined : annotation.sources[item.role].ref?.polarity;
            const failed = item.resolution.valid ? undefined : item.resolution.errors[0];
            items.push({
                annotation: annotation.index,
                role: item.role,
                pointer: item.pointer,
                ref: item.ref,
                resolution: item.resolution,
                code: failed?.code,
                message: failed?.message,
                polarity,
            });
        }
    }
    const lockedSpans = options.lockedSpans?.(items) ?? [];
    // Every locked text of each document: a document renamed since finds itself by them (moved.ts).
    const lockedByPath = new Map<string, LockedSpan[]>();
    for (const [index, item] of items.entries()) {
        const locked = lockedSpans[index];
        if (!locked) continue;
        const list = lockedByPath.get(item.ref.path);
        if (list) list.push(locked);
        else lockedByPath.set(item.ref.path, [locked]);
    }
    const { lockedSpans: _, documents: __, ...engine } = options;
    const sites: RepairSite[] = [];
    for (const [index, item] of items.entries()) {
        const locked = lockedSpans[index];
        let valid = item.resolution.valid;
        // A ref on other text than its locked text is repaired from the lock like a broken one.
        if (item.resolution.valid && locked && !isLocked(locked, item.resolution.text, options.sha256)) {
            valid = false;
            item.code = "text-changed";
            item.message = "the cited text changed since it was locked";
        }
        sites.push(
            repairSite(item.ref, valid, documents, {
                ...engine,
                locked,
                lockedOfDocument: lockedByPath.get(item.ref.path),
            }),
        );
        yield;
    }
    const corroboration = new Corroboration(sites);
    // The refs around it may say how its lines moved (corroborate.ts).
    const found: RepairCandidate[][] = [];
    for (const [index, item] of items.entries()) {
        found.push(sites[index].valid || item.code === undefined ? [] : corroboration.candidates(index));
        yield;
    }
    const polar = items.map((item, index) => ({
        annotation: item.annotation,
        polarity: item.polarity,
        ref: item.ref,
        range: item.resolution.valid ? item.resolution.range : undefined,
        locked: lockedSpans[index],
    }));
    const certainOf = (index: number) => found[index].filter((c) => c.certain);
    const repairs: RepairEntry[] = [];
    const remaining: RemainingEntry[] = [];
    for (const [index, item] of items.entries()) {
        if (sites[index].valid || item.code === undefined) continue;
        let candidates = found[index];
        let withheld = false;
        if (candidates.length > 0 && oppositeOf(item.polarity)) {
            const cited = oppositeSpans(polar, index, documents, engine, certainOf);
            candidates = candidates.filter((c) => !landsOn(c, cited));
            withheld = candidates.length < found[index].length;
            yield;
        }
        const certain = candidates.find((c) => c.certain);
        for (const candidate of certain ? [certain] : candidates) {
            repairs.push(entryOf(item.annotation, item.role, item.pointer, item.ref, candidate));
        }
        if (!certain) {
            const note = sites[index].note();
            remaining.push({
                annotation: item.annotation,
                role: item.role,
                pointer: item.pointer,
                code: item.code,
                message: `${note ?? item.message ?? "the ref does not resolve"}${withheld ? WITHHELD : ""}`,
                next: nextStep(item.code, note, candidates.length, sites[index].ref),
            });
        }
    }
    return { repairs, remaining };
}

/** Said of a ref whose candidates included text a source of the other polarity cites (opposite.ts). */
const WITHHELD = "; a place that a source of the other polarity in this annotation cites is never offered";

function plainRef(ref: Ref): Ref {
    return { path: ref.path, start: { ...ref.start }, end: { ...ref.end } };
}

function entryOf(
    annotation: number,
    role: RepairRole,
    pointer: string,
    before: Ref,
    candidate: RepairCandidate,
): RepairEntry {
    return {
        annotation,
        role,
        pointer,
        reason: candidate.reason,
        certain: candidate.certain,
        before: plainRef(before),
        after: plainRef(candidate.ref),
        text: candidate.text,
        evidence: candidate.evidence ?? "one of several candidates; nothing makes it certain",
        evidenceKind: candidate.evidenceKind ?? "search",
    };
}

/** What to do about a ref left without a certain repair (worded by each front end). */
function nextStep(code: string, note: string | undefined, candidates: number, ref: Ref): NextStep {
    const at = { path: ref.path, line: ref.start.line };
    if (note?.startsWith("the cited text changed where it is")) return { action: "accept-text", ...at };
    if (note?.includes("no longer in")) return { action: "cite-again", ...at };
    if (candidates > 0) return { action: "choose-candidate", ...at, candidates };
    if (code === "text-changed") return { action: "accept-text", ...at };
    if (code === "unknown-path" || code === "unreadable-document" || code === "path-outside-root")
        return { action: "fix-path", path: ref.path };
    return { action: "cite-again", ...at };
}

/** A session's own paths are the candidates for a path that names none of its documents. */
function withSessionPaths(lookup: CheckResult["lookup"]): RepairDocuments {
    if (lookup instanceof Session) {
        return { get: (path) => lookup.get(path), candidatePaths: () => lookup.paths };
    }
    return lookup;
}
