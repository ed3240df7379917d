/**
 * The coverage of a check (docs/agents.md, "Coverage"; docs/contract.md, "Unsourced claims"): per
 * claim document, its sentences a claim of a valid annotation covers, those the file records as
 * searched with no source found (its `unsourced` list), and the others, by line and by sentence on
 * the line. The one implementation: `check --json`, the library's `check`, the check tool's
 * structured content and its brief text all read this object. Pure: documents come from a lookup.
 */
import type { CheckedUnsourced } from "./check";
import { type LineSentences, type Span, sentenceCoverage, sentencesByLine } from "./sentences";
import { type DocumentLookup, isDocumentFailure } from "./session";
import type { Range, RefError } from "./types";

/** A claim document longer than this is not split into sentences (an answer is short). */
export const MAX_COVERAGE_CHARS = 1024 * 1024;

/** Lines listed per list of a document at most (a hostile answer of 100,000 lines must not come back whole). */
export const MAX_COVERAGE_LINES = 50;

/** One claim document's sentences, or why they were not counted. */
export interface DocumentCoverage {
    path: string;
    /** Sentences in the document. */
    sentences?: number;
    /** Sentences a claim of a valid annotation overlaps. */
    covered?: number;
    /** Sentences no claim covers that an `unsourced` ref overlaps: searched, no source found. */
    unsourced?: number;
    /** Sentences neither covers. */
    uncovered?: number;
    /** Where the unsourced sentences are, by line (the first MAX_COVERAGE_LINES lines). */
    unsourcedLines?: LineSentences[];
    /** Where the uncovered sentences are, by line (the first MAX_COVERAGE_LINES lines). */
    uncoveredLines?: LineSentences[];
    /** Lines left out of `unsourcedLines` and of `uncoveredLines`, when any. */
    unsourcedUnlisted?: number;
    uncoveredUnlisted?: number;
    /** Set when the document was not counted (over MAX_COVERAGE_CHARS). */
    skipped?: string;
}

/** A ref of the file's `unsourced` list as the report shows it (pointer `/unsourced/N`, N from 0). */
export interface UnsourcedEntry {
    pointer: string;
    valid: boolean;
    path?: string;
    text?: string;
    range?: Range;
    error?: RefError;
}

export interface ReportCoverage {
    documents: DocumentCoverage[];
    unsourced: UnsourcedEntry[];
}

/** Claim spans of valid annotations, by document path ([start, end) offsets); a path may hold none. */
export type ClaimSpans = Map<string, Span[]>;

/**
 * The coverage of every claim document: the paths of `claims` (every annotation's claim path, its
 * spans those of valid annotations) and of the unsourced refs that resolve, in path order.
 */
export function reportCoverage(
    lookup: DocumentLookup,
    claims: ClaimSpans,
    unsourced: readonly CheckedUnsourced[],
): ReportCoverage {
    const searched = new Map<string, Span[]>();
    for (const item of unsourced) {
        const resolution = item.resolution;
        if (!resolution?.valid) continue;
        const list = searched.get(resolution.path) ?? [];
        list.push({ start: resolution.startOffset, end: resolution.endOffset });
        searched.set(resolution.path, list);
    }
    const paths = [...new Set([...claims.keys(), ...searched.keys()])].sort();
    const documents: DocumentCoverage[] = [];
    for (const path of paths) {
        const document = lookup.get(path);
        if (document === undefined || isDocumentFailure(document)) continue;
        if (document.content.length > MAX_COVERAGE_CHARS) {
            documents.push({ path, skipped: `over ${MAX_COVERAGE_CHARS / 1024} KiB` });
            continue;
        }
        const counted = sentenceCoverage(document.content, claims.get(path) ?? [], searched.get(path) ?? []);
        const unsourcedLines = sentencesByLine(counted.unsourced);
        const uncoveredLines = sentencesByLine(counted.uncovered);
        const unlisted = (lines: LineSentences[]) => Math.max(0, lines.length - MAX_COVERAGE_LINES);
        documents.push({
            path,
            sentences: counted.sentences,
            covered: counted.covered,
            unsourced: counted.unsourced.length,
            uncovered: counted.uncovered.length,
            unsourcedLines: unsourcedLines.slice(0, MAX_COVERAGE_LINES),
            uncoveredLines: uncoveredLines.slice(0, MAX_COVERAGE_LINES),
            ...(unlisted(unsourcedLines) > 0 ? { unsourcedUnlisted: unlisted(unsourcedLines) } : {}),
            ...(unlisted(uncoveredLines) > 0 ? { uncoveredUnlisted: unlisted(uncoveredLines) } : {}),
        });
    }
    return { documents, unsourced: unsourced.map(unsourcedEntry) };
}

function unsourcedEntry(item: CheckedUnsourced): UnsourcedEntry {
    const resolution = item.resolution;
    if (resolution?.valid) {
        return {
            pointer: item.pointer,
            valid: true,
            path: resolution.path,
            text: resolution.text,
            range: resolution.range,
        };
    }
    const path = item.ref?.path;
    const error: RefError = resolution
        ? resolution.errors[0]
        : { code: "schema", message: "not a valid ref", pointer: item.pointer };
    return { pointer: item.pointer, valid: false, ...(path !== undefined ? { path } : {}), error };
}
