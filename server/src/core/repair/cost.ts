/**
 * What a repair candidate costs (docs/repair.md): how far its boundaries moved from the written
 * lines, a change of the span's shape costing more than a move of the whole span, and leaving a
 * written line where the string still occurs; and the margin that makes the cheapest certain.
 */
import type { Placement } from "./placements";

/**
 * A whole span moved costs the logarithm of its distance: both strings found together at one offset
 * is strong evidence, nearer is likelier, and a paste of 1,000 lines is one edit like a paste of 10.
 * A change of the span's shape (one boundary found apart from the other) is weak evidence, and 1 or
 * 5 lines inserted inside a span are about equally likely: a fixed cost and little per line, so that
 * two such candidates are never far enough apart to be certain. Shapes change by SHAPE_MAX lines at most.
 */
const SHIFT_COST = 2;

export const SHAPE_EVENT = 4;
export const SHAPE_COST = 0.05;
export const SHAPE_MAX = 20;
/**
 * Moving a boundary away from its written line, where its string still occurs, needs more evidence:
 * after lines are inserted above, the written line rarely still holds the string (less so for a
 * string common in the window).
 */
const LEAVE_WRITTEN_LINE = 3;

/** The cost a competitor must reach for the best candidate to be certain. */
export function marginAbove(cost: number): number {
    return Math.max(cost + 2, cost * 1.5);
}

export function leaveCost(placements: Placement[], written: number): number {
    const exact = placements.filter((p) => p.quoteCost === 0);
    if (!exact.some((p) => p.line === written)) return 0;
    return LEAVE_WRITTEN_LINE / Math.sqrt(new Set(exact.map((p) => p.line)).size);
}

export function lineShiftCost(lines: number): number {
    return SHIFT_COST * Math.log2(1 + Math.abs(lines));
}

/** Whole-span moves cost their distance; a change of the span's shape costs more. */
export function shiftCost(startShift: number, endShift: number): number {
    const change = Math.abs(endShift - startShift);
    if (change > SHAPE_MAX) return Number.POSITIVE_INFINITY;
    const shape = change === 0 ? 0 : SHAPE_EVENT + SHAPE_COST * change;
    return lineShiftCost(Math.min(Math.abs(startShift), Math.abs(endShift))) + shape;
}
