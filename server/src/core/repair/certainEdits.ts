/**
 * Certain repairs written into an annotation file's text (docs/repair.md, `--write`; docs/agents.md,
 * `repair` with `write`): each repaired ref becomes its new ref through the one ref writer
 * (core/annotationEdits.ts), so only the values that change are replaced and every other byte stays.
 * Pure: text and repairs in, text out. One parse of the text, however many repairs.
 */
import { applyOffsetEdits, type OffsetEdit, parsedTokenLocator, refTokenEdits } from "../annotationEdits";
import type { RepairEntry } from "./annotations";

export interface CertainRepairs {
    /** The text with every certain repair applied (the text itself when none applies). */
    text: string;
    /** How many repairs changed the text. */
    applied: number;
}

/**
 * Apply the certain repairs among `repairs`; uncertain ones are never written, nor a second repair of
 * a ref already repaired. Text too deeply nested to parse safely is left as it is.
 */
export function applyCertainRepairs(text: string, repairs: readonly RepairEntry[]): CertainRepairs {
    const certain = repairs.filter((r) => r.certain);
    if (certain.length === 0) return { text, applied: 0 };
    // Comments and trailing commas are allowed: the values are located, the rest is never touched.
    const locate = parsedTokenLocator(text);
    if (!locate) return { text, applied: 0 };
    const edits: OffsetEdit[] = [];
    const repaired = new Set<string>();
    let applied = 0;
    for (const repair of certain) {
        if (repaired.has(repair.pointer)) continue;
        repaired.add(repair.pointer);
        const changed = refTokenEdits(repair.pointer, repair.before, repair.after, locate);
        edits.push(...changed);
        if (changed.length > 0) applied++;
    }
    return { text: edits.length > 0 ? applyOffsetEdits(text, edits) : text, applied };
}
