/**
 * The agent tools' view of a root on disk (the MCP server): every path through the workspace's path
 * safety, every call reading afresh (files change between an agent's calls), writes atomic.
 */
import * as fs from "node:fs";
import { type ToolContext, ToolError } from "../agentTools/tools";
import { writeFileAtomic } from "../cli/files";
import { listFiles } from "../cli/repairCommand";
import { SessionDocument } from "../core/session";
import { searchEvidenceUnderRoot } from "../workspace/agentEvidence";
import { DiskDocuments, readDocumentUnderRoot } from "../workspace/diskDocuments";
import { resolveUnderRoot } from "../workspace/pathSafety";

export interface DiskContextOptions {
    maxBytes?: number;
    /** Where evidence indexes are kept (default: the user's cache directory). */
    indexDir?: string;
}

export function diskToolContext(root: string, options: DiskContextOptions = {}): ToolContext {
    const { maxBytes } = options;
    return {
        document(path) {
            const read = readDocumentUnderRoot(root, path, { maxBytes });
            return read.ok ? new SessionDocument(path, read.content) : read.failure;
        },
        documents: () => new DiskDocuments(root, { maxBytes }),
        annotationFile(path) {
            const read = readDocumentUnderRoot(root, path, { maxBytes });
            if (!read.ok) return read.failure;
            const verdict = resolveUnderRoot(root, path);
            // Checked by the read above; the real path keeps a symlink inside the root a symlink.
            const target = verdict.ok ? fs.realpathSync(verdict.absolute) : path;
            return {
                text: read.raw,
                write: async (text) => writeFileAtomic(target, text),
            };
        },
        files: () => listFiles(root),
        evidence(query, corpus, topK) {
            const found = searchEvidenceUnderRoot(root, query, corpus, topK, options.indexDir);
            if ("code" in found) throw new ToolError(found.code, found.message);
            return found;
        },
    };
}
