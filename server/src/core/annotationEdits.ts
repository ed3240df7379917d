/**
 * The one writer of annotation files (docs/architecture.md, "Where each concept lives"): "this ref
 * becomes that ref", "append this annotation", "append this source", "replace" or "remove annotation
 * N" become offset edits on the file's text. Only the tokens that change are replaced, and inserted
 * values are laid out in the file's own indentation, so formatting, comments and key order survive.
 * Pure: text in, edits out. The edges convert: LSP TextEdits (features/followEdits.ts `refEdits`,
 * code actions, the `sourcecheck/annotationEdit` request the client's authoring commands use), the
 * text written by `repair --write` and `annotate` (CLI and MCP) through `applyOffsetEdits`.
 *
 * Shapes (docs/contract.md section 4): the annotation list is `/annotations` of an object (all three object
 * shapes) or the root of a bare array.
 */
import {
    type Edit,
    type FormattingOptions,
    findNodeAtLocation,
    type JSONPath,
    modify,
    type Node,
    parseTree,
} from "jsonc-parser";
import { locateAnnotations } from "../../../shared/annotationList";
import { MAX_NESTING, nestingBeyond } from "../../../shared/jsonNesting";
import { annotationLabel, ordinal } from "../../../shared/numbering";
import type { Ref } from "../../../shared/refModel";
import { pointerSegments } from "./parse";

/** Replace `length` characters at `offset` of the text with `content` (jsonc-parser's Edit). */
export type OffsetEdit = Edit;

/** Where the token a JSON pointer names sits in the text; undefined when there is none. */
export type TokenLocator = (pointer: string) => { offset: number; length: number } | undefined;

/** The fields of a ref a rewrite may change, in the order their edits are listed. */
const REF_FIELDS = ["start/line", "start/str", "end/line", "end/str", "path"] as const;

function fieldValue(ref: Ref, field: (typeof REF_FIELDS)[number]): string | number {
    switch (field) {
        case "path":
            return ref.path;
        case "start/line":
            return ref.start.line;
        case "start/str":
            return ref.start.str;
        case "end/line":
            return ref.end.line;
        case "end/str":
            return ref.end.str;
    }
}

/**
 * The edits turning the ref at `pointer`, written as `before`, into `after`: one per `path`, `line`
 * or `str` value that differs, replacing that token alone (JSON text of the new value). A token the
 * locator cannot find is left alone.
 */
export function refTokenEdits(pointer: string, before: Ref, after: Ref, locate: TokenLocator): OffsetEdit[] {
    const edits: OffsetEdit[] = [];
    for (const field of REF_FIELDS) {
        const value = fieldValue(after, field);
        if (value === fieldValue(before, field)) continue;
        const token = locate(`${pointer}/${field}`);
        if (token) edits.push({ offset: token.offset, length: token.length, content: JSON.stringify(value) });
    }
    return edits;
}

/** The token names a ref rewrite may touch under `pointer`, for locating them all in one scan first. */
export function refTokenPointers(pointer: string): string[] {
    return REF_FIELDS.map((field) => `${pointer}/${field}`);
}

/**
 * A locator over one parse of the text (comments and trailing commas allowed); undefined when the text
 * is too deeply nested to parse safely or holds no JSON value.
 */
export function parsedTokenLocator(text: string): TokenLocator | undefined {
    if (nestingBeyond(text, MAX_NESTING) !== -1) return undefined;
    const root = parseTree(text, [], { allowTrailingComma: true, disallowComments: false });
    if (!root) return undefined;
    return (pointer) => {
        const node = findNodeAtLocation(root, pointerSegments(pointer));
        return node ? { offset: node.offset, length: node.length } : undefined;
    };
}

/**
 * Replace non-overlapping ranges of `text` in one pass: each unchanged stretch and each new value is
 * copied once (jsonc-parser's applyEdits rebuilds the whole string per edit, quadratic in the number
 * of edits: 10,000 repairs on a 2.9 MB file took over a minute). `work`, when given, counts the
 * characters copied, so a test can check the pass is linear. Overlapping edits keep the first (by offset).
 */
export function applyOffsetEdits(text: string, edits: readonly OffsetEdit[], work?: { copied: number }): string {
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

export interface NewSource extends Ref {
    polarity: "supports" | "refutes";
    confidence: number;
}

export type EditResult =
    | { ok: true; edits: Edit[]; annotationIndex: number; sourceIndex?: number }
    | { ok: false; message: string };

/** The document paths of an embedded session (shapes 1 and 2); undefined in workspace mode. */
export function embeddedPaths(text: string): string[] | undefined {
    const located = locateAnnotations(text, "the file");
    if (!located.ok || located.root?.type !== "object") return undefined;
    // As the server reads the shapes: a `session` key wins over a top-level `documents`.
    const hasSession = findNodeAtLocation(located.root, ["session"]) !== undefined;
    const documents = hasSession
        ? findNodeAtLocation(located.root, ["session", "documents"])
        : findNodeAtLocation(located.root, ["documents"]);
    if (!hasSession && documents === undefined) return undefined;
    const paths: string[] = [];
    for (const document of documents?.children ?? []) {
        const path = findNodeAtLocation(document, ["path"]);
        if (typeof path?.value === "string") paths.push(path.value);
    }
    return paths;
}

/**
 * Appends `{ claim, sources: [] }`. The empty source list is deliberate: the spec requires at least one
 * source, so the annotation stays flagged by the server until a source is added to it.
 */
export function appendClaim(text: string, fileName: string, claim: Ref, formatting: FormattingOptions): EditResult {
    return appendAnnotation(text, fileName, claim, [], formatting);
}

/**
 * Appends a whole annotation `{ claim, sources }` (the agents' `annotate`): the file's own layout kept,
 * one ref per line; an empty text becomes `{ "annotations": [ ... ] }`.
 */
export function appendAnnotation(
    text: string,
    fileName: string,
    claim: Ref,
    sources: readonly NewSource[],
    formatting: FormattingOptions,
): EditResult {
    const located = locateAnnotations(text, fileName);
    if (!located.ok) return located;
    const layout = new Layout(text, formatting);
    const render = (indent: string) => layout.annotation(claim, sources, indent);
    if (located.root === undefined) {
        const content = `{${layout.eol}${layout.unit}"annotations": ${layout.array(layout.unit, render)}${layout.eol}}${layout.eol}`;
        return { ok: true, edits: [{ offset: 0, length: text.length, content }], annotationIndex: 0 };
    }
    if (located.list === undefined) {
        return { ok: true, edits: layout.addProperty(located.root, ["annotations"], render), annotationIndex: 0 };
    }
    const index = located.list.children?.length ?? 0;
    return { ok: true, edits: layout.appendToArray(located.list, located.listPath, render), annotationIndex: index };
}

/** Annotation `index` of the file's list, or why there is none (`count` says how many there are). */
function annotationNode(
    text: string,
    fileName: string,
    index: number,
): { ok: true; node: Node; list: Node; listPath: JSONPath } | { ok: false; message: string; count?: number } {
    const located = locateAnnotations(text, fileName);
    if (!located.ok) return located;
    const count = located.list?.children?.length ?? 0;
    if (!Number.isInteger(index) || index < 0 || index >= count || located.list === undefined) {
        const held = count === 0 ? "it has no annotations" : `it has ${count}, at indexes 0 to ${count - 1}`;
        return { ok: false, message: `${fileName} has no annotation at index ${index} (${held})`, count };
    }
    return { ok: true, node: located.list.children![index], list: located.list, listPath: located.listPath };
}

/**
 * Replaces annotation `index` with `{ claim, sources }`, laid out where the old one was; every byte
 * outside it stays (comments, other annotations, key order).
 */
export function replaceAnnotation(
    text: string,
    fileName: string,
    index: number,
    claim: Ref,
    sources: readonly NewSource[],
    formatting: FormattingOptions,
): EditResult | { ok: false; message: string; count?: number } {
    const found = annotationNode(text, fileName, index);
    if (!found.ok) return found;
    const layout = new Layout(text, formatting);
    const content = layout.annotation(claim, sources, layout.indentAt(found.node.offset));
    return {
        ok: true,
        edits: [{ offset: found.node.offset, length: found.node.length, content }],
        annotationIndex: index,
    };
}

/** Removes annotation `index` with its comma; the annotations after it move up by one. */
export function removeAnnotation(
    text: string,
    fileName: string,
    index: number,
): EditResult | { ok: false; message: string; count?: number } {
    const found = annotationNode(text, fileName, index);
    if (!found.ok) return found;
    if (found.list.children!.length === 1) {
        // The last one: `[]`, not a blank line between the brackets.
        return {
            ok: true,
            edits: [{ offset: found.list.offset, length: found.list.length, content: "[]" }],
            annotationIndex: index,
        };
    }
    // Without formatting options modify only cuts the element and the comma between it and a neighbour.
    return { ok: true, edits: modify(text, [...found.listPath, index], undefined, {}), annotationIndex: index };
}

/**
 * Appends a claim ref to the file's top-level `unsourced` list (docs/contract.md, "Unsourced claims"),
 * creating the list when it is missing; an empty text becomes `{ "annotations": [], "unsourced": [ ... ] }`.
 * `annotationIndex` is the new entry's place in that list. A bare array of annotations has no place
 * for it: refused.
 */
export function appendUnsourced(text: string, fileName: string, claim: Ref, formatting: FormattingOptions): EditResult {
    const located = locateAnnotations(text, fileName);
    if (!located.ok) return located;
    const layout = new Layout(text, formatting);
    const render = () => inline(claim);
    if (located.root === undefined) {
        const { eol, unit } = layout;
        const content = `{${eol}${unit}"annotations": [],${eol}${unit}"unsourced": ${layout.array(unit, render)}${eol}}${eol}`;
        return { ok: true, edits: [{ offset: 0, length: text.length, content }], annotationIndex: 0 };
    }
    if (located.root.type !== "object") {
        return {
            ok: false,
            message: `${fileName} is a bare array of annotations, with no place for unsourced claims: make it { "annotations": [ ... ] } first`,
        };
    }
    const list = findNodeAtLocation(located.root, ["unsourced"]);
    if (list === undefined) {
        return { ok: true, edits: layout.addProperty(located.root, ["unsourced"], render), annotationIndex: 0 };
    }
    if (list.type !== "array")
        return { ok: false, message: `"unsourced" in ${fileName} is not an array; fix it first` };
    const index = list.children?.length ?? 0;
    return { ok: true, edits: layout.appendToArray(list, ["unsourced"], render), annotationIndex: index };
}

/** Removes entry `index` of the `unsourced` list with its comma (`count`: how many the list holds). */
export function removeUnsourced(
    text: string,
    fileName: string,
    index: number,
): EditResult | { ok: false; message: string; count?: number } {
    const located = locateAnnotations(text, fileName);
    if (!located.ok) return located;
    const list = located.root?.type === "object" ? findNodeAtLocation(located.root, ["unsourced"]) : undefined;
    const count = list?.type === "array" ? (list.children?.length ?? 0) : 0;
    if (list === undefined || !Number.isInteger(index) || index < 0 || index >= count) {
        const held = count === 0 ? "it has none" : `it has ${count}, numbered 1 to ${count}`;
        return { ok: false, message: `${fileName} has no unsourced claim ${ordinal(index)} (${held})`, count };
    }
    if (count === 1) {
        return {
            ok: true,
            edits: [{ offset: list.offset, length: list.length, content: "[]" }],
            annotationIndex: index,
        };
    }
    return { ok: true, edits: modify(text, ["unsourced", index], undefined, {}), annotationIndex: index };
}

/** Source `source` of annotation `index`, or why there is none (`count`: how many sources it has). */
function sourceNode(
    text: string,
    fileName: string,
    index: number,
    source: number,
): { ok: true; node: Node; sources: Node; path: JSONPath } | { ok: false; message: string; count?: number } {
    const found = annotationNode(text, fileName, index);
    if (!found.ok) return found;
    const sources = findNodeAtLocation(found.node, ["sources"]);
    const count = sources?.type === "array" ? (sources.children?.length ?? 0) : 0;
    if (sources === undefined || !Number.isInteger(source) || source < 0 || source >= count) {
        const held = count === 0 ? "it has no sources" : `it has ${count}, numbered 1 to ${count}`;
        return {
            ok: false,
            message: `${annotationLabel(index)} of ${fileName} has no source ${source + 1} (${held})`,
            count,
        };
    }
    return { ok: true, node: sources.children![source], sources, path: [...found.listPath, index, "sources", source] };
}

/** Removes source `source` of annotation `index` with its comma; the sources after it move up by one. */
export function removeSource(
    text: string,
    fileName: string,
    index: number,
    source: number,
): EditResult | { ok: false; message: string; count?: number } {
    const found = sourceNode(text, fileName, index, source);
    if (!found.ok) return found;
    const edits =
        found.sources.children!.length === 1
            ? [{ offset: found.sources.offset, length: found.sources.length, content: "[]" }]
            : modify(text, found.path, undefined, {});
    return { ok: true, edits, annotationIndex: index, sourceIndex: source };
}

/** Replaces source `source` of annotation `index` with `replacement`, on one line where the old one was. */
export function replaceSource(
    text: string,
    fileName: string,
    index: number,
    source: number,
    replacement: NewSource,
): EditResult | { ok: false; message: string; count?: number } {
    const found = sourceNode(text, fileName, index, source);
    if (!found.ok) return found;
    const edits = [{ offset: found.node.offset, length: found.node.length, content: inline(replacement) }];
    return { ok: true, edits, annotationIndex: index, sourceIndex: source };
}

/** Appends a source to `sources` of annotation `index` (creating `sources` when it is missing). */
export function appendSource(
    text: string,
    fileName: string,
    index: number,
    source: NewSource,
    formatting: FormattingOptions,
): EditResult {
    const located = locateAnnotations(text, fileName);
    if (!located.ok) return located;
    const count = located.list?.children?.length ?? 0;
    if (!Number.isInteger(index) || index < 0 || index >= count) {
        return {
            ok: false,
            message:
                count === 0
                    ? `${fileName} has no annotations yet: cite a claim first.`
                    : `${fileName} has no ${annotationLabel(index)} (it has ${count}, numbered from 1).`,
        };
    }
    const annotation = located.list!.children![index];
    if (annotation.type !== "object") {
        return { ok: false, message: `${annotationLabel(index)} in ${fileName} is not an object { claim, sources }.` };
    }
    const layout = new Layout(text, formatting);
    const render = () => inline(source);
    const annotationPath = [...located.listPath, index];
    const sources = findNodeAtLocation(annotation, ["sources"]);
    if (sources === undefined) {
        const edits = layout.addProperty(annotation, [...annotationPath, "sources"], render);
        return { ok: true, edits, annotationIndex: index, sourceIndex: 0 };
    }
    if (sources.type !== "array") {
        return {
            ok: false,
            message: `"sources" of ${annotationLabel(index)} in ${fileName} is not an array; fix it first.`,
        };
    }
    const sourceIndex = sources.children?.length ?? 0;
    const edits = layout.appendToArray(sources, [...annotationPath, "sources"], render);
    return { ok: true, edits, annotationIndex: index, sourceIndex };
}

/**
 * Lays inserted values out in the file's own indentation. `modify` (without its formatter, which would
 * also re-flow the neighbouring one-line refs) decides where the insertion goes and whether it needs a
 * comma; the inserted value is written in the spec's compact style, one ref per line.
 */
class Layout {
    readonly unit: string;
    readonly eol: string;

    constructor(
        private readonly text: string,
        formatting: FormattingOptions,
    ) {
        this.unit = formatting.insertSpaces === false ? "\t" : " ".repeat(formatting.tabSize ?? 2);
        this.eol = formatting.eol ?? "\n";
    }

    /** The indentation of the line holding `offset`. */
    indentAt(offset: number): string {
        const lineStart = this.text.lastIndexOf("\n", offset - 1) + 1;
        return /^[ \t]*/.exec(this.text.slice(lineStart, offset))![0];
    }

    private sameLine(a: number, b: number): boolean {
        return !this.text.slice(Math.min(a, b), Math.max(a, b)).includes("\n");
    }

    /** Indentation for a new member of a container: that of its last member, or one level deeper. */
    private memberIndent(container: Node): string {
        const last = container.children?.at(-1);
        if (last && !this.sameLine(container.offset, last.offset)) return this.indentAt(last.offset);
        return this.indentAt(container.offset) + this.unit;
    }

    annotation(claim: Ref, sources: readonly NewSource[], indent: string): string {
        const inner = indent + this.unit;
        const list =
            sources.length === 0
                ? "[]"
                : this.array(inner, () => sources.map(inline).join(`,${this.eol}${inner}${this.unit}`));
        return `{${this.eol}${inner}"claim": ${inline(claim)},${this.eol}${inner}"sources": ${list}${this.eol}${indent}}`;
    }

    /** `[` + one element + `]` laid out below `indent`. */
    array(indent: string, render: (indent: string) => string): string {
        const inner = indent + this.unit;
        return `[${this.eol}${inner}${render(inner)}${this.eol}${indent}]`;
    }

    appendToArray(array: Node, path: JSONPath, render: (indent: string) => string): Edit[] {
        if (!array.children || array.children.length === 0) {
            // Replace `[]` (or `[ ]` spread over lines) as a whole, so no stray blank line remains.
            return [
                {
                    offset: array.offset,
                    length: array.length,
                    content: this.array(this.indentAt(array.offset), render),
                },
            ];
        }
        const indent = this.memberIndent(array);
        return this.placed(modify(this.text, [...path, -1], PLACEHOLDER, { isArrayInsertion: true }), (comma) => {
            return `${comma}${this.eol}${indent}${render(indent)}`;
        });
    }

    addProperty(object: Node, path: JSONPath, render: (indent: string) => string): Edit[] {
        const key = path.at(-1) as string;
        const indent = this.memberIndent(object);
        const empty = !object.children || object.children.length === 0;
        const closing = empty ? `${this.eol}${this.indentAt(object.offset)}` : "";
        return this.placed(modify(this.text, path, [PLACEHOLDER], {}), (comma) => {
            return `${comma}${this.eol}${indent}${JSON.stringify(key)}: ${this.array(indent, render)}${closing}`;
        });
    }

    /** Keeps modify's offset and comma decision, and swaps its compact content for ours. */
    private placed(edits: Edit[], content: (comma: string) => string): Edit[] {
        return edits.map((edit) => {
            if (!edit.content.includes(JSON.stringify(PLACEHOLDER))) return edit;
            return { ...edit, content: content(edit.content.startsWith(",") ? "," : "") };
        });
    }
}

const PLACEHOLDER = "__sourcecheck_value_placeholder__";

/** JSON on one line with a space inside braces and after colons and commas, as the spec writes refs. */
export function inline(value: unknown): string {
    if (Array.isArray(value)) return value.length === 0 ? "[]" : `[${value.map(inline).join(", ")}]`;
    if (value !== null && typeof value === "object") {
        const members = Object.entries(value).map(([key, v]) => `${JSON.stringify(key)}: ${inline(v)}`);
        return members.length === 0 ? "{}" : `{ ${members.join(", ")} }`;
    }
    return JSON.stringify(value);
}

/** Indentation and line ending as the file already uses them. */
export function detectFormatting(
    text: string,
    fallback: { tabSize: number; insertSpaces: boolean },
): FormattingOptions {
    const eol = text.includes("\r\n") ? "\r\n" : "\n";
    const indented = /^([ \t]+)\S/m.exec(text);
    if (!indented) return { ...fallback, eol };
    const indent = indented[1];
    if (indent.startsWith("\t")) return { tabSize: fallback.tabSize, insertSpaces: false, eol };
    return { tabSize: Math.min(indent.length, 8), insertSpaces: true, eol };
}
