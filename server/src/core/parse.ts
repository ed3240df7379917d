/**
 * Annotation files as text. JSON.parse is the fast path; jsonc-parser (the parser behind VS Code's
 * JSON support) reports syntax errors with offsets, recovers a value so the rest still gets checked,
 * and maps a JSON pointer back to the exact token.
 */
import { findNodeAtLocation, type Node, type ParseError, parse, parseTree, printParseErrorCode } from "jsonc-parser";
import { MAX_NESTING, nestingBeyond } from "../../../shared/jsonNesting";
import { MAX_LISTED_PROBLEMS } from "./schema";
import type { SchemaError } from "./types";

export interface SyntaxProblem extends SchemaError {
    offset: number;
    length: number;
}

export interface ParsedText {
    value: unknown;
    /** The first MAX_LISTED_PROBLEMS syntax errors (`,,,,` has one per character). */
    syntaxErrors: SyntaxProblem[];
    /** Syntax errors found past those listed: counted, never built. */
    unlistedSyntaxErrors: number;
}

const STRICT = { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false };

/**
 * Parse an annotation file's text. Nesting is checked first, whether the JSON is valid or not: a
 * valid `[[[…]]]` of 50 MB parses, but every recursive walk after it (jsonc-parser's trees, the
 * edits of repair) would overflow the stack, so it is an `invalid-json` error like any other.
 */
export function parseJsonText(text: string): ParsedText {
    const tooDeep = nestingBeyond(text, MAX_NESTING);
    if (tooDeep !== -1) return { value: undefined, syntaxErrors: [tooDeepProblem(tooDeep)], unlistedSyntaxErrors: 0 };
    const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
    try {
        return { value: JSON.parse(body), syntaxErrors: [], unlistedSyntaxErrors: 0 };
    } catch {
        const errors = new CappedList<ParseError>(MAX_LISTED_PROBLEMS);
        const value = parse(text, errors as unknown as ParseError[], STRICT);
        return { value, syntaxErrors: errors.items.map(toSyntaxProblem), unlistedSyntaxErrors: errors.dropped };
    }
}

/** What jsonc-parser pushes its errors into: the first `limit` kept, the rest counted. */
class CappedList<T> {
    readonly items: T[] = [];
    dropped = 0;

    constructor(private readonly limit: number) {}

    push(...items: T[]): number {
        for (const item of items) {
            if (this.items.length < this.limit) this.items.push(item);
            else this.dropped++;
        }
        return this.items.length;
    }
}

function toSyntaxProblem(error: ParseError): SyntaxProblem {
    const what = printParseErrorCode(error.error)
        .replace(/([a-z])([A-Z])/g, "$1 $2")
        .toLowerCase();
    return {
        code: "invalid-json",
        pointer: "",
        message: `invalid JSON: ${what}`,
        offset: error.offset,
        length: error.length,
    };
}

function tooDeepProblem(offset: number): SyntaxProblem {
    return {
        code: "invalid-json",
        pointer: "",
        message: `invalid JSON: nested more than ${MAX_NESTING} levels deep`,
        offset,
        length: 1,
    };
}

/** Split an RFC 6901 pointer into segments; numeric segments become indices. */
export function pointerSegments(pointer: string): (string | number)[] {
    if (pointer === "") return [];
    return pointer
        .slice(1)
        .split("/")
        .map((raw) => {
            const segment = raw.replace(/~1/g, "/").replace(/~0/g, "~");
            return /^(0|[1-9][0-9]*)$/.test(segment) ? Number(segment) : segment;
        });
}

/**
 * A tree of the text with offsets, for locating pointers. Built only when something must be
 * located (errors to print, an editor feature), never on the fast path of a clean check.
 */
export class LocatedText {
    readonly root: Node | undefined;
    /** Nested deeper than MAX_NESTING: no tree, and no jsonc-parser scan (getLocation, visit) may be run on it. */
    readonly tooDeep: boolean;

    constructor(readonly text: string) {
        // jsonc-parser recurses per nesting level: absurd depth would overflow the stack.
        this.tooDeep = nestingBeyond(text, MAX_NESTING) !== -1;
        this.root = this.tooDeep ? undefined : parseTree(text, [], STRICT);
    }

    /** The node at a pointer, or its nearest existing ancestor (a missing field marks its owner). */
    nodeAt(pointer: string): Node | undefined {
        if (!this.root) return undefined;
        const segments = pointerSegments(pointer);
        for (let depth = segments.length; depth >= 0; depth--) {
            const node = findNodeAtLocation(this.root, segments.slice(0, depth));
            if (node) return propertyValueOrSelf(node);
        }
        return this.root;
    }

    /** Offset and length of the token a pointer names. */
    spanOf(pointer: string): { offset: number; length: number } {
        const node = this.nodeAt(pointer);
        return node ? { offset: node.offset, length: node.length } : { offset: 0, length: 0 };
    }
}

function propertyValueOrSelf(node: Node): Node {
    return node.type === "property" && node.children?.[1] ? node.children[1] : node;
}
