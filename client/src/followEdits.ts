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
    type ChangedCitation,
    dismissFollowEditsNotification,
    followEditsRequest,
    type RefsCanFollowParams,
    type RefUpdate,
    refsCanFollowNotification,
} from "./customRequestTypes";
import { annotationNumbered, askWithButtons, counted, countedRefsInFiles, sourceNumbered } from "./l10n";
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
    applied: { uri: string; refCount: number; ok: boolean; editedRefs?: number; fileCount?: number }[];
    /** What `always` said in the status bar (and the output channel) after each update. */
    notices: string[];
    /** What was said about refs whose cited text an edit changed (drift, never updated). */
    drift: string[];
}

/** Where the changes to a cited document came from: typed in VS Code, or its file changed on disk. */
export type ChangeOrigin = "edit" | "disk";

/** "2 refs in 1 annotation file": what an update changes, counted from the edit itself. */
export function describeUpdate(update: RefUpdate): string {
    return countedRefsInFiles(update.refCount, update.fileCount);
}

/** Prompts and applies ref updates; shared by edits (this file) and file moves (fileMoves.ts). */
export class RefUpdates {
    readonly log: RefUpdateLog = { prompts: [], applied: [], notices: [], drift: [] };
    /** The annotation files' texts before the last update, for its Undo. */
    private undoable: { texts: Map<string, { text: string; version: number }>; item: vscode.StatusBarItem } | undefined;
    /** Tests answer prompts through this instead of clicking (undefined: really ask). */
    autoAnswer: string | undefined;

    constructor(
        private readonly sc: SourceCheckClient,
        private readonly output: vscode.OutputChannel,
    ) {}

    async prompt(message: string): Promise<boolean> {
        const answer =
            this.autoAnswer ??
            (await askWithButtons(vscode.l10n.t("SourceCheck: {0}", message), {
                [UPDATE]: vscode.l10n.t("Update"),
                [NOT_NOW]: vscode.l10n.t("Not now"),
            }));
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
        const before = new Map<string, string>();
        for (const [uri] of edit.entries()) {
            const document = await vscode.workspace.openTextDocument(uri);
            before.set(uriKey(uri), document.getText());
        }
        const ok = await vscode.workspace.applyEdit(edit, { isRefactoring: true });
        this.output.appendLine(`[client] ${label}: ${describeUpdate(update)} ${ok ? "updated" : "not updated"}`);
        const first = update.edit.documentChanges?.[0];
        this.log.applied.push({
            uri: first && "textDocument" in first ? first.textDocument.uri : "",
            refCount: update.refCount,
            fileCount: update.fileCount,
            ok,
        });
        if (ok) await this.rememberForUndo(before);
        return ok;
    }

    /** Keeps the texts an update replaced, so its Undo can put them back (while nothing else edited them). */
    private async rememberForUndo(before: Map<string, string>): Promise<void> {
        this.undoable?.item.dispose();
        const texts = new Map<string, { text: string; version: number }>();
        for (const [key, text] of before) {
            const document = await vscode.workspace.openTextDocument(vscode.Uri.parse(key));
            texts.set(key, { text, version: document.version });
        }
        const item = vscode.window.createStatusBarItem(
            "sourcecheck.undoRefUpdate",
            vscode.StatusBarAlignment.Left,
            100,
        );
        item.name = vscode.l10n.t("SourceCheck: undo the last ref update");
        item.text = `$(discard) ${vscode.l10n.t("Undo ref update")}`;
        item.tooltip = vscode.l10n.t("Put the refs back as they were before SourceCheck updated them");
        item.command = UNDO_REF_UPDATE_COMMAND;
        this.undoable = { texts, item };
    }

    /** Says, in the status bar and the output channel, what an update without a prompt changed; offers Undo. */
    notify(update: RefUpdate, citedName: string, origin: ChangeOrigin = "edit"): string {
        const notice =
            origin === "disk"
                ? vscode.l10n.t(
                      "SourceCheck: {0} followed the change on disk to {1}",
                      describeUpdate(update),
                      citedName,
                  )
                : vscode.l10n.t("SourceCheck: {0} followed your edit of {1}", describeUpdate(update), citedName);
        this.output.appendLine(`[client] ${notice}`);
        this.log.notices.push(notice);
        vscode.window.setStatusBarMessage(`$(sync) ${notice}`, 10_000);
        const undo = this.undoable;
        if (undo) {
            undo.item.show();
            setTimeout(() => {
                if (this.undoable === undo) undo.item.hide();
            }, 10_000);
        }
        return notice;
    }

    /** Undo of the last update: each annotation file back to its text, unless it was edited since. */
    async undoLast(): Promise<{ ok: boolean; message: string }> {
        const undo = this.undoable;
        if (!undo) return { ok: false, message: vscode.l10n.t("there is no ref update to undo.") };
        undo.item.dispose();
        this.undoable = undefined;
        const edit = new vscode.WorkspaceEdit();
        for (const [key, { text, version }] of undo.texts) {
            const document = await vscode.workspace.openTextDocument(vscode.Uri.parse(key));
            if (document.version !== version)
                return {
                    ok: false,
                    message: vscode.l10n.t(
                        "{0} was edited since: use Undo there.",
                        path.posix.basename(document.uri.path),
                    ),
                };
            edit.replace(document.uri, new vscode.Range(0, 0, document.lineCount, 0), text);
        }
        // As a refactoring, like the update it undoes (VS Code saves such edits of files not open).
        const ok = await vscode.workspace.applyEdit(edit, { isRefactoring: true });
        const message = ok
            ? vscode.l10n.t("the ref update was undone.")
            : vscode.l10n.t("the ref update could not be undone.");
        this.output.appendLine(`[client] ${message}`);
        return { ok, message };
    }

    toWorkspaceEdit(update: RefUpdate): Promise<vscode.WorkspaceEdit> {
        return Promise.resolve(this.sc.client.protocol2CodeConverter.asWorkspaceEdit(update.edit));
    }
}

export const UNDO_REF_UPDATE_COMMAND = "sourcecheck.undoRefUpdate";

/** The prompt: the exact number of refs and annotation files an Update changes, and what moved them. */
export function promptText(
    counts: { refCount: number; fileCount: number },
    citedName: string,
    again = false,
    origin: ChangeOrigin = "edit",
): string {
    const moved = countedRefsInFiles(counts.refCount, counts.fileCount);
    const one = counts.refCount === 1;
    const question =
        origin === "disk"
            ? one
                ? vscode.l10n.t("{0} into {1} moved with a change on disk. Update it?", moved, citedName)
                : vscode.l10n.t("{0} into {1} moved with a change on disk. Update them?", moved, citedName)
            : one
              ? vscode.l10n.t("{0} into {1} moved with your edit. Update it?", moved, citedName)
              : vscode.l10n.t("{0} into {1} moved with your edit. Update them?", moved, citedName);
    return again ? vscode.l10n.t("Your further edits moved more refs: {0}", question) : question;
}

/**
 * What is said when an edit changed the text refs cite: the key fact first (how many, that they stay
 * as written), and each ref behind "Show details" (issue 34 items 6 and 8).
 */
export function driftText(changed: ChangedCitation[], citedName: string, origin: ChangeOrigin): string {
    const refs = counted(changed.length, vscode.l10n.t("1 ref"), vscode.l10n.t("{0} refs", changed.length));
    return origin === "disk"
        ? vscode.l10n.t(
              "A change on disk changed cited text in {0}: {1} left as written (drift, not a move).",
              citedName,
              refs,
          )
        : vscode.l10n.t(
              "Your edit changed cited text in {0}: {1} left as written (drift, not a move).",
              citedName,
              refs,
          );
}

/** One line per changed ref for the output channel: which ref, in which file, and what happened. */
export function driftDetails(changed: ChangedCitation[]): string[] {
    return changed.map((c) => {
        const which = c.role === "claim" ? vscode.l10n.t("the claim") : sourceNumbered(c.source);
        const file = path.posix.basename(vscode.Uri.parse(c.fileUri).path);
        return vscode.l10n.t(
            "{0} of {1} in {2}: the cited text changed in this edit",
            which,
            annotationNumbered(c.annotation),
            file,
        );
    });
}

/**
 * What refs following edits and paths following moves share: the server, the updates (prompt, apply,
 * undo), the output channel, and their event listeners, registered by `start()` and disposed together.
 */
export abstract class RefFollower implements vscode.Disposable {
    private readonly disposables: vscode.Disposable[] = [];

    constructor(
        protected readonly sc: SourceCheckClient,
        protected readonly updates: RefUpdates,
        protected readonly output: vscode.OutputChannel,
    ) {}

    /** The listeners of this follower (registered once the subclass is constructed). */
    protected abstract listen(): vscode.Disposable[];

    start(): this {
        this.disposables.push(...this.listen());
        return this;
    }

    dispose(): void {
        for (const d of this.disposables) d.dispose();
    }
}

/** Follows the server's `refsCanFollow` notices per `sourcecheck.updateRefsOnEdit`. */
export class FollowEdits extends RefFollower {
    /** Cited documents whose prompt is showing: one at a time, it asks the server for the latest state. */
    private readonly prompting = new Set<string>();
    /** Documents whose last change was an undo or a redo (made in this window, even when clean after it). */
    private readonly undone = new Set<string>();

    protected listen(): vscode.Disposable[] {
        return [
            vscode.workspace.onDidChangeTextDocument((event) => {
                if (event.contentChanges.length === 0) return;
                const key = uriKey(event.document.uri);
                if (event.reason === undefined) this.undone.delete(key);
                else this.undone.add(key);
            }),
            this.sc.client.onNotification(refsCanFollowNotification, (params) => {
                void this.onNotice(params).catch((error: unknown) =>
                    this.output.appendLine(`[client] updating refs failed: ${messageOf(error)}`),
                );
            }),
        ];
    }

    private async onNotice(params: RefsCanFollowParams): Promise<void> {
        if (typeof params?.uri !== "string") return;
        const mode = updateMode("updateRefsOnEdit");
        const name = path.posix.basename(vscode.Uri.parse(params.uri).path);
        const origin = this.originOf(params.uri);
        if (mode !== "never" && Array.isArray(params.changed) && params.changed.length > 0)
            this.sayDrift(params.changed, name, origin);
        if (!(params.refCount > 0)) return;
        if (mode === "never") {
            void this.sc.client.sendNotification(dismissFollowEditsNotification, { uri: params.uri });
            return;
        }
        if (mode === "always") {
            const update = await ask(this.sc, followEditsRequest, { uri: params.uri });
            if (await this.updates.apply(update, "refs follow edits")) this.updates.notify(update, name, origin);
            return;
        }
        if (this.prompting.has(params.uri)) return;
        this.prompting.add(params.uri);
        try {
            let promised = { refCount: params.refCount, fileCount: params.fileCount };
            if (!(await this.updates.prompt(promptText(promised, name, false, origin)))) {
                void this.sc.client.sendNotification(dismissFollowEditsNotification, { uri: params.uri });
                return;
            }
            // More edits may have moved more refs while the prompt showed: Update applies only what
            // the prompt counted; anything else is asked about again, with its own counts.
            const update = await ask(this.sc, followEditsRequest, { uri: params.uri });
            if (update.refCount !== promised.refCount || update.fileCount !== promised.fileCount) {
                promised = { refCount: update.refCount, fileCount: update.fileCount };
                if (update.refCount === 0 || !(await this.updates.prompt(promptText(promised, name, true, origin))))
                    return;
            }
            await this.updates.apply(update, "refs follow edits");
        } finally {
            this.prompting.delete(params.uri);
        }
    }

    /**
     * Where the changes came from, asked when the server reports (a pause after them): a document
     * edited here is unsaved then, or its last change was an undo or redo; one VS Code reloaded
     * because its file changed on disk is not (the dirty flag is not yet set when the change event fires).
     */
    private originOf(uri: string): ChangeOrigin {
        const key = uriKey(vscode.Uri.parse(uri));
        const document = vscode.workspace.textDocuments.find((d) => uriKey(d.uri) === key);
        return !document || document.isDirty || this.undone.has(key) ? "edit" : "disk";
    }

    /** Drift is said, never written: the key fact in a notification, each ref in the output channel. */
    private sayDrift(changed: ChangedCitation[], name: string, origin: ChangeOrigin): void {
        const message = driftText(changed, name, origin);
        this.updates.log.drift.push(message);
        this.output.appendLine(`[client] ${message}`);
        for (const line of driftDetails(changed)) this.output.appendLine(`[client]   ${line}`);
        const details = vscode.l10n.t("Show details");
        void vscode.window
            .showInformationMessage(vscode.l10n.t("SourceCheck: {0}", message), details)
            .then((answer) => {
                if (answer === details) this.output.show(true);
            });
    }
}
