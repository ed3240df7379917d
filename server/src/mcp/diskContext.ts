/**
 * The agent tools' view of a root on disk (the MCP server): every path through the workspace's path
 * safety, every call reading afresh (files change between an agent's calls).
 */
import type { ToolContext } from "../agentTools/tools";
import { SessionDocument } from "../core/session";
import { DiskDocuments, readDocumentUnderRoot } from "../workspace/diskDocuments";

export function diskToolContext(root: string, maxBytes?: number): ToolContext {
    return {
        document(path) {
            const read = readDocumentUnderRoot(root, path, { maxBytes });
            return read.ok ? new SessionDocument(path, read.content) : read.failure;
        },
        documents: () => new DiskDocuments(root, { maxBytes }),
    };
}
