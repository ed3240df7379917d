/**
 * The review operation's pure parts (docs/review.md): which annotation files a change affects, and a
 * certain repair as the whole lines a reviewer can accept in one click. It reads nothing: the front
 * end injects the changes (git on Node), the annotation files and the index "document -> files
 * citing it", and hands over the texts.
 */
import { applyOffsetEdits, parsedTokenLocator, refTokenEdits } from "../core/annotationEdits";
import type { Ref } from "../core/types";

/**
 * One file changed between the base and the head (git's name-status, renames detected): the shape of
 * the workspace history's `changesBetween` (workspace/workspace.ts, HistoryChange), restated here so
 * that the operation imports nothing of the workspace.
 */
export interface ReviewChange {
    status: "added" | "modified" | "deleted" | "renamed" | "copied" | "type-changed";
    /** Its path at the head (for a deleted file, the path it had), relative to the repository root, `/`-separated. */
    path: string;
    /** A renamed or copied file's path at the base. */
    previousPath?: string;
}

/** An annotation file the change affects, and why: it changed itself, or documents it cites did. */
export interface AffectedFile {
    /** Relative to the repository root, `/`-separated. */
    file: string;
    /** Set when the annotation file itself (or the lock beside it) changed. */
    changed?: ReviewChange;
    /** The cited documents changed, renamed or deleted, as the change names them. */
    documents: ReviewChange[];
}

export interface ReviewScopeCapabilities {
    /** Every annotation file under review, relative to the repository root. */
    annotationFiles: readonly string[];
    /** The annotation files whose refs cite this document (a path relative to the repository root). */
    citing(documentPath: string): readonly string[];
    /** The annotation file a lock file belongs to, when `path` is a lock file. */
    lockOwner?(path: string): string | undefined;
}

/**
 * The annotation files a change affects (docs/review.md, "Affected refs"): those changed in it (or
 * whose lock changed), and those citing a document changed, renamed or deleted in it, by the path
 * their refs name (the old path of a rename: the refs still say it). In the order of the files given.
 */
export function reviewScope(changes: readonly ReviewChange[], capabilities: ReviewScopeCapabilities): AffectedFile[] {
    const underReview = new Set(capabilities.annotationFiles);
    const affected = new Map<string, AffectedFile>();
    const entry = (file: string) => {
        let found = affected.get(file);
        if (!found) {
            found = { file, documents: [] };
            affected.set(file, found);
        }
        return found;
    };
    for (const change of changes) {
        const owner = underReview.has(change.path) ? change.path : capabilities.lockOwner?.(change.path);
        if (owner !== undefined && underReview.has(owner) && change.status !== "deleted")
            entry(owner).changed ??= change;
        const cited = new Set<string>();
        for (const path of [change.path, change.previousPath]) {
            if (path === undefined) continue;
            for (const file of capabilities.citing(path)) if (underReview.has(file)) cited.add(file);
        }
        for (const file of cited) entry(file).documents.push(change);
    }
    return capabilities.annotationFiles.filter((file) => affected.has(file)).map((file) => affected.get(file)!);
}

/**
 * The document paths an annotation file's refs name, read from its parsed value without checking it:
 * enough to index which files cite which documents. An embedded session cites nothing on disk.
 */
export function citedRefPaths(value: unknown): string[] {
    const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null;
    let annotations: unknown = value;
    if (isObject(value) && !Array.isArray(value)) {
        if ("session" in value || "documents" in value) return [];
        annotations = value.annotations;
    }
    if (!Array.isArray(annotations)) return [];
    const paths = new Set<string>();
    const add = (ref: unknown) => {
        if (isObject(ref) && typeof ref.path === "string" && ref.path.length > 0) paths.add(ref.path);
    };
    for (const annotation of annotations) {
        if (!isObject(annotation)) continue;
        add(annotation.claim);
        if (Array.isArray(annotation.sources)) for (const source of annotation.sources) add(source);
    }
    return [...paths];
}

/** A certain repair as whole lines of the annotation file: what a ```suggestion block replaces. */
export interface LineSuggestion {
    /** The first and last line replaced, from 1. */
    startLine: number;
    endLine: number;
    /** The lines that replace them (no line ends). */
    lines: string[];
}

/**
 * The lines of `text` the repair of the ref at `pointer` (from `before` to `after`) changes, and what
 * they become: only the ref's changed tokens are rewritten (core/annotationEdits.ts), every other
 * character of those lines stays. Undefined when nothing changes or the text does not parse.
 */
export function lineSuggestion(text: string, pointer: string, before: Ref, after: Ref): LineSuggestion | undefined {
    const locate = parsedTokenLocator(text);
    if (!locate) return undefined;
    const edits = refTokenEdits(pointer, before, after, locate);
    if (edits.length === 0) return undefined;
    const from = Math.min(...edits.map((e) => e.offset));
    const to = Math.max(...edits.map((e) => e.offset + e.length));
    const lineStart = text.lastIndexOf("\n", from - 1) + 1;
    const nextBreak = text.indexOf("\n", to);
    const lineEnd = nextBreak === -1 ? text.length : nextBreak;
    const shifted = edits.map((e) => ({ ...e, offset: e.offset - lineStart }));
    const replaced = applyOffsetEdits(text.slice(lineStart, lineEnd), shifted);
    const startLine = countLines(text, lineStart);
    const endLine = startLine + countBreaks(text.slice(lineStart, lineEnd));
    // A CR before the line end belongs to the line end, not to the suggested text.
    return { startLine, endLine, lines: replaced.split("\n").map((line) => line.replace(/\r$/, "")) };
}

function countLines(text: string, offset: number): number {
    return countBreaks(text.slice(0, offset)) + 1;
}

function countBreaks(text: string): number {
    let n = 0;
    for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) n++;
    return n;
}
