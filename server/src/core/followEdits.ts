/**
 * Refs that follow edits (docs/follow-edits.md): how a ref into a document moves when the document
 * is edited. Pure: a ref, the document before and after, and the text changes in between.
 *
 * A span [s, e) follows the changes as an editor's marker would: text inserted at s goes before
 * the span, text inserted at e goes after it, changes inside it stretch it. When a change destroys
 * an edge of the span (replaces text across it), the span is looked for as moved text: its exact
 * text occurring once before and once after. Only a ref valid before is followed, and only to a
 * ref valid after that resolves to exactly the followed span; anything else is left alone.
 */

import { refForSpan } from "./author";
import type { BoundaryStyle } from "./boundaries";
import { resolveInDocument } from "./resolve";
import type { SessionDocument } from "./session";
import type { Ref } from "./types";

/** One change, with offsets into the content as it was just before this change (LSP order). */
export interface TextChange {
    start: number;
    end: number;
    text: string;
}

export type FollowOutcome =
    /** The ref was not valid before the changes: nothing to follow. */
    | { kind: "invalid-before" }
    /** The ref still resolves to the followed span as written. */
    | { kind: "unchanged" }
    /** The ref that resolves to the followed span; `how`: its edges shifted, or its text moved. */
    | { kind: "followed"; ref: Ref; text: string; how: "shifted" | "moved-text" }
    /**
     * The span cannot be followed (an edge destroyed, or no valid ref for it): leave the ref alone.
     * `text`: what the span said before, for when it is pasted back later (`findPasted`).
     */
    | { kind: "lost"; text?: string };

export interface FollowOptions {
    style?: BoundaryStyle;
}

/** Where an offset goes through one change; `undefined` when the change replaced text around it. */
function mapEdge(offset: number, change: TextChange, side: "start" | "end"): number | undefined {
    const delta = change.text.length - (change.end - change.start);
    if (change.start === change.end) {
        // Pure insertion: before the start edge, or after the end edge, when exactly on it.
        if (offset < change.start) return offset;
        if (offset > change.start) return offset + delta;
        return side === "start" ? offset + delta : offset;
    }
    if (change.end <= offset) {
        // The replaced text ends at or before the edge; for the end edge it must end strictly inside the span.
        return side === "end" && change.end === offset ? undefined : offset + delta;
    }
    if (change.start >= offset) {
        return side === "start" && change.start === offset ? undefined : offset;
    }
    return undefined;
}

/** A span's edges through every change in order, or undefined when a change destroyed one. */
export function mapSpan(start: number, end: number, changes: readonly TextChange[]): [number, number] | undefined {
    let s: number | undefined = start;
    let e: number | undefined = end;
    for (const change of changes) {
        s = mapEdge(s, change, "start");
        e = e === undefined ? undefined : mapEdge(e, change, "end");
        if (s === undefined || e === undefined || s >= e) return undefined;
    }
    return [s, e];
}

/** The only index of `text` in `content`, or -1 when it occurs zero or several times. */
function soleIndex(content: string, text: string): number {
    const first = content.indexOf(text);
    if (first === -1) return -1;
    return content.indexOf(text, first + 1) === -1 ? first : -1;
}

/**
 * A ref valid in `document` that resolves to exactly [s, e): the written strings on new lines, else
 * new readable ones, but only for a boundary that needs it. A boundary whose written string still
 * marks its edge is kept as written (an update never rewrites a still-valid `"low-priority jobs"`
 * to `"jobs"`).
 */
function refFor(ref: Ref, document: SessionDocument, s: number, e: number, options: FollowOptions): Ref | undefined {
    const lines = document.lines;
    const from = lines.positionAt(s);
    const to = lines.positionAt(e);
    const exact = (candidate: Ref) => {
        const resolved = resolveInDocument(document, candidate);
        return resolved.valid && resolved.startOffset === s && resolved.endOffset === e;
    };
    const moved: Ref = {
        ...ref,
        start: { line: from.line, str: ref.start.str },
        end: { line: to.line, str: ref.end.str },
    };
    if (exact(moved)) return moved;
    const attempt = refForSpan(document, from, to, { style: options.style });
    if (!attempt.ok) return undefined;
    const keepStart: Ref = { ...ref, start: moved.start, end: attempt.ref.end };
    if (exact(keepStart)) return keepStart;
    const keepEnd: Ref = { ...ref, start: attempt.ref.start, end: moved.end };
    if (exact(keepEnd)) return keepEnd;
    const rebuilt: Ref = { ...ref, start: attempt.ref.start, end: attempt.ref.end };
    return exact(rebuilt) ? rebuilt : undefined;
}

/**
 * Follow one ref from `before` to `after` through `changes`. Cost: the ref's two lines, plus one
 * scan of both contents only when an edge was destroyed (the moved-text search).
 */
export function followRef(
    ref: Ref,
    before: SessionDocument,
    after: SessionDocument,
    changes: readonly TextChange[],
    options: FollowOptions = {},
): FollowOutcome {
    const old = resolveInDocument(before, ref);
    if (!old.valid) return { kind: "invalid-before" };
    const mapped = mapSpan(old.startOffset, old.endOffset, changes);
    let how: "shifted" | "moved-text" = "shifted";
    let span = mapped;
    if (!span) {
        // An edge was replaced: the span may have been moved as a whole (cut and paste, move lines).
        const at = soleIndex(after.content, old.text);
        if (at === -1 || soleIndex(before.content, old.text) === -1) return { kind: "lost", text: old.text };
        span = [at, at + old.text.length];
        how = "moved-text";
    }
    const [s, e] = span;
    const now = resolveInDocument(after, ref);
    if (now.valid && now.startOffset === s && now.endOffset === e) return { kind: "unchanged" };
    const followed = refFor(ref, after, s, e, options);
    if (!followed) return { kind: "lost", text: old.text };
    return { kind: "followed", ref: followed, text: after.content.slice(s, e), how };
}

/**
 * A span lost by an earlier change (cut) whose text comes back with these changes (paste): absent
 * from `before`, once in `after`. The ref is re-anchored there, or left alone.
 */
export function findPasted(
    ref: Ref,
    text: string,
    before: SessionDocument,
    after: SessionDocument,
    options: FollowOptions = {},
): FollowOutcome {
    if (text.length === 0 || before.content.includes(text)) return { kind: "lost", text };
    const at = soleIndex(after.content, text);
    if (at === -1) return { kind: "lost", text };
    const followed = refFor(ref, after, at, at + text.length, options);
    return followed ? { kind: "followed", ref: followed, text, how: "moved-text" } : { kind: "lost", text };
}

/**
 * The changes from one content to another as a single replacement (common prefix and suffix
 * kept): for when the precise changes are not known, or were made in other coordinates.
 */
export function differenceOf(before: string, after: string): TextChange[] {
    if (before === after) return [];
    const limit = Math.min(before.length, after.length);
    let prefix = 0;
    while (prefix < limit && before.charCodeAt(prefix) === after.charCodeAt(prefix)) prefix++;
    let suffix = 0;
    while (
        suffix < limit - prefix &&
        before.charCodeAt(before.length - 1 - suffix) === after.charCodeAt(after.length - 1 - suffix)
    )
        suffix++;
    return [{ start: prefix, end: before.length - suffix, text: after.slice(prefix, after.length - suffix) }];
}

/** Apply changes in order (what an editor does with them): the content after. */
export function applyChanges(content: string, changes: readonly TextChange[]): string {
    let result = content;
    for (const change of changes) result = result.slice(0, change.start) + change.text + result.slice(change.end);
    return result;
}
