/**
 * Language status items: for an annotation file, how many annotations are valid
 * (`sourcecheck/fileSummary`); for a cited document, how much of it its claims cover
 * (`sourcecheck/coverage`). Refreshed on editor switches, edits (throttled) and server notifications.
 */
import * as vscode from "vscode";
import { type CitedSpansStore, uriKey } from "./citedSpans";
import { isAnnotationDocument } from "./config";
import { coverageRequest, fileSummaryRequest } from "./customRequestTypes";
import type { SourceCheckClient } from "./languageClient";
import { ask, messageOf } from "./requests";
import { filterPattern } from "./uriPaths";

const THROTTLE_MS = 250;

export interface StatusSnapshot {
    kind: "summary" | "coverage" | "none";
    uri?: string;
    text?: string;
    detail?: string;
    severity?: "information" | "warning" | "error";
}

const SEVERITY_NAMES = new Map<vscode.LanguageStatusSeverity, StatusSnapshot["severity"]>([
    [vscode.LanguageStatusSeverity.Information, "information"],
    [vscode.LanguageStatusSeverity.Warning, "warning"],
    [vscode.LanguageStatusSeverity.Error, "error"],
]);

/**
 * Matches exactly one file, so the coverage item shows for cited documents only. VS Code compares a
 * pattern equal to the file system path (a URI's path on another scheme) before globbing, so no
 * escaping is needed.
 */
function exactly(uri: vscode.Uri): vscode.DocumentFilter {
    return { scheme: uri.scheme, pattern: filterPattern(uri) };
}

export class LanguageStatus implements vscode.Disposable {
    private readonly summary: vscode.LanguageStatusItem;
    private coverage: vscode.LanguageStatusItem | undefined;
    private timer: NodeJS.Timeout | undefined;
    private snapshot: StatusSnapshot = { kind: "none" };
    private running: Promise<void> = Promise.resolve();
    private readonly disposables: vscode.Disposable[] = [];

    constructor(
        private readonly sc: SourceCheckClient,
        private readonly store: CitedSpansStore,
    ) {
        this.summary = vscode.languages.createLanguageStatusItem("sourcecheck.summary", { language: "sourcecheck" });
        this.summary.name = vscode.l10n.t("SourceCheck annotations");
        this.summary.text = "$(loading~spin) SourceCheck";
        this.summary.command = { title: vscode.l10n.t("Problems"), command: "workbench.actions.view.problems" };
        this.disposables.push(
            this.summary,
            vscode.window.onDidChangeActiveTextEditor(() => this.schedule()),
            vscode.workspace.onDidChangeTextDocument((event) => {
                if (event.document === vscode.window.activeTextEditor?.document) this.schedule();
            }),
            store.onDidChange((uris) => {
                // An annotation file's counts change when the server re-analyses it, which it announces
                // only through the documents it cites.
                const active = vscode.window.activeTextEditor?.document;
                if (!active) return;
                if (uris === undefined || uris.includes(uriKey(active.uri)) || isAnnotationDocument(active)) {
                    this.schedule();
                }
            }),
        );
        this.schedule();
    }

    schedule(): void {
        if (this.timer) return;
        this.timer = setTimeout(() => {
            this.timer = undefined;
            this.running = this.running.then(() => this.update());
        }, THROTTLE_MS);
    }

    /** The status of the active editor once queued updates are done (for the e2e hook). */
    async settled(): Promise<StatusSnapshot> {
        if (this.timer) await new Promise((resolve) => setTimeout(resolve, THROTTLE_MS + 20));
        await this.running;
        return this.snapshot;
    }

    private async update(): Promise<void> {
        const document = vscode.window.activeTextEditor?.document;
        if (!document) {
            this.snapshot = { kind: "none" };
            return;
        }
        if (isAnnotationDocument(document)) await this.showSummary(document);
        else await this.showCoverage(document);
    }

    private async showSummary(document: vscode.TextDocument): Promise<void> {
        const uri = uriKey(document.uri);
        const item = this.summary;
        try {
            const s = await ask(this.sc, fileSummaryRequest, { uri });
            const total = s.validCount + s.invalidCount;
            item.text = `$(checklist) ${vscode.l10n.t("{0}/{1} valid", s.validCount, total)}`;
            const parts = [
                s.invalidCount === 1
                    ? vscode.l10n.t("{0} valid, {1} invalid annotation", s.validCount, s.invalidCount)
                    : vscode.l10n.t("{0} valid, {1} invalid annotations", s.validCount, s.invalidCount),
            ];
            if (s.schemaErrorCount > 0)
                parts.push(
                    s.schemaErrorCount === 1
                        ? vscode.l10n.t("1 schema error")
                        : vscode.l10n.t("{0} schema errors", s.schemaErrorCount),
                );
            // The lock beside the file (docs/lock.md): how many refs changed since they were locked.
            if (s.lock) {
                const { locked, changed, unlocked } = s.lock;
                parts.push(vscode.l10n.t("lock: {0} locked, {1} changed, {2} unlocked", locked, changed, unlocked));
                if (changed > 0) item.text += ` · $(lock) ${vscode.l10n.t("{0} changed", changed)}`;
            }
            item.detail = parts.join(" · ");
            item.severity =
                s.schemaErrorCount > 0
                    ? vscode.LanguageStatusSeverity.Error
                    : s.invalidCount > 0
                      ? vscode.LanguageStatusSeverity.Warning
                      : vscode.LanguageStatusSeverity.Information;
        } catch (error) {
            item.text = "$(warning) SourceCheck";
            item.detail = messageOf(error);
            item.severity = vscode.LanguageStatusSeverity.Warning;
        }
        item.busy = false;
        this.snapshot = this.snapshotOf("summary", uri, item);
    }

    private async showCoverage(document: vscode.TextDocument): Promise<void> {
        const uri = uriKey(document.uri);
        const spans = await this.store.spansOf(document);
        if (!spans.some((span) => span.kind === "claim")) {
            this.coverage?.dispose();
            this.coverage = undefined;
            this.snapshot = { kind: "none", uri };
            return;
        }
        this.coverage ??= vscode.languages.createLanguageStatusItem("sourcecheck.coverage", exactly(document.uri));
        const item = this.coverage;
        item.selector = exactly(document.uri);
        item.name = vscode.l10n.t("SourceCheck claim coverage");
        try {
            const c = await ask(this.sc, coverageRequest, { uri });
            const percent = c.totalChars === 0 ? 0 : Math.round(c.ratio * 1000) / 10;
            item.text = `$(quote) ${vscode.l10n.t("{0}% cited", percent)}`;
            item.detail = vscode.l10n.t("claims cover {0} of {1} characters", c.coveredChars, c.totalChars);
            item.severity = vscode.LanguageStatusSeverity.Information;
        } catch (error) {
            item.text = "$(warning) SourceCheck";
            item.detail = messageOf(error);
            item.severity = vscode.LanguageStatusSeverity.Warning;
        }
        this.snapshot = this.snapshotOf("coverage", uri, item);
    }

    private snapshotOf(kind: StatusSnapshot["kind"], uri: string, item: vscode.LanguageStatusItem): StatusSnapshot {
        return { kind, uri, text: item.text, detail: item.detail, severity: SEVERITY_NAMES.get(item.severity) };
    }

    dispose(): void {
        if (this.timer) clearTimeout(this.timer);
        this.coverage?.dispose();
        for (const d of this.disposables) d.dispose();
    }
}
