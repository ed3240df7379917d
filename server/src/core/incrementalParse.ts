/**
 * Parsing an edited annotation file by what changed (docs/architecture.md, "Edits cost what changed"):
 * when the last version was valid JSON and an edit lies inside one annotation, only that annotation's
 * text is parsed again and every other annotation keeps the value it had (the same object, which lets
 * the check reuse what it found for it: core/checkMemo.ts). Anything else (an edit across
 * annotations, outside the list, text that no longer parses) answers undefined: parse the whole text.
 * The value is the one JSON.parse gives the whole text: the text around the annotation is unchanged
 * and one JSON value replaces another. Pure.
 */
import { MAX_NESTING, nestingBeyond } from "../../../shared/jsonNesting";
import { commonPrefix, commonSuffix, type Text, textString } from "./textChunks";

/** A valid JSON text (a string, or an edited buffer's pieces), its value, and where the elements of its annotation list sit. */
export interface ParsedList {
    readonly text: Text;
    readonly value: unknown;
    /** The annotation list: the root array, or the root object's `annotations`. */
    readonly list: readonly unknown[];
    /** Element i is text[starts[i], ends[i]), whitespace around it included, separators not. */
    readonly starts: readonly number[];
    readonly ends: readonly number[];
    /** Brackets around an element: 1 in a bare array, 2 in `{ "annotations": [...] }`. */
    readonly depth: number;
}

/**
 * Where the annotations of a text JSON.parse read as `value` sit: one scan of the text. Undefined when
 * the list is not where the scan looks (no list, a key spelled with escapes) or does not agree with the value.
 */
export function listExtents(text: Text, value: unknown): ParsedList | undefined {
    const list = Array.isArray(value) ? value : isObject(value) ? value.annotations : undefined;
    if (!Array.isArray(list)) return undefined;
    const found = scanList(textString(text), Array.isArray(value));
    if (!found || found.starts.length !== list.length) return undefined;
    return { text, value, list, starts: found.starts, ends: found.ends, depth: found.depth };
}

/** The elements of the root array, or of the last `"annotations"` array of the root object. */
function scanList(text: string, rootArray: boolean): { starts: number[]; ends: number[]; depth: number } | undefined {
    const listDepth = rootArray ? 1 : 2;
    let found: { starts: number[]; ends: number[]; depth: number } | undefined;
    let current: { starts: number[]; ends: number[]; depth: number } | undefined;
    let depth = 0;
    /** The root object's last key (a string at depth 1 after which no comma came yet). */
    let lastKey = "";
    for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (c === QUOTE) {
            const start = i;
            for (i++; i < text.length; i++) {
                const d = text.charCodeAt(i);
                if (d === BACKSLASH) i++;
                else if (d === QUOTE) break;
            }
            if (depth === 1 && !rootArray) lastKey = text.slice(start + 1, i);
            continue;
        }
        if (c === OPEN_BRACKET || c === OPEN_BRACE) {
            depth++;
            if (depth === listDepth && c === OPEN_BRACKET && (rootArray || lastKey === "annotations")) {
                current = { starts: [i + 1], ends: [], depth: listDepth };
            }
        } else if (c === CLOSE_BRACKET || c === CLOSE_BRACE) {
            if (current && depth === listDepth) {
                current.ends.push(i);
                if (text.slice(current.starts[0], i).trim() === "" && current.starts.length === 1) {
                    current.starts.length = 0;
                    current.ends.length = 0;
                }
                found = current;
                current = undefined;
                if (rootArray) return found;
            }
            depth--;
        } else if (c === COMMA && current && depth === listDepth) {
            current.ends.push(i);
            current.starts.push(i + 1);
        } else if (c === COMMA && depth === 1) {
            lastKey = "";
        }
    }
    return found;
}

/**
 * The parse of `text`, an edit of `previous.text`, when the edit lies inside one annotation and that
 * annotation's new text parses: the other annotations keep their values. Undefined otherwise. Two
 * versions of one buffer (core/textChunks.ts) are compared by the pieces they do not share: the work
 * is that of the edit, not of the file.
 */
export function reparseEdited(previous: ParsedList, text: Text): ParsedList | undefined {
    const before = previous.text;
    const prefix = commonPrefix(before, text);
    if (prefix === before.length && prefix === text.length) return previous;
    const suffix = commonSuffix(before, text, Math.min(before.length, text.length) - prefix);
    const oldEnd = before.length - suffix;
    const k = elementAround(previous, prefix, oldEnd);
    if (k === undefined) return undefined;
    const delta = text.length - before.length;
    const slice = text.slice(previous.starts[k], previous.ends[k] + delta);
    if (nestingBeyond(slice, MAX_NESTING - previous.depth) !== -1) return undefined;
    let element: unknown;
    try {
        element = JSON.parse(slice);
    } catch {
        return undefined;
    }
    const list = previous.list.slice();
    list[k] = element;
    const value = Array.isArray(previous.value) ? list : { ...(previous.value as object), annotations: list };
    const starts = previous.starts.slice();
    const ends = previous.ends.slice();
    ends[k] += delta;
    for (let i = k + 1; i < starts.length; i++) {
        starts[i] += delta;
        ends[i] += delta;
    }
    return { text, value, list, starts, ends, depth: previous.depth };
}

/** The element whose extent holds the changed range [from, to) of the old text. */
function elementAround(previous: ParsedList, from: number, to: number): number | undefined {
    const { starts, ends } = previous;
    let low = 0;
    let high = starts.length - 1;
    while (low <= high) {
        const mid = (low + high) >> 1;
        if (starts[mid] > from) high = mid - 1;
        else if (ends[mid] < from) low = mid + 1;
        else return to <= ends[mid] ? mid : undefined;
    }
    return undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
    return typeof value === "object" && value !== null && !Array.isArray(value);
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const COMMA = 0x2c;
