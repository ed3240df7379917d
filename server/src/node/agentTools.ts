/**
 * `sourcecheck/agentTool` (docs/agents.md): VS Code's language model tools run the agent tools here,
 * over the workspace as the language server sees it: paths relative to the document root of the
 * first workspace folder, open buffers winning over the disk, the same path safety as every ref.
 * An annotation file's refs resolve against its own document root (the nearest sourcecheck.config.json
 * above it, never above that root: docs/config.md), as in the CLI and the MCP server.
 * A repair that writes is one workspace edit: the editor applies it (undoable), nothing is written
 * behind its back. Node only: the tools read the disk under the root (the safe reader, git, the
 * evidence index), so server.ts gives this handler to the language service; the browser has none.
 */

import * as nodePath from "node:path";
import type { Range as LspRange, WorkspaceEdit } from "vscode-languageserver-protocol";
import type { AgentToolParams, AgentToolResult } from "../../../shared/agentToolProtocol";
import { nextTurn } from "../agentTools/cooperative";
import { toolLock } from "../agentTools/lockAccess";
import { type AnnotationFileAccess, type RefScope, runTool, type ToolContext, ToolError } from "../agentTools/tools";
import { resolveRef } from "../core/resolve";
import { type DocumentFailure, isDocumentFailure } from "../core/session";
import { mergeSeverity } from "../core/severity";
import type { Ref } from "../core/types";
import type { EditorAccess, ToolWorkspace } from "../features/featureWorkspace";
import { toLspRange } from "../features/positions";
import { lastCommitDocuments, revisionDocuments } from "../workspace/agentRevision";
import { boundedConfigs } from "../workspace/boundedConfigs";
import { readDocumentUnderRoot } from "../workspace/diskDocuments";
import { documentMoves, renameBase } from "../workspace/documentMoves";
import { type KeptIndexes, searchEvidenceUnderRoot, WatchedIndexes } from "../workspace/evidenceSearch";
import { renamesSince } from "../workspace/gitRevision";
import { lockUnderRoot } from "../workspace/lockFiles";
import { newFileTarget } from "../workspace/newFile";
import { resolveUnderRoot } from "../workspace/pathSafety";
import { formatConfigProblem, resolveDocumentRoot } from "../workspace/projectConfig";
import { sha256 } from "../workspace/sha256";

/**
 * The root agents work in: the first workspace folder, moved by `sourcecheck.documentRoot`. Nothing
 * above it is read, configuration files included; annotation files beneath it get their own roots.
 */
export function agentRoot(workspace: ToolWorkspace): string | undefined {
    const folder = workspace.folders[0];
    if (folder === undefined) return undefined;
    const explicit = workspace.settings.documentRoot;
    return explicit ? nodePath.resolve(folder, explicit) : folder;
}

/** The LSP range covering a whole text (any line-break convention). */
function wholeRange(text: string) {
    const lines = text.split(/\r\n|\r|\n/);
    return {
        start: { line: 0, character: 0 },
        end: { line: lines.length - 1, character: lines[lines.length - 1].length },
    };
}

/**
 * Evidence indexes kept in memory for the agents' queries, for as long as the language server runs
 * (a context is made per tool call; the indexes outlive it), following file events as the MCP
 * server's do (docs/evidence-internals.md, "In a server").
 */
const keptIndexes: KeptIndexes = new WatchedIndexes();

export function workspaceToolContext(workspace: ToolWorkspace, root: string, editor: EditorAccess): ToolContext {
    /** An annotation file as the editor has it, written back as one edit of the whole text. */
    const fileAccess = (path: string, label: string): AnnotationFileAccess | DocumentFailure => {
        const checked = workspace.source.get(root, path); // path safety, symlinks, size cap
        if (isDocumentFailure(checked)) return checked;
        const verdict = resolveUnderRoot(root, path);
        if (!verdict.ok) return { code: "path-outside-root", message: verdict.message };
        const open = editor.buffer(verdict.absolute);
        let text: string;
        if (open) text = open.text;
        else {
            const read = readDocumentUnderRoot(root, path, { maxBytes: workspace.settings.maxDocumentSize });
            if (!read.ok) return read.failure;
            text = read.raw;
        }
        const uri = open?.uri ?? workspace.uris.pathToUri(verdict.absolute);
        return {
            text,
            write: async (next) => {
                const edit: WorkspaceEdit = { changes: { [uri]: [{ range: wholeRange(text), newText: next }] } };
                if (!(await editor.applyEdit(edit, label))) {
                    throw new Error("the editor did not apply the edit");
                }
            },
        };
    };
    return {
        document: (path) => workspace.source.get(root, path),
        documents: () => workspace.source.lookupFor(root),
        annotationFile: (path) => fileAccess(path, "SourceCheck: repair refs"),
        annotationFileToWrite(path) {
            const verdict = resolveUnderRoot(root, path);
            if (!verdict.ok) return { code: "path-outside-root", message: verdict.message };
            const open = editor.buffer(verdict.absolute);
            const existing = open ? undefined : newFileTarget(root, verdict.absolute, path);
            if (open || typeof existing !== "string") {
                if (existing && typeof existing !== "string" && existing.code) return existing;
                const file = fileAccess(path, "SourceCheck: annotate");
                if ("code" in file) return file;
                return { text: file.text, write: (text) => file.write(text) };
            }
            const uri = workspace.uris.pathToUri(existing);
            return {
                text: undefined,
                write: async (text) => {
                    const edit: WorkspaceEdit = {
                        documentChanges: [
                            { kind: "create", uri, options: { ignoreIfExists: false } },
                            {
                                textDocument: { uri, version: null },
                                edits: [
                                    {
                                        range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
                                        newText: text,
                                    },
                                ],
                            },
                        ],
                    };
                    if (!(await editor.applyEdit(edit, "SourceCheck: annotate"))) {
                        throw new Error("the editor did not create the file");
                    }
                },
            };
        },
        files: () => workspace.filesUnder(root),
        evidence({ corpus, maxChars, ...request }) {
            const found = searchEvidenceUnderRoot(root, corpus, { ...request, maxTextChars: maxChars }, keptIndexes);
            if ("code" in found) throw new ToolError(found.code, found.message);
            return found;
        },
        lockFor: (file) => toolLock(lockUnderRoot(root, file)),
        cancelled: editor.cancelled,
        refScope(file): RefScope {
            const verdict = resolveUnderRoot(root, file);
            if (!verdict.ok) throw new ToolError("path-outside-root", verdict.message);
            // `sourcecheck.documentRoot` set: it is the root of every file, as `--root` is for the CLI.
            const resolved = workspace.settings.documentRoot
                ? { root }
                : resolveDocumentRoot(verdict.absolute, { fallback: root, configs: boundedConfigs(root) });
            if ("problem" in resolved && resolved.problem) {
                const shown = nodePath.relative(root, resolved.problem.file);
                throw new ToolError("unreadable-document", formatConfigProblem(resolved.problem, shown));
            }
            const scoped = resolved.root;
            const configured = "config" in resolved ? resolved.config?.severity : undefined;
            return {
                base: nodePath.relative(root, scoped).replace(/\\/g, "/"),
                // The setting over the file's configuration, as in the editor's diagnostics.
                severity: mergeSeverity(configured, workspace.settings.severity),
                documents: () => workspace.source.lookupFor(scoped),
                files: () => workspace.filesUnder(scoped),
                revision: (rev) => revisionDocuments(scoped, rev),
                lastCommit: () => lastCommitDocuments(scoped, verdict.absolute),
                // As `sourcecheck repair`: the lock's hash among the known files, git's rename record.
                moves: (since) =>
                    documentMoves(
                        () => workspace.filesUnder(scoped),
                        workspace.source.lookupFor(scoped),
                        sha256,
                        () => {
                            const rev = renameBase(verdict.absolute, since);
                            return rev === undefined ? new Map() : renamesSince(scoped, rev);
                        },
                    ),
            };
        },
    };
}

export async function agentTool(
    workspace: ToolWorkspace,
    params: AgentToolParams,
    editor: EditorAccess,
): Promise<AgentToolResult> {
    const root = agentRoot(workspace);
    if (root === undefined) {
        return {
            ok: false,
            error: { code: "unreadable-document", message: "no workspace folder is open: open a folder first" },
        };
    }
    const name = typeof params?.name === "string" ? params.name : "";
    // A turn first, so the file events of a file written just before the call are heard (evidence).
    await nextTurn();
    const result = await runTool(name, params?.input, workspaceToolContext(workspace, root, editor));
    if (name !== "cite" || !result.ok) return result;
    const location = citedLocation(workspace, root, result.structured.ref as Ref);
    return location ? { ...result, location } : result;
}

/** Where cite's ref lies, resolved here as every ref is (the editor selects it, never searches for it). */
function citedLocation(workspace: ToolWorkspace, root: string, ref: Ref): { uri: string; range: LspRange } | undefined {
    const resolved = resolveRef(workspace.source.lookupFor(root), ref);
    if (!resolved.valid) return undefined;
    return { uri: workspace.uris.pathToUri(nodePath.join(root, ref.path)), range: toLspRange(resolved.range) };
}
