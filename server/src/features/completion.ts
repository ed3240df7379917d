/**
 * Completion inside annotation files: `path` values (the session's documents, or workspace files),
 * `str` values (for `start`, the readable unique boundary beginning at each word start of the line;
 * for `end`, ending at each word end: docs/boundaries.md), only those that keep the ref valid, word-
 * aligned ones first, each with the text of the span it would give; and `polarity` values.
 * Works on text being typed (jsonc-parser's getLocation tolerates broken JSON) and never touches
 * the disk beyond the cached documents.
 */
import { getLocation, getNodePath, type JSONPath, type Node } from "jsonc-parser";
import { type CompletionItem, CompletionItemKind, type Position, type Range } from "vscode-languageserver-protocol";
import { baseNameOf, isCitationFileName } from "../../../shared/fileNames";
import { type BoundaryChoice, type BoundaryStyle, boundariesAt, spanEdges } from "../core/boundaries";
import { MAX_FIX_STR, occurrenceBudget } from "../core/fixes";
import { resolveInDocument } from "../core/resolve";
import { isDocumentFailure, type SessionDocument } from "../core/session";
import type { Ref } from "../core/types";
import type { AnnotationFile } from "../workspace/annotationFile";
import type { FeatureWorkspace } from "./featureWorkspace";
import { describeResolution, oneLine } from "./format";
import { offsetAt, positionAt } from "./positions";

const MAX_PATHS = 500;
export function completion(workspace: FeatureWorkspace, file: AnnotationFile, position: Position): CompletionItem[] {
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
        // Lock and annotation files hold citations, never a document to cite (shared/fileNames.ts).
        const paths = file.embedded
            ? (file.documents ?? []).map((d) => d.path)
            : file.root !== undefined
              ? workspace.filesUnder(file.root).filter((p) => !isCitationFileName(baseNameOf(p)))
              : [];
        return paths
            .slice(0, MAX_PATHS)
            .map((p) => item(p, CompletionItemKind.File, file.embedded ? "session document" : "workspace file"));
    }
    if (last === "str" && (path[path.length - 2] === "start" || path[path.length - 2] === "end")) {
        const boundary = path[path.length - 2] as "start" | "end";
        return boundaryItems(file, path.slice(0, -2), boundary, workspace.settings.boundaryStyle).map((c, index) =>
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

/** Candidates per document version, line, other boundary and style: repeated requests cost a lookup. */
const candidateCache = new WeakMap<SessionDocument, Map<string, Candidate[]>>();
const MAX_DETAIL = 60;

function boundaryItems(
    file: AnnotationFile,
    refPath: (string | number)[],
    boundary: "start" | "end",
    style: BoundaryStyle,
): Candidate[] {
    const ref = valueAt(file.value, refPath);
    if (!isObject(ref) || typeof ref.path !== "string") return [];
    const own = ref[boundary];
    if (!isObject(own) || typeof own.line !== "number") return [];
    const document = file.lookup.get(ref.path);
    if (!document || isDocumentFailure(document) || !document.lines.hasLine(own.line)) return [];
    const other = usableBoundary(boundary === "start" ? ref.end : ref.start);
    const key = JSON.stringify([ref.path, boundary, own.line, other ? [other.line, other.str] : null, style]);
    let cache = candidateCache.get(document);
    if (!cache) {
        cache = new Map();
        candidateCache.set(document, cache);
    }
    const cached = cache.get(key);
    if (cached) return cached;
    const candidates = computeCandidates(document, ref.path, boundary, own.line, other, style);
    cache.set(key, candidates);
    return candidates;
}

/**
 * One readable boundary per word edge of the line. With the other boundary usable, only those that
 * make the whole ref resolve are offered, with the span's text; word-aligned before character-level.
 */
function computeCandidates(
    document: SessionDocument,
    path: string,
    boundary: "start" | "end",
    line: number,
    other: { line: number; str: string } | undefined,
    style: BoundaryStyle,
): Candidate[] {
    const text = document.lines.line(line);
    const found: { choice: BoundaryChoice; detail: string; order: number; sentence: boolean }[] = [];
    const seen = new Set<string>();
    // A huge line (megabytes of text) gets candidates for its first words only: each costs scans of the line.
    const columns = spanEdges(text, boundary).slice(0, occurrenceBudget(text));
    const choices = boundariesAt(text, boundary, columns, { style, maxLength: MAX_FIX_STR });
    for (const [i, column] of columns.entries()) {
        let choice = choices[i];
        let detail = choice && describeCandidate(document, path, boundary, line, choice, other, column);
        // Lengthened to a meaningful word, it may pass the other boundary: then the plain word-aligned one.
        if (choice && detail === undefined) {
            choice = boundariesAt(text, boundary, [column], { style, maxLength: MAX_FIX_STR, readable: false })[0];
            detail = choice && describeCandidate(document, path, boundary, line, choice, other, column);
        }
        if (choice === undefined || detail === undefined || seen.has(choice.str)) continue;
        seen.add(choice.str);
        found.push({ choice, detail, order: found.length, sentence: atSentenceEdge(text, boundary, column) });
    }
    // The other boundary is itself broken: no candidate can fix the ref, so offer them on their own.
    if (other && found.length === 0) return computeCandidates(document, path, boundary, line, undefined, style);
    // Word-aligned first, then where a sentence starts (or ends: "benchmark.", not "The"), then line order.
    const rank = (c: BoundaryChoice) => (c.granularity === "words" || style === "shortest" ? 0 : 1);
    found.sort(
        (a, b) => rank(a.choice) - rank(b.choice) || Number(b.sentence) - Number(a.sentence) || a.order - b.order,
    );
    return found.map(({ choice, detail }) => ({ value: choice.str, detail }));
}

/**
 * Whether a boundary at `column` starts a sentence (the line's first word, or after `.`, `!`, `?` and
 * space) or ends one (after such a mark, or at the line's last character): the likely edges of a claim.
 */
function atSentenceEdge(text: string, boundary: "start" | "end", column: number): boolean {
    if (boundary === "start")
        return text.slice(0, column).trim() === "" || SENTENCE_END_BEFORE.test(text.slice(0, column));
    return text.slice(column).trim() === "" || SENTENCE_MARK_BEFORE.test(text.slice(0, column));
}
/** A sentence mark, closing quotes or brackets, then space, just before a column. */
const SENTENCE_END_BEFORE = /[.!?。！？…]["'”’)\]]*\s+$/u;
/** A sentence mark (and closing quotes or brackets) just before a column. */
const SENTENCE_MARK_BEFORE = /[.!?。！？…]["'”’)\]]*$/u;

/**
 * The text of the span the ref would have, or undefined when it would not resolve. Without a usable
 * other boundary: where the boundary sits and the text it bounds on its line.
 */
function describeCandidate(
    document: SessionDocument,
    path: string,
    boundary: "start" | "end",
    line: number,
    choice: BoundaryChoice,
    other: { line: number; str: string } | undefined,
    column: number,
): string | undefined {
    const cut = choice.granularity === "characters" && choice.str.length > 0 ? " · cuts inside a word" : "";
    if (!other) {
        const text = document.lines.line(line);
        const shown =
            boundary === "start"
                ? `"${oneLine(text.slice(column), MAX_DETAIL)}"`
                : `"${oneLine(text.slice(0, column), MAX_DETAIL)}"`;
        return `${boundary} of the span at line ${line}, column ${column + 1}: ${shown}${cut}`;
    }
    const mine = { line, str: choice.str };
    const ref: Ref = boundary === "start" ? { path, start: mine, end: other } : { path, start: other, end: mine };
    const resolution = resolveInDocument(document, ref);
    if (!resolution.valid) return undefined;
    return `${describeResolution(resolution, MAX_DETAIL)}${cut}`;
}

function usableBoundary(value: unknown): { line: number; str: string } | undefined {
    if (!isObject(value) || typeof value.line !== "number" || typeof value.str !== "string" || value.str === "")
        return undefined;
    return { line: value.line, str: value.str };
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
