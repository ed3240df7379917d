/**
 * Find Sources in a web worker (docs/web.md, docs/evidence.md "In the browser"): the same request as
 * the Node server's (node/evidence.ts) over the client's files. The corpus of each document root
 * and patterns is kept in memory between searches (workspace/web/evidenceCorpus.ts) and follows the
 * changes the client forwards; between the steps of a search the worker waits for the files it asked for.
 */
import type { FindEvidenceParams, FindEvidenceResult } from "../../../shared/evidenceProtocol";
import { nextTurn } from "../agentTools/cooperative";
import type { AnnotationFile } from "../workspace/annotationFile";
import { ClientCorpus } from "../workspace/web/evidenceCorpus";
import type { WorkspaceFiles } from "../workspace/workspaceFiles";
import {
    cancelledSearch,
    claimSearch,
    EDITOR_FLOOR,
    type EvidenceFinder,
    FILES_PER_STEP,
    hitItems,
    runSearchSteps,
    type SearchWork,
} from "./evidenceClaim";

export class BrowserEvidence implements EvidenceFinder {
    private readonly corpora = new Map<string, ClientCorpus>();

    constructor(private readonly files: WorkspaceFiles) {}

    /** The client said a file or folder changed (forwarded by the workspace's file events). */
    changed(path: string): void {
        for (const corpus of this.corpora.values()) corpus.changed(path);
    }

    async find(
        file: AnnotationFile | undefined,
        params: FindEvidenceParams,
        _log: (message: string) => void,
        work: SearchWork = {},
    ): Promise<FindEvidenceResult> {
        const claim = claimSearch(file, params);
        if (!("query" in claim)) return claim;
        const { root, query, options, topK, claimPath } = claim;
        // The patterns are part of the key: a kept corpus is current only for the files they chose.
        const key = JSON.stringify([root, options.include ?? [], options.exclude ?? [], options.unsafePatterns ?? []]);
        let corpus = this.corpora.get(key);
        if (!corpus) {
            corpus = new ClientCorpus(root, options, this.files);
            this.corpora.set(key, corpus);
        }
        // A turn first, so the events of a file written just before the request are heard.
        await nextTurn();
        await corpus.walk();
        if (work.cancelled?.()) return cancelledSearch();
        const answers = await corpus.answers();
        const steps = corpus.searchSteps(
            query,
            {
                topK,
                // As on Node: every hit whole, no budget (the editor shows each on its own).
                budget: Number.POSITIVE_INFINITY,
                explain: false,
                floor: EDITOR_FLOOR,
                alsoSkip: [claimPath],
                filesPerStep: FILES_PER_STEP,
            },
            answers,
        );
        const result = await runSearchSteps(steps, work, () => this.files.settle());
        if (!result) return cancelledSearch();
        return { ok: true, query, hits: hitItems(result.hits), warnings: corpus.warnings() };
    }
}
