import { soleOccurrence } from "./occurrences";
import { type DocumentFailure, type DocumentLookup, isDocumentFailure, type SessionDocument } from "./session";
import type { Boundary, BoundaryName, Range, Ref, RefError } from "./types";

export interface ResolvedSpan {
    valid: true;
    path: string;
    text: string;
    range: Range;
    /** Offsets into the document content, end exclusive. */
    startOffset: number;
    endOffset: number;
}

export interface FailedSpan {
    valid: false;
    path: string;
    /** Every problem found, most fundamental first; `errors[0]` is the one a report shows. */
    errors: RefError[];
}

export type RefResolution = ResolvedSpan | FailedSpan;

const quote = JSON.stringify;

/**
 * Resolve a ref (docs/contract.md section 2). Never guesses: a missing or ambiguous boundary fails.
 * Cost: a lookup plus O(length of the two lines touched) plus the span slice.
 */
export function resolveRef(lookup: DocumentLookup, ref: Ref): RefResolution {
    return resolveEntry(lookup.get(ref.path), ref);
}

/** `resolveRef` once the lookup answered for the ref's path (core/checkMemo.ts looks each path up once a check). */
export function resolveEntry(entry: SessionDocument | DocumentFailure | undefined, ref: Ref): RefResolution {
    if (entry === undefined) {
        return failed(ref.path, { code: "unknown-path", message: `no document has the path ${quote(ref.path)}` });
    }
    if (isDocumentFailure(entry)) return failed(ref.path, { code: entry.code, message: entry.message });
    return resolveInDocument(entry, ref);
}

export function resolveInDocument(document: SessionDocument, ref: Ref): RefResolution {
    const lines = document.lines;
    const errors: RefError[] = [];
    for (const name of ["start", "end"] as const) {
        const line = ref[name].line;
        if (!lines.hasLine(line)) {
            errors.push({
                code: "line-out-of-range",
                boundary: name,
                message: `${name} line ${line} is out of range: ${quote(document.path)} has ${lines.lineCount} line${lines.lineCount === 1 ? "" : "s"}`,
            });
        }
    }
    if (ref.start.line > ref.end.line) {
        errors.push({
            code: "inverted-lines",
            message: `start line ${ref.start.line} comes after end line ${ref.end.line}`,
        });
    }
    const startColumn = lines.hasLine(ref.start.line) ? findBoundary(document, ref.start, "start", errors) : undefined;
    const endColumn = lines.hasLine(ref.end.line) ? findBoundary(document, ref.end, "end", errors) : undefined;
    if (errors.length > 0 || startColumn === undefined || endColumn === undefined)
        return failed(document.path, ...errors);

    const endExclusive = endColumn + ref.end.str.length;
    if (
        ref.start.line === ref.end.line &&
        (startColumn > endColumn || startColumn + ref.start.str.length > endExclusive)
    ) {
        return failed(document.path, {
            code: "inverted-boundaries",
            message: `on line ${ref.start.line} the start boundary ${quote(ref.start.str)} (column ${startColumn + 1}) and the end boundary ${quote(ref.end.str)} (column ${endColumn + 1}) do not enclose a span holding both`,
        });
    }
    const startOffset = lines.offsetAt(ref.start.line, startColumn);
    const endOffset = lines.offsetAt(ref.end.line, endExclusive);
    return {
        valid: true,
        path: document.path,
        text: document.content.slice(startOffset, endOffset),
        range: {
            start: { line: ref.start.line, column: startColumn },
            end: { line: ref.end.line, column: endExclusive },
        },
        startOffset,
        endOffset,
    };
}

/** The column of the boundary's single occurrence on its line, or undefined after recording why not. */
function findBoundary(
    document: SessionDocument,
    boundary: Boundary,
    name: BoundaryName,
    errors: RefError[],
): number | undefined {
    const text = document.lines.line(boundary.line);
    const sole = soleOccurrence(text, boundary.str);
    if (sole >= 0) return sole;
    if (sole === -1) {
        errors.push({
            code: "boundary-not-found",
            boundary: name,
            message: `${name} boundary ${quote(boundary.str)} does not occur on line ${boundary.line} of ${quote(document.path)}${whereNearby(document, boundary)}`,
        });
    } else {
        // Listed up to a cap: "a" on a 5 MB line occurs millions of times, counted once per line
        // and string however many refs ask (docs/security.md).
        const { columns: found, count } = document.ambiguities.of(boundary.line, text, boundary.str);
        const columns = found.map((column) => column + 1).join(", ");
        const listed = count > found.length ? `first at columns ${columns} …` : `columns ${columns}`;
        errors.push({
            code: "boundary-ambiguous",
            boundary: name,
            occurrences: found,
            ...(count > found.length ? { occurrenceCount: count } : {}),
            message: `${name} boundary ${quote(boundary.str)} occurs ${count.toLocaleString("en-US")} times on line ${boundary.line} of ${quote(document.path)} (${listed}); extend it until it is unique`,
        });
    }
    return undefined;
}

/** Lines either side searched for a missing boundary string, so the message can say where it went. */
const NEARBY_LINES = 10;

/**
 * "; found once on line 7" (or "on lines 7 and 12", at most three named) when the string occurs within
 * NEARBY_LINES lines of the line written; "" otherwise. One indexOf scan of a bounded window, the
 * line advanced as the scan goes (no search per hit).
 */
function whereNearby(document: SessionDocument, boundary: Boundary): string {
    const lines = document.lines;
    const str = boundary.str;
    if (str.length === 0 || str.includes("\n") || !lines.hasLine(boundary.line)) return "";
    let line = Math.max(1, boundary.line - NEARBY_LINES);
    const last = Math.min(lines.lineCount, boundary.line + NEARBY_LINES);
    // A slice of the window: indexOf on the whole content would run to its end on a miss.
    const base = lines.lineStart(line);
    const window = document.content.slice(base, lines.lineEnd(last));
    const found: number[] = [];
    let hits = 0;
    for (let at = window.indexOf(str); at !== -1; at = window.indexOf(str, at + 1)) {
        while (base + at > lines.lineEnd(line)) line++;
        hits++;
        if (found.at(-1) !== line) {
            found.push(line);
            if (found.length > 3) break;
        }
    }
    if (found.length === 0) return "";
    if (found.length === 1) return `; found ${hits === 1 ? "once" : `${hits} times`} on line ${found[0]}`;
    if (found.length > 3) return `; found on lines ${found.slice(0, 3).join(", ")} and more nearby`;
    return `; found on lines ${found.slice(0, -1).join(", ")} and ${found.at(-1)}`;
}

function failed(path: string, ...errors: RefError[]): FailedSpan {
    return { valid: false, path, errors };
}
