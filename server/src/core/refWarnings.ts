/**
 * Warnings about refs that resolve (docs/contract.md, "Warnings"): a ref can be valid and still be
 * wrong for what it is used for. `self-citation`: a source whose span overlaps its own claim's span
 * (the answer cited as its own evidence). `mid-word-boundary`: a span that starts or ends inside a
 * word (`"log"` matched inside "catalog"), with the word-aligned alternative. Pure.
 */
import { refForSpan } from "./author";
import type { CheckMemo } from "./checkMemo";
import { splitsSurrogatePair } from "./occurrences";
import type { RefResolution, ResolvedSpan } from "./resolve";
import { type DocumentLookup, isDocumentFailure, type SessionDocument } from "./session";
import type { Ref, RefWarning } from "./types";
import { isUnspaced, isWordChar } from "./words";

/**
 * A check run on every ref as `check` resolves it (CheckOptions.refWarnings). `start` sees the whole
 * input first (a lock matches refs to entries across the file); `warningsFor` is called once per
 * ref in order, the claim of an annotation before its sources (`claim` is its resolution).
 */
export interface RefWarningSource {
    start?(annotations: readonly unknown[], lookup: DocumentLookup): void;
    warningsFor(
        annotation: number,
        role: "claim" | number,
        ref: Ref,
        resolution: RefResolution,
        claim?: RefResolution,
    ): RefWarning[] | undefined;
}

/** A warning this module makes: `self-citation` (severity warning) or `mid-word-boundary` (information). */
export interface SpanWarning extends RefWarning {
    code: "self-citation" | "mid-word-boundary";
    severity: "warning" | "information";
    /** For `mid-word-boundary`: which edge(s) cut a word. */
    boundary?: "start" | "end" | "both";
    /** For `mid-word-boundary`: the ref of the span widened to whole words, and its text. */
    alternative?: { ref: Ref; text: string };
}

/** The character (code point) before / at an offset. */
function charBefore(text: string, offset: number): string {
    if (offset <= 0) return "";
    const low = text.charCodeAt(offset - 1);
    return low >= 0xdc00 && low <= 0xdfff && offset >= 2 ? text.slice(offset - 2, offset) : text[offset - 1];
}

function charAt(text: string, offset: number): string {
    if (offset >= text.length) return "";
    return String.fromCodePoint(text.codePointAt(offset) ?? 0);
}

/** True when the offset falls between two word characters of a spaced script. */
export function insideWord(text: string, offset: number): boolean {
    const before = charBefore(text, offset);
    const after = charAt(text, offset);
    if (!before || !after || !isWordChar(before) || !isWordChar(after)) return false;
    // In scripts written without spaces every character boundary is a word edge.
    return !isUnspaced(before) && !isUnspaced(after);
}

/** [start, end) widened to whole words (never past a line break). */
export function widenToWords(text: string, start: number, end: number): { start: number; end: number } {
    while (start > 0 && insideWord(text, start)) start -= charBefore(text, start).length;
    while (end < text.length && insideWord(text, end)) end += charAt(text, end).length;
    return { start, end };
}

/** `mid-word-boundary` for a span [start, end) of a document, or undefined when both edges are word edges. */
export function midWordWarning(document: SessionDocument, start: number, end: number): SpanWarning | undefined {
    const content = document.content;
    const cutsStart = insideWord(content, start);
    const cutsEnd = insideWord(content, end);
    if (!cutsStart && !cutsEnd) return undefined;
    const boundary = cutsStart && cutsEnd ? "both" : cutsStart ? "start" : "end";
    const widened = widenToWords(content, start, end);
    const lines = document.lines;
    const cut = content.slice(start, end);
    const whole = content.slice(widened.start, widened.end);
    const edge = boundary === "both" ? "starts and ends" : boundary === "start" ? "starts" : "ends";
    let message = `the span ${JSON.stringify(shorten(cut))} ${edge} inside a word; the whole words are ${JSON.stringify(shorten(whole))}`;
    let alternative: SpanWarning["alternative"];
    if (!splitsSurrogatePair(content, widened.start) && !splitsSurrogatePair(content, widened.end)) {
        const attempt = refForSpan(document, lines.positionAt(widened.start), lines.positionAt(widened.end));
        if (attempt.ok) {
            alternative = { ref: attempt.ref, text: whole };
            message += ` (ref ${JSON.stringify(attempt.ref)})`;
        }
    }
    const warning: SpanWarning = { code: "mid-word-boundary", severity: "information", message, boundary };
    if (alternative) warning.alternative = alternative;
    return warning;
}

/** `mid-word-boundary` for a resolved ref. */
export function midWordWarningOf(document: SessionDocument, span: ResolvedSpan): SpanWarning | undefined {
    return midWordWarning(document, span.startOffset, span.endOffset);
}

/** The same document for two ref paths as written: `./a.md`, `a.md` and `a\b.md`/`a/b.md` agree. */
export function samePath(a: string, b: string): boolean {
    if (a === b) return true;
    // Two different paths with nothing to normalise (the usual case, checked for every source) differ.
    if (PLAIN_PATH.test(a) && PLAIN_PATH.test(b)) return false;
    return pathKey(a) === pathKey(b);
}

/** A path pathKey leaves as it is: no `\\`, no empty, `.` or `..` segment. */
const PLAIN_PATH = /^(?![./])(?!.*(?:\\|\/\/|\/\.\.?(?:\/|$)|\/$))/;

function pathKey(path: string): string {
    const parts: string[] = [];
    for (const part of path.replace(/\\/g, "/").split("/")) {
        if (part === "" || part === ".") continue;
        if (part === ".." && parts.length > 0 && parts.at(-1) !== "..") parts.pop();
        else parts.push(part);
    }
    return parts.join("/");
}

/** `self-citation` when a source's span overlaps its claim's span in the same document. */
export function selfCitationWarning(
    claim: Pick<ResolvedSpan, "path" | "startOffset" | "endOffset" | "range">,
    source: Pick<ResolvedSpan, "path" | "startOffset" | "endOffset">,
): SpanWarning | undefined {
    if (!samePath(claim.path, source.path)) return undefined;
    if (source.startOffset >= claim.endOffset || claim.startOffset >= source.endOffset) return undefined;
    const lines =
        claim.range.start.line === claim.range.end.line
            ? `line ${claim.range.start.line}`
            : `lines ${claim.range.start.line}-${claim.range.end.line}`;
    return {
        code: "self-citation",
        severity: "warning",
        message: `this source overlaps its own claim (${JSON.stringify(claim.path)} ${lines}): a claim is not evidence for itself; cite the passage of a source document that supports it`,
    };
}

function shorten(text: string): string {
    return text.length <= 80 ? text : `${text.slice(0, 38)}…${text.slice(-38)}`;
}

/**
 * The warnings every check gives, in the shape of a check's per-ref warning hook: `self-citation` on
 * a source overlapping its claim, `mid-word-boundary` on any ref cut inside a word. Costs two
 * character tests per ref, and a ref only when one fires.
 */
export function spanWarningSource(memo?: CheckMemo): RefWarningSource {
    let lookup: DocumentLookup | undefined;
    const midWordOf = (span: ResolvedSpan): SpanWarning | undefined => {
        const document = lookup?.get(span.path);
        return document !== undefined && !isDocumentFailure(document) ? midWordWarningOf(document, span) : undefined;
    };
    return {
        start(_annotations, documents) {
            lookup = documents;
        },
        warningsFor(_annotation, role, _ref, resolution, claim) {
            if (!resolution.valid) return undefined;
            let found: SpanWarning[] | undefined;
            if (role !== "claim" && claim?.valid) {
                const self = selfCitationWarning(claim, resolution);
                if (self) found = [self];
            }
            // A resolution the memo kept keeps its finding: it depends on nothing but the span's document.
            const midWord = memo ? memo.findingOf(resolution, () => midWordOf(resolution)) : midWordOf(resolution);
            if (midWord) found = found ? [...found, midWord] : [midWord];
            return found;
        },
    };
}
