/**
 * Certain repairs written into an annotation file's text (docs/repair.md, `--write`; docs/agents.md,
 * `repair` with `write`): only the values that change (a `path`, a `line`, a `str`) are replaced, in
 * place, so formatting, comments, key order and every other byte stay as they were. Pure: text and
 * repairs in, text out. One parse of the text, however many repairs.
 */
import { type Edit, findNodeAtLocation, parseTree } from "jsonc-parser";
import { MAX_NESTING, nestingBeyond } from "../../../../shared/jsonNesting";
import { pointerSegments } from "../parse";
import type { Ref } from "../types";
import type { RepairEntry } from "./annotations";

export interface CertainRepairs {
    /** The text with every certain repair applied (the text itself when none applies). */
    text: string;
    /** How many repairs changed the text. */
    applied: number;
}

const FIELDS: readonly (readonly ["path"] | readonly ["start" | "end", "line" | "str"])[] = [
    ["path"],
    ["start", "line"],
    ["start", "str"],
    ["end", "line"],
    ["end", "str"],
];

function valueAt(ref: Ref, field: (typeof FIELDS)[number]): string | number {
    return field.length === 1 ? ref.path : ref[field[0]][field[1]];
}

/**
 * Apply the certain repairs among `repairs`; uncertain ones are never written, nor a second repair of
 * a ref already repaired. Text too deeply nested to parse safely is left as it is.
 */
export function applyCertainRepairs(text: string, repairs: readonly RepairEntry[]): CertainRepairs {
    const certain = repairs.filter((r) => r.certain);
    if (certain.length === 0 || nestingBeyond(text, MAX_NESTING) !== -1) return { text, applied: 0 };
    // Comments and trailing commas are allowed: the values are located, the rest is never touched.
    const root = parseTree(text, [], { allowTrailingComma: true, disallowComments: false });
    if (!root) return { text, applied: 0 };
    const edits: Edit[] = [];
    const repaired = new Set<string>();
    let applied = 0;
    for (const repair of certain) {
        if (repaired.has(repair.pointer)) continue;
        repaired.add(repair.pointer);
        const at = pointerSegments(repair.pointer);
        let changed = false;
        for (const field of FIELDS) {
            const after = valueAt(repair.after, field);
            if (after === valueAt(repair.before, field)) continue;
            const node = findNodeAtLocation(root, [...at, ...field]);
            if (!node) continue;
            edits.push({ offset: node.offset, length: node.length, content: JSON.stringify(after) });
            changed = true;
        }
        if (changed) applied++;
    }
    return { text: edits.length > 0 ? spliceEdits(text, edits) : text, applied };
}

/**
 * Replace non-overlapping ranges of `text` in one pass: each unchanged stretch and each new value is
 * copied once (jsonc-parser's applyEdits rebuilds the whole string per edit, quadratic in the number
 * of repairs: 10,000 on a 2.9 MB file took over a minute). `work`, when given, counts the characters
 * copied, so a test can check the pass is linear. Overlapping edits keep the first (by offset).
 */
export function spliceEdits(text: string, edits: readonly Edit[], work?: { copied: number }): string {
    const sorted = [...edits].sort((a, b) => a.offset - b.offset);
    const parts: string[] = [];
    let at = 0;
    for (const edit of sorted) {
        if (edit.offset < at) continue;
        parts.push(text.slice(at, edit.offset), edit.content);
        if (work) work.copied += edit.offset - at + edit.content.length;
        at = edit.offset + edit.length;
    }
    parts.push(text.slice(at));
    if (work) work.copied += text.length - at;
    return parts.join("");
}
