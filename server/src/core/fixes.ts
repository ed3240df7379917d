/**
 * Single-token fixes for broken refs, computed from the cited document alone (no editor types): each
 * changes one token of one boundary (its `str` or its `line`) and says what the ref becomes. New
 * strings come from startBoundary/endBoundary (readable, unique). A fix is `preferred` only when it
 * yields exactly the span of the repair engine's certain whole-ref repair (docs/repair.md); whole-ref
 * repairs themselves come from `repairRef`.
 */
import { endBoundary, startBoundary } from "./boundaries";
import { approximateMatches } from "./editDistance";
import { occurrencesOf, occursOnce, shortestUniqueEndingAt, shortestUniqueStartingAt } from "./occurrences";
import { repairRef } from "./repair/engine";
import { type RefResolution, resolveInDocument } from "./resolve";
import type { SessionDocument } from "./session";
import type { BoundaryName, Ref } from "./types";

export interface BoundaryFix {
    /** extend: a longer unique str at one occurrence; move: another line; replace: a near match. */
    kind: "extend" | "move" | "replace";
    boundary: BoundaryName;
    /** The new `str` (extend, replace) or `line` (move) of that boundary. */
    str?: string;
    line?: number;
    /** The ref after the fix, and what it resolves to. */
    ref: Ref;
    resolution: RefResolution;
    /** True only when the fix gives the span of the certain whole-ref repair (docs/repair.md). */
    preferred: boolean;
}

/** How far from the written line "move to line N" looks. */
export const MOVE_DISTANCE = 20;
const MAX_MOVES = 3;
/** Lines and boundaries longer than this get no near-match search (it is O(line · str)). */
const MAX_NEAR_LINE = 4000;
const MAX_NEAR_STR = 200;

/** The longest boundary string a fix proposes. */
export const MAX_FIX_STR = 1000;

/** How many occurrences of a string on a line get a candidate: all on normal lines, a few on huge ones. */
export function occurrenceBudget(line: string): number {
    return Math.max(20, Math.min(500, Math.floor(20_000_000 / Math.max(1, line.length))));
}

function withBoundary(ref: Ref, boundary: BoundaryName, line: number, str: string): Ref {
    return { ...ref, [boundary]: { line, str } } as Ref;
}

/** A fix setting one boundary to `line` and `str`, with what the ref then resolves to. */
function boundaryFix(
    document: SessionDocument,
    ref: Ref,
    kind: BoundaryFix["kind"],
    boundary: BoundaryName,
    line: number,
    str: string,
): BoundaryFix {
    const fixed = withBoundary(ref, boundary, line, str);
    const changed = kind === "move" ? { line } : { str };
    return { kind, boundary, ...changed, ref: fixed, resolution: resolveInDocument(document, fixed), preferred: false };
}

/** The readable unique string that starts a span at `start` (start boundary) or ends one at `end`. */
function readableBoundary(text: string, boundary: BoundaryName, start: number, end: number): string | undefined {
    return boundary === "start"
        ? startBoundary(text, start, { maxLength: MAX_FIX_STR })?.str
        : endBoundary(text, end, { maxLength: MAX_FIX_STR })?.str;
}

/**
 * boundary-ambiguous: one fix per occurrence, the shortest unique string starting (start boundary)
 * or ending (end boundary) there. Preferred when exactly one of them gives a valid span.
 */
export function ambiguityFixes(document: SessionDocument, ref: Ref, boundary: BoundaryName): BoundaryFix[] {
    const { line, str } = ref[boundary];
    if (!document.lines.hasLine(line)) return [];
    const text = document.lines.line(line);
    const fixes: BoundaryFix[] = [];
    // Each candidate costs a few scans of the line: on a huge line only the first few occurrences
    // get a fix, and no fix string grows past MAX_FIX_STR (a 5 MB line of repeats must not hang the server).
    for (const column of occurrencesOf(text, str, occurrenceBudget(text))) {
        const unique = readableBoundary(text, boundary, column, column + str.length);
        // Any string as short as str starting (ending) here occurs at the other occurrences too, so
        // the unique one is always longer and contains this occurrence of str whole.
        if (unique === undefined) continue;
        fixes.push(boundaryFix(document, ref, "extend", boundary, line, unique));
    }
    markPreferred(fixes, document, ref);
    return fixes;
}

/**
 * boundary-not-found or line-out-of-range: "move to line N" for each nearby line where str occurs
 * exactly once (nearest first), and "replace with" for near matches on the written line.
 */
export function relocationFixes(document: SessionDocument, ref: Ref, boundary: BoundaryName): BoundaryFix[] {
    return [...moveFixes(document, ref, boundary), ...nearMatchFixes(document, ref, boundary)];
}

export function moveFixes(document: SessionDocument, ref: Ref, boundary: BoundaryName): BoundaryFix[] {
    const { line, str } = ref[boundary];
    const lines = document.lines;
    const anchor = Math.min(Math.max(line, 1), lines.lineCount);
    const fixes: BoundaryFix[] = [];
    for (let distance = 0; distance <= MOVE_DISTANCE && fixes.length < MAX_MOVES; distance++) {
        for (const candidate of distance === 0 ? [anchor] : [anchor - distance, anchor + distance]) {
            if (candidate === line || !lines.hasLine(candidate) || !occursOnce(lines.line(candidate), str)) continue;
            fixes.push(boundaryFix(document, ref, "move", boundary, candidate, str));
        }
    }
    markPreferred(fixes, document, ref);
    return fixes.slice(0, MAX_MOVES);
}

export function nearMatchFixes(document: SessionDocument, ref: Ref, boundary: BoundaryName): BoundaryFix[] {
    const { line, str } = ref[boundary];
    if (!document.lines.hasLine(line) || str.length > MAX_NEAR_STR) return [];
    const text = document.lines.line(line);
    if (text.length > MAX_NEAR_LINE) return [];
    const maxDistance = Math.max(1, Math.floor(str.length / 4));
    const fixes: BoundaryFix[] = [];
    for (const match of approximateMatches(text, str, maxDistance)) {
        // The near match fixes where the span begins (ends); the string written there is a readable one.
        const value = readableBoundary(text, boundary, match.start, match.end);
        if (value === undefined || value === str || !occursOnce(text, value) || value.trim().length === 0) continue;
        fixes.push(boundaryFix(document, ref, "replace", boundary, line, value));
    }
    markPreferred(fixes, document, ref);
    return fixes;
}

/**
 * The one fix worth applying without asking: the one that makes the whole ref resolve to the span of
 * the engine's certain repair. A fix that leaves the ref broken, or any fix when no repair is
 * certain, is never preferred: a preferred fix must not re-point a citation.
 */
function markPreferred(fixes: BoundaryFix[], document: SessionDocument, ref: Ref): void {
    if (fixes.length === 0) return;
    const lookup = { get: (path: string) => (path === document.path ? document : undefined) };
    const certain = repairRef({ ...ref, path: document.path }, lookup).find((c) => c.certain);
    if (!certain) return;
    const span = resolveInDocument(document, certain.ref);
    if (!span.valid) return;
    const match = fixes.find(
        (f) =>
            f.resolution.valid &&
            f.resolution.startOffset === span.startOffset &&
            f.resolution.endOffset === span.endOffset,
    );
    if (match) match.preferred = true;
}

/**
 * The same span with the shortest unique boundaries, or undefined when they already are.
 * Only for refs that resolve.
 */
export function shortenedRef(document: SessionDocument, ref: Ref): { ref: Ref; resolution: RefResolution } | undefined {
    const resolution = resolveInDocument(document, ref);
    if (!resolution.valid) return undefined;
    const { start, end } = resolution.range;
    const startStr = shortestUniqueStartingAt(document.lines.line(start.line), start.column);
    const endStr = shortestUniqueEndingAt(document.lines.line(end.line), end.column);
    if (startStr === undefined || endStr === undefined) return undefined;
    if (startStr === ref.start.str && endStr === ref.end.str) return undefined;
    const shortened: Ref = { ...ref, start: { line: start.line, str: startStr }, end: { line: end.line, str: endStr } };
    const after = resolveInDocument(document, shortened);
    // Shorter boundaries must give the very same span; on one line they might not enclose both.
    if (!after.valid || after.startOffset !== resolution.startOffset || after.endOffset !== resolution.endOffset)
        return undefined;
    return { ref: shortened, resolution: after };
}
