/**
 * Repairing a whole checked input (docs/repair.md): every broken ref gets its candidates; the result
 * has the shape of `sourcecheck repair --json`, plus the candidates themselves for callers that edit.
 */
import type { CheckResult } from "../check";
import { Session } from "../session";
import type { ErrorCode, Ref } from "../types";
import { Corroboration, type RepairSite, repairSite } from "./corroborate";
import type { RepairCandidate, RepairDocuments, RepairOptions, RepairReason } from "./types";

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
}

export interface RemainingEntry {
    annotation: number;
    role: RepairRole;
    /** The ref's error as checked (before any repair). */
    code: ErrorCode;
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
export function repairChecked(
    result: CheckResult,
    options: RepairOptions & { documents?: RepairDocuments } = {},
): AnnotationRepairs {
    const documents = result.parts.documents
        ? withSessionPaths(result.lookup)
        : (options.documents ?? withSessionPaths(result.lookup));
    const items: { annotation: number; role: RepairRole; pointer: string; ref: Ref; code?: ErrorCode }[] = [];
    const sites: RepairSite[] = [];
    for (const annotation of result.annotations) {
        const refs: { role: RepairRole; pointer: string; ref?: Ref; valid?: boolean; code?: ErrorCode }[] = [];
        refs.push({
            role: "claim",
            pointer: `${annotation.pointer}/claim`,
            ref: annotation.claim,
            valid: annotation.claimResolution?.valid,
            code: annotation.claimResolution?.valid === false ? annotation.claimResolution.errors[0]?.code : undefined,
        });
        annotation.sources.forEach((source, index) => {
            refs.push({
                role: index,
                pointer: source.pointer,
                ref: source.ref,
                valid: source.resolution?.valid,
                code: source.resolution?.valid === false ? source.resolution.errors[0]?.code : undefined,
            });
        });
        for (const item of refs) {
            if (!item.ref || item.valid === undefined) continue;
            items.push({
                annotation: annotation.index,
                role: item.role,
                pointer: item.pointer,
                ref: item.ref,
                code: item.code,
            });
            sites.push(repairSite(item.ref, item.valid, documents, options));
        }
    }
    const corroboration = new Corroboration(sites);
    const repairs: RepairEntry[] = [];
    const remaining: RemainingEntry[] = [];
    for (const [index, item] of items.entries()) {
        if (sites[index].valid || item.code === undefined) continue;
        // The refs around it may say how its lines moved (corroborate.ts).
        const candidates = corroboration.candidates(index);
        const certain = candidates.find((c) => c.certain);
        for (const candidate of certain ? [certain] : candidates) {
            repairs.push(entryOf(item.annotation, item.role, item.pointer, item.ref, candidate));
        }
        if (!certain) remaining.push({ annotation: item.annotation, role: item.role, code: item.code });
    }
    return { repairs, remaining };
}

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
    };
}

/** A session's own paths are the candidates for a path that names none of its documents. */
function withSessionPaths(lookup: CheckResult["lookup"]): RepairDocuments {
    if (lookup instanceof Session) {
        return { get: (path) => lookup.get(path), candidatePaths: () => lookup.paths };
    }
    return lookup;
}
