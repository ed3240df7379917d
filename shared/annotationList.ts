/**
 * Where the annotations of an annotation file's text sit (read only): the client names the annotation
 * under the cursor from these extents on every cursor move, without a round trip to the server. Every
 * edit of the text is the server's (server/src/core/annotationEdits.ts, which locates the list here too).
 *
 * Shapes (docs/contract.md section 4): the annotation list is `/annotations` of an object (all three object
 * shapes) or the root of a bare array.
 */
import { findNodeAtLocation, type JSONPath, type Node, type ParseError, parseTree } from "jsonc-parser";
import { MAX_NESTING, nestingBeyond } from "./jsonNesting";

export type Located =
    | { ok: true; root: Node | undefined; listPath: JSONPath; list: Node | undefined }
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
