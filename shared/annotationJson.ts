/**
 * Edits of annotation-file JSON computed with jsonc-parser's `modify`, so the user's formatting,
 * comments and key order survive and each change is the smallest text edit. Pure: text in, edits out.
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
    type ParseError,
    parseTree,
} from "jsonc-parser";
import { MAX_NESTING, nestingBeyond } from "./jsonNesting";
import { annotationLabel } from "./numbering";
import type { Ref } from "./refModel";

export interface NewSource extends Ref {
    polarity: "supports" | "refutes";
    confidence: number;
}

export type Located =
    | { ok: true; root: Node | undefined; listPath: JSONPath; list: Node | undefined }
    | { ok: false; message: string };

export type EditResult =
    | { ok: true; edits: Edit[]; annotationIndex: number; sourceIndex?: number }
    | { ok: false; message: string };

function parse(text: string, fileName: string): { ok: true; root: Node | undefined } | { ok: false; message: string } {
    if (text.trim() === "") return { ok: true, root: undefined };
    // jsonc-parser recurses per nesting level; the server's guard applies here too.
    if (nestingBeyond(text, MAX_NESTING) !== -1) {
        return {
            ok: false,
            message: `${fileName} is nested more than ${MAX_NESTING} levels deep; fix it before adding citations.`,
        };
    }
    const errors: ParseError[] = [];
    const root = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
    if (errors.length > 0 || root === undefined) {
        const offset = errors[0]?.offset ?? 0;
        const line = text.slice(0, offset).split("\n").length;
        return {
            ok: false,
            message: `${fileName} is not valid JSON (first error on line ${line}); fix it before adding citations.`,
        };
    }
    return { ok: true, root };
}

/** Where the annotation list is, or why it cannot be edited. */
export function locateAnnotations(text: string, fileName: string): Located {
    const parsed = parse(text, fileName);
    if (!parsed.ok) return parsed;
    const root = parsed.root;
    if (root === undefined) return { ok: true, root, listPath: ["annotations"], list: undefined };
    if (root.type === "array") return { ok: true, root, listPath: [], list: root };
    if (root.type !== "object") {
        return { ok: false, message: `${fileName} must hold an object with "annotations" or an array of annotations.` };
    }
    const list = findNodeAtLocation(root, ["annotations"]);
    if (list !== undefined && list.type !== "array") {
        return { ok: false, message: `"annotations" in ${fileName} is not an array; fix it before adding citations.` };
    }
    return { ok: true, root, listPath: ["annotations"], list };
}

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

/** The index of the annotation containing the offset, if any. */
export function annotationIndexAt(text: string, offset: number): number | undefined {
    const extents = annotationExtents(text);
    return extents ? indexAtOffset(extents, offset) : undefined;
}

/** Where each annotation sits: [offset, end] pairs in file order; undefined when the file does not parse. */
export function annotationExtents(text: string): [number, number][] | undefined {
    const located = locateAnnotations(text, "the file");
    if (!located.ok) return undefined;
    return (located.list?.children ?? []).map((n) => [n.offset, n.offset + n.length]);
}

/** The annotation whose extent holds the offset (its edges included), by binary search. */
export function indexAtOffset(extents: readonly [number, number][], offset: number): number | undefined {
    let low = 0;
    let high = extents.length - 1;
    while (low <= high) {
        const middle = (low + high) >> 1;
        const [from, to] = extents[middle];
        if (offset < from) high = middle - 1;
        else if (offset > to) low = middle + 1;
        else return middle;
    }
    return undefined;
}

export function annotationCount(text: string): number | undefined {
    const located = locateAnnotations(text, "the file");
    if (!located.ok) return undefined;
    return located.list?.children?.length ?? 0;
}

/** The offset range of annotation `index`, for revealing it. */
export function annotationSpan(text: string, index: number): { offset: number; length: number } | undefined {
    const located = locateAnnotations(text, "the file");
    const node = located.ok ? located.list?.children?.[index] : undefined;
    return node ? { offset: node.offset, length: node.length } : undefined;
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
