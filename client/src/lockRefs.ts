/**
 * The editor keeps the lock (docs/lock.md, "In the editor"): "SourceCheck: Lock Refs", the quick fix
 * "Accept the new text" (its command), saving an annotation file whose lock exists, and the offer to
 * lock files that have none. The server computes and writes every lock (`sourcecheck/lockRefs`); the
 * client only decides when to ask and what to tell the user.
 */
import * as vscode from "vscode";
import { uriKey } from "./citedSpans";
import { isAnnotationDocument } from "./config";
import { type LockRefsResult, lockRefsRequest } from "./customRequestTypes";
import { askWithButtons } from "./l10n";
import type { SourceCheckClient } from "./languageClient";
import {
    ALWAYS,
    answerEffect,
    LOCK_OFFER_KEY,
    lockUpdateSetting,
    NEVER,
    NOT_NOW,
    type RememberedAnswer,
    shouldOffer,
} from "./lockOffer";
import { ask, messageOf } from "./requests";
import { displayPath } from "./uriPaths";

/** What the e2e hook `sourcecheck._lockKeeper` reports and controls (client/E2E-HOOKS.md). */
export interface LockKeeperLog {
    saves: { uri: string; result: LockRefsResult | { ok: false; message: string } }[];
    offers: { uri: string; answer: string | undefined }[];
    /** "Accept N changed texts?" asked by Lock Refs: how many, and the answer. */
    accepts: { uri: string; changed: number; answer: string | undefined }[];
}

export class LockKeeper implements vscode.Disposable {
    readonly log: LockKeeperLog = { saves: [], offers: [], accepts: [] };
    /** Tests: offer even though VS Code runs the tests, answering with `autoAnswer` instead of a click. */
    offerInTests = false;
    autoAnswer: string | undefined;
    /** Tests: the answer to "Accept N changed texts?" ("accept" or "keep") instead of a click. */
    autoAcceptAnswer: string | undefined;
    private dismissed = false;
    private showing = false;
    private readonly subscriptions: vscode.Disposable[] = [];

    constructor(
        private readonly context: vscode.ExtensionContext,
        private readonly sc: SourceCheckClient,
        private readonly output: vscode.OutputChannel,
    ) {
        this.subscriptions.push(vscode.workspace.onDidSaveTextDocument((document) => void this.saved(document)));
    }

    /** The e2e hook `sourcecheck._lockKeeper` (client/E2E-HOOKS.md): set the answers, read the log. */
    testHook(arg: unknown): LockKeeperLog {
        const { offer, answer, acceptAnswer } = (arg ?? {}) as {
            offer?: unknown;
            answer?: unknown;
            acceptAnswer?: unknown;
        };
        if (typeof offer === "boolean") this.offerInTests = offer;
        if (answer !== undefined) this.autoAnswer = typeof answer === "string" ? answer : undefined;
        if (acceptAnswer !== undefined)
            this.autoAcceptAnswer = typeof acceptAnswer === "string" ? acceptAnswer : undefined;
        return this.log;
    }

    dispose(): void {
        for (const s of this.subscriptions) s.dispose();
    }

    /** "SourceCheck: Lock Refs": lock the active annotation file (or the one given) as `sourcecheck lock` does. */
    async lockFile(arg?: unknown): Promise<LockRefsResult | { ok: false; message: string }> {
        const document = await this.documentOf(arg);
        if (!document || !isAnnotationDocument(document)) {
            return {
                ok: false,
                message: vscode.l10n.t("Open an annotation file (*.sourcecheck.json) to lock its refs."),
            };
        }
        const uri = uriKey(document.uri);
        let result = await ask(this.sc, lockRefsRequest, { uri, mode: "lock" });
        // A changed cited text is never accepted silently (docs/security.md, "The lock's trust model"):
        // the lock keeps the locked texts until the user says the new ones still support the claims.
        if (result.ok && result.changed > 0 && (await this.acceptChanged(uri, result.changed))) {
            result = await ask(this.sc, lockRefsRequest, { uri, mode: "lock", accept: true });
        }
        if (result.ok) vscode.window.setStatusBarMessage(vscode.l10n.t("SourceCheck: {0}", describe(result)), 5000);
        return result;
    }

    private async acceptChanged(uri: string, changed: number): Promise<boolean> {
        const message =
            changed === 1
                ? vscode.l10n.t("SourceCheck: 1 cited text changed since it was locked. Accept the changed text?")
                : vscode.l10n.t(
                      "SourceCheck: {0} cited texts changed since they were locked. Accept {0} changed texts?",
                      changed,
                  );
        // Under test nothing is clicked: the question is answered by the hook, or not asked.
        const inTests = this.context.extensionMode === vscode.ExtensionMode.Test;
        const answer =
            this.autoAcceptAnswer ??
            (inTests
                ? undefined
                : await askWithButtons(message, {
                      accept: vscode.l10n.t("Accept"),
                      keep: vscode.l10n.t("Keep the locked texts"),
                  }));
        this.log.accepts.push({ uri, changed, answer });
        return answer === "accept";
    }

    /** The quick fix "Accept the new text (update the lock)": `{ uri, pointer }`. */
    async accept(arg: unknown): Promise<LockRefsResult | { ok: false; message: string }> {
        const { uri, pointer } = (arg ?? {}) as { uri?: unknown; pointer?: unknown };
        if (typeof uri !== "string" || typeof pointer !== "string") {
            return { ok: false, message: "acceptChangedText needs { uri, pointer }." };
        }
        const result = await ask(this.sc, lockRefsRequest, { uri, mode: "accept", pointer });
        if (result.ok) vscode.window.setStatusBarMessage(vscode.l10n.t("SourceCheck: the new text is locked"), 5000);
        return result;
    }

    private async saved(document: vscode.TextDocument): Promise<void> {
        if (!isAnnotationDocument(document)) return;
        const setting = lockUpdateSetting(
            vscode.workspace.getConfiguration("sourcecheck", document.uri).get<unknown>("lock.update"),
        );
        if (setting !== "onSave") return;
        const uri = uriKey(document.uri);
        const remembered = this.context.workspaceState.get<RememberedAnswer>(LOCK_OFFER_KEY);
        let result: LockRefsResult;
        try {
            result = await ask(this.sc, lockRefsRequest, { uri, mode: "update", create: remembered === "always" });
        } catch (error) {
            const message = messageOf(error);
            this.log.saves.push({ uri, result: { ok: false, message } });
            this.output.appendLine(`[lock] ${displayPath(document.uri)}: ${message}`);
            return;
        }
        this.log.saves.push({ uri, result });
        // A bad lock or a schema error is a diagnostic in the file already; the output says why nothing was written.
        if (!result.ok && result.message)
            this.output.appendLine(`[lock] ${displayPath(document.uri)}: ${result.message}`);
        if (
            result.ok &&
            shouldOffer({
                setting,
                remembered,
                dismissed: this.dismissed,
                showing: this.showing,
                suppressed: this.context.extensionMode === vscode.ExtensionMode.Test && !this.offerInTests,
                hadLock: result.hadLock,
                written: result.written,
            })
        ) {
            void this.offer(document);
        }
    }

    private async offer(document: vscode.TextDocument): Promise<void> {
        this.showing = true;
        let answer: string | undefined;
        try {
            answer =
                this.autoAnswer ??
                (await askWithButtons(vscode.l10n.t("SourceCheck: Lock refs so changes in their sources are caught?"), {
                    [ALWAYS]: vscode.l10n.t("Always"),
                    [NEVER]: vscode.l10n.t("Never"),
                    [NOT_NOW]: vscode.l10n.t("Not now"),
                }));
        } finally {
            this.showing = false;
        }
        this.log.offers.push({ uri: uriKey(document.uri), answer });
        const effect = answerEffect(answer);
        if (effect.remember) await this.context.workspaceState.update(LOCK_OFFER_KEY, effect.remember);
        if (effect.dismiss) this.dismissed = true;
        if (effect.lockNow) {
            const result = await this.lockFile(document.uri).catch((error: unknown) => ({
                ok: false as const,
                message: messageOf(error),
            }));
            if (!result.ok) void vscode.window.showErrorMessage(`SourceCheck: ${result.message}`);
        }
    }

    private async documentOf(arg: unknown): Promise<vscode.TextDocument | undefined> {
        const given =
            arg instanceof vscode.Uri
                ? arg
                : typeof arg === "string"
                  ? vscode.Uri.parse(arg)
                  : typeof (arg as { uri?: unknown } | undefined)?.uri === "string"
                    ? vscode.Uri.parse((arg as { uri: string }).uri)
                    : undefined;
        if (given) return vscode.workspace.openTextDocument(given);
        return vscode.window.activeTextEditor?.document;
    }
}

function describe(result: LockRefsResult): string {
    const parts = [
        result.locked === 1 ? vscode.l10n.t("1 ref locked") : vscode.l10n.t("{0} refs locked", result.locked),
    ];
    if (result.accepted > 0) parts.push(vscode.l10n.t("{0} changed texts accepted", result.accepted));
    else if (result.changed > 0) parts.push(vscode.l10n.t("{0} changed texts kept as locked", result.changed));
    if (result.unresolved > 0)
        parts.push(vscode.l10n.t("{0} not resolving (fix them, then lock again)", result.unresolved));
    const joined = parts.join(vscode.l10n.t(", "));
    return result.written ? joined : vscode.l10n.t("{0} (the lock was already up to date)", joined);
}
