/**
 * "SourceCheck: Fix All Certain Repairs in Workspace" (docs/editor.md; shared/customProtocol.ts
 * REPAIR_WORKSPACE): the `repair` agent tool (the repair operation, operations/repair.ts, as
 * `sourcecheck repair --write` runs it: the lock, git history, the only reading) over every annotation
 * file the server knows, its writes gathered into one WorkspaceEdit instead of applied one by one, so
 * the client applies them as one edit and one undo takes them all back. `cancelled` (the client
 * cancelled the request) is asked between files and between a file's annotations: it stops with
 * OperationCancelled and no edit at all, never the files repaired so far.
 */
import * as nodePath from "node:path";
import type { TextDocumentEdit, WorkspaceEdit } from "vscode-languageserver-protocol";
import type { RepairWorkspaceResult } from "../../../shared/customProtocol";
import { type Cancelled, OperationCancelled, throwIfCancelled } from "../agentTools/cooperative";
import type { UriSpace } from "../workspace/uris";
import { NOT_IN_BROWSER, type ServiceCore } from "./core";

/**
 * The root the agent tools take paths under: the first workspace folder, moved by
 * `sourcecheck.documentRoot` (as node/agentTools.ts `agentRoot`, which the browser bundle must not load).
 */
function toolRoot(core: ServiceCore): string | undefined {
    const folder = core.workspace.folders[0];
    if (folder === undefined) return undefined;
    const explicit = core.workspace.settings.documentRoot;
    return explicit ? nodePath.resolve(folder, explicit) : folder;
}

/** The path of `uri` relative to `root` as the tools take it, or why there is none. */
function toolPath(uris: UriSpace, root: string, uri: string): string | { message: string } {
    const path = uris.uriToPath(uri);
    if (path === undefined) return { message: `${uri} is not a file on disk` };
    const relative = nodePath.relative(root, path);
    if (relative === "" || relative.startsWith("..") || nodePath.isAbsolute(relative))
        return { message: `${path} is outside the workspace's document root ${root}` };
    return relative.replace(/\\/g, "/");
}

export async function repairWorkspace(core: ServiceCore, cancelled?: Cancelled): Promise<RepairWorkspaceResult> {
    const { agentTool, workspace, analysis, buffers, documents } = core;
    if (!agentTool) return { ok: false, message: `Repairing the workspace ${NOT_IN_BROWSER}` };
    const root = toolRoot(core);
    if (root === undefined) return { ok: false, message: "no workspace folder is open: open a folder first" };
    await workspace.whenScanned();
    analysis.settle();
    const edits: TextDocumentEdit[] = [];
    const skipped: { uri: string; message: string }[] = [];
    let refCount = 0;
    const files = workspace.all();
    for (const file of files) {
        throwIfCancelled(cancelled);
        const path = toolPath(workspace.uris, root, file.uri);
        if (typeof path !== "string") {
            skipped.push({ uri: file.uri, message: path.message });
            continue;
        }
        const gathered: WorkspaceEdit[] = [];
        const result = await agentTool(
            workspace,
            { name: "repair", input: { file: path, write: true } },
            {
                buffer: (absolute) => buffers.buffer(absolute),
                // Gathered, not applied: the client applies every file's edit at once.
                applyEdit: async (edit) => {
                    gathered.push(edit);
                    return true;
                },
                cancelled,
            },
        );
        if (!result.ok && result.error.code === "cancelled") throw new OperationCancelled();
        if (!result.ok) {
            skipped.push({ uri: file.uri, message: `${result.error.code}: ${result.error.message}` });
            continue;
        }
        const written = result.structured.written;
        if (typeof written !== "number" || written === 0) continue;
        for (const edit of gathered) {
            for (const [uri, changes] of Object.entries(edit.changes ?? {})) {
                // An open file's version: the editor refuses the edit if the file changed since.
                edits.push({ textDocument: { uri, version: documents.get(uri)?.version ?? null }, edits: changes });
            }
        }
        refCount += written;
    }
    return {
        ok: true,
        edit: { documentChanges: edits },
        refCount,
        fileCount: new Set(edits.map((e) => e.textDocument.uri)).size,
        checkedCount: files.length,
        skipped,
    };
}
