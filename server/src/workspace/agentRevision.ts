/**
 * Repair's history (docs/repair.md, "Evidence"), for every front end: the documents at a git
 * revision (`since`), or at the annotation file's last commit. A failure is an operation error with
 * a stable code, not a crash.
 */
import * as nodePath from "node:path";
import type { DocumentLookup } from "../core/session";
import { OperationError } from "../operations/errors";
import { GitRevisionDocuments, GitRevisionError, lastCommitOf } from "./gitRevision";

export function revisionDocuments(root: string, rev: string): DocumentLookup {
    try {
        return GitRevisionDocuments.open(root, rev);
    } catch (error) {
        if (error instanceof GitRevisionError) throw new OperationError("invalid-arguments", `since: ${error.message}`);
        throw error;
    }
}

/** The documents (under `root`) at the last commit of `file` (absolute); undefined without git or a commit. */
export function lastCommitDocuments(
    root: string,
    file: string,
): { documents: DocumentLookup; label: string } | undefined {
    const commit = lastCommitOf(file);
    if (commit === undefined) return undefined;
    try {
        const documents = GitRevisionDocuments.open(root, commit);
        return { documents, label: `commit ${commit.slice(0, 7)} (the last commit of ${nodePath.basename(file)})` };
    } catch {
        return undefined; // the root is not in that work tree: no history, as without git
    }
}
