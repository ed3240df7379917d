/**
 * `sourcecheck/agentTool` (docs/agents.md): VS Code's language model tools run the agent tools here,
 * over the workspace as the language server sees it: paths relative to the document root of the
 * first workspace folder, open buffers winning over the disk, the same path safety as every ref.
 * A repair that writes is one workspace edit: the editor applies it (undoable), nothing is written
 * behind its back.
 */
import type { WorkspaceEdit } from "vscode-languageserver/node";
import type { AgentToolParams, AgentToolResult } from "../../../shared/agentToolProtocol";
import { runTool, type ToolContext, ToolError } from "../agentTools/tools";
import { isDocumentFailure } from "../core/session";
import { searchEvidenceUnderRoot } from "../workspace/agentEvidence";
import { readDocumentUnderRoot } from "../workspace/diskDocuments";
import { resolveUnderRoot } from "../workspace/pathSafety";
import { pathToUri } from "../workspace/uris";
import type { WorkspaceIndex } from "../workspace/workspaceIndex";

/** What the tools need of the editor beyond the workspace index. */
export interface EditorAccess {
    /** The open buffer of a file (by absolute path), with the URI the client knows it by. */
    buffer(absolutePath: string): { uri: string; text: string } | undefined;
    /** Ask the client to apply an edit; false when it refused. */
    applyEdit(edit: WorkspaceEdit, label: string): Promise<boolean>;
}

/** The document root agents work in: the first workspace folder's, moved by `sourcecheck.documentRoot`. */
export function agentRoot(workspace: WorkspaceIndex): string | undefined {
    const folder = workspace.folders[0];
    return folder === undefined ? undefined : workspace.rootFor(pathToUri(folder));
}

/** The LSP range covering a whole text (any line-break convention). */
function wholeRange(text: string) {
    const lines = text.split(/\r\n|\r|\n/);
    return {
        start: { line: 0, character: 0 },
        end: { line: lines.length - 1, character: lines[lines.length - 1].length },
    };
}

export function workspaceToolContext(workspace: WorkspaceIndex, root: string, editor: EditorAccess): ToolContext {
    return {
        document: (path) => workspace.source.get(root, path),
        documents: () => workspace.source.lookupFor(root),
        annotationFile(path) {
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
            const uri = open?.uri ?? pathToUri(verdict.absolute);
            return {
                text,
                write: async (next) => {
                    const edit: WorkspaceEdit = { changes: { [uri]: [{ range: wholeRange(text), newText: next }] } };
                    if (!(await editor.applyEdit(edit, "SourceCheck: repair refs"))) {
                        throw new Error("the editor did not apply the edit");
                    }
                },
            };
        },
        files: () => workspace.filesUnder(root),
        evidence(query, corpus, topK) {
            const found = searchEvidenceUnderRoot(root, query, corpus, topK);
            if ("code" in found) throw new ToolError(found.code, found.message);
            return found;
        },
    };
}

export async function agentTool(
    workspace: WorkspaceIndex,
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
    return runTool(name, params?.input, workspaceToolContext(workspace, root, editor));
}
