/**
 * The `evidence` agent tool over files (docs/agents.md): a folder under the document root is
 * searched as `sourcecheck evidence --corpus` searches it (same index, same defaults), and the hits'
 * paths are made relative to the root, so a hit's ref can go into an annotation as it is.
 */
import * as fs from "node:fs";
import * as nodePath from "node:path";
import type { DocumentFailure } from "../core/session";
import type { Ref } from "../core/types";
import { DEFAULT_BUDGET, DEFAULT_TOP_K, type EvidenceHit, publicHit, searchEvidence } from "../evidence/select";
import { defaultIndexDir, openIndex, readCurrent } from "./evidenceStore";
import { isInside, resolveUnderRoot } from "./pathSafety";

export interface EvidenceSearch {
    hits: EvidenceHit[];
    rejected: Record<string, string>;
}

/** The folder `corpus` names under `root` (default the root itself), or why it may not be searched. */
function corpusFolder(
    root: string,
    corpus: string | undefined,
): { absolute: string; prefix: string } | DocumentFailure {
    if (corpus === undefined || corpus === "." || corpus === "./") return { absolute: root, prefix: "" };
    const verdict = resolveUnderRoot(root, corpus);
    if (!verdict.ok) return { code: "path-outside-root", message: verdict.message };
    const quoted = JSON.stringify(corpus);
    let real: string;
    try {
        real = fs.realpathSync(verdict.absolute);
        if (!isInside(fs.realpathSync(root), real)) {
            return {
                code: "path-outside-root",
                message: `the folder ${quoted} is a symlink leading outside the document root`,
            };
        }
    } catch {
        return { code: "unreadable-document", message: `no folder ${quoted} under the document root` };
    }
    if (!fs.statSync(real).isDirectory()) return { code: "unreadable-document", message: `${quoted} is not a folder` };
    const prefix = nodePath.relative(root, verdict.absolute).split(nodePath.sep).join("/");
    return { absolute: verdict.absolute, prefix };
}

export function searchEvidenceUnderRoot(
    root: string,
    query: string,
    corpus: string | undefined,
    topK: number | undefined,
    indexDir: string = defaultIndexDir(),
): EvidenceSearch | DocumentFailure {
    const folder = corpusFolder(root, corpus);
    if ("code" in folder) return folder;
    const { index } = openIndex(folder.absolute, indexDir);
    const result = searchEvidence(index, query, {
        topK: topK ?? DEFAULT_TOP_K,
        budget: DEFAULT_BUDGET,
        read: (path) => readCurrent(index.root, path),
    });
    const under = (path: string) => (folder.prefix === "" ? path : `${folder.prefix}/${path}`);
    const hits = result.hits.map(publicHit).map((hit) => ({
        ...hit,
        path: under(hit.path),
        ref: hit.ref === null ? null : ({ ...hit.ref, path: under(hit.ref.path) } as Ref),
    }));
    return { hits, rejected: result.rejected };
}
