/**
 * Building refs from positions: what authoring commands and quick fixes need. A boundary must lie
 * inside the span it bounds (docs/contract.md section 2), so a boundary is acceptable only if the shortest
 * unique string at that edge fits within the span.
 */
import { type BoundaryStyle, endBoundary, startBoundary } from "./boundaries";
import type { SessionDocument } from "./session";
import type { Position, Ref } from "./types";

export type RefAttempt =
    | {
          ok: true;
          ref: Ref /** true when a boundary had to cut inside a word (docs/boundaries.md) */;
          characterLevel: boolean;
      }
    | { ok: false; message: string };

/** The ref with readable unique boundaries for the span [start, end) of a document (1-based lines). */
export function refForSpan(
    document: SessionDocument,
    start: Position,
    end: Position,
    options: { style?: BoundaryStyle } = {},
): RefAttempt {
    const lines = document.lines;
    if (!lines.hasLine(start.line) || !lines.hasLine(end.line))
        return { ok: false, message: "the selection is outside the document" };
    const startText = lines.line(start.line);
    const endText = lines.line(end.line);
    const startLimit = start.line === end.line ? end.column : startText.length;
    const endLimit = start.line === end.line ? start.column : 0;
    if (start.line > end.line || (start.line === end.line && start.column >= end.column)) {
        return { ok: false, message: "the selection is empty" };
    }
    if (start.column >= startText.length)
        return { ok: false, message: `the selection starts at the end of line ${start.line}: start it on a character` };
    if (end.column <= 0)
        return { ok: false, message: `the selection ends at the start of line ${end.line}: end it after a character` };
    const startChoice = startBoundary(startText, start.column, { style: options.style, limit: startLimit });
    if (startChoice === undefined) {
        return {
            ok: false,
            message: `no string starting at line ${start.line}, column ${start.column + 1} is unique on its line within the selection; widen the selection`,
        };
    }
    const endChoice = endBoundary(endText, end.column, { style: options.style, limit: endLimit });
    if (endChoice === undefined) {
        return {
            ok: false,
            message: `no string ending at line ${end.line}, column ${end.column + 1} is unique on its line within the selection; widen the selection`,
        };
    }
    return {
        ok: true,
        ref: {
            path: document.path,
            start: { line: start.line, str: startChoice.str },
            end: { line: end.line, str: endChoice.str },
        },
        characterLevel: startChoice.granularity === "characters" || endChoice.granularity === "characters",
    };
}
