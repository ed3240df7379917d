/**
 * Quote-based citations in the editor (docs/quotes.md, "In the editor"): diagnostics on the exact
 * line for TraceCite traces, notes and Markdown reports; hovers showing where a quote was found;
 * the "Convert to SourceCheck refs" code action; re-fetching pages, only when the client asks (an
 * explicit, cancellable command in a trusted workspace). A thin adapter over server/src/quotes; the
 * pages come through the `FetchPage` it is given, and nothing is fetched on its own. The second
 * service behind the language server's registrations (languageService.ts dispatches by kind).
 */
import * as nodePath from "node:path";
import {
    type CodeAction,
    type CodeActionParams,
    type Diagnostic,
    DiagnosticSeverity,
    type DocumentDiagnosticReport,
    DocumentDiagnosticReportKind,
    type Hover,
    type HoverParams,
    MarkupKind,
    type Range,
} from "vscode-languageserver-protocol";
import type { TextDocument } from "vscode-languageserver-textdocument";
import {
    CONVERT_QUOTES_COMMAND,
    CONVERT_QUOTES_KIND,
    type ConvertQuotesResult,
    NOTES_LANGUAGE,
    type RefetchQuotesResult,
    TRACE_LANGUAGE,
} from "../../../shared/quoteProtocol";
import { LineIndex } from "../core/lines";
import { type PageText, tidyPageText } from "../core/pageSources";
import type { FetchOptions, FetchResult } from "../fetch/fetchSource";
import { convertQuotes, convertTrace } from "../quotes/convert";
import type { QuoteDiagnostic } from "../quotes/diagnostics";
import { checkQuotesLive, type LiveMatch } from "../quotes/live";
import { type ParsedQuotes, parseNotes } from "../quotes/notes";
import { parseReport } from "../quotes/report";
import { analyzeTrace, type TraceAnalysis } from "../quotes/trace";
import { isFileUrl, type RootedRead, readFileSource } from "../workspace/fileSources";
import type { UriSpace } from "../workspace/uris";
import { ACTION_TEXTS, ENGLISH, type Translate } from "./messages";
import { toLspRange } from "./positions";

/** How pages are fetched: the strict policy of fetch/fetchSource.ts in the server, a recorder in tests. */
export type FetchPage = (url: string, options: Pick<FetchOptions, "signal">) => Promise<FetchResult>;

export interface QuoteDocuments {
    get(uri: string): TextDocument | undefined;
}

export const QUOTE_CODE_ACTION_KINDS = [CONVERT_QUOTES_KIND];

type Kind = "trace" | "notes" | "report";

interface Analysed {
    version: number;
    kind: Kind;
    trace?: TraceAnalysis;
    quotes?: ParsedQuotes;
    live?: LiveMatch[];
    liveCodes?: Map<LiveMatch, { code: string; message: string }>;
}

/** Codes of the live check that mean the page was unavailable rather than the quote missing. */
const NOT_FOUND = "QUOTE_NOT_IN_LIVE_SOURCE";

export class QuoteFiles {
    private readonly cache = new Map<string, Analysed>();
    /** Pages fetched on request, per document: URL -> tidied visible text (or why unavailable). */
    private readonly pages = new Map<string, Map<string, PageText>>();

    constructor(
        private readonly documents: QuoteDocuments,
        private readonly fetchPage: FetchPage,
        /** The workspace folders: the only places a `file:` source is read from. */
        private readonly roots: () => readonly string[],
        /** How URIs name paths (the workspace index's: set when the service starts). */
        private readonly uris: () => UriSpace,
        /** How a `file:` source is read under a root: the host's document reader (the workspace index's). */
        private readonly readUnderRoot: RootedRead,
    ) {}

    /** A document closed: its analysis and the pages fetched for it go. */
    closed(uri: string): void {
        this.cache.delete(uri);
        this.pages.delete(uri);
    }

    /**
     * A trace or notes file (not Markdown, which is one from the start) just opened: its language may
     * have been switched to this one by a configured glob, after the client pulled it under the old one.
     */
    switchedLanguage(document: TextDocument): boolean {
        return kindOf(document) !== undefined && document.languageId !== "markdown";
    }

    /** True for an open trace, notes file or Markdown document. */
    handles(uri: string): boolean {
        const document = this.documents.get(uri);
        return document !== undefined && kindOf(document) !== undefined;
    }

    pullReport(uri: string): DocumentDiagnosticReport {
        return { kind: DocumentDiagnosticReportKind.Full, items: this.diagnostics(uri) };
    }

    diagnostics(uri: string): Diagnostic[] {
        const analysed = this.analysed(uri);
        const document = this.documents.get(uri);
        if (!analysed || !document) return [];
        const found: QuoteDiagnostic[] = analysed.trace?.diagnostics ?? analysed.quotes?.diagnostics ?? [];
        // A Markdown file without report quotes is just Markdown: no "no citations" complaint.
        const shown = analysed.kind === "report" ? found.filter((d) => d.code !== "NO_REPORT_CITATIONS") : found;
        const diagnostics = shown.map((d) => toDiagnostic(document, d, DiagnosticSeverity.Error));
        for (const match of analysed.live ?? []) {
            const failure = analysed.liveCodes?.get(match);
            if (!failure) continue;
            const { citation } = match;
            diagnostics.push(
                toDiagnostic(
                    document,
                    { line: citation.line, code: failure.code, message: failure.message, columns: citation.columns },
                    failure.code === NOT_FOUND ? DiagnosticSeverity.Error : DiagnosticSeverity.Warning,
                ),
            );
        }
        return diagnostics;
    }

    hover(params: HoverParams): Hover | null {
        const analysed = this.analysed(params.textDocument.uri);
        if (!analysed) return null;
        const { line, character } = params.position;
        const inside = (l: number, columns?: { start: number; end: number }) =>
            l - 1 === line && columns !== undefined && character >= columns.start && character <= columns.end;
        if (analysed.trace) {
            const sources = new Map(analysed.trace.sources.map((s) => [s.id, s]));
            for (const claim of analysed.trace.claims) {
                for (const citation of claim.citations) {
                    if (!inside(citation.line, citation.columns)) continue;
                    const source = sources.get(citation.sourceId);
                    let text: string;
                    if (!source) text = `Source \`${citation.sourceId}\` is not in this trace.`;
                    else if (citation.found && source.content !== undefined) {
                        const at = new LineIndex(source.content).positionAt(citation.found.start);
                        text = `Found verbatim in the captured content of source \`${source.id}\` (${source.uri}): line ${at.line}, column ${at.column + 1}.`;
                    } else if (citation.status === "not-matched")
                        text = `Not found verbatim in the captured content of source \`${source.id}\` (${source.uri}).`;
                    else text = `Source \`${source.id}\` (${source.uri}) has no captured content to look in.`;
                    return hoverAt(citation.line, citation.columns!, text);
                }
            }
            return null;
        }
        for (const citation of analysed.quotes?.citations ?? []) {
            if (!inside(citation.line, citation.columns)) continue;
            const page = this.pages.get(params.textDocument.uri)?.get(citation.url);
            const match = analysed.live?.find((m) => m.citation === citation)?.match;
            let text: string;
            if (!page)
                text = `Not fetched yet: run **SourceCheck: Re-fetch Cited Pages** to look for it in ${citation.url}.`;
            else if (!page.ok) text = `${citation.url} was unavailable: ${page.code} (${page.message}).`;
            else if (match) {
                const at = new LineIndex(page.text).positionAt(match.start);
                text = `Found${match.elided ? " (through an elision)" : ""} in the visible text of ${citation.url} as fetched: line ${at.line}, column ${at.column + 1}.`;
            } else text = `Not found in the visible text of ${citation.url} as fetched.`;
            return hoverAt(citation.line, citation.columns, text);
        }
        return null;
    }

    /** The quote file's conversion, titled in the editor's language (`t`). */
    codeActions(params: CodeActionParams, t: Translate = ENGLISH): CodeAction[] {
        const analysed = this.analysed(params.textDocument.uri);
        if (!analysed) return [];
        const has = analysed.trace
            ? analysed.trace.claims.some((c) => c.citations.length > 0)
            : (analysed.quotes?.citations.length ?? 0) > 0;
        if (!has) return [];
        if (params.context.only && !params.context.only.some((kind) => CONVERT_QUOTES_KIND.startsWith(kind))) return [];
        const title = t(ACTION_TEXTS.convertQuotes, {});
        return [
            {
                title,
                kind: CONVERT_QUOTES_KIND,
                command: { title, command: CONVERT_QUOTES_COMMAND, arguments: [{ uri: params.textDocument.uri }] },
            },
        ];
    }

    private analysed(uri: string): Analysed | undefined {
        const document = this.documents.get(uri);
        if (!document) return undefined;
        const kind = kindOf(document);
        if (kind === undefined) return undefined;
        const cached = this.cache.get(uri);
        if (cached && cached.version === document.version && cached.kind === kind) return cached;
        const text = document.getText();
        const analysed: Analysed = { version: document.version, kind };
        if (kind === "trace") analysed.trace = analyzeTrace(text);
        else {
            analysed.quotes = kind === "notes" ? parseNotes(text) : parseReport(text);
            this.matchPages(uri, analysed);
        }
        this.cache.set(uri, analysed);
        return analysed;
    }

    private matchPages(uri: string, analysed: Analysed): void {
        const pages = this.pages.get(uri);
        const quotes = analysed.quotes;
        // The well-formed records are checked even when another one is malformed (that one has its own error).
        if (!pages || !quotes) return;
        const fetched = quotes.citations.filter((c) => pages.has(c.url));
        const { report, matches } = checkQuotesLive(fetched, pages);
        analysed.live = matches;
        analysed.liveCodes = new Map();
        matches.forEach((match, i) => {
            const item = report.items[i];
            if (item.ok) return;
            const code = item.diagnostics[0] ?? NOT_FOUND;
            const message =
                code === NOT_FOUND
                    ? `the quote does not appear in ${item.url} as fetched`
                    : `${item.url} is unavailable: ${item.message ?? code}`;
            analysed.liveCodes?.set(match, { code, message });
        });
    }

    /** Fetch every page the file cites (until `signal` aborts) and match its quotes against them. */
    async refetch(uri: string, signal: AbortSignal): Promise<RefetchQuotesResult> {
        const document = this.documents.get(uri);
        const kind = document ? kindOf(document) : undefined;
        if (!document || (kind !== "notes" && kind !== "report"))
            return { ok: false, message: "re-fetching works on an open notes file or Markdown report" };
        const quotes = kind === "notes" ? parseNotes(document.getText()) : parseReport(document.getText());
        const urls = [...new Set(quotes.citations.map((c) => c.url))];
        if (urls.length === 0) return { ok: false, message: "this file cites no page" };
        const pages = new Map<string, PageText>();
        for (const url of urls) {
            if (signal.aborted) break;
            // A file: source is read from the workspace, offline (workspace/fileSources.ts).
            if (isFileUrl(url)) {
                pages.set(url, readFileSource(url, this.uris().uriToPath(uri), this.roots(), this.readUnderRoot));
                continue;
            }
            const result = await this.fetchPage(url, { signal });
            if (!result.ok && result.code === "FETCH_CANCELLED") break;
            pages.set(
                url,
                result.ok
                    ? { ok: true, text: tidyPageText(result.text) }
                    : { ok: false, code: result.code, message: result.message },
            );
        }
        if (signal.aborted) return { ok: false, cancelled: true, message: "re-fetching was cancelled" };
        this.pages.set(uri, pages);
        this.cache.delete(uri);
        const analysed = this.analysed(uri);
        const matched = analysed?.live?.filter((m) => m.match !== undefined).length ?? 0;
        return {
            ok: true,
            pageCount: pages.size,
            failedCount: [...pages.values()].filter((p) => !p.ok).length,
            citationCount: quotes.citations.length,
            matchedCount: matched,
        };
    }

    /**
     * The pages a conversion cites from: those re-fetched, and every `file:` source read from the
     * workspace now (offline, never outside it, as re-fetching and `trace verify-files` read them), so
     * Convert needs no re-fetch first for local sources.
     */
    private pagesToConvert(uri: string, citations: readonly { url: string }[]): Map<string, PageText> {
        const pages = new Map(this.pages.get(uri) ?? []);
        for (const { url } of citations)
            if (isFileUrl(url))
                pages.set(url, readFileSource(url, this.uris().uriToPath(uri), this.roots(), this.readUnderRoot));
        return pages;
    }

    /** The file as a SourceCheck annotation file beside it (the client writes it). */
    convert(uri: string): ConvertQuotesResult {
        const document = this.documents.get(uri);
        const analysed = this.analysed(uri);
        const path = this.uris().uriToPath(uri);
        if (!document || !analysed || path === undefined)
            return { ok: false, message: "convert works on an open trace, notes file or Markdown report on disk" };
        if (analysed.trace?.malformed) return { ok: false, message: "the trace has lines that are not JSON" };
        const badInput = analysed.quotes?.diagnostics.filter((d) => d.code !== "NO_REPORT_CITATIONS") ?? [];
        if (badInput.length > 0)
            return { ok: false, message: `line ${badInput[0].line}: ${badInput[0].code}: fix the file first` };
        const converted = analysed.trace
            ? convertTrace(analysed.trace)
            : convertQuotes(
                  analysed.quotes?.citations ?? [],
                  this.pagesToConvert(uri, analysed.quotes?.citations ?? []),
              );
        const base = nodePath.basename(path).replace(/(\.trace)?\.(jsonl|md|markdown|txt)$/i, "");
        return {
            ok: true,
            targetUri: this.uris().pathToUri(nodePath.join(nodePath.dirname(path), `${base}.sourcecheck.json`)),
            content: `${JSON.stringify(converted, null, 2)}\n`,
            convertedCount: converted.annotations.reduce((sum, a) => sum + a.sources.length, 0),
            unconvertedCount: converted.unconverted.length,
        };
    }
}

function kindOf(document: TextDocument): Kind | undefined {
    if (document.languageId === TRACE_LANGUAGE) return "trace";
    if (document.languageId === NOTES_LANGUAGE) return "notes";
    if (document.languageId === "markdown") return "report";
    return undefined;
}

/** The finding's columns when it has them, else its whole line without the indentation. */
function toDiagnostic(document: TextDocument, finding: QuoteDiagnostic, severity: DiagnosticSeverity): Diagnostic {
    const line = Math.max(0, Math.min(finding.line - 1, document.lineCount - 1));
    let range: Range;
    if (finding.columns)
        range = { start: { line, character: finding.columns.start }, end: { line, character: finding.columns.end } };
    else {
        const text = document
            .getText({ start: { line, character: 0 }, end: { line: line + 1, character: 0 } })
            .replace(/\r?\n$/, "");
        const indent = text.length - text.trimStart().length;
        range = { start: { line, character: indent }, end: { line, character: text.length } };
    }
    return { range, severity, code: finding.code, source: "sourcecheck", message: finding.message };
}

function hoverAt(line: number, columns: { start: number; end: number }, text: string): Hover {
    return {
        contents: { kind: MarkupKind.Markdown, value: text },
        range: toLspRange({ start: { line, column: columns.start }, end: { line, column: columns.end } }),
    };
}
