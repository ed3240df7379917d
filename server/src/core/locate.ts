/**
 * Offsets of a few JSON pointers in a text, in one pass that builds no tree. Diagnostics of a
 * large annotation file need the tokens of its problems only; a full parse tree (LocatedText)
 * costs many times the text in objects. Same answers as LocatedText.spanOf: the value at a
 * pointer, else its nearest existing ancestor (a missing field marks its owner), on broken JSON
 * as jsonc-parser's parseTree recovers it.
 */
import { visit } from "jsonc-parser";
import { MAX_NESTING, nestingBeyond } from "../../../shared/jsonNesting";
import { pointerSegments } from "./parse";

export interface Span {
    offset: number;
    length: number;
}

interface Frame {
    kind: "object" | "array" | "property";
    /** Pointer of this container (object, array) or of the property's value; null when nothing wanted lies below. */
    pointer: string | null;
    offset: number;
    count: number;
}

const STRICT = { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false };

function escapeSegment(key: string): string {
    return key.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** Every proper and improper ancestor of a pointer, as pointers. */
function ancestors(pointer: string): string[] {
    const segments = pointerSegments(pointer).map((s) => escapeSegment(String(s)));
    const out = [""];
    let at = "";
    for (const segment of segments) {
        at = `${at}/${segment}`;
        out.push(at);
    }
    return out;
}

export function locatePointers(text: string, pointers: Iterable<string>): Map<string, Span> {
    const wanted = [...pointers];
    // jsonc-parser's visit recurses per nesting level: on absurd depth it would overflow the stack.
    // LocatedText builds no tree then either, and every pointer marks the start of the text.
    if (nestingBeyond(text, MAX_NESTING) !== -1) return new Map(wanted.map((p) => [p, { offset: 0, length: 0 }]));
    const live = new Set<string>();
    for (const pointer of wanted) for (const a of ancestors(pointer)) live.add(a);
    const found = new Map<string, Span>();
    const stack: Frame[] = [];
    let rootSeen = false;

    const record = (pointer: string | null, offset: number, length: number) => {
        if (pointer !== null && !found.has(pointer)) found.set(pointer, { offset, length });
    };
    /** The pointer of a value starting now, null when no wanted pointer lies at or below it. */
    const valuePointer = (): string | null => {
        const top = stack[stack.length - 1];
        if (!top) {
            if (rootSeen) return null; // parseTree keeps the first root value only
            rootSeen = true;
            return live.has("") ? "" : null;
        }
        if (top.kind === "property") return top.pointer;
        if (top.kind === "array") {
            const index = top.count++;
            if (top.pointer === null) return null;
            const pointer = `${top.pointer}/${index}`;
            return live.has(pointer) ? pointer : null;
        }
        return null; // a value straight in an object (broken JSON): parseTree attaches it to no key
    };
    const completeProperty = () => {
        if (stack[stack.length - 1]?.kind === "property") stack.pop();
    };
    const closeContainer = (offset: number, length: number) => {
        completeProperty();
        const frame = stack.pop();
        if (frame) record(frame.pointer, frame.offset, offset + length - frame.offset);
        completeProperty();
    };

    visit(
        text,
        {
            onObjectBegin: (offset) => {
                stack.push({ kind: "object", pointer: valuePointer(), offset, count: 0 });
            },
            onObjectProperty: (name) => {
                const owner = stack[stack.length - 1];
                const pointer = owner?.pointer == null ? null : `${owner.pointer}/${escapeSegment(name)}`;
                stack.push({
                    kind: "property",
                    pointer: pointer !== null && live.has(pointer) ? pointer : null,
                    offset: 0,
                    count: 0,
                });
            },
            onObjectEnd: closeContainer,
            onArrayBegin: (offset) => {
                stack.push({ kind: "array", pointer: valuePointer(), offset, count: 0 });
            },
            onArrayEnd: closeContainer,
            onLiteralValue: (_value, offset, length) => {
                record(valuePointer(), offset, length);
                completeProperty();
            },
            onSeparator: (separator) => {
                if (separator === ",") completeProperty();
            },
        },
        STRICT,
    );

    const spans = new Map<string, Span>();
    for (const pointer of wanted) {
        const chain = ancestors(pointer);
        let span: Span | undefined;
        for (let i = chain.length - 1; i >= 0 && !span; i--) span = found.get(chain[i]);
        spans.set(pointer, span ?? { offset: 0, length: 0 });
    }
    return spans;
}
