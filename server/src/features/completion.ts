/**
 * Completion inside annotation files: `path` values (the session's documents, or workspace files),
 * `str` values (for `start`, the shortest unique string beginning at each word start of the line;
 * for `end`, ending at each word end; each with the span it would give), and `polarity` values.
 * Works on text being typed (jsonc-parser's getLocation tolerates broken JSON) and never touches
 * the disk beyond the cached documents.
 */
import { getLocation } from "jsonc-parser";
import { type CompletionItem, CompletionItemKind, type Position, type Range } from "vscode-languageserver";
import { shortestUniqueEndingAt, shortestUniqueStartingAt } from "../core/occurrences";
import { resolveInDocument } from "../core/resolve";
import { isDocumentFailure } from "../core/session";
import type { Ref } from "../core/types";
import type { AnnotationFile } from "../workspace/annotationFile";
import type { WorkspaceIndex } from "../workspace/workspaceIndex";
import { describeResolution } from "./format";
import { offsetAt, positionAt } from "./positions";

const MAX_PATHS = 500;
const segmenter = new Intl.Segmenter(undefined, { granularity: "word" });

export function completion(workspace: WorkspaceIndex, file: AnnotationFile, position: Position): CompletionItem[] {
    const offset = offsetAt(file, position);
    const location = getLocation(file.text, offset);
    if (location.isAtPropertyKey) return [];
    const path = location.path;
    const last = path[path.length - 1];
    const previous = location.previousNode;
    // Replace the whole string being typed (quotes included), or insert at the cursor.
    const range: Range =
        previous &&
        previous.type === "string" &&
        offset >= previous.offset &&
        offset <= previous.offset + previous.length
            ? { start: positionAt(file, previous.offset), end: positionAt(file, previous.offset + previous.length) }
            : { start: position, end: position };
    const item = (value: string, kind: CompletionItemKind, detail?: string, sortText?: string): CompletionItem => ({
        label: value,
        kind,
        detail,
        sortText,
        filterText: JSON.stringify(value),
        textEdit: { range, newText: JSON.stringify(value) },
    });

    if (last === "polarity") {
        return [
            item("supports", CompletionItemKind.EnumMember, "the cited span, read alone, evidences the claim"),
            item("refutes", CompletionItemKind.EnumMember, "the cited span directly contradicts the claim"),
        ];
    }
    if (last === "path") {
        const paths = file.embedded
            ? (file.result.parts.documents ?? []).map((d) => d.path)
            : file.root !== undefined
              ? workspace.filesUnder(file.root)
              : [];
        return paths
            .slice(0, MAX_PATHS)
            .map((p) => item(p, CompletionItemKind.File, file.embedded ? "session document" : "workspace file"));
    }
    if (last === "str" && (path[path.length - 2] === "start" || path[path.length - 2] === "end")) {
        return boundaryItems(file, path.slice(0, -2), path[path.length - 2] as "start" | "end").map((c, index) =>
            item(c.value, CompletionItemKind.Text, c.detail, String(index).padStart(5, "0")),
        );
    }
    return [];
}

interface Candidate {
    value: string;
    detail: string;
}

function boundaryItems(file: AnnotationFile, refPath: (string | number)[], boundary: "start" | "end"): Candidate[] {
    const ref = valueAt(file.parsed.value, refPath);
    if (!isObject(ref) || typeof ref.path !== "string") return [];
    const own = ref[boundary];
    if (!isObject(own) || typeof own.line !== "number") return [];
    const document = file.lookup.get(ref.path);
    if (!document || isDocumentFailure(document) || !document.lines.hasLine(own.line)) return [];
    const text = document.lines.line(own.line);
    const other = boundary === "start" ? ref.end : ref.start;
    const candidates: Candidate[] = [];
    const seen = new Set<string>();
    for (const segment of segmenter.segment(text)) {
        if (!segment.isWordLike && segment.segment.trim() === "") continue;
        const value =
            boundary === "start"
                ? shortestUniqueStartingAt(text, segment.index)
                : shortestUniqueEndingAt(text, segment.index + segment.segment.length);
        if (value === undefined || seen.has(value)) continue;
        seen.add(value);
        candidates.push({ value, detail: spanDetail(file, ref.path, boundary, own.line, value, other) });
    }
    return candidates;
}

/** The span the ref would have with this boundary (when the other boundary is usable). */
function spanDetail(
    file: AnnotationFile,
    path: string,
    boundary: "start" | "end",
    line: number,
    str: string,
    other: unknown,
): string {
    const document = file.lookup.get(path);
    const column = `line ${line}`;
    if (!document || isDocumentFailure(document)) return column;
    if (!isObject(other) || typeof other.line !== "number" || typeof other.str !== "string" || other.str === "") {
        return `${column}, ${boundary} of the span`;
    }
    const mine = { line, str };
    const theirs = { line: other.line, str: other.str };
    const ref: Ref = boundary === "start" ? { path, start: mine, end: theirs } : { path, start: theirs, end: mine };
    return describeResolution(resolveInDocument(document, ref));
}

function isObject(value: unknown): value is Record<string, unknown> {
    return typeof value === "object" && value !== null && !Array.isArray(value);
}

function valueAt(value: unknown, path: (string | number)[]): unknown {
    let at = value;
    for (const segment of path) {
        if (at === null || typeof at !== "object") return undefined;
        at = (at as Record<string | number, unknown>)[segment];
    }
    return at;
}
