/**
 * Quotes checked against pages as they are now (docs/quotes.md, "notes", "report-check",
 * "trace verify-urls"). Pure: the pages are fetched by the caller; this only matches and reports,
 * in TraceCite's shape (`source_count`, `citation_count`, `matched_count`, one item per citation or
 * per source), without echoing page text or quotes.
 */

import { type ExitStatus, TRACECITE_EXIT } from "../../../shared/exitCodes";
import type { PageText } from "../core/pageSources";
import { count } from "./diagnostics";
import { findQuoteIn, foldText, type QuoteMatch } from "./match";
import type { QuoteCitation } from "./notes";
import type { TraceAnalysis } from "./trace";

export interface LiveItem {
    /** 1-based line of the quote (notes, reports) or of the source (traces). */
    line: number;
    url: string;
    ok: boolean;
    citation_count: number;
    matched_count: number;
    diagnostics: string[];
    /** Why a source was unavailable (never page text). */
    message?: string;
}

export interface LiveReport {
    ok: boolean;
    exitCode: ExitStatus;
    source_count: number;
    citation_count: number;
    matched_count: number;
    items: LiveItem[];
}

export interface LiveMatch {
    citation: QuoteCitation;
    match?: QuoteMatch;
}

/** One item per quote (notes and reports). Exit 2 unless every quote was found. */
export function checkQuotesLive(
    citations: QuoteCitation[],
    pages: ReadonlyMap<string, PageText>,
): { report: LiveReport; matches: LiveMatch[] } {
    const finder = new LiveQuoteFinder(pages);
    const matches: LiveMatch[] = [];
    const items = citations.map((citation): LiveItem => {
        const match = finder.find(citation);
        matches.push({ citation, match });
        return liveItem(citation, pages.get(citation.url), match !== undefined);
    });
    const matched = items.filter((item) => item.ok).length;
    return {
        report: {
            ...liveCounts(items.length, matched, new Set(citations.map((c) => c.url)).size),
            items,
        },
        matches,
    };
}

/** Where each quote is in its page, each page folded once (the same page serves many quotes). */
export class LiveQuoteFinder {
    private readonly folded = new Map<string, ReturnType<typeof foldText>>();

    constructor(private readonly pages: ReadonlyMap<string, PageText>) {}

    /** The quote's place in its page; undefined when not found or the page is unavailable. */
    find(citation: QuoteCitation): QuoteMatch | undefined {
        const page = this.pages.get(citation.url);
        if (!page?.ok) return undefined;
        let text = this.folded.get(citation.url);
        if (!text) {
            text = foldText(page.text);
            this.folded.set(citation.url, text);
        }
        return findQuoteIn(text, citation.quote);
    }
}

/** A quote's item: found, not found, or its page unavailable (why, never page text). */
export function liveItem(citation: QuoteCitation, page: PageText | undefined, found: boolean): LiveItem {
    const item: LiveItem = {
        line: citation.line,
        url: citation.url,
        ok: false,
        citation_count: 1,
        matched_count: 0,
        diagnostics: [],
    };
    if (!page?.ok) {
        item.diagnostics.push(page?.ok === false ? page.code : "SOURCE_UNAVAILABLE");
        if (page?.ok === false) item.message = page.message;
    } else if (found) {
        item.ok = true;
        item.matched_count = 1;
    } else item.diagnostics.push("QUOTE_NOT_IN_LIVE_SOURCE");
    return item;
}

/** The report without its items: exit 2 unless every quote was found. */
export function liveCounts(citations: number, matched: number, sources: number): Omit<LiveReport, "items"> {
    const exitCode = matched === citations ? TRACECITE_EXIT.pass : TRACECITE_EXIT.mismatch;
    return {
        ok: exitCode === TRACECITE_EXIT.pass,
        exitCode,
        source_count: sources,
        citation_count: citations,
        matched_count: matched,
    };
}

/** One item per source of a trace: each of its quotes must appear in the page as it is now. */
export function checkTraceLive(analysis: TraceAnalysis, pages: ReadonlyMap<string, PageText>): LiveReport {
    const items = analysis.sources.map((source): LiveItem => {
        const citations = analysis.claims.flatMap((claim) =>
            claim.citations.filter((c) => c.sourceId === source.id && c.quote !== undefined),
        );
        const item: LiveItem = {
            line: source.line,
            url: source.uri,
            ok: false,
            citation_count: citations.length,
            matched_count: 0,
            diagnostics: [],
        };
        const page = pages.get(source.uri);
        if (!page?.ok) {
            item.diagnostics.push(page?.ok === false ? page.code : "SOURCE_UNAVAILABLE");
            if (page?.ok === false) item.message = page.message;
            return item;
        }
        if (citations.length === 0) {
            item.diagnostics.push("NO_CITATIONS_FOR_SOURCE");
            return item;
        }
        const text = foldText(page.text);
        for (const citation of citations) {
            if (findQuoteIn(text, citation.quote ?? "")) item.matched_count++;
            else item.diagnostics.push(`QUOTE_NOT_IN_LIVE_SOURCE:claim-${citation.claim}`);
        }
        item.ok = item.diagnostics.length === 0;
        return item;
    });
    const citationCount = items.reduce((sum, item) => sum + item.citation_count, 0);
    const matched = items.reduce((sum, item) => sum + item.matched_count, 0);
    const exitCode =
        citationCount > 0 && matched === citationCount && items.every((i) => i.ok)
            ? TRACECITE_EXIT.pass
            : TRACECITE_EXIT.mismatch;
    return {
        ok: exitCode === TRACECITE_EXIT.pass,
        exitCode,
        source_count: items.length,
        citation_count: citationCount,
        matched_count: matched,
        items,
    };
}

/** `PASS: 1/1 quotes appear in 1 live web source`. */
export function liveSummary(report: LiveReport, what: "quotes" | "citations"): string {
    return `${report.ok ? "PASS" : "FAIL"}: ${report.matched_count}/${report.citation_count} ${what} appear in ${count(report.source_count, "live web source")}`;
}
