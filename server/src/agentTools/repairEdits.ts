/**
 * Certain repairs written into an annotation file's text (docs/agents.md, `repair` with `write`):
 * only the values that change (a `path`, a `line`, a `str`) are replaced, so formatting, comments,
 * key order and every other byte stay as they were. Pure: text in, text and edits out.
 */
import { applyEdits, modify } from "jsonc-parser";
import { pointerSegments } from "../core/parse";
import type { RepairEntry } from "../core/repair";

export interface RepairWrite {
    text: string;
    /** How many repairs changed the text. */
    applied: number;
}

const FIELDS: string[][] = [["path"], ["start", "line"], ["start", "str"], ["end", "line"], ["end", "str"]];

function valueAt(ref: RepairEntry["after"], field: string[]): unknown {
    return field.length === 1
        ? (ref as unknown as Record<string, unknown>)[field[0]]
        : (ref as unknown as Record<string, Record<string, unknown>>)[field[0]][field[1]];
}

/** Apply the certain repairs among `repairs`; uncertain ones are never written. */
export function writeCertainRepairs(original: string, repairs: readonly RepairEntry[]): RepairWrite {
    let text = original;
    let applied = 0;
    for (const repair of repairs) {
        if (!repair.certain) continue;
        const at = pointerSegments(repair.pointer);
        let changed = false;
        for (const field of FIELDS) {
            const after = valueAt(repair.after, field);
            if (after === valueAt(repair.before, field)) continue;
            const edits = modify(text, [...at, ...field], after, {
                formattingOptions: { insertSpaces: true, tabSize: 4 },
            });
            text = applyEdits(text, edits);
            changed = true;
        }
        if (changed) applied++;
    }
    return { text, applied };
}
