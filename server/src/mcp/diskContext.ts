/**
 * The agent tools' view of a root on disk (the MCP server): every path through the workspace's path
 * safety, every call seeing the files as they are now (an unchanged file is not read again:
 * workspace/freshDocuments.ts), writes atomic. The root is the safety boundary; an annotation file's
 * refs resolve against its own document root beneath it (docs/config.md).
 */
import * as fs from "node:fs";
import * as nodePath from "node:path";
import { toolLock } from "../agentTools/lockAccess";
import { type RefScope, type ToolContext, ToolError, type ToolRunner, toolRunner } from "../agentTools/tools";
import { lastCommitDocuments, revisionDocuments } from "../workspace/agentRevision";
import { boundedConfigs } from "../workspace/boundedConfigs";
import { readDocumentUnderRoot } from "../workspace/diskDocuments";
import { diskDocumentMoves, renameBase } from "../workspace/documentMoves";
import { type KeptIndexes, searchEvidenceUnderRoot, WatchedIndexes } from "../workspace/evidenceSearch";
import { FreshDocuments } from "../workspace/freshDocuments";
import { lockUnderRoot } from "../workspace/lockFiles";
import { newFileTarget } from "../workspace/newFile";
import { listCandidateDocuments } from "../workspace/nodeDiscovery";
import { resolveUnderRoot } from "../workspace/pathSafety";
import { formatConfigProblem, resolveDocumentRoot } from "../workspace/projectConfig";
import { SafeWriteError, writeFileSafely } from "../workspace/safeWrite";
import { sha256 } from "../workspace/sha256";

export interface DiskContextOptions {
    maxBytes?: number;
    /** Where evidence indexes are kept (default: the user's cache directory). */
    indexDir?: string;
    /**
     * Evidence indexes follow file events instead of a walk per query (the MCP server, which lets its
     * event loop turn before each call so the events are heard); otherwise each query walks the corpus.
     */
    watchEvidence?: boolean;
}

/**
 * The tools run on the root on disk: what `sourcecheck mcp` requires on its first tool call, so the
 * tools, the workspace, the checker, repair and evidence load then and as one bundle (mcp/server.ts).
 */
export function diskToolRunner(root: string, options: DiskContextOptions = {}): ToolRunner {
    return toolRunner(diskToolContext(root, options));
}

export function diskToolContext(root: string, options: DiskContextOptions = {}): ToolContext {
    const files = new FreshDocuments(root, options.maxBytes);
    const realRoot = () => fs.realpathSync(root);
    /**
     * Evidence indexes kept in memory between queries, following file events: the server lives as
     * long as the agent's session (docs/evidence-internals.md, "In a server").
     */
    const keptIndexes: KeptIndexes = options.watchEvidence ? new WatchedIndexes() : new Map();
    /** One reader per document root and size cap, so each keeps its unchanged files between calls. */
    const readers = new Map<string, FreshDocuments>();
    const readerFor = (documentRoot: string, maxBytes: number | undefined): FreshDocuments => {
        if (documentRoot === root && maxBytes === options.maxBytes) return files;
        const key = `${documentRoot}\0${maxBytes ?? ""}`;
        let reader = readers.get(key);
        if (!reader) {
            reader = new FreshDocuments(documentRoot, maxBytes);
            readers.set(key, reader);
        }
        return reader;
    };
    return {
        document: (path) => files.document(path),
        documents: () => files.lookup(),
        annotationFile(path) {
            // Read afresh with a snapshot: the write below replaces exactly this file, only while it is
            // unchanged, and only in a folder still under the root (workspace/safeWrite.ts).
            const read = readDocumentUnderRoot(root, path, { maxBytes: options.maxBytes, snapshot: true });
            if (!read.ok) return read.failure;
            const target = read.real as string;
            const expected = read.snapshot;
            return {
                text: read.raw,
                write: async (text) => {
                    try {
                        writeFileSafely(target, text, { expected, within: realRoot() });
                    } catch (error) {
                        throw new Error(error instanceof SafeWriteError ? `it ${error.message}` : String(error));
                    }
                },
            };
        },
        annotationFileToWrite(path) {
            const verdict = resolveUnderRoot(root, path);
            if (!verdict.ok) return { code: "path-outside-root", message: verdict.message };
            const missing = newFileTarget(root, verdict.absolute, path);
            if (typeof missing !== "string") {
                if (missing.code) return missing;
                // Something is there: it is read and rewritten as repair's write does, only while unchanged.
                const file = this.annotationFile(path);
                if ("code" in file) return file;
                return { text: file.text, write: (text) => file.write(text) };
            }
            return {
                text: undefined,
                write: async (text) => {
                    try {
                        writeFileSafely(missing, text, { within: realRoot() });
                    } catch (error) {
                        throw new Error(error instanceof SafeWriteError ? `it ${error.message}` : String(error));
                    }
                },
            };
        },
        files: () => listCandidateDocuments(root),
        evidence({ corpus, maxChars, ...request }) {
            const found = searchEvidenceUnderRoot(
                root,
                corpus,
                // Many queries to come: the index's postings are read once, not per query's terms.
                { ...request, maxTextChars: maxChars, indexDir: options.indexDir, wholeIndex: true },
                keptIndexes,
            );
            if ("code" in found) throw new ToolError(found.code, found.message);
            return found;
        },
        lockFor: (file) => toolLock(lockUnderRoot(root, file)),
        refScope(file): RefScope {
            const verdict = resolveUnderRoot(root, file);
            if (!verdict.ok) throw new ToolError("path-outside-root", verdict.message);
            // A fresh lookup each call: a configuration file may have appeared or changed since the last.
            const resolved = resolveDocumentRoot(verdict.absolute, { fallback: root, configs: boundedConfigs(root) });
            if (resolved.problem) {
                const shown = nodePath.relative(root, resolved.problem.file);
                throw new ToolError("unreadable-document", formatConfigProblem(resolved.problem, shown));
            }
            const reader = readerFor(resolved.root, options.maxBytes ?? resolved.config?.maxDocumentSize);
            return {
                base: nodePath.relative(root, resolved.root).replace(/\\/g, "/"),
                severity: resolved.config?.severity,
                documents: () => reader.lookup(),
                files: () => listCandidateDocuments(resolved.root),
                revision: (rev) => revisionDocuments(resolved.root, rev),
                lastCommit: () => lastCommitDocuments(resolved.root, verdict.absolute),
                // As `sourcecheck repair`: the lock's hash, git's rename record (docs/repair.md).
                moves: (since) =>
                    diskDocumentMoves(resolved.root, reader.lookup(), sha256, () =>
                        renameBase(verdict.absolute, since),
                    ),
            };
        },
    };
}
