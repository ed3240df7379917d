/**
 * `sourcecheck/findEvidence` (docs/evidence.md, "Editor"): the claim of an annotation, searched for in
 * the files under the annotation file's document root. The index stays in memory between requests
 * and is brought up to date (changed files only) before each search, so it follows the files.
 */

import type { EvidenceHitItem, FindEvidenceParams, FindEvidenceResult } from "../../../shared/evidenceProtocol";
import { annotationLabel, indexOfOrdinal } from "../../../shared/numbering";
import { nextTurn } from "../agentTools/cooperative";
import { DEFAULT_MAX_CHARS } from "../evidence/chunker";
import { MAX_TOP_K, publicHit } from "../evidence/select";
import { runStepsBetween, type SearchStep } from "../evidence/steps";
import type { AnnotationFile } from "../workspace/annotationFile";
import { type CorpusSearch, searchCorpusSteps, WatchedIndexes } from "../workspace/evidenceSearch";
import { type CorpusOptions, defaultIndexDir } from "../workspace/evidenceStore";

const EDITOR_TOP_K = 10;

/** Files read between two looks at the event loop: a slice is a few milliseconds to a second of reading. */
export const FILES_PER_STEP = 256;

export const CANCELLED = "the search was cancelled";

/** What a search in the editor reports, and how it learns it is no longer wanted. */
export interface SearchWork {
    progress?: (step: SearchStep) => void;
    cancelled?: () => boolean;
}

class SearchCancelled extends Error {}

function strings(value: unknown): string[] | undefined {
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string" && v !== "") : undefined;
}

/**
 * No abstention floor in the editor: a person reads the ranked hits and picks one, so a weak hit is
 * shown, not withheld. The floor guards agents, who tend to cite whatever comes back (docs/evidence.md,
 * "Abstention").
 */
const EDITOR_FLOOR = 0;

export class EvidenceFeature {
    /**
     * The last index used per corpus, index file and patterns, following file events as the MCP
     * server's do (docs/evidence.md, "In a server"): a repeated search walks the corpus only when a
     * watcher cannot vouch for what changed (its first search, a new file, a search cancelled mid-walk).
     */
    private readonly kept = new WatchedIndexes();

    /**
     * Between steps (a slice of files read, a candidate checked) the search gives the event loop a
     * turn, tells `work.progress`, and stops when `work.cancelled()` says so: the answer is then
     * `cancelled`, and the index in memory keeps what was read (the next search reads the rest).
     */
    async find(
        file: AnnotationFile | undefined,
        params: FindEvidenceParams,
        log: (message: string) => void,
        work: SearchWork = {},
    ): Promise<FindEvidenceResult> {
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
        const query = site.resolution.text;
        const options: CorpusOptions = {
            include: strings(params.include)?.length ? strings(params.include) : undefined,
            exclude: strings(params.exclude),
            unsafePatterns: strings(params.unsafePatterns),
            maxChars: DEFAULT_MAX_CHARS,
        };
        const indexDir =
            typeof params.indexDir === "string" && params.indexDir !== "" ? params.indexDir : defaultIndexDir();
        // The patterns are part of the key: a kept index is current only for the files they chose.
        const key = JSON.stringify([file.root, indexDir, options.include ?? [], options.exclude ?? []]);
        const previous = this.kept.get(key);
        // A turn first, so the events of a file written just before the request are heard.
        await nextTurn();
        const upToDate = this.kept.current(key, file.root, previous);
        const topK = Number.isInteger(params.topK) ? Math.min(Math.max(params.topK!, 1), MAX_TOP_K) : EDITOR_TOP_K;
        const claimPath = site.ref.path.replace(/\\/g, "/").replace(/^\.\//, "");
        const steps = searchCorpusSteps(
            file.root,
            file.root,
            {
                ...options,
                query,
                topK,
                indexDir,
                explain: false,
                alsoSkip: [claimPath],
                floor: EDITOR_FLOOR,
                filesPerStep: FILES_PER_STEP,
                upToDate,
            },
            previous,
        );
        let found: CorpusSearch;
        try {
            found = await runStepsBetween(steps, async (step) => {
                await nextTurn();
                if (work.cancelled?.()) throw new SearchCancelled();
                work.progress?.(step);
            });
        } catch (error) {
            this.kept.unfinishedSearch(key);
            if (error instanceof SearchCancelled) return { ok: false, cancelled: true, message: CANCELLED };
            throw error;
        }
        const { result, opened } = found;
        this.kept.set(key, opened);
        for (const warning of opened.warnings) log(`sourcecheck: ${warning}`);
        const hits: EvidenceHitItem[] = result.hits.map((hit) => ({
            ...publicHit(hit),
            refText: hit.refText,
            text: hit.text,
        }));
        return { ok: true, query, hits, warnings: opened.warnings };
    }
}
