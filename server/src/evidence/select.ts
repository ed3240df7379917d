/**
 * From a query to the evidence shown (docs/evidence.md, "Search"): BM25 candidates over safe chunks,
 * each re-validated against the current file (stale check), duplicates dropped, the top k kept, then
 * the hard character budget. Each step's refusals are named by chunk id in `rejected`, the most telling
 * first and at most MAX_REJECTED_NAMED of them (docs/evidence.md, "Rejected"); the rest are counted.
 */
import { resolveInDocument } from "../core/resolve";
import { SessionDocument } from "../core/session";
import type { Ref } from "../core/types";
import { contentHash } from "./fingerprint";
import type { ChunkRecord, EvidenceIndex } from "./index";
import { citationOf, evidenceBlock, evidencePrompt } from "./prompt";
import { excerptOf, type Passage, passageOf, refForOffsets, sentenceRef } from "./refs";
import { runSteps, type Steps } from "./steps";

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
    /** The share of the query's weight the chunk holds (bm25.ts queryWeight), 0 to 1, 3 decimals. */
    coverage: number;
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
    /** The chunk read for showing (its sentences and the best one); absent only in hand-made hits. */
    passage?: Passage;
}

/**
 * How many candidates under the floor beyond `topK` are walked for the passages below the floor: spares
 * for those a walk refuses (the answer being written, a copy, a stale file), never a sort of them all.
 */
export const BELOW_FLOOR_SPARES = 8;

export interface EvidenceResult {
    hits: ShownHit[];
    rejected: Record<string, string>;
    /** How many more chunks were refused than `rejected` names (absent when it names them all). */
    rejectedOmitted?: number;
    prompt: string;
    /** The floor in force (a share of the query's weight; 0: none). */
    floor: number;
    /**
     * The best passages the floor turned away, best first, filling the places the hits left (at most
     * `topK` in all): never hits, shown with their text for a model to judge (docs/evidence.md, "Below
     * the floor"). Absent when the floor turned none away or the hits filled every place.
     */
    belowFloor?: ShownHit[];
}

/**
 * The least share of a query's weight a chunk must hold to be evidence (docs/evidence.md,
 * "Abstention"): below it for every chunk, the search abstains. Chosen on the labelled claims of
 * test/fixtures/evidence-labelled and the seed's cases (evidenceAbstention.test.ts prints the rates).
 */
export const ABSTAIN_FLOOR = 0.45;

/**
 * How many refused chunks `rejected` names at most. A corpus with thousands of copies or unsafe files
 * otherwise made every answer name them all (1.5 MB on the bench's corpus): too much for a model's
 * context, and nothing a person reads. Hits the budget left out come first, then the candidates the
 * walk refused (best first), then the unsafe chunks.
 */
export const MAX_REJECTED_NAMED = 50;

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
    /** The abstention floor (default ABSTAIN_FLOOR; 0 shows any chunk sharing a term with the query). */
    floor?: number;
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
    return runSteps(searchEvidenceSteps(index, query, options));
}

/** searchEvidence as steps (steps.ts): one after each candidate checked against its file. */
export function* searchEvidenceSteps(
    index: EvidenceIndex,
    query: string,
    options: SelectOptions,
): Steps<EvidenceResult> {
    const topK = options.topK ?? DEFAULT_TOP_K;
    const budget = options.budget ?? DEFAULT_BUDGET;
    const explain = options.explain ?? true;
    const refused = new Refusals(explain ? MAX_REJECTED_NAMED : 0, (slot) => index.chunkIdAt(slot)!);
    const scored = index.search(index.termsOf(query));
    const { idf, queryWeight } = scored;
    const floor = options.floor ?? ABSTAIN_FLOOR;
    const coverageOf = (matched: number) => (queryWeight > 0 ? Math.min(1, matched / queryWeight) : 0);
    const reads = new Map<string, CurrentText>();
    const read = (path: string) => {
        let current = reads.get(path);
        if (current === undefined) {
            current = options.read(path);
            reads.set(path, current);
        }
        return current;
    };
    // The slots of the passages shown so far: a candidate with the same text is duplicate evidence.
    const shown: number[] = [];
    let checked = 0;
    /** The candidate at `slot` as shown, or why not (undefined: passed over without a word). */
    const show = (slot: number): ShownHit | string | undefined => {
        if (shown.some((other) => index.sameText(slot, other))) return "duplicate evidence";
        const chunk = index.chunk(slot);
        if (!chunk) return undefined;
        if (options.skipPath?.(chunk.document.path)) return options.skipReason;
        checked++;
        const valid = validateChunk(chunk, read(chunk.document.path));
        if (!valid.ok) return valid.reason;
        shown.push(slot);
        const passage = passageOf(valid.document, chunk.startLine, chunk.endLine, idf, (text) => index.termsOf(text));
        const ref = passage ? sentenceRef(passage) : undefined;
        const cited = ref ? resolveInDocument(valid.document, ref) : undefined;
        return {
            path: chunk.document.path,
            startLine: chunk.startLine,
            endLine: chunk.endLine,
            score: rounded(scored.scoreOf(slot), 6),
            coverage: rounded(coverageOf(scored.matchedOf(slot)), 3),
            headingPath: chunk.headingPath,
            ref: ref ?? null,
            chunkId: chunk.id,
            citation: citationOf(chunk.document.path, chunk.startLine, chunk.endLine),
            text: valid.text,
            refText: cited?.valid ? cited.text : "",
            passage,
        };
    };
    const chosen: ShownHit[] = [];
    const order = scored.orderedSlots((matched) => !(coverageOf(matched) < floor), topK + BELOW_FLOOR_SPARES);
    for (let i = 0; i < order.slots.length && chosen.length < topK; i++) {
        const slot = order.slots[i];
        const before = checked;
        const hit = show(slot);
        // Checking a candidate reads and hashes its file: the costly part, so a step after each.
        if (checked > before)
            yield { phase: "searching", done: chosen.length + (typeof hit === "object" ? 1 : 0), total: topK };
        if (typeof hit === "object") chosen.push(hit);
        else if (hit !== undefined) refused.walk(slot, hit);
    }
    // The places the hits left go to the best passages under the floor, refused as hits are (never named).
    const below: ShownHit[] = [];
    for (let i = 0; i < order.refused.length && chosen.length + below.length < topK; i++) {
        const passage = show(order.refused[i]);
        if (typeof passage === "object") below.push(passage);
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
            refused.budget(hit.chunkId);
            continue;
        }
        blocks.push(block);
        hits.push(hit);
    }
    const named = refused.named(explain ? index.unsafeChunks() : []);
    const result: EvidenceResult = {
        hits,
        rejected: named.rejected,
        prompt: evidencePrompt(blocks),
        floor,
    };
    if (explain && named.omitted > 0) result.rejectedOmitted = named.omitted;
    if (below.length > 0) result.belowFloor = below;
    return result;
}

/** The refusals of one query, kept up to the limit of what `rejected` names and counted past it. */
class Refusals {
    private readonly ofWalk: [string, string][] = [];
    private readonly ofBudget: string[] = [];
    private walkOmitted = 0;

    constructor(
        private readonly limit: number,
        private readonly idOf: (slot: number) => string,
    ) {}

    /** A candidate the walk turned away, by slot; its id is made only if it will be named. */
    walk(slot: number, reason: string): void {
        if (this.ofWalk.length < this.limit) this.ofWalk.push([this.idOf(slot), reason]);
        else this.walkOmitted++;
    }

    /**
     * A hit the prompt budget left out: named first, as the nearest to having been shown, and named even
     * when nothing else is (the text output lists them). At most `topK` (<= 20) of them.
     */
    budget(id: string): void {
        this.ofBudget.push(id);
    }

    /** `rejected` in its order (the budget's, the walk's, then `unsafe`) up to the limit, and how many more there were. */
    named(unsafe: readonly { id: string; reason: string }[]): { rejected: Record<string, string>; omitted: number } {
        const rejected: Record<string, string> = {};
        for (const id of this.ofBudget) rejected[id] = "prompt budget exceeded";
        const room = Math.max(0, this.limit - this.ofBudget.length);
        const walked = this.ofWalk.slice(0, room);
        for (const [id, reason] of walked) rejected[id] = reason;
        const unsafeNamed = unsafe.slice(0, room - walked.length);
        for (const chunk of unsafeNamed) rejected[chunk.id] = chunk.reason;
        const omitted = this.walkOmitted + (this.ofWalk.length - walked.length) + (unsafe.length - unsafeNamed.length);
        return { rejected, omitted };
    }
}

function rounded(value: number, decimals: number): number {
    const scale = 10 ** decimals;
    return Math.round(value * scale) / scale;
}

/** A hit as agents and `--json` get it: the public shape plus the passage that holds the fact. */
export interface TextHit extends EvidenceHit {
    /**
     * The chunk's text below its heading: whole when it fits, else the whole sentences around the
     * best one that fit (docs/evidence.md, "Hit text"); exact document text, except that a sentence
     * longer than the limit is cut and ends with CUT_MARK.
     */
    text: string;
    /** Where the best sentence (what `ref` cites) sits in `text`: `text.substr(index, length)`. */
    sentence?: { index: number; length: number };
    /** A ref citing `text` exactly (null when no unique boundary exists, or the text was cut inside a sentence). */
    chunkRef: Ref | null;
    /** The length of the chunk's whole text below its heading (UTF-16 code units). */
    textChars: number;
    /** True when `text` is less than the chunk's text. */
    truncated: boolean;
}

/** Appended to a text cut inside a sentence (never part of the document's text). */
export const CUT_MARK = "…";

/** Most characters of one hit's text: enough for the sentences around the best one, not a page. */
export const MAX_HIT_TEXT = 600;

/**
 * The hits with their passages, each at most MAX_HIT_TEXT characters and together at most
 * `maxChars` (marks not counted), no hit dropped: texts shorter than an equal share of what is left
 * are kept whole, the longer ones are cut to that share at sentence edges (docs/evidence.md, "JSON
 * output"). Returns the shortest share a text was cut to by the budget (undefined when none was).
 */
export function hitsWithText(hits: readonly ShownHit[], maxChars: number): { hits: TextHit[]; cutAt?: number } {
    const wholes = hits.map(wholeTextOf);
    const wanted = wholes.map((length) => Math.min(length, MAX_HIT_TEXT));
    const order = wanted.map((_, i) => i).sort((a, b) => wanted[a] - wanted[b]);
    const limit = wanted.map(() => MAX_HIT_TEXT);
    let left = maxChars;
    let cutAt: number | undefined;
    for (const [rank, i] of order.entries()) {
        const share = Math.floor(left / (order.length - rank));
        if (wanted[i] <= share) left -= wanted[i];
        else {
            limit[i] = Math.max(share, 1);
            cutAt ??= limit[i];
            left -= limit[i];
        }
    }
    const shown = hits.map((hit, i) =>
        hit.passage ? passageHit(hit, hit.passage, limit[i]) : plainHit(hit, limit[i]),
    );
    return cutAt === undefined ? { hits: shown } : { hits: shown, cutAt };
}

function wholeTextOf(hit: ShownHit): number {
    if (!hit.passage) return plainText(hit).length;
    const [from, to] = hit.passage.body;
    return to - from;
}

function passageHit(hit: ShownHit, passage: Passage, limit: number): TextHit {
    const excerpt = excerptOf(passage, limit);
    const [from, to] = excerpt.span;
    const text = passage.document.content.slice(from, to);
    const sentence = excerpt.sentence && {
        index: excerpt.sentence[0] - from,
        length: Math.min(excerpt.sentence[1], to) - excerpt.sentence[0],
    };
    return {
        ...publicHit(hit),
        text: excerpt.cutInside ? text + CUT_MARK : text,
        ...(sentence ? { sentence } : {}),
        chunkRef: excerpt.cutInside ? null : (refForOffsets(passage.document, excerpt.span) ?? null),
        textChars: passage.body[1] - passage.body[0],
        truncated: excerpt.partial,
    };
}

/** A hit without a passage (made by hand): its ref's text, cut at the limit. */
function plainHit(hit: ShownHit, limit: number): TextHit {
    const whole = plainText(hit);
    const truncated = whole.length > limit;
    return {
        ...publicHit(hit),
        text: truncated ? cutText(whole, limit) + CUT_MARK : whole,
        chunkRef: null,
        textChars: whole.length,
        truncated,
    };
}

function plainText(hit: ShownHit): string {
    return hit.ref !== null && hit.refText !== "" ? hit.refText : bodyText(hit.text);
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
        coverage: hit.coverage,
        headingPath: hit.headingPath,
        ref: hit.ref,
    };
}
