/**
 * `sourcecheck/findEvidence` (docs/evidence.md, "Editor"): the claim of an annotation, searched for in
 * the files under the annotation file's document root. The index stays in memory between requests
 * and is brought up to date (changed files only) before each search, so it follows the files.
 */

import type { FindEvidenceParams, FindEvidenceResult } from "../../../shared/evidenceProtocol";
import { nextTurn } from "../agentTools/cooperative";
import {
    cancelledSearch,
    claimSearch,
    EDITOR_FLOOR,
    type EvidenceFinder,
    FILES_PER_STEP,
    hitItems,
    runSearchSteps,
    type SearchWork,
} from "../features/evidenceClaim";
import type { AnnotationFile } from "../workspace/annotationFile";
import { type CorpusSearch, searchCorpusSteps, WatchedIndexes } from "../workspace/evidenceSearch";
import { defaultIndexDir } from "../workspace/evidenceStore";

export { CANCELLED, FILES_PER_STEP, type SearchWork } from "../features/evidenceClaim";

export class EvidenceFeature implements EvidenceFinder {
    /**
     * The last index used per corpus, index file and patterns, following file events as the MCP
     * server's do (docs/evidence-internals.md, "In a server"): a repeated search walks the corpus only when a
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
        const claim = claimSearch(file, params);
        if (!("query" in claim)) return claim;
        const { root, query, options, topK, claimPath } = claim;
        const indexDir =
            typeof params.indexDir === "string" && params.indexDir !== "" ? params.indexDir : defaultIndexDir();
        // The patterns are part of the key: a kept index is current only for the files they chose.
        const key = JSON.stringify([root, indexDir, options.include ?? [], options.exclude ?? []]);
        const previous = this.kept.get(key);
        // A turn first, so the events of a file written just before the request are heard.
        await nextTurn();
        const upToDate = this.kept.current(key, root, previous);
        const steps = searchCorpusSteps(
            root,
            root,
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
        let found: CorpusSearch | undefined;
        try {
            found = await runSearchSteps(steps, work);
        } finally {
            if (!found) this.kept.unfinishedSearch(key);
        }
        if (!found) return cancelledSearch();
        const { result, opened } = found;
        this.kept.set(key, opened);
        for (const warning of opened.warnings) log(`sourcecheck: ${warning}`);
        return { ok: true, query, hits: hitItems(result.hits), warnings: opened.warnings };
    }
}
