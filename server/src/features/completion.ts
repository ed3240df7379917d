/**
 * Completion inside annotation files: `path` values (the session's documents, or workspace files),
 * `str` values (for `start`, the shortest unique string beginning at each word start of the line;
 * for `end`, ending at each word end; each with the span it would give), and `polarity` values.
 * Works on text being typed (jsonc-parser's getLocation tolerates broken JSON) and never touches
 * the disk beyond the cached documents.
 */
import { getLocation, getNodePath, type JSONPath, type Node } from "jsonc-parser";
import { type CompletionItem, CompletionItemKind, type Position, type Range } from "vscode-languageserver";
import { MAX_FIX_STR, occurrenceBudget } from "../core/fixes";
import { shortestUniqueEndingAt, shortestUniqueStartingAt } from "../core/occurrences";
import { resolveInDocument } from "../core/resolve";
import { isDocumentFailure, type SessionDocument } from "../core/session";
import type { Ref } from "../core/types";
import type { AnnotationFile } from "../workspace/annotationFile";
import type { WorkspaceIndex } from "../workspace/workspaceIndex";
import { describeResolution } from "./format";
import { offsetAt, positionAt } from "./positions";

const MAX_PATHS = 500;
/**
 * Words of a line: a run of letters, digits and marks; a single CJK character (those scripts put no
 * spaces between words); or a single other visible character such as "%" or "(".
 */
const WORD = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]|[\p{L}\p{N}\p{M}_]+|[^\s\p{L}\p{N}\p{M}_]/gu;

export function completion(workspace: WorkspaceIndex, file: AnnotationFile, position: Position): CompletionItem[] {
    const offset = offsetAt(file, position);
    const site = locate(file, offset);
    if (!site) return [];
    const { path, previous } = site;
    const last = path[path.length - 1];
    // Replace the whole string token being typed (quotes included), or insert a string at the cursor.
    const inString =
        previous?.type === "string" && offset > previous.offset && offset <= previous.offset + previous.length;
    const range: Range =
        inString && previous
            ? { start: positionAt(file, previous.offset), end: positionAt(file, previous.offset + previous.length) }
            : { start: positionAt(file, offset), end: positionAt(file, offset) }; // clamped into the text
    // The client filters on the text from the range start (the opening quote) to the cursor.
    const item = (value: string, kind: CompletionItemKind, detail?: string, sortText?: string): CompletionItem => {
        const newText = JSON.stringify(value);
        return { label: value, kind, detail, sortText, filterText: newText, textEdit: { range, newText } };
    };

    if (last === "polarity") {
        return [
            item("supports", CompletionItemKind.EnumMember, "the cited span, read alone, evidences the claim"),
            item("refutes", CompletionItemKind.EnumMember, "the cited span directly contradicts the claim"),
        ];
    }
    if (last === "path") {
        const paths = file.embedded
            ? (file.documents ?? []).map((d) => d.path)
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

/**
 * The JSON path of the value at the cursor. The file's cached parse tree answers in time
 * proportional to its depth; jsonc-parser's getLocation, which scans the text up to the cursor, is
 * kept for positions with no value yet (`"str": |`).
 */
function locate(file: AnnotationFile, offset: number): { path: JSONPath; previous?: Node } | undefined {
    const node = file.nodeAt(offset);
    const parent = node?.parent;
    if (node && node.type === "string" && parent?.type === "property" && parent.children?.[1] === node) {
        return { path: getNodePath(node), previous: node };
    }
    // getLocation recurses per nesting level: never on text too deep for a tree.
    if (file.located.tooDeep) return undefined;
    const location = getLocation(file.text, offset);
    if (location.isAtPropertyKey) return undefined;
    return { path: location.path, previous: location.previousNode };
}

interface Candidate {
    value: string;
    detail: string;
}

/** Candidates per document version, line and other boundary: repeated requests cost a lookup. */
const candidateCache = new WeakMap<SessionDocument, Map<string, Candidate[]>>();

function boundaryItems(file: AnnotationFile, refPath: (string | number)[], boundary: "start" | "end"): Candidate[] {
    const ref = valueAt(file.value, refPath);
    if (!isObject(ref) || typeof ref.path !== "string") return [];
    const own = ref[boundary];
    if (!isObject(own) || typeof own.line !== "number") return [];
    const document = file.lookup.get(ref.path);
    if (!document || isDocumentFailure(document) || !document.lines.hasLine(own.line)) return [];
    const other = boundary === "start" ? ref.end : ref.start;
    const key = JSON.stringify([ref.path, boundary, own.line, isObject(other) ? [other.line, other.str] : null]);
    let cache = candidateCache.get(document);
    if (!cache) {
        cache = new Map();
        candidateCache.set(document, cache);
    }
    const cached = cache.get(key);
    if (cached) return cached;
    const text = document.lines.line(own.line);
    const candidates: Candidate[] = [];
    const seen = new Set<string>();
    // A huge line (megabytes of text) gets candidates for its first words only: each costs scans of the line.
    let budget = occurrenceBudget(text);
    for (const word of text.matchAll(WORD)) {
        if (budget-- <= 0) break;
        const index = word.index ?? 0;
        const value =
            boundary === "start"
                ? shortestUniqueStartingAt(text, index, MAX_FIX_STR)
                : shortestUniqueEndingAt(text, index + word[0].length, MAX_FIX_STR);
        if (value === undefined || seen.has(value)) continue;
        seen.add(value);
        candidates.push({ value, detail: spanDetail(document, ref.path, boundary, own.line, value, other) });
    }
    cache.set(key, candidates);
    return candidates;
}

/** The span the ref would have with this boundary (when the other boundary is usable). */
function spanDetail(
    document: SessionDocument,
    path: string,
    boundary: "start" | "end",
    line: number,
    str: string,
    other: unknown,
): string {
    if (!isObject(other) || typeof other.line !== "number" || typeof other.str !== "string" || other.str === "") {
        return `line ${line}, ${boundary} of the span`;
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
