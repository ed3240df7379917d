/**
 * A corpus of realistic broken refs generated from real prose (test/fixtures/repair-prose.txt) with a
 * seeded RNG: each case is a document set after a breakage, the broken ref, and the span the author
 * meant, tracked arithmetically from the breakage (never by the engine under test).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { type Ref, resolveRef, Session, SessionDocument } from "../../server/src/core";
import { occurrencesOf } from "../../server/src/core/occurrences";

export const PROSE_LINES = fs
    .readFileSync(path.join(__dirname, "../../../test/fixtures/repair-prose.txt"), "utf8")
    .split("\n")
    .filter((line) => line.length > 0);

/** mulberry32: a tiny seeded PRNG, so every run builds the same corpus. */
export function random(seed: number): () => number {
    let a = seed >>> 0;
    return () => {
        a = (a + 0x6d2b79f5) >>> 0;
        let t = a;
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
}

export type Kind =
    | "shift-above"
    | "shift-inside"
    | "misquote"
    | "ambiguous-decided"
    | "ambiguous-undecidable"
    | "path-typo"
    | "path-moved"
    | "shift+misquote"
    | "shift+ambiguous"
    | "path+shift";

export interface Case {
    kind: Kind;
    documents: Session;
    paths: string[];
    broken: Ref;
    /** Where the meant span is now: path and offsets; undefined when nothing can decide (undecidable ambiguity). */
    expected?: { path: string; start: number; end: number };
}

const DOC = "notes/prose.md";
const OTHER = "notes/other.md";

export interface Span {
    startLine: number;
    startColumn: number;
    endLine: number;
    endColumn: number;
}

/** Word starts and ends of a line (a word: a run of non-space characters). */
export function words(line: string): { start: number; end: number }[] {
    const found: { start: number; end: number }[] = [];
    for (const match of line.matchAll(/\S+/g)) found.push({ start: match.index, end: match.index + match[0].length });
    return found;
}

/**
 * A ref as an LLM writes one: the first few words of the span as its start string, the last few as its
 * end string, extended until each is unique on its line. Undefined when that cannot be done.
 */
export function llmRef(lines: string[], span: Span, next: () => number, docPath: string): Ref | undefined {
    const startLine = lines[span.startLine - 1];
    const endLine = lines[span.endLine - 1];
    const startWords = words(startLine).filter((w) => w.start >= span.startColumn);
    const endWords = words(endLine)
        .filter((w) => w.end <= span.endColumn)
        .reverse();
    let n = 1 + Math.floor(next() * 3);
    let startStr: string | undefined;
    for (; n <= startWords.length; n++) {
        const candidate = startLine.slice(span.startColumn, startWords[n - 1].end);
        if (occurrencesOf(startLine, candidate).length === 1) {
            startStr = candidate;
            break;
        }
    }
    let m = 1 + Math.floor(next() * 3);
    let endStr: string | undefined;
    for (; m <= endWords.length; m++) {
        const candidate = endLine.slice(endWords[m - 1].start, span.endColumn);
        if (occurrencesOf(endLine, candidate).length === 1) {
            endStr = candidate;
            break;
        }
    }
    if (!startStr || !endStr) return undefined;
    return { path: docPath, start: { line: span.startLine, str: startStr }, end: { line: span.endLine, str: endStr } };
}

export function randomSpan(lines: string[], next: () => number, maxLines: number): Span | undefined {
    const startLine = 1 + Math.floor(next() * lines.length);
    const endLine = Math.min(lines.length, startLine + Math.floor(next() * maxLines));
    const startWords = words(lines[startLine - 1]);
    const endWords = words(lines[endLine - 1]);
    if (startWords.length < 2 || endWords.length < 2) return undefined;
    const s = startWords[Math.floor(next() * (startWords.length - 1))];
    const candidates = startLine === endLine ? endWords.filter((w) => w.start > s.start) : endWords;
    if (candidates.length === 0) return undefined;
    const e = candidates[Math.floor(next() * candidates.length)];
    return { startLine, startColumn: s.start, endLine, endColumn: e.end };
}

export function offsetOf(lines: string[], line: number, column: number): number {
    let offset = 0;
    for (let i = 0; i < line - 1; i++) offset += lines[i].length + 1;
    return offset + column;
}

/** Lines from elsewhere in the prose, for insertions (real text, not copies of the cited lines). */
export function filler(next: () => number, count: number, exclude: Set<string>): string[] {
    const pool = PROSE_LINES.filter((l) => !exclude.has(l));
    return Array.from({ length: count }, () => pool[Math.floor(next() * pool.length)]);
}

/** A document: a window of the prose (the rest is the filler pool). */
export function baseDocument(next: () => number): string[] {
    const length = 40 + Math.floor(next() * 30);
    const from = Math.floor(next() * (PROSE_LINES.length - length));
    return PROSE_LINES.slice(from, from + length);
}

export function session(docs: Record<string, string[]>): Session {
    return new Session(Object.entries(docs).map(([p, lines]) => new SessionDocument(p, lines.join("\n"))));
}

const TYPOGRAPHIC: [string, string][] = [
    ['"', "\u201c"],
    ["'", "\u2019"],
    ["-", "\u2013"],
    ["\u2014", "-"],
    ["\u201c", '"'],
    ["\u2019", "'"],
];

/** A misquote of a boundary string as a person or model makes one; undefined if none applies. */
export function misquote(str: string, next: () => number): string | undefined {
    const options: (() => string | undefined)[] = [
        () =>
            str[0] !== str[0].toLowerCase() ? str[0].toLowerCase() + str.slice(1) : str[0].toUpperCase() + str.slice(1),
        () => (str.includes(" ") ? str.replace(" ", "  ") : undefined),
        () => {
            for (const [from, to] of TYPOGRAPHIC) if (str.includes(from)) return str.replace(from, to);
            return undefined;
        },
        () => (/[.,;:!?)]$/.test(str) ? str.slice(0, -1) : `${str}.`),
        () => {
            const parts = str.split(" ");
            if (parts.length < 3) return undefined;
            parts.splice(1 + Math.floor(next() * (parts.length - 2)), 1);
            return parts.join(" ");
        },
        () => {
            const parts = str.split(" ");
            if (parts.length < 2) return undefined;
            parts.splice(1, 0, ["very", "also", "the", "really"][Math.floor(next() * 4)]);
            return parts.join(" ");
        },
    ];
    for (let attempt = 0; attempt < 6; attempt++) {
        const result = options[Math.floor(next() * options.length)]();
        if (result !== undefined && result !== str && result.trim().length > 0) return result;
    }
    return undefined;
}

/** Insert `count` lines before line `at` (1-based). */
function insertLines(lines: string[], at: number, inserted: string[]): string[] {
    return [...lines.slice(0, at - 1), ...inserted, ...lines.slice(at - 1)];
}

function deleteLines(lines: string[], at: number, count: number): string[] {
    return [...lines.slice(0, at - 1), ...lines.slice(at - 1 + count)];
}

/** Generate one case of a kind, or undefined when the random draw does not fit it (try again). */
export function makeCase(kind: Kind, next: () => number): Case | undefined {
    let lines = baseDocument(next);
    const originalLines = lines;
    const other = baseDocument(next);
    const exclude = new Set(lines);
    let ref: Ref;
    let broken: Ref;
    let columns: [number, number];
    if (kind === "ambiguous-decided" || kind === "ambiguous-undecidable" || kind === "shift+ambiguous") {
        const made = ambiguousRef(lines, next, kind === "ambiguous-undecidable");
        if (!made) return undefined;
        ({ ref, broken, columns } = made);
    } else {
        const span = randomSpan(lines, next, kind === "shift-inside" ? 8 : 3);
        if (!span) return undefined;
        const drawn = llmRef(lines, span, next, DOC);
        if (!drawn) return undefined;
        ref = drawn;
        broken = drawn;
        columns = [span.startColumn, span.endColumn];
    }
    // The unbroken ref must resolve to exactly the drawn span (an LLM-style string may not enclose it).
    const unbroken = resolveRef(session({ [DOC]: lines }), ref);
    if (!unbroken.valid || unbroken.startOffset !== offsetOf(lines, ref.start.line, columns[0])) return undefined;
    if (unbroken.endOffset !== offsetOf(lines, ref.end.line, columns[1])) return undefined;
    let startLine = ref.start.line;
    let endLine = ref.end.line;

    // The document changes under the ref (the ref keeps its old line numbers).
    if (kind === "shift-above" || kind === "shift+misquote" || kind === "path+shift" || kind === "shift+ambiguous") {
        if (next() < 0.6 || startLine <= 2) {
            const k = 1 + Math.floor(next() * (next() < 0.8 ? 5 : 40));
            const at = 1 + Math.floor(next() * startLine);
            lines = insertLines(lines, at, filler(next, k, exclude));
            startLine += k;
            endLine += k;
        } else {
            const at = 1 + Math.floor(next() * (startLine - 1));
            const k = 1 + Math.floor(next() * Math.min(5, startLine - at));
            lines = deleteLines(lines, at, k);
            startLine -= k;
            endLine -= k;
        }
    }
    if (kind === "shift-inside") {
        if (endLine - startLine < 1) return undefined;
        if (next() < 0.5 || endLine - startLine < 2) {
            const k = 1 + Math.floor(next() * 4);
            const at = startLine + 1 + Math.floor(next() * (endLine - startLine));
            lines = insertLines(lines, at, filler(next, k, exclude));
            endLine += k;
        } else {
            const at = startLine + 1 + Math.floor(next() * (endLine - startLine - 1));
            const k = 1 + Math.floor(next() * Math.min(3, endLine - at));
            if (at + k > endLine) return undefined;
            lines = deleteLines(lines, at, k);
            endLine -= k;
        }
    }
    // The ref itself is written wrong.
    if (kind === "misquote" || kind === "shift+misquote") {
        const which = next() < 0.5 ? "start" : "end";
        const wrong = misquote(ref[which].str, next);
        // A "misquote" that still occurs on the line is another valid string, not a misquote.
        if (wrong === undefined || originalLines[ref[which].line - 1].includes(wrong)) return undefined;
        broken = { ...broken, [which]: { ...broken[which], str: wrong } };
    }
    let docPath = DOC;
    if (kind === "path-typo" || kind === "path+shift") broken = { ...broken, path: typo(DOC, next) };
    if (kind === "path-moved") docPath = "archive/prose.md";
    // Undecidable by anyone, so not a fixable breakage: the ref, read on its written lines, is still a
    // whole valid ref once its path is right, or once an ambiguous string is read at some occurrence.
    if (kind === "path+shift" && resolveRef(session({ [DOC]: lines }), { ...broken, path: DOC }).valid)
        return undefined;
    if (kind === "shift+ambiguous" && someOccurrenceResolves(lines, broken)) return undefined;
    return {
        kind,
        documents: session({ [docPath]: lines, [OTHER]: other }),
        paths: [docPath, OTHER],
        broken,
        expected:
            kind === "ambiguous-undecidable"
                ? undefined
                : {
                      path: docPath,
                      start: offsetOf(lines, startLine, columns[0]),
                      end: offsetOf(lines, endLine, columns[1]),
                  },
    };
}

/**
 * A one-line ref whose start (or end) string is cut down to a word that occurs several times on the
 * line. Decided: every other occurrence would invert the span. Undecidable: another one would not.
 */
function ambiguousRef(
    lines: string[],
    next: () => number,
    undecidable: boolean,
): { ref: Ref; columns: [number, number]; broken: Ref } | undefined {
    for (let attempt = 0; attempt < 30; attempt++) {
        const line = 1 + Math.floor(next() * lines.length);
        const text = lines[line - 1];
        const ws = words(text);
        if (ws.length < 6) continue;
        const i = Math.floor(next() * ws.length);
        const word = text.slice(ws[i].start, ws[i].end);
        const at = occurrencesOf(text, word);
        if (at.length < 2) continue;
        const useStart = next() < 0.5;
        if (useStart) {
            // Span from this occurrence to the end of a later word.
            const first = ws[i].start;
            const afterWords = ws.filter((w) => w.start > first + word.length);
            if (afterWords.length === 0) continue;
            const endWord = afterWords[Math.floor(next() * afterWords.length)];
            const endStr = text.slice(endWord.start, endWord.end);
            if (occurrencesOf(text, endStr).length !== 1) continue;
            const others = at.filter((c) => c !== first);
            const validOthers = others.filter((c) => c <= endWord.start && c + word.length <= endWord.end);
            if (undecidable ? validOthers.length === 0 : validOthers.length > 0) continue;
            const unique = text.slice(first, endWord.end);
            return {
                ref: { path: DOC, start: { line, str: unique }, end: { line, str: endStr } },
                columns: [first, endWord.end],
                broken: { path: DOC, start: { line, str: word }, end: { line, str: endStr } },
            };
        }
        const last = ws[i].end;
        const beforeWords = ws.filter((w) => w.end < last - word.length);
        if (beforeWords.length === 0) continue;
        const startWord = beforeWords[Math.floor(next() * beforeWords.length)];
        const startStr = text.slice(startWord.start, startWord.end);
        if (occurrencesOf(text, startStr).length !== 1) continue;
        const others = at.filter((c) => c + word.length !== last);
        const validOthers = others.filter((c) => c >= startWord.start && c + word.length >= startWord.end);
        if (undecidable ? validOthers.length === 0 : validOthers.length > 0) continue;
        return {
            ref: { path: DOC, start: { line, str: startStr }, end: { line, str: text.slice(startWord.start, last) } },
            columns: [startWord.start, last],
            broken: { path: DOC, start: { line, str: startStr }, end: { line, str: word } },
        };
    }
    return undefined;
}

/** Whether reading each boundary string at any one of its occurrences on its line gives a valid span. */
function someOccurrenceResolves(lines: string[], ref: Ref): boolean {
    const startLine = lines[ref.start.line - 1];
    const endLine = lines[ref.end.line - 1];
    if (startLine === undefined || endLine === undefined) return false;
    for (const s of occurrencesOf(startLine, ref.start.str)) {
        for (const e of occurrencesOf(endLine, ref.end.str)) {
            if (ref.start.line < ref.end.line) return true;
            if (s <= e && s + ref.start.str.length <= e + ref.end.str.length) return true;
        }
    }
    return false;
}

function typo(p: string, next: () => number): string {
    const name = p.lastIndexOf("/") + 1;
    const i = name + Math.floor(next() * (p.length - name - 3));
    const r = next();
    if (r < 0.33) return p.slice(0, i) + p.slice(i + 1);
    if (r < 0.66) return `${p.slice(0, i)}${p[i + 1]}${p[i]}${p.slice(i + 2)}`;
    return `${p.slice(0, i)}x${p.slice(i + 1)}`;
}
