/**
 * The custom protocol's handlers (names and shapes in shared/customProtocol.ts, documented in docs/custom-protocol.md).
 */

import type {
    BrokenRef,
    Citation,
    CitationSource,
    CitedSpan,
    CitedSpansResult,
    CoverageResult,
    LspRange,
    RefForSelectionResult,
    RefProblem,
    SpanKind,
} from "../../../shared/customProtocol";
import { ordinal, refRoleOf } from "../../../shared/numbering";
import { type RefAttempt, refForSpan } from "../core/author";
import { type BoundaryStyle, snapToWord } from "../core/boundaries";
import { decodedOffsetInJsonString } from "../core/jsonString";
import { LineIndex } from "../core/lines";
import { numberedLines } from "../core/numberedLines";
import { uncoveredSentences } from "../core/sentences";
import { SessionDocument } from "../core/session";
import type { AnnotationFile } from "../workspace/annotationFile";
import type { FeatureWorkspace, Citation as IndexedCitation } from "./featureWorkspace";
import { fromLspPosition, lineRange, offsetAt, prefetchRefSpans, rangeOfPointer, toLspRange } from "./positions";

const MAX_CLAIM_TEXT = 500;

/**
 * The valid resolved spans inside a document, each with who cites it, how, and the verdict of the
 * citing annotation; and the refs into it that do not resolve, on the line they name.
 */
export function citedSpans(workspace: FeatureWorkspace, uri: string): CitedSpansResult {
    const path = workspace.uris.uriToPath(uri);
    if (path === undefined) return { uri, spans: [], brokenRefs: [] };
    const byKey = new Map<string, CitedSpan>();
    const all = workspace.citationsOf(path);
    prefetchRefSpans(all);
    const brokenRefs = brokenRefsIn(workspace, uri, all);
    for (const { file, site } of all) {
        if (!site.resolution.valid) continue;
        const kind: SpanKind = site.role === "claim" ? "claim" : (site.polarity ?? "supports");
        const range = toLspRange(site.resolution.range);
        const key = `${kind}:${range.start.line}:${range.start.character}:${range.end.line}:${range.end.character}`;
        let span = byKey.get(key);
        if (!span) {
            span = { range, kind, citations: [] };
            byKey.set(key, span);
        }
        const claim = file.site(site.annotation, "claim");
        const citation: Citation = {
            annotationUri: file.uri,
            annotation: ordinal(site.annotation),
            ...refRoleOf(site.role),
            verdict: file.verdictOf(site.annotation),
            refRange: rangeOfPointer(file, site.pointer),
        };
        if (site.role === "claim" && citation.verdict === "broken" && file.awaitsSources(site.annotation))
            citation.awaitingSources = true;
        if (site.role !== "claim") {
            citation.polarity = site.polarity;
            citation.confidence = site.confidence;
        } else citation.sources = sourcesOf(file, site.annotation);
        if (claim?.resolution.valid) citation.claimText = claim.resolution.text.slice(0, MAX_CLAIM_TEXT);
        const problems = refProblemsOf(file, site.annotation);
        if (problems.length > 0) citation.problems = problems;
        span.citations.push(citation);
    }
    const spans = [...byKey.values()].sort(
        (a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character,
    );
    return { uri, spans, brokenRefs };
}

/** The sources of an annotation as its claim's hover lists them: each with its own verdict. */
function sourcesOf(file: AnnotationFile, annotation: number): CitationSource[] {
    return file
        .sitesOf(annotation)
        .filter((site) => site.role !== "claim")
        .map((site) => ({
            source: ordinal(site.role as number),
            polarity: site.polarity,
            confidence: site.confidence,
            verdict: !site.resolution.valid ? "broken" : site.polarity === "refutes" ? "refuted" : "supported",
        }));
}

/** Each ref of an annotation that fails (its first error) or drifted from its locked text. */
function refProblemsOf(file: AnnotationFile, annotation: number): RefProblem[] {
    const problems: RefProblem[] = [];
    for (const site of file.sitesOf(annotation)) {
        const failure = site.resolution.valid ? file.driftOf(site) : site.resolution.errors[0];
        if (!failure) continue;
        problems.push({
            ...refRoleOf(site.role),
            path: site.ref.path,
            code: failure.code,
            message: failure.message,
            refRange: rangeOfPointer(file, site.pointer),
        });
    }
    return problems;
}

function brokenRefsIn(workspace: FeatureWorkspace, uri: string, citations: IndexedCitation[]): BrokenRef[] {
    const broken = citations.filter((c) => !c.site.resolution.valid);
    if (broken.length === 0) return [];
    const cited = workspace.citable(uri);
    if (!cited.ok) return [];
    const lines = cited.document.lines;
    const result: BrokenRef[] = [];
    for (const { file, site } of broken) {
        if (site.resolution.valid) continue;
        const error = site.resolution.errors[0];
        if (!error) continue;
        const named = site.ref[error.boundary ?? "start"].line;
        if (!Number.isInteger(named) || named < 1) continue;
        // A line past the end is marked on the document's last line: the reader still sees the ref.
        const line = lines.hasLine(named) ? named : lines.lineCount;
        if (!lines.hasLine(line)) continue;
        result.push({
            range: lineRange(line, lines.line(line).length),
            line,
            ...refRoleOf(site.role),
            annotationUri: file.uri,
            annotation: ordinal(site.annotation),
            code: error.code,
            message: error.message,
            refRange: rangeOfPointer(file, site.pointer),
        });
    }
    return result.sort((a, b) => a.line - b.line);
}

/**
 * A ref for a selection: in a workspace document (path relative to its document root), or inside
 * an embedded document's `content` of a session file (that document's path).
 */
export function refForSelection(
    workspace: FeatureWorkspace,
    annotationFile: AnnotationFile | undefined,
    uri: string,
    range: LspRange,
): RefForSelectionResult {
    const style = workspace.settings.boundaryStyle;
    if (annotationFile?.embedded) return withNote(refInEmbedded(annotationFile, range, style), style);
    const cited = workspace.citable(uri);
    if (!cited.ok) return cited;
    const document = cited.document;
    // Word style: a selection that starts or ends inside a word cites the whole word (a slip of the
    // mouse must not write "ew scheduler" or "queu"); `shortest` keeps character precision.
    const snapped = style === "words" ? snapSelection(document, range) : range;
    const attempt = withNote(
        refForSpan(document, fromLspPosition(snapped.start), fromLspPosition(snapped.end), { style }),
        style,
    );
    const widened = snapped.start.character !== range.start.character || snapped.end.character !== range.end.character;
    return attempt.ok && widened ? { ...attempt, widenedTo: snapped } : attempt;
}

/** The selection with each edge moved out of the word it cuts (lines past the end left alone). */
function snapSelection(document: SessionDocument, range: LspRange): LspRange {
    const lines = document.lines;
    const edge = (position: LspRange["start"], side: "start" | "end") => {
        const { line, column } = fromLspPosition(position);
        return line > lines.lineCount
            ? position
            : { line: position.line, character: snapToWord(lines.line(line), column, side) };
    };
    return { start: edge(range.start, "start"), end: edge(range.end, "end") };
}

/** Character-level boundaries are said out loud (unless asked for): they are fragile and hard to read. */
function withNote(attempt: RefAttempt, style: BoundaryStyle): RefForSelectionResult {
    if (!attempt.ok || !attempt.characterLevel || style === "shortest") return attempt;
    return { ...attempt, note: CHARACTER_LEVEL_NOTE };
}

export const CHARACTER_LEVEL_NOTE =
    "a boundary cuts inside a word (character level): no word-aligned string is unique on its line";

function refInEmbedded(file: AnnotationFile, range: LspRange, style: BoundaryStyle): RefAttempt {
    const start = offsetAt(file, range.start);
    const end = offsetAt(file, range.end);
    for (const embedded of file.documents ?? []) {
        const token = file.spanOf(`${embedded.pointer}/content`);
        if (start <= token.offset || end >= token.offset + token.length) continue;
        const document = file.lookup.get(embedded.path);
        if (!(document instanceof SessionDocument)) continue;
        const raw = file.text.slice(token.offset, token.offset + token.length);
        const from = document.lines.positionAt(decodedOffsetInJsonString(raw, start - token.offset));
        const to = document.lines.positionAt(decodedOffsetInJsonString(raw, end - token.offset));
        return refForSpan(document, from, to, { style });
    }
    return { ok: false, message: "select text inside a document's content to cite it" };
}

/** Share of the document's non-blank characters inside claims of valid annotations. */
export function coverage(workspace: FeatureWorkspace, uri: string): CoverageResult {
    const content = workspace.documentText(uri);
    const path = workspace.uris.uriToPath(uri);
    if (content === undefined || path === undefined) return { coveredChars: 0, totalChars: 0, ratio: 0 };
    const spans: [number, number][] = [];
    for (const { file, site } of workspace.citationsOf(path)) {
        if (site.role !== "claim" || !site.resolution.valid || file.invalidAnnotations().has(site.annotation)) continue;
        spans.push([site.resolution.startOffset, site.resolution.endOffset]);
    }
    spans.sort((a, b) => a[0] - b[0]);
    let covered = 0;
    let reached = 0;
    for (const [from, to] of spans) {
        for (let i = Math.max(from, reached); i < to; i++) if (!isBlank(content.charCodeAt(i))) covered++;
        reached = Math.max(reached, to);
    }
    let total = 0;
    for (let i = 0; i < content.length; i++) if (!isBlank(content.charCodeAt(i))) total++;
    const lines = new LineIndex(content);
    const uncovered = uncoveredSentences(
        content,
        spans.map(([start, end]) => ({ start, end })),
    ).map(({ start, end }) => toLspRange({ start: lines.positionAt(start), end: lines.positionAt(end) }));
    return { coveredChars: covered, totalChars: total, ratio: total === 0 ? 0 : covered / total, uncovered };
}

function isBlank(code: number): boolean {
    return (
        code === 32 ||
        code === 9 ||
        code === 10 ||
        code === 13 ||
        code === 11 ||
        code === 12 ||
        code === 0xa0 ||
        code === 0x3000
    );
}

/** Each line prefixed with its 1-based number, like `evidex index`. */
export function lineIndex(workspace: FeatureWorkspace, uri: string): { text: string } | undefined {
    const content = workspace.documentText(uri);
    return content === undefined ? undefined : { text: numberedLines(content) };
}
