/**
 * The repair engine (docs/repair.md). For a broken ref, candidate refs that make the *whole* ref
 * resolve, cheapest first, at most one of them certain. The strongest evidence decides first: a
 * lock (locked.ts), the document's history (follow.ts), the only reading (reading.ts); else a
 * candidate pairs a placement of the start boundary with one of the end boundary (pairing.ts); its
 * cost adds how far each string is from the written one and how far the lines moved (cost.ts).
 * Certain means: best by a clear margin, over a search window wide enough that nothing outside it
 * could have come close (certainty.ts). A wrong certain repair silently re-points a citation, so
 * every doubt leaves the candidates uncertain.
 */
import { resolveInDocument, resolveRef } from "../resolve";
import { isDocumentFailure, type SessionDocument } from "../session";
import type { Ref } from "../types";
import { certify, isLocked, type Scored } from "./certainty";
import { marginAbove } from "./cost";
import { followRef } from "./follow";
import { lockCandidates } from "./locked";
import { movedDocument } from "./moved";
import { boundaryStrings, candidateFor, searchWindows } from "./pairing";
import { pathCandidates } from "./paths";
import { readingsNear } from "./reading";
import type { EvidenceKind, RepairCandidate, RepairDocuments, RepairOptions } from "./types";

/**
 * Candidates for a broken ref, most plausible first; [] when the ref resolves (to its locked text,
 * when a lock is given) or nothing fits. Each candidate's ref resolves (checked with the resolver);
 * at most one is certain, and each names its evidence.
 */
export function repairRef<R extends Ref>(
    ref: R,
    documents: RepairDocuments,
    options: RepairOptions = {},
): RepairCandidate<R>[] {
    return explainRepair(ref, documents, options).candidates;
}

export interface RepairExplanation<R extends Ref = Ref> {
    candidates: RepairCandidate<R>[];
    /** Why nothing is certain, when the evidence says so ("the cited text is no longer in …"). */
    note?: string;
}

/** repairRef, with a note on why nothing is certain when the evidence itself says why. */
export function explainRepair<R extends Ref>(
    ref: R,
    documents: RepairDocuments,
    options: RepairOptions = {},
): RepairExplanation<R> {
    const resolution = resolveRef(documents, ref);
    if (resolution.valid && (!options.locked || isLocked(options.locked, resolution.text, options.sha256)))
        return { candidates: [] };
    const max = options.maxCandidates ?? 5;
    const entry = documents.get(ref.path);
    if (entry !== undefined && !isDocumentFailure(entry)) {
        const found = repairInDocument(ref, entry, options);
        return { candidates: certify(found.candidates).slice(0, max), note: found.note };
    }
    // The path names no readable document. A renamed or moved document found by its lock hash, git's
    // rename record or its locked texts (moved.ts) is where the ref goes; several fitting are named.
    const gone = entry === undefined || (isDocumentFailure(entry) && entry.code === "unreadable-document");
    const moved = gone ? movedDocument(ref, documents, options) : undefined;
    if (moved && "path" in moved) return { candidates: inMovedDocument(ref, documents, moved, options).slice(0, max) };
    const named =
        moved && "candidates" in moved
            ? `${JSON.stringify(ref.path)} is gone and ${moved.evidence}: ${moved.candidates.map((p) => JSON.stringify(p)).join(", ")}; none is chosen`
            : undefined;
    // Otherwise try the paths that could be meant, each in full. A path
    // is certain only as the clear best path, and then only with a certain repair inside it.
    const paths = pathCandidates(ref.path, documents);
    const clearPath = paths.length > 0 && (paths.length === 1 || paths[1].cost >= marginAbove(paths[0].cost));
    const candidates: Scored<R>[] = [];
    for (const [index, { path, cost }] of paths.entries()) {
        const document = documents.get(path);
        if (document === undefined || isDocumentFailure(document)) continue;
        const moved = { ...ref, path } as R;
        const resolution = resolveInDocument(document, moved);
        const doubtful = !(clearPath && index === 0);
        const named = `${JSON.stringify(path)} is the only document that fits the path`;
        if (resolution.valid && (!options.locked || isLocked(options.locked, resolution.text, options.sha256))) {
            candidates.push({
                ref: moved,
                reason: "path",
                certain: false,
                text: resolution.text,
                range: resolution.range,
                cost,
                doubtful,
                evidenceKind: "search",
                evidence: `${named}, and the ref resolves there as written`,
            });
            continue;
        }
        for (const inner of certify(repairInDocument(moved, document, options).candidates)) {
            candidates.push({
                ...inner,
                reason: "path",
                cost: inner.cost + cost,
                doubtful: doubtful || !inner.certain,
                evidence: `${named}; ${inner.evidence ?? "a repair there"}`,
            });
        }
    }
    candidates.sort((a, b) => a.cost - b.cost);
    if (named) {
        for (const c of candidates) c.doubtful = true;
        return { candidates: certify(candidates).slice(0, max), note: named };
    }
    return { candidates: certify(candidates).slice(0, max) };
}

/** The ref in the one document its path moved to: as written there, or repaired there (a path repair either way). */
function inMovedDocument<R extends Ref>(
    ref: R,
    documents: RepairDocuments,
    moved: { path: string; evidence: string; evidenceKind: EvidenceKind },
    options: RepairOptions,
): RepairCandidate<R>[] {
    const document = documents.get(moved.path);
    if (document === undefined || isDocumentFailure(document)) return [];
    const repointed = { ...ref, path: moved.path } as R;
    const resolution = resolveInDocument(document, repointed);
    if (resolution.valid && (!options.locked || isLocked(options.locked, resolution.text, options.sha256)))
        return [
            {
                ref: repointed,
                reason: "path",
                certain: true,
                text: resolution.text,
                range: resolution.range,
                cost: 0,
                evidenceKind: moved.evidenceKind,
                evidence: `${moved.evidence}, and the ref resolves there as written`,
            },
        ];
    return certify(repairInDocument(repointed, document, options).candidates).map((inner) => ({
        ...inner,
        reason: "path",
        evidence: `${moved.evidence}; ${inner.evidence ?? "a repair there"}`,
    }));
}

/** Candidates inside one document, sorted by cost, not yet certified; the strongest evidence first. */
function repairInDocument<R extends Ref>(
    ref: R,
    document: SessionDocument,
    options: RepairOptions,
): { candidates: Scored<R>[]; note?: string } {
    if (options.locked) {
        const found = lockCandidates(ref, document, options.locked, options);
        const last = options.locked.range.start.line;
        if (found.gone)
            return {
                candidates: [],
                note: `the cited text is no longer in ${JSON.stringify(ref.path)}; it was last seen on line ${last}`,
            };
        // A place that is the ref itself: its text changed where it is, nothing to move.
        const same = (c: RepairCandidate<R>) =>
            c.ref.path === ref.path &&
            c.ref.start.line === ref.start.line &&
            c.ref.end.line === ref.end.line &&
            c.ref.start.str === ref.start.str &&
            c.ref.end.str === ref.end.str;
        const moved = found.candidates.filter((c) => !same(c));
        const note =
            moved.length < found.candidates.length && found.candidates[0] && same(found.candidates[0])
                ? `the cited text changed where it is (locked on line ${last}): read it, then lock it again or cite other text`
                : undefined;
        if (note) for (const c of moved) c.certain = false;
        return { candidates: moved.map((c) => ({ ...c, judged: true })), note };
    }
    const previous = options.previous?.get(ref.path);
    if (previous !== undefined && !isDocumentFailure(previous) && previous.content !== document.content) {
        const named = options.previousLabel;
        const label = (typeof named === "function" ? named() : named) ?? "the earlier version";
        const followed = followRef(ref, previous, document, options);
        // The old text tells where the span went; if it is gone, a search could only guess.
        if (followed !== undefined)
            return {
                candidates: followed.map((c) => ({
                    ...c,
                    judged: true,
                    evidenceKind: "history",
                    evidence: historyEvidence(ref, c, label),
                })),
            };
        if (resolveInDocument(previous, ref).valid)
            return {
                candidates: searchDocument(ref, document, { ...options, unchanged: false }).map((c) => ({
                    ...c,
                    doubtful: true,
                })),
                note: `the cited text (as of ${label}) is no longer in ${JSON.stringify(ref.path)}`,
            };
        // Broken already then: the document changed since, so it is not the one the ref was written against.
        return { candidates: searchDocument(ref, document, { ...options, unchanged: false }) };
    }
    return { candidates: searchDocument(ref, document, options) };
}

function historyEvidence(ref: Ref, candidate: RepairCandidate, label: string): string {
    const to =
        candidate.range.start.line === candidate.range.end.line
            ? `line ${candidate.range.start.line}`
            : `lines ${candidate.range.start.line}-${candidate.range.end.line}`;
    if (candidate.reason === "line-shift") {
        const from =
            ref.start.line === ref.end.line ? `line ${ref.start.line}` : `lines ${ref.start.line}-${ref.end.line}`;
        return `the document's changes since ${label} moved ${from} to ${to}`;
    }
    return candidate.certain
        ? `the text cited as of ${label} was found once, on ${to}`
        : `the text cited as of ${label} was found on ${to}, one of several places`;
}

/**
 * The only reading of the ref, when the document is presumed unchanged (reading.ts); then the
 * search for the span near the written lines, widening the window until the verdict is safe.
 */
function searchDocument<R extends Ref>(ref: R, document: SessionDocument, options: RepairOptions): Scored<R>[] {
    const found = searchWindows(ref, document, options);
    if (!options.unchanged) return found;
    const readings = readingsNear(ref, document);
    if (readings.several) {
        // Two readings of the ref as written: the search's margin cannot decide what the text does not.
        for (const c of found) c.certain = false;
        return found.map((c) => ({ ...c, doubtful: true }));
    }
    const reading = readings.only;
    if (!reading) return found;
    const candidate = candidateFor(ref, document, reading.start, reading.end, 0, boundaryStrings(document, options));
    if (!candidate) return found;
    const others = found.filter(
        (c) =>
            c.range.start.line !== candidate.range.start.line ||
            c.range.start.column !== candidate.range.start.column ||
            c.range.end.line !== candidate.range.end.line ||
            c.range.end.column !== candidate.range.end.column,
    );
    for (const c of others) c.certain = false;
    return [
        { ...candidate, certain: true, judged: true, evidenceKind: "reading", evidence: reading.evidence },
        ...others.map((c) => ({ ...c, judged: true })),
    ];
}
