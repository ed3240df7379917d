/**
 * The import operation (docs/import.md, docs/contract.md): a model API's response becomes the answer a
 * reader sees and SourceCheck annotations whose refs resolve. Each citation's claim is the cited answer
 * text; each source the span of a workspace document holding the provider's cited text, with readable
 * unique boundaries as `cite` writes them (core/cite.ts, core/author.ts). Nothing is guessed: what
 * cannot be converted is listed with a reason. Documents come from the front end (CLI, MCP, editor,
 * library); this reads and writes nothing itself.
 */

import { EXIT, type ReportExitStatus } from "../../../shared/exitCodes";
import { ordinal } from "../../../shared/numbering";
import { inline } from "../core/annotationEdits";
import { refForSpan } from "../core/author";
import { citeQuote, normalizeQuote } from "../core/cite";
import {
    type CitedDocument,
    type CitedSource,
    type ImportedCitation,
    ImportInputError,
    isImportInputError,
    type ParsedResponse,
    type Provider,
    parseProviderResponse,
    parseResponseText,
} from "../core/import";
import { trimSpan, verifiedSpan } from "../core/import/offsets";
import { normalizeLineEndings } from "../core/lines";
import { normalizeRefPath } from "../core/refPath";
import { type DocumentFailure, isDocumentFailure, SessionDocument } from "../core/session";
import type { Annotation, Ref, SourceRef } from "../core/types";

export type { Provider } from "../core/import";

export type NotConvertedReason =
    | "web-result"
    | "no-source-text"
    | "document-not-in-workspace"
    | "text-not-found"
    | "text-ambiguous"
    | "claim-not-found";

export interface NotConverted {
    /** The citation's number, from 1, in the response's order. */
    citation: number;
    reason: NotConvertedReason;
    message: string;
}

export interface ImportRequest {
    /** The response: its JSON text, or the value already parsed. */
    response: string | unknown;
    /** The request that produced it (Anthropic: where the documents' texts and titles are). */
    request?: string | unknown;
    from?: Provider;
    /** The answer file's path as refs cite it (relative to the document root). */
    answerPath: string;
    /** The answer file's text when it exists already: it must hold the answer. */
    existingAnswer?: string;
    /** `--document N=PATH|NAME=PATH`: the provider's document number or name, and the path (from the root). */
    documents?: readonly { key: string; path: string }[];
    /** Paths never taken as documents (the response and request files, the annotation file). */
    exclude?: readonly string[];
}

export interface ImportCapabilities {
    /** A document under the root (path safety applied), LF-normalised, or why it cannot be had. */
    document(path: string): SessionDocument | DocumentFailure;
    /** The candidate documents under the root, for matching by name and by content. */
    files(): Iterable<string>;
}

export interface ImportResult {
    provider: Provider;
    /** The answer's text, to write to the answer file (unchanged when it held the answer already). */
    answerText: string;
    /** Whether the answer file must be written (it did not exist). */
    writeAnswer: boolean;
    annotations: Annotation[];
    /** The annotation file's text: `{ "annotations": [...] }`, one ref per line. */
    annotationText: string;
    converted: number;
    notConverted: NotConverted[];
    exitCode: typeof EXIT.clean | typeof EXIT.findings;
}

/** What `import --json` prints, and what the library's `importCitations` and the `import` tool return (docs/import.md). */
export interface ImportJson {
    provider: Provider;
    /** The answer file, as the caller named it. */
    answer: string;
    /** The annotation file, as the caller named it. */
    annotationFile: string;
    converted: number;
    notConverted: NotConverted[];
    /** The one JSON envelope (docs/cli.md): `ok` is `exitCode === 0`. */
    ok: boolean;
    exitCode: ReportExitStatus;
}

/** The contract's JSON of a result, its files named as the front end shows them. */
export function importJson(result: ImportResult, answer: string, annotationFile: string): ImportJson {
    return {
        provider: result.provider,
        answer,
        annotationFile,
        converted: result.converted,
        notConverted: result.notConverted,
        ok: result.exitCode === EXIT.clean,
        exitCode: result.exitCode,
    };
}

/** The answer's default name: the response's with `.md` (`answers/q3.json` -> `answers/q3.md`). */
export function defaultAnswerPath(responsePath: string): string {
    return `${stripExtension(responsePath)}.md`;
}

/** The annotation file's default name: the answer's without its extension, with `.sourcecheck.json`. */
export function defaultAnnotationPath(answerPath: string): string {
    return `${stripExtension(answerPath)}.sourcecheck.json`;
}

function stripExtension(path: string): string {
    const slash = Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\"));
    const dot = path.lastIndexOf(".");
    return dot > slash + 1 ? path.slice(0, dot) : path;
}

/**
 * A `response` or `request` given to the tool or the library as a string: the file's path (one line,
 * not JSON), or the content itself (JSON text, or a stream's `data:` lines).
 */
export function isInlineContent(value: string): boolean {
    const start = value.trimStart();
    return start.startsWith("{") || start.startsWith("[") || value.includes("\n");
}

export type ImportOutcome =
    | { ok: true; result: ImportResult }
    | { ok: false; error: { code: string; message: string } };

export function importResponse(request: ImportRequest, capabilities: ImportCapabilities): ImportOutcome {
    let parsed: ParsedResponse;
    try {
        const response = typeof request.response === "string" ? parseResponseText(request.response) : request.response;
        const context =
            typeof request.request === "string" ? parseResponseText(request.request, "request") : request.request;
        parsed = parseProviderResponse(response, { from: request.from, request: context });
    } catch (error) {
        if (isImportInputError(error)) return { ok: false, error: { code: error.code, message: error.message } };
        throw error;
    }
    const answerPath = normalizeRefPath(request.answerPath);
    if (!answerPath.ok) return { ok: false, error: { code: "invalid-arguments", message: answerPath.message } };
    const placed = placeAnswer(parsed.answer, request.existingAnswer);
    if ("code" in placed) return { ok: false, error: placed };
    const bindings = parseBindings(request.documents ?? []);
    if (bindings instanceof ImportInputError)
        return { ok: false, error: { code: "invalid-arguments", message: bindings.message } };
    const answer = new SessionDocument(answerPath.path, placed.content);
    const finder = new DocumentFinder(capabilities, bindings, [answerPath.path, ...(request.exclude ?? [])]);
    const annotations: Annotation[] = [];
    const notConverted: NotConverted[] = [];
    for (const [i, citation] of parsed.citations.entries()) {
        const made = convert(citation, answer, placed.toAnswer, finder);
        if ("reason" in made) notConverted.push({ citation: ordinal(i), ...made });
        else annotations.push(made);
    }
    return {
        ok: true,
        result: {
            provider: parsed.provider,
            answerText: request.existingAnswer ?? parsed.answer,
            writeAnswer: request.existingAnswer === undefined,
            annotations,
            annotationText: annotationFileText(annotations),
            converted: annotations.length,
            notConverted,
            exitCode: notConverted.length > 0 ? EXIT.findings : EXIT.clean,
        },
    };
}

/**
 * The answer file's content (LF) and how an offset of the response's answer maps into it: the answer
 * itself, or an existing file holding it (whole, or once inside more text).
 */
function placeAnswer(
    answer: string,
    existing: string | undefined,
): { content: string; toAnswer: (offset: number) => number } | { code: string; message: string } {
    const toLf = lfOffsets(answer);
    const lf = normalizeLineEndings(answer);
    if (existing === undefined) return { content: lf, toAnswer: toLf };
    const content = normalizeLineEndings(existing);
    const at = content.indexOf(lf);
    if (lf.trim() !== "" && at !== -1 && content.indexOf(lf, at + 1) === -1)
        return { content, toAnswer: (offset) => at + toLf(offset) };
    const found = at === -1 ? "does not hold" : "holds more than once";
    return {
        code: "answer-differs",
        message: `the answer file exists and ${found} the response's text: give another --answer, or remove the file to write it`,
    };
}

/** Offsets in `text` -> offsets once its CRLF and CR line endings are LF. */
function lfOffsets(text: string): (offset: number) => number {
    if (!text.includes("\r")) return (offset) => offset;
    const dropped: number[] = [];
    for (let at = text.indexOf("\r\n"); at !== -1; at = text.indexOf("\r\n", at + 1)) dropped.push(at);
    return (offset) => {
        let low = 0;
        let high = dropped.length;
        while (low < high) {
            const mid = (low + high) >> 1;
            if (dropped[mid] < offset) low = mid + 1;
            else high = mid;
        }
        return offset - low;
    };
}

interface Binding {
    index?: number;
    name?: string;
    path: string;
}

function parseBindings(documents: readonly { key: string; path: string }[]): Binding[] | ImportInputError {
    const out: Binding[] = [];
    for (const { key, path } of documents) {
        const normal = normalizeRefPath(path);
        if (!normal.ok) return new ImportInputError("invalid-response", `--document ${key}=${path}: ${normal.message}`);
        out.push(/^\d+$/.test(key) ? { index: Number(key), path: normal.path } : { name: key, path: normal.path });
    }
    return out;
}

type Failure = { reason: NotConvertedReason; message: string };

function convert(
    citation: ImportedCitation,
    answer: SessionDocument,
    toAnswer: (offset: number) => number,
    finder: DocumentFinder,
): Annotation | Failure {
    const claim = claimRef(citation, answer, toAnswer);
    if ("reason" in claim) return claim;
    if (citation.sources.length === 0)
        return { reason: "no-source-text", message: `the ${citation.type} names no source` };
    const sources: SourceRef[] = [];
    for (const source of citation.sources) {
        const ref = sourceRef(source, finder);
        if ("reason" in ref) return ref;
        sources.push(ref);
    }
    return { claim, sources };
}

function claimRef(
    citation: ImportedCitation,
    answer: SessionDocument,
    toAnswer: (offset: number) => number,
): Ref | Failure {
    if ("problem" in citation.claim)
        return { reason: "claim-not-found", message: `the ${citation.type}'s claim: ${citation.claim.problem}` };
    const span = trimSpan(answer.content, toAnswer(citation.claim.start), toAnswer(citation.claim.end));
    if (span.start >= span.end)
        return { reason: "claim-not-found", message: `the ${citation.type} claims only blank text` };
    return refOrFailure(answer, span.start, span.end, "the claim");
}

function refOrFailure(document: SessionDocument, start: number, end: number, what: string): Ref | Failure {
    const attempt = refForSpan(document, document.lines.positionAt(start), document.lines.positionAt(end));
    if (attempt.ok) return attempt.ref;
    return {
        reason: what === "the claim" ? "claim-not-found" : "text-ambiguous",
        message: `${what} in ${JSON.stringify(document.path)} cannot be marked: ${attempt.message}`,
    };
}

function sourceRef(source: CitedSource, finder: DocumentFinder): SourceRef | Failure {
    if (source.kind === "web")
        return {
            reason: "web-result",
            message: `it cites a web page (${source.url || source.title || "no URL"}), whose text is not in the workspace`,
        };
    if (source.kind === "opaque")
        return { reason: "no-source-text", message: `it cites ${source.what}, which carries no text` };
    if (source.problem) return source.problem;
    if (source.text === undefined && !(source.blocks && source.document.blocks))
        return { reason: "no-source-text", message: "the provider gives no cited text for it" };
    if (source.text !== undefined && source.text.trim() === "")
        return { reason: "no-source-text", message: "the provider's cited text is blank" };
    const found = finder.find(source.document, source.text ?? blockText(source) ?? "");
    if ("reason" in found) return found;
    const ref = locate(found, source);
    if ("reason" in ref) return ref;
    return { ...ref, polarity: "supports", confidence: source.confidence ?? 1 };
}

function blockText(source: Extract<CitedSource, { kind: "document" }>): string | undefined {
    const blocks = source.document.blocks;
    return source.blocks && blocks ? blocks.slice(source.blocks.start, source.blocks.end).join("") : undefined;
}

/** The span of `document` holding the source's cited text: its offsets when they hold it, else found by text. */
function locate(document: SessionDocument, source: Extract<CitedSource, { kind: "document" }>): Ref | Failure {
    const { text, offsets } = source;
    if (text !== undefined && offsets) {
        const span = verifiedOffsets(document, source.document, offsets, text);
        if (span) {
            const trimmed = trimSpan(document.content, span.start, span.end);
            if (trimmed.start < trimmed.end)
                return refOrFailure(document, trimmed.start, trimmed.end, "the cited text");
        }
    }
    const blocks = source.document.blocks;
    if (source.blocks && blocks && source.blocks.end > source.blocks.start) {
        const byBlocks = blockSpan(document, blocks.slice(source.blocks.start, source.blocks.end));
        if (byBlocks) return byBlocks;
    }
    return byText(document, text ?? blockText(source) ?? "");
}

/**
 * The offsets' span in the workspace document: counted in the document's own text when the request
 * gave it (and the file is that text), or in the file itself; undefined when they do not hold `text`.
 */
function verifiedOffsets(
    document: SessionDocument,
    cited: CitedDocument,
    offsets: { start: number; end: number },
    text: string,
): { start: number; end: number } | undefined {
    if (cited.text !== undefined) {
        const span = verifiedSpan(cited.text, offsets.start, offsets.end, text);
        if (span && normalizeLineEndings(cited.text) === document.content) {
            const toLf = lfOffsets(cited.text);
            return { start: toLf(span.start), end: toLf(span.end) };
        }
        if (span) return undefined;
    }
    return verifiedSpan(document.content, offsets.start, offsets.end, text);
}

/** From the first cited block's text to the last's, each found once, in order. */
function blockSpan(document: SessionDocument, blocks: string[]): Ref | Failure | undefined {
    const first = normalizeQuote(blocks[0]);
    const last = normalizeQuote(blocks[blocks.length - 1]);
    const content = document.content;
    const once = (text: string) => {
        const at = text === "" ? -1 : content.indexOf(text);
        return at !== -1 && content.indexOf(text, at + 1) === -1 ? at : undefined;
    };
    const start = once(first);
    const lastAt = once(last);
    if (start === undefined || lastAt === undefined || lastAt < start) return undefined;
    return refOrFailure(document, start, lastAt + last.length, "the cited blocks");
}

function byText(document: SessionDocument, text: string): Ref | Failure {
    const cited = citeQuote(document, text);
    if (cited.ok) return cited.ref;
    const reason = cited.error.code === "quote-ambiguous" ? "text-ambiguous" : "text-not-found";
    return { reason, message: cited.error.message.replace(/the quote/g, "the cited text") };
}

const ANNOTATION_OR_LOCK = /\.(sourcecheck|annotations)(\.lock)?\.json$/i;

/**
 * Which workspace file a cited document is: `--document` first (by number, then name), then a file
 * whose path, name or stem is one of the document's names, then the one file holding its text.
 */
class DocumentFinder {
    private fileList: string[] | undefined;
    private baseNames: string[] | undefined;
    private readonly named = new Map<string, string[]>();
    private readonly cache = new Map<string, SessionDocument | Failure>();
    private readonly excluded: Set<string>;

    constructor(
        private readonly capabilities: ImportCapabilities,
        private readonly bindings: Binding[],
        exclude: readonly string[],
    ) {
        this.excluded = new Set(exclude.map((p) => normalizeRefPath(p)).flatMap((p) => (p.ok ? [p.path] : [])));
    }

    find(cited: CitedDocument, text: string): SessionDocument | Failure {
        const bound =
            this.bindings.find((b) => b.index !== undefined && b.index === cited.index) ??
            this.bindings.find((b) => b.name !== undefined && cited.names.includes(b.name));
        if (bound) return this.read(bound.path);
        const named = this.byName(cited.names);
        if (named.length === 1) return this.read(named[0]);
        return this.byContent(cited, text, named.length > 1 ? named : this.files());
    }

    private files(): string[] {
        this.fileList ??= [...this.capabilities.files()].filter(
            (p) => !this.excluded.has(p) && !ANNOTATION_OR_LOCK.test(p),
        );
        return this.fileList;
    }

    private read(path: string): SessionDocument | Failure {
        let entry = this.cache.get(path);
        if (!entry) {
            const got = this.capabilities.document(path);
            entry = isDocumentFailure(got)
                ? { reason: "document-not-in-workspace", message: `${JSON.stringify(path)}: ${got.message}` }
                : got;
            this.cache.set(path, entry);
        }
        return entry;
    }

    /** The files a document's names name; asked once per document, not once per citation (1,000 citations, 200 files). */
    private byName(names: readonly string[]): string[] {
        if (names.length === 0) return [];
        const key = names.join("\0");
        let found = this.named.get(key);
        if (!found) {
            found = this.filesNamed(names);
            this.named.set(key, found);
        }
        return found;
    }

    private filesNamed(names: readonly string[]): string[] {
        const wanted = new Set<string>();
        for (const name of names) {
            const clean = name.replace(/\\/g, "/").replace(/[?#].*$/, "");
            wanted.add(clean);
            wanted.add(clean.slice(clean.lastIndexOf("/") + 1));
        }
        const exact = this.files().filter((p) => wanted.has(p));
        if (exact.length > 0) return exact;
        this.baseNames ??= this.files().map((p) => p.slice(p.lastIndexOf("/") + 1));
        const bases = this.baseNames;
        const byBase = this.files().filter((_, i) => wanted.has(bases[i]));
        if (byBase.length > 0) return byBase;
        return this.files().filter((_, i) => wanted.has(bases[i].replace(/\.[^.]*$/, "")));
    }

    private byContent(cited: CitedDocument, text: string, candidates: string[]): SessionDocument | Failure {
        const whole = cited.text !== undefined ? normalizeLineEndings(cited.text) : undefined;
        const quote = normalizeQuote(text);
        const holding: SessionDocument[] = [];
        for (const path of candidates) {
            const document = this.read(path);
            if ("reason" in document) continue;
            if (whole !== undefined && document.content === whole) return document;
            if (quote !== "" && document.content.includes(quote)) holding.push(document);
        }
        const name = cited.names.length > 0 ? JSON.stringify(cited.names[0]) : `document ${cited.index ?? "?"}`;
        if (holding.length === 1) return holding[0];
        if (holding.length > 1)
            return {
                reason: "text-ambiguous",
                message: `${holding.length} files hold the text cited from ${name} (${holding
                    .map((d) => d.path)
                    .slice(0, 5)
                    .join(", ")}): name the file with --document`,
            };
        return {
            reason: "document-not-in-workspace",
            message: `no file under the root is ${name} or holds its cited text: add it, or name it with --document`,
        };
    }
}

/** `{ "annotations": [ ... ] }`, one ref per line, as the spec writes annotation files. */
export function annotationFileText(annotations: readonly Annotation[]): string {
    if (annotations.length === 0) return `{\n  "annotations": []\n}\n`;
    const one = (a: Annotation) =>
        `    {\n      "claim": ${inline(a.claim)},\n      "sources": [\n${a.sources.map((s) => `        ${inline(s)}`).join(",\n")}\n      ]\n    }`;
    return `{\n  "annotations": [\n${annotations.map(one).join(",\n")}\n  ]\n}\n`;
}
