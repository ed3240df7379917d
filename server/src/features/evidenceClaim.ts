/**
 * What both Find Sources searches share (docs/evidence.md, "Editor"): the Node server's over the disk
 * (node/evidence.ts) and the web worker's over the client's files (features/browserEvidence.ts).
 * From a claim to the query and options, the steps run between turns of the event loop with progress and
 * cancellation, and the hits as the editor gets them. No file is read here.
 */
import type { EvidenceHitItem, FindEvidenceParams, FindEvidenceResult } from "../../../shared/evidenceProtocol";
import { annotationLabel, indexOfOrdinal } from "../../../shared/numbering";
import { nextTurn } from "../agentTools/cooperative";
import { DEFAULT_MAX_CHARS } from "../evidence/chunker";
import { MAX_TOP_K, publicHit, type ShownHit } from "../evidence/select";
import { runStepsBetween, type SearchStep, type Steps } from "../evidence/steps";
import type { AnnotationFile } from "../workspace/annotationFile";
import type { CorpusOptions } from "../workspace/evidenceStore";

const EDITOR_TOP_K = 10;

/** Files read between two looks at the event loop: a slice is a few milliseconds to a second of reading. */
export const FILES_PER_STEP = 256;

export const CANCELLED = "the search was cancelled";

/**
 * No abstention floor in the editor: a person reads the ranked hits and picks one, so a weak hit is
 * shown, not withheld. The floor guards agents, who tend to cite whatever comes back (docs/evidence.md,
 * "Abstention").
 */
export const EDITOR_FLOOR = 0;

/** What a search in the editor reports, and how it learns it is no longer wanted. */
export interface SearchWork {
    progress?: (step: SearchStep) => void;
    cancelled?: () => boolean;
}

/** Find Sources as the language service asks it: the Node server's, or the web worker's. */
export interface EvidenceFinder {
    find(
        file: AnnotationFile | undefined,
        params: FindEvidenceParams,
        log: (message: string) => void,
        work?: SearchWork,
    ): Promise<FindEvidenceResult>;
}

/** A claim ready to be searched for: its text, the corpus (the document root) and the options. */
export interface ClaimSearch {
    root: string;
    query: string;
    options: CorpusOptions;
    topK: number;
    /** The claim's own document, relative to the root: never its own source. */
    claimPath: string;
}

function strings(value: unknown): string[] | undefined {
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string" && v !== "") : undefined;
}

/** The search a claim asks for, or why it cannot be searched (a sentence for the person who asked). */
export function claimSearch(
    file: AnnotationFile | undefined,
    params: FindEvidenceParams,
): ClaimSearch | { ok: false; message: string } {
    if (!file) return { ok: false, message: "not an annotation file" };
    if (file.embedded)
        return { ok: false, message: "this file embeds its own session: evidence comes from workspace files" };
    if (file.root === undefined) return { ok: false, message: "the annotation file has no document root" };
    const index = indexOfOrdinal(params.annotation);
    if (!Number.isInteger(index) || index < 0)
        return { ok: false, message: "findEvidence needs `annotation`, a whole number counted from 1" };
    const site = file.site(index, "claim");
    if (!site) return { ok: false, message: `${annotationLabel(index)} has no claim` };
    if (!site.resolution.valid) {
        return {
            ok: false,
            message: `the claim of ${annotationLabel(index)} does not resolve (${site.resolution.errors[0]?.code}): fix it first`,
        };
    }
    const include = strings(params.include);
    return {
        root: file.root,
        query: site.resolution.text,
        options: {
            include: include?.length ? include : undefined,
            exclude: strings(params.exclude),
            unsafePatterns: strings(params.unsafePatterns),
            maxChars: DEFAULT_MAX_CHARS,
        },
        topK: Number.isInteger(params.topK) ? Math.min(Math.max(params.topK!, 1), MAX_TOP_K) : EDITOR_TOP_K,
        claimPath: site.ref.path.replace(/\\/g, "/").replace(/^\.\//, ""),
    };
}

class SearchCancelled extends Error {}

/**
 * The steps, with a turn of the event loop between two (after `between`, which a reader over the client
 * uses to wait for the files a step asked for), progress told and a cancellation heard: undefined when
 * the search was cancelled (the generator is closed, what it indexed so far kept).
 */
export async function runSearchSteps<R>(
    steps: Steps<R>,
    work: SearchWork,
    between?: () => Promise<void>,
): Promise<R | undefined> {
    try {
        return await runStepsBetween(steps, async (step) => {
            await between?.();
            await nextTurn();
            if (work.cancelled?.()) throw new SearchCancelled();
            work.progress?.(step);
        });
    } catch (error) {
        if (error instanceof SearchCancelled) return undefined;
        throw error;
    }
}

/** The answer to a cancelled search. */
export const cancelledSearch = (): FindEvidenceResult => ({ ok: false, cancelled: true, message: CANCELLED });

/** The hits as the editor shows them: where, the ready ref and its text, the chunk's lines. */
export function hitItems(hits: readonly ShownHit[]): EvidenceHitItem[] {
    return hits.map((hit) => ({ ...publicHit(hit), refText: hit.refText, text: hit.text }));
}
