/**
 * Documents at a git revision for the agents' `repair` with `since` (docs/agents.md), as
 * `sourcecheck repair --since REV` reads them: a failure is a tool error with a message, not a crash.
 */
import { ToolError } from "../agentTools/tools";
import type { DocumentLookup } from "../core/session";
import { GitRevisionDocuments, GitRevisionError } from "./gitRevision";

export function revisionDocuments(root: string, rev: string): DocumentLookup {
    try {
        return GitRevisionDocuments.open(root, rev);
    } catch (error) {
        if (error instanceof GitRevisionError)
            throw new ToolError("invalid-arguments", `repair: since: ${error.message}`);
        throw error;
    }
}
