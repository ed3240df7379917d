/**
 * The agent tools' view of a root on disk (the MCP server): every path through the workspace's path
 * safety, every call seeing the files as they are now (an unchanged file is not read again:
 * workspace/freshDocuments.ts), writes atomic.
 */
import * as fs from "node:fs";
import { type ToolContext, ToolError } from "../agentTools/tools";
import { writeFileAtomic } from "../cli/files";
import { listFiles } from "../cli/repairCommand";
import { searchEvidenceUnderRoot } from "../workspace/agentEvidence";
import { FreshDocuments } from "../workspace/freshDocuments";
import { resolveUnderRoot } from "../workspace/pathSafety";

export interface DiskContextOptions {
    maxBytes?: number;
    /** Where evidence indexes are kept (default: the user's cache directory). */
    indexDir?: string;
}

export function diskToolContext(root: string, options: DiskContextOptions = {}): ToolContext {
    const files = new FreshDocuments(root, options.maxBytes);
    return {
        document: (path) => files.document(path),
        documents: () => files.lookup(),
        annotationFile(path) {
            const read = files.read(path);
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
