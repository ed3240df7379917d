/**
 * Following a span from an older version of its document to the current one: unchanged lines are
 * mapped through a line diff (the `diff` package); a span whose boundary lines changed is looked for
 * by its text. Used by `sourcecheck repair --since REV` and by editors that saw the edit happen.
 */
import { diffArrays } from "diff";
import { endBoundary, startBoundary } from "../boundaries";
import { resolveInDocument } from "../resolve";
import type { SessionDocument } from "../session";
import type { Ref } from "../types";
import type { RepairCandidate, RepairOptions } from "./types";

/** Old line -> new line for every line the diff keeps (1-based); changed or deleted lines are absent. */
export type LineMap = (line: number) => number | undefined;

/** Beyond this many changed lines the diff gives up and only text search is used. */
const MAX_EDIT_LENGTH = 20_000;
const maps = new WeakMap<SessionDocument, WeakMap<SessionDocument, LineMap | undefined>>();

export function lineMap(before: SessionDocument, after: SessionDocument): LineMap | undefined {
    let byAfter = maps.get(before);
    if (!byAfter) {
        byAfter = new WeakMap();
        maps.set(before, byAfter);
    }
    if (byAfter.has(after)) return byAfter.get(after);
    const map = computeLineMap(before.content, after.content);
    byAfter.set(after, map);
    return map;
}

export function computeLineMap(before: string, after: string): LineMap | undefined {
    const changes = diffArrays(before.split("\n"), after.split("\n"), { maxEditLength: MAX_EDIT_LENGTH });
    if (changes === undefined) return undefined;
    const mapped = new Map<number, number>();
    let oldLine = 1;
    let newLine = 1;
    for (const change of changes) {
        const count = change.count ?? change.value.length;
        if (change.added) newLine += count;
        else if (change.removed) oldLine += count;
        else {
            for (let i = 0; i < count; i++) mapped.set(oldLine + i, newLine + i);
            oldLine += count;
            newLine += count;
        }
    }
    return (line) => mapped.get(line);
}

/** Occurrences of the old span's text looked at before giving up. */
const MAX_TEXT_HITS = 8;

/**
 * Where a ref that resolved in `before` points in `after`: undefined when it did not resolve there or
 * its text is gone; otherwise candidates, the first certain when the evidence is unequivocal. A ref
 * that still points at the same text needs no candidate: [] is returned.
 */
export function followRef<R extends Ref>(
    ref: R,
    before: SessionDocument,
    after: SessionDocument,
    options: RepairOptions = {},
): RepairCandidate<R>[] | undefined {
    const old = resolveInDocument(before, ref);
    if (!old.valid) return undefined;
    const now = resolveInDocument(after, ref);
    const map = lineMap(before, after);
    const startLine = map?.(ref.start.line);
    const endLine = map?.(ref.end.line);
    if (startLine !== undefined && endLine !== undefined) {
        if (now.valid && startLine === ref.start.line && endLine === ref.end.line && now.text === old.text) return [];
        const moved = { ...ref, start: { ...ref.start, line: startLine }, end: { ...ref.end, line: endLine } };
        const resolution = resolveInDocument(after, moved);
        // Lines inside the span may have changed: the boundaries are what the ref promises.
        if (resolution.valid) {
            return [
                {
                    ref: moved,
                    reason: "line-shift",
                    certain: true,
                    text: resolution.text,
                    range: resolution.range,
                    cost: Math.abs(startLine - ref.start.line),
                },
            ];
        }
    }
    // The boundary lines changed: the span's old text, if it is still there.
    const hits: number[] = [];
    for (
        let at = after.content.indexOf(old.text);
        at !== -1 && hits.length < MAX_TEXT_HITS;
        at = after.content.indexOf(old.text, at + 1)
    )
        hits.push(at);
    if (hits.length === 0) return undefined;
    const wantedOffset =
        startLine !== undefined ? after.lines.offsetAt(startLine, old.range.start.column) : old.startOffset;
    const candidates: RepairCandidate<R>[] = [];
    for (const at of hits) {
        const candidate = spanRef(ref, after, at, at + old.text.length, options);
        if (!candidate) continue;
        candidates.push({ ...candidate, cost: Math.abs(at - wantedOffset) / 1000 });
    }
    candidates.sort((a, b) => a.cost - b.cost);
    if (now.valid && now.text === old.text) return [];
    if (candidates.length === 1) candidates[0].certain = true;
    return candidates;
}

/**
 * A ref with readable boundaries for the span [from, to) of a document. With `keepWritten`, the
 * ref's written strings on the new lines when they still bound the span exactly (the smallest edit,
 * and a lock keeps knowing it), else readable unique strings.
 */
export function spanRef<R extends Ref>(
    ref: R,
    document: SessionDocument,
    from: number,
    to: number,
    options: RepairOptions,
    keepWritten = false,
): Omit<RepairCandidate<R>, "cost"> | undefined {
    const start = document.lines.positionAt(from);
    const end = document.lines.positionAt(to);
    if (keepWritten) {
        const moved = { ...ref, start: { ...ref.start, line: start.line }, end: { ...ref.end, line: end.line } } as R;
        const asWritten = resolveInDocument(document, moved);
        if (asWritten.valid && asWritten.startOffset === from && asWritten.endOffset === to)
            return { ref: moved, reason: "line-shift", certain: false, text: asWritten.text, range: asWritten.range };
    }
    const sameLine = start.line === end.line;
    const startStr = startBoundary(document.lines.line(start.line), start.column, {
        style: options.style,
        limit: sameLine ? end.column : undefined,
    });
    const endStr = endBoundary(document.lines.line(end.line), end.column, {
        style: options.style,
        limit: sameLine ? start.column : 0,
    });
    if (!startStr || !endStr) return undefined;
    const repaired = {
        ...ref,
        start: { line: start.line, str: startStr.str },
        end: { line: end.line, str: endStr.str },
    } as R;
    const resolution = resolveInDocument(document, repaired);
    if (!resolution.valid || resolution.startOffset !== from || resolution.endOffset !== to) return undefined;
    return { ref: repaired, reason: "moved-text", certain: false, text: resolution.text, range: resolution.range };
}
