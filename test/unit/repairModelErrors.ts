/**
 * Refs a model got wrong against an unchanged document (docs/repair.md, "Measured"): a line number
 * one to three off, or a boundary misquoted by case, punctuation (a mark, a dash or quote form) or a
 * letter. Built from real prose with a seeded RNG; the span the model meant is known by construction,
 * never from the engine under test.
 */
import { type Ref, resolveRef } from "../../server/src/core";
import { baseDocument, llmRef, offsetOf, randomSpan, session } from "./repairCorpus";

export type ModelErrorKind = "line-off" | "misquote-case" | "misquote-punctuation" | "misquote-letter";
export const MODEL_ERROR_KINDS: ModelErrorKind[] = [
    "line-off",
    "misquote-case",
    "misquote-punctuation",
    "misquote-letter",
];

export interface ModelErrorCase {
    kind: ModelErrorKind;
    lines: string[];
    broken: Ref;
    expected: { start: number; end: number };
}

const DOC = "notes/prose.md";

const SWAPS: [string, string][] = [
    ["-", "\u2013"],
    ["\u2013", "-"],
    ["\u2014", "-"],
    ["'", "\u2019"],
    ["\u2019", "'"],
    ['"', "\u201c"],
    ["\u201c", '"'],
    ["\u201d", '"'],
];

/** A boundary string as a model misquotes it; undefined when this kind of slip does not apply. */
export function modelMisquote(str: string, kind: ModelErrorKind, next: () => number): string | undefined {
    if (kind === "misquote-case") {
        const letters = [...str.matchAll(/\p{L}/gu)].map((m) => m.index);
        if (letters.length === 0) return undefined;
        // Most often the first letter ("The" for "the"), else any letter of a word.
        const at = next() < 0.7 ? letters[0] : letters[Math.floor(next() * letters.length)];
        const c = str[at];
        const toggled = c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase();
        return toggled === c ? undefined : str.slice(0, at) + toggled + str.slice(at + 1);
    }
    if (kind === "misquote-punctuation") {
        const options: (() => string | undefined)[] = [
            () => (/[.,;:!?]$/.test(str) ? str.slice(0, -1) : `${str}.`),
            () => {
                for (const [from, to] of SWAPS) if (str.includes(from)) return str.replace(from, to);
                return undefined;
            },
            () => (/^[`"'(]/.test(str) ? str.slice(1) : undefined),
            () => {
                const comma = str.indexOf(",");
                return comma > 0 ? str.slice(0, comma) + str.slice(comma + 1) : undefined;
            },
        ];
        for (let attempt = 0; attempt < 6; attempt++) {
            const result = options[Math.floor(next() * options.length)]();
            if (result !== undefined && result !== str && result.trim().length > 0) return result;
        }
        return undefined;
    }
    if (kind === "misquote-letter") {
        // A letter changed, dropped or doubled inside a word of three letters or more.
        const inner = [...str.matchAll(/\p{L}{3,}/gu)].flatMap((m) =>
            Array.from({ length: m[0].length - 2 }, (_, i) => m.index + 1 + i),
        );
        if (inner.length === 0) return undefined;
        const at = inner[Math.floor(next() * inner.length)];
        const r = next();
        if (r < 0.4) {
            const c = str[at] === "e" ? "a" : "e";
            return str.slice(0, at) + c + str.slice(at + 1);
        }
        if (r < 0.7) return str.slice(0, at) + str.slice(at + 1);
        return str.slice(0, at) + str[at] + str.slice(at);
    }
    return undefined;
}

/** One case of a kind, or undefined when the draw does not fit it (try again). */
export function makeModelErrorCase(kind: ModelErrorKind, next: () => number): ModelErrorCase | undefined {
    const lines = baseDocument(next);
    const span = randomSpan(lines, next, 3);
    if (!span) return undefined;
    const ref = llmRef(lines, span, next, DOC);
    if (!ref) return undefined;
    const documents = session({ [DOC]: lines });
    const meant = resolveRef(documents, ref);
    const expected = {
        start: offsetOf(lines, span.startLine, span.startColumn),
        end: offsetOf(lines, span.endLine, span.endColumn),
    };
    if (!meant.valid || meant.startOffset !== expected.start || meant.endOffset !== expected.end) return undefined;
    let broken: Ref;
    if (kind === "line-off") {
        const magnitude = 1 + Math.floor(next() * 3);
        const d = next() < 0.5 ? -magnitude : magnitude;
        if (ref.start.line + d < 1 || ref.end.line + d > lines.length) return undefined;
        broken = {
            ...ref,
            start: { ...ref.start, line: ref.start.line + d },
            end: { ...ref.end, line: ref.end.line + d },
        };
    } else {
        const which = next() < 0.5 ? "start" : "end";
        const wrong = modelMisquote(ref[which].str, kind, next);
        // A "misquote" still on the line is another valid string, not a misquote.
        if (wrong === undefined || lines[ref[which].line - 1].includes(wrong)) return undefined;
        broken = { ...ref, [which]: { ...ref[which], str: wrong } };
    }
    if (resolveRef(documents, broken).valid) return undefined;
    return { kind, lines, broken, expected };
}
