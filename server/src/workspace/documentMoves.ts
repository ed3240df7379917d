/**
 * Where a cited document that is gone may have moved, for repair (docs/repair.md, "Renamed
 * documents"): the files under the document root by SHA-256 of their text, and git's renames since
 * a revision. Both are computed once, on first use: only a ref whose document is gone asks.
 */

import { baseNameOf, isCitationFileName } from "../../../shared/fileNames";
import type { DocumentMoves } from "../core/repair/types";
import { type DocumentLookup, isDocumentFailure } from "../core/session";
import { lastCommitOf, renamesSince } from "./gitRevision";
import { lockPathFor } from "./lockFiles";
import { listCandidateDocuments } from "./nodeDiscovery";

/**
 * The revision repair follows renames from (docs/repair.md, "Renamed documents"), on every front end:
 * `since` when given, else the last commit of the lock beside the annotation file, else the file's own.
 */
export function renameBase(annotationFile: string, since: string | undefined): string | undefined {
    return since ?? lastCommitOf(lockPathFor(annotationFile)) ?? lastCommitOf(annotationFile);
}

/** On disk: the candidate documents under `root`, and git's renames there since `revision()`. */
export function diskDocumentMoves(
    root: string,
    documents: DocumentLookup,
    sha256: (text: string) => string,
    revision: () => string | undefined,
): DocumentMoves {
    return documentMoves(
        () => listCandidateDocuments(root),
        documents,
        sha256,
        () => {
            const rev = revision();
            return rev === undefined ? new Map() : renamesSince(root, rev);
        },
    );
}

/**
 * Over any host: `files` are the paths under the document root (relative), `renames` git's record (or
 * none). Lock and annotation files are never where a document moved (shared/fileNames.ts).
 */
export function documentMoves(
    files: () => Iterable<string>,
    documents: DocumentLookup,
    sha256: (text: string) => string,
    renames: () => Map<string, string[]>,
): DocumentMoves {
    let byHash: Map<string, string[]> | undefined;
    let renamed: Map<string, string[]> | undefined;
    return {
        pathsWithSha256(hash) {
            if (!byHash) {
                byHash = new Map();
                for (const path of files()) {
                    if (isCitationFileName(baseNameOf(path))) continue;
                    const document = documents.get(path);
                    if (document === undefined || isDocumentFailure(document)) continue;
                    const key = document.contentSha256 ?? sha256(document.content);
                    byHash.set(key, [...(byHash.get(key) ?? []), path]);
                }
            }
            return byHash.get(hash) ?? [];
        },
        renamesOf(path) {
            renamed ??= renames();
            return (renamed.get(path) ?? []).filter((to) => !isCitationFileName(baseNameOf(to)));
        },
    };
}
