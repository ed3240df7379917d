/**
 * Refs that follow edits, on the client side (docs/follow-edits.md): the server says when refs into
 * an edited document moved (`sourcecheck/refsCanFollow`); per `sourcecheck.updateRefsOnEdit` this
 * asks the user (prompt), applies at once (always) or drops them (never). The update itself comes
 * from the server as one WorkspaceEdit, applied here as one undoable step: the client computes nothing.
 */
import * as path from "node:path";
import * as vscode from "vscode";
import { uriKey } from "./citedSpans";
import {
    dismissFollowEditsNotification,
    followEditsRequest,
    type RefsCanFollowParams,
    type RefUpdate,
    refsCanFollowNotification,
} from "./customRequestTypes";
import type { SourceCheckClient } from "./languageClient";
import { ask, messageOf } from "./requests";

export type UpdateMode = "prompt" | "always" | "never";
export const UPDATE = "Update";
export const NOT_NOW = "Not now";

export function updateMode(setting: "updateRefsOnEdit" | "updatePathsOnFileMove"): UpdateMode {
    const value = vscode.workspace.getConfiguration("sourcecheck").get<string>(setting, "prompt");
    return value === "always" || value === "never" ? value : "prompt";
}

/** What the e2e hook `sourcecheck._refUpdates` reports and controls (client/E2E-HOOKS.md). */
export interface RefUpdateLog {
    prompts: { message: string; answer: string | undefined }[];
    applied: { uri: string; refCount: number; ok: boolean }[];
}

/** Prompts and applies ref updates; shared by edits (this file) and file moves (fileMoves.ts). */
export class RefUpdates {
    readonly log: RefUpdateLog = { prompts: [], applied: [] };
    /** Tests answer prompts through this instead of clicking (undefined: really ask). */
    autoAnswer: string | undefined;

    constructor(
        private readonly sc: SourceCheckClient,
        private readonly output: vscode.OutputChannel,
    ) {}

    async prompt(message: string): Promise<boolean> {
        const answer =
            this.autoAnswer ?? (await vscode.window.showInformationMessage(`SourceCheck: ${message}`, UPDATE, NOT_NOW));
        this.log.prompts.push({ message, answer });
        return answer === UPDATE;
    }

    /**
     * Apply a server-made update as one edit. An open annotation file edited since the server read
     * it is not overwritten: the update is refused as a whole (its refs stay as they are).
     */
    async apply(update: RefUpdate, label: string): Promise<boolean> {
        if (update.refCount === 0) return false;
        for (const change of update.edit.documentChanges ?? []) {
            if (!("textDocument" in change) || change.textDocument.version === null) continue;
            const open = vscode.workspace.textDocuments.find((d) => uriKey(d.uri) === uriKey(change.textDocument.uri));
            if (open && open.version !== change.textDocument.version) {
                this.output.appendLine(`[client] ${label}: ${change.textDocument.uri} changed meanwhile; not updated`);
                this.log.applied.push({ uri: change.textDocument.uri, refCount: update.refCount, ok: false });
                return false;
            }
        }
        const edit = await this.toWorkspaceEdit(update);
        const ok = await vscode.workspace.applyEdit(edit, { isRefactoring: true });
        this.output.appendLine(`[client] ${label}: ${update.refCount} ref(s) ${ok ? "updated" : "not updated"}`);
        const first = update.edit.documentChanges?.[0];
        this.log.applied.push({
            uri: first && "textDocument" in first ? first.textDocument.uri : "",
            refCount: update.refCount,
            ok,
        });
        return ok;
    }

    toWorkspaceEdit(update: RefUpdate): Promise<vscode.WorkspaceEdit> {
        return Promise.resolve(this.sc.client.protocol2CodeConverter.asWorkspaceEdit(update.edit));
    }
}

/** Follows the server's `refsCanFollow` notices per `sourcecheck.updateRefsOnEdit`. */
export class FollowEdits implements vscode.Disposable {
    /** Cited documents whose prompt is showing: one at a time, it asks the server for the latest state. */
    private readonly prompting = new Set<string>();
    private readonly disposables: vscode.Disposable[] = [];

    constructor(
        private readonly sc: SourceCheckClient,
        private readonly updates: RefUpdates,
        private readonly output: vscode.OutputChannel,
    ) {
        this.disposables.push(
            sc.client.onNotification(refsCanFollowNotification, (params) => {
                void this.onNotice(params).catch((error: unknown) =>
                    this.output.appendLine(`[client] updating refs failed: ${messageOf(error)}`),
                );
            }),
        );
    }

    private async onNotice(params: RefsCanFollowParams): Promise<void> {
        if (typeof params?.uri !== "string" || !(params.refCount > 0)) return;
        const mode = updateMode("updateRefsOnEdit");
        if (mode === "never") {
            void this.sc.client.sendNotification(dismissFollowEditsNotification, { uri: params.uri });
            return;
        }
        if (mode === "always") {
            await this.update(params.uri);
            return;
        }
        if (this.prompting.has(params.uri)) return;
        this.prompting.add(params.uri);
        try {
            const name = path.posix.basename(vscode.Uri.parse(params.uri).path);
            const refs = params.refCount === 1 ? "1 ref" : `${params.refCount} refs`;
            const files = params.fileCount === 1 ? "" : ` in ${params.fileCount} annotation files`;
            const accepted = await this.updates.prompt(
                `${refs}${files} into ${name} moved with your edit. Update ${params.refCount === 1 ? "it" : "them"}?`,
            );
            if (accepted) await this.update(params.uri);
            else void this.sc.client.sendNotification(dismissFollowEditsNotification, { uri: params.uri });
        } finally {
            this.prompting.delete(params.uri);
        }
    }

    private async update(uri: string): Promise<void> {
        const update = await ask(this.sc, followEditsRequest, { uri });
        await this.updates.apply(update, "refs follow edits");
    }

    dispose(): void {
        for (const d of this.disposables) d.dispose();
    }
}
