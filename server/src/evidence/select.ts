/**
 * From a query to the evidence shown (docs/evidence.md, "Search"): BM25 candidates over safe chunks,
 * each re-validated against the current file (stale check), duplicates dropped, the top k kept, then
 * the hard character budget. Every step's refusals are kept by chunk id in `rejected`.
 */
import { resolveInDocument } from "../core/resolve";
import { SessionDocument } from "../core/session";
import type { Ref } from "../core/types";
import { contentHash } from "./fingerprint";
import type { ChunkRecord, EvidenceIndex } from "./index";
import { citationOf, evidenceBlock, evidencePrompt } from "./prompt";
import { refForHit } from "./refs";

export const DEFAULT_TOP_K = 3;
export const MAX_TOP_K = 20;
/**
 * The default character budget of a query's output: the evidence prompt (text) or the hits' texts
 * (JSON, agents). Large enough that the top 20 chunks of 900 characters fit, so `topK` is what
 * decides how many hits come back, not a budget the caller did not set.
 */
export const DEFAULT_BUDGET = 32_000;
/** The smallest `maxChars` of hit texts an agent may ask for. */
export const MIN_MAX_CHARS = 100;

/** The current text of a corpus file, or why it cannot be had (`escapes` for paths leading outside). */
export type CurrentText = { ok: true; content: string } | { ok: false; missing: boolean; escapes?: boolean };

export interface EvidenceHit {
    path: string;
    startLine: number;
    endLine: number;
    score: number;
    headingPath: string[];
    /** To the best-matching sentence or the chunk; null only if no unique boundary exists in the chunk. */
    ref: Ref | null;
}

/** A hit with what the text output and the editor show beside it. */
export interface ShownHit extends EvidenceHit {
    chunkId: string;
    citation: string;
    text: string;
    /** The text `ref` cites ("" without a ref). */
    refText: string;
}

export interface EvidenceResult {
    hits: ShownHit[];
    rejected: Record<string, string>;
    prompt: string;
}

export interface SelectOptions {
    topK?: number;
    budget?: number;
    read(path: string): CurrentText;
    /** Name every refused chunk in `rejected` (default true); text output has no use for it. */
    explain?: boolean;
    /** Paths never to show (the answers being written, when searching for their sources). */
    skipPath?: (path: string) => boolean;
    /** Why a chunk of a skipped path is refused, in `rejected` (default: not named). */
    skipReason?: string;
}

/** Why a stored chunk cannot be shown from the file as it is now, or its text when it can. */
export function validateChunk(
    chunk: ChunkRecord,
    current: CurrentText,
): { ok: true; document: SessionDocument; text: string } | { ok: false; reason: string } {
    if (!current.ok) {
        if (current.escapes) return { ok: false, reason: "source escapes corpus root" };
        return { ok: false, reason: current.missing ? "source document is missing" : "source document is unreadable" };
    }
    if (contentHash(current.content) !== chunk.document.hash) {
        return { ok: false, reason: "source document changed after indexing" };
    }
    const document = new SessionDocument(chunk.document.path, current.content);
    const lines = document.lines;
    if (!lines.hasLine(chunk.startLine) || !lines.hasLine(chunk.endLine)) {
        return { ok: false, reason: "citation line range is out of bounds" };
    }
    const from = lines.lineStart(chunk.startLine);
    const to = lines.lineEnd(chunk.endLine);
    return { ok: true, document, text: current.content.slice(from, to) };
}

export function searchEvidence(index: EvidenceIndex, query: string, options: SelectOptions): EvidenceResult {
    const topK = options.topK ?? DEFAULT_TOP_K;
    const budget = options.budget ?? DEFAULT_BUDGET;
    const explain = options.explain ?? true;
    const refused = new Map<string, string>();
    if (explain) for (const chunk of index.unsafeChunks()) refused.set(chunk.id, chunk.reason);
    const { candidates, idf } = index.search(index.termsOf(query));
    const reads = new Map<string, CurrentText>();
    const read = (path: string) => {
        let current = reads.get(path);
        if (current === undefined) {
            current = options.read(path);
            reads.set(path, current);
        }
        return current;
    };
    const seen = new Set<number>();
    const chosen: ShownHit[] = [];
    for (const candidate of candidates) {
        if (chosen.length >= topK) break;
        const printKey = index.fingerprintKey(candidate.slot);
        if (seen.has(printKey)) {
            if (explain) refused.set(index.chunkIdAt(candidate.slot)!, "duplicate evidence");
            continue;
        }
        const chunk = index.chunk(candidate.slot);
        if (!chunk) continue;
        if (options.skipPath?.(chunk.document.path)) {
            if (explain && options.skipReason) refused.set(chunk.id, options.skipReason);
            continue;
        }
        const valid = validateChunk(chunk, read(chunk.document.path));
        if (!valid.ok) {
            refused.set(chunk.id, valid.reason);
            continue;
        }
        seen.add(printKey);
        const ref = refForHit(valid.document, chunk.startLine, chunk.endLine, idf, (text) => index.termsOf(text));
        const cited = ref ? resolveInDocument(valid.document, ref) : undefined;
        chosen.push({
            path: chunk.document.path,
            startLine: chunk.startLine,
            endLine: chunk.endLine,
            score: Math.round(candidate.score * 1e6) / 1e6,
            headingPath: chunk.headingPath,
            ref: ref ?? null,
            chunkId: chunk.id,
            citation: citationOf(chunk.document.path, chunk.startLine, chunk.endLine),
            text: valid.text,
            refText: cited?.valid ? cited.text : "",
        });
    }
    const hits: ShownHit[] = [];
    const blocks: string[] = [];
    for (const hit of chosen) {
        const block = evidenceBlock({
            label: `S${hits.length + 1}`,
            citation: hit.citation,
            headingPath: hit.headingPath,
            ref: hit.ref ?? undefined,
            text: hit.text,
        });
        if (evidencePrompt([...blocks, block]).length > budget) {
            refused.set(hit.chunkId, "prompt budget exceeded");
            continue;
        }
        blocks.push(block);
        hits.push(hit);
    }
    return { hits, rejected: Object.fromEntries(refused), prompt: evidencePrompt(blocks) };
}

/** A hit as agents and `--json` get it: the public shape plus the text its ref cites, cut to fit. */
export interface TextHit extends EvidenceHit {
    /** What `ref` resolves to (the chunk's text below its heading without a ref), cut if `truncated`. */
    text: string;
    /** The length of the whole text (UTF-16 code units), cut or not. */
    textChars: number;
    /** True when `text` was cut to fit `maxChars`: it then ends with CUT_MARK after `cutAt` characters. */
    truncated: boolean;
}

/** Appended to a cut text (never part of the document's text). */
export const CUT_MARK = "…";

/**
 * The hits with their texts, cut so that together they hold at most `maxChars` characters (marks not
 * counted) and no hit is dropped: texts shorter than an equal share of what is left are kept whole,
 * the longer ones are cut at that share (docs/evidence.md, "JSON output"). Returns the share the cut
 * texts were cut at (undefined when nothing was cut).
 */
export function hitsWithText(hits: readonly ShownHit[], maxChars: number): { hits: TextHit[]; cutAt?: number } {
    const texts = hits.map((hit) => (hit.ref !== null && hit.refText !== "" ? hit.refText : bodyText(hit.text)));
    const order = texts.map((_, i) => i).sort((a, b) => texts[a].length - texts[b].length);
    const limit = new Array<number>(texts.length).fill(Number.POSITIVE_INFINITY);
    let left = maxChars;
    let cutAt: number | undefined;
    for (const [rank, i] of order.entries()) {
        const share = Math.floor(left / (order.length - rank));
        if (texts[i].length <= share) left -= texts[i].length;
        else {
            limit[i] = Math.max(share, 1);
            cutAt ??= limit[i];
            left -= limit[i];
        }
    }
    const shown = hits.map((hit, i) => {
        const whole = texts[i];
        const truncated = whole.length > limit[i];
        return {
            ...publicHit(hit),
            text: truncated ? cutText(whole, limit[i]) + CUT_MARK : whole,
            textChars: whole.length,
            truncated,
        };
    });
    return cutAt === undefined ? { hits: shown } : { hits: shown, cutAt };
}

/** A chunk's text without its heading line, trimmed (what a ref to the chunk cites). */
function bodyText(chunkText: string): string {
    return chunkText.replace(/^ {0,3}#{1,6}(?:[ \t][^\n]*)?(?:\n|$)/, "").trim() || chunkText.trim();
}

/** The first `length` code units, never splitting a surrogate pair. */
function cutText(text: string, length: number): string {
    const code = text.charCodeAt(length - 1);
    return text.slice(0, code >= 0xd800 && code <= 0xdbff ? length - 1 : length);
}

/** The public JSON shape of a hit (docs/evidence.md, "JSON output"). */
export function publicHit(hit: ShownHit): EvidenceHit {
    return {
        path: hit.path,
        startLine: hit.startLine,
        endLine: hit.endLine,
        score: hit.score,
        headingPath: hit.headingPath,
        ref: hit.ref,
    };
}
