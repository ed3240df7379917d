/**
 * The bridge from quotes to refs (docs/quotes.md, "convert"): a trace's or notes' quote-based
 * citations become one SourceCheck file that `sourcecheck check` accepts: an embedded session with
 * each captured source (path = its URI) and an answer document holding one claim per line, and one
 * annotation per claim whose source refs cite the quotes. Refs come from citeQuote (word-aligned
 * unique boundaries); citations that cannot become a ref are listed in `unconverted`, never dropped.
 */
import { refForSpan } from "../core/author";
import { citeQuote } from "../core/cite";
import { normalizeLineEndings } from "../core/lines";
import { tidyPageText } from "../core/pageSources";
import { SessionDocument } from "../core/session";
import type { Annotation, Ref, SourceDocument, SourceRef } from "../core/types";
import { findQuote } from "./match";
import type { QuoteCitation } from "./notes";
import type { TraceAnalysis } from "./trace";

/** The path of the answer document in the converted session. */
export const ANSWER_PATH = "answer";
/**
 * TraceCite records no confidence; a converted citation carries the agent's assertion as made, so
 * it is recorded as 1 (the verdicts of docs/verdicts.md still come from the refs resolving).
 */
export const CONVERTED_CONFIDENCE = 1;

export interface Unconverted {
    /** 1-based claim number (line of the answer document), and citation number within the claim. */
    claim: number;
    citation?: number;
    /** Line of the input file the citation was read from. */
    line: number;
    source?: string;
    code: string;
    message: string;
    lines?: number[];
}

export interface ConvertedFile {
    session: { documents: SourceDocument[] };
    annotations: Annotation[];
    unconverted: Unconverted[];
}

/** A source of the session: its URI and the text the quotes are cited from. */
interface CapturedSource {
    uri: string;
    content: string;
}

interface PendingCitation {
    claim: number;
    citation: number;
    line: number;
    sourceLabel: string;
    /** The captured source, or why there is none (code and message). */
    source: CapturedSource | { code: string; message: string };
    quote: string;
    /** Notes and reports match quotes the way TraceCite matches web text (folded); traces verbatim. */
    folded: boolean;
}

interface PendingClaim {
    text: string;
    line: number;
    citations: PendingCitation[];
}

/** A trace's claims, each citation cited against the content captured in the trace. */
export function convertTrace(analysis: TraceAnalysis): ConvertedFile {
    const sources = new Map(analysis.sources.map((s) => [s.id, s]));
    const claims: PendingClaim[] = analysis.claims.map((claim, c) => ({
        text: claim.text,
        line: claim.line,
        citations: claim.citations.map((citation) => {
            const source = sources.get(citation.sourceId);
            const pending: PendingCitation = {
                claim: c + 1,
                citation: citation.index,
                line: citation.line,
                sourceLabel: citation.sourceId,
                quote: citation.quote ?? "",
                folded: false,
                source: { uri: source?.uri ?? "", content: source?.content ?? "" },
            };
            if (!source) pending.source = { code: "UNKNOWN_SOURCE", message: `unknown source ${citation.sourceId}` };
            else if (citation.quote === undefined)
                pending.source = { code: "MISSING_QUOTE", message: "a legacy source_ids citation has no quote" };
            else if (source.content === undefined)
                pending.source = { code: "MISSING_SOURCE_CONTENT", message: `source ${source.id} has no content` };
            return pending;
        }),
    }));
    return convertClaims(claims);
}

/**
 * Notes or report quotes, each cited against its page as fetched now (`pages`: URL -> visible text,
 * or why it is unavailable). Page text is tidied (trailing spaces, runs of blank lines) first.
 */
export function convertQuotes(
    citations: QuoteCitation[],
    pages: ReadonlyMap<string, { ok: true; text: string } | { ok: false; code: string; message: string }>,
): ConvertedFile {
    const tidied = new Map<string, string>();
    const claims: PendingClaim[] = citations.map((citation, c) => {
        const page = pages.get(citation.url);
        let source: PendingCitation["source"];
        if (!page?.ok) {
            source = page?.ok === false ? { code: page.code, message: page.message } : unavailable(citation.url);
        } else {
            let content = tidied.get(citation.url);
            if (content === undefined) {
                content = tidyPageText(page.text);
                tidied.set(citation.url, content);
            }
            source = { uri: citation.url, content };
        }
        return {
            text: citation.claim,
            line: citation.claimLine,
            citations: [
                {
                    claim: c + 1,
                    citation: 1,
                    line: citation.line,
                    sourceLabel: citation.url,
                    quote: citation.quote,
                    folded: true,
                    source,
                },
            ],
        };
    });
    return convertClaims(claims);
}

function unavailable(url: string) {
    return { code: "SOURCE_UNAVAILABLE", message: `${url} was not fetched` };
}

function convertClaims(claims: PendingClaim[]): ConvertedFile {
    const answerLines = claims.map((claim) => claim.text.replace(/\s*\n\s*/g, " ").trim() || "(empty claim)");
    const answer = new SessionDocument(ANSWER_PATH, answerLines.join("\n"));
    const documents = new Map<string, SessionDocument>();
    const pathOf = (source: CapturedSource, label: string): SessionDocument => {
        const content = normalizeLineEndings(source.content);
        let path = source.uri;
        // The same URI captured twice with different content (an unusual trace): keep both, apart.
        const existing = documents.get(path);
        if (existing && existing.content !== content) path = `${source.uri} (${label})`;
        let document = documents.get(path);
        if (!document) {
            document = new SessionDocument(path, content);
            documents.set(path, document);
        }
        return document;
    };
    const annotations: Annotation[] = [];
    const unconverted: Unconverted[] = [];
    claims.forEach((claim, c) => {
        const sources: SourceRef[] = [];
        for (const citation of claim.citations) {
            const failed = (code: string, message: string, lines?: number[]) =>
                unconverted.push({
                    claim: citation.claim,
                    citation: citation.citation,
                    line: citation.line,
                    source: citation.sourceLabel,
                    code,
                    message,
                    ...(lines && lines.length > 0 ? { lines } : {}),
                });
            if ("code" in citation.source) {
                failed(citation.source.code, citation.source.message);
                continue;
            }
            const document = pathOf(citation.source, citation.sourceLabel);
            const ref = citeInSource(document, citation);
            if (!ref.ok) failed(ref.code, ref.message, ref.lines);
            else sources.push({ ...ref.ref, polarity: "supports", confidence: CONVERTED_CONFIDENCE });
        }
        if (sources.length === 0) {
            if (claim.citations.length === 0)
                unconverted.push({
                    claim: c + 1,
                    line: claim.line,
                    code: "NO_CITATIONS",
                    message: "the claim cites nothing",
                });
            return;
        }
        const claimRef = wholeLineRef(answer, c + 1);
        if (!claimRef.ok) {
            unconverted.push({ claim: c + 1, line: claim.line, code: "CLAIM_NOT_CITABLE", message: claimRef.message });
            return;
        }
        annotations.push({ claim: claimRef.ref, sources });
    });
    const used = new Set(annotations.flatMap((a) => a.sources.map((s) => s.path)));
    return {
        session: {
            documents: [
                { path: ANSWER_PATH, content: answer.content },
                ...[...documents.values()]
                    .filter((d) => used.has(d.path))
                    .map((d) => ({ path: d.path, content: d.content })),
            ],
        },
        annotations,
        unconverted,
    };
}

type CiteAttempt = { ok: true; ref: Ref } | { ok: false; code: string; message: string; lines: number[] };

function citeInSource(document: SessionDocument, citation: PendingCitation): CiteAttempt {
    let quote = normalizeLineEndings(citation.quote);
    if (citation.folded) {
        // Web quotes match with folded whitespace, typographic quotes and elisions: cite the source
        // text they matched (from the first fragment to the last), verbatim.
        const match = findQuote(document.content, quote);
        if (!match) {
            return {
                ok: false,
                code: "quote-not-found",
                message: `the quote does not appear in the page text of ${citation.sourceLabel}`,
                lines: [],
            };
        }
        quote = document.content.slice(match.start, match.end);
    }
    const cited = citeQuote(document, quote);
    return cited.ok ? { ok: true, ref: cited.ref } : { ok: false, ...cited.error };
}

function wholeLineRef(answer: SessionDocument, line: number): { ok: true; ref: Ref } | { ok: false; message: string } {
    const text = answer.lines.line(line);
    const attempt = refForSpan(answer, { line, column: 0 }, { line, column: text.length });
    return attempt.ok ? { ok: true, ref: attempt.ref } : { ok: false, message: attempt.message };
}
