/**
 * Where a cited document that is gone may have moved, for repair (docs/repair.md, "Renamed
 * documents"): the files under the document root by SHA-256 of their text, and git's renames since
 * a revision. Both are computed once, on first use: only a ref whose document is gone asks.
 */

import type { DocumentMoves } from "../core/repair/types";
import { type DocumentLookup, isDocumentFailure } from "../core/session";
import { listCandidateDocuments } from "./discovery";
import { renamesSince } from "./gitRevision";

export function diskDocumentMoves(
    root: string,
    documents: DocumentLookup,
    sha256: (text: string) => string,
    revision: () => string | undefined,
): DocumentMoves {
    let byHash: Map<string, string[]> | undefined;
    let renames: Map<string, string[]> | undefined;
    return {
        pathsWithSha256(hash) {
            if (!byHash) {
                byHash = new Map();
                for (const path of listCandidateDocuments(root)) {
                    const document = documents.get(path);
                    if (document === undefined || isDocumentFailure(document)) continue;
                    const key = document.contentSha256 ?? sha256(document.content);
                    byHash.set(key, [...(byHash.get(key) ?? []), path]);
                }
            }
            return byHash.get(hash) ?? [];
        },
        renamesOf(path) {
            if (!renames) {
                const rev = revision();
                renames = rev === undefined ? new Map() : renamesSince(root, rev);
            }
            return renames.get(path) ?? [];
        },
    };
}
