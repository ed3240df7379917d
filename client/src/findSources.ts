/**
 * *Find Sources for Claim* (docs/evidence.md, "Editor"): the server searches the workspace for the
 * claim of an annotation (`sourcecheck/findEvidence`); the user picks a hit, its polarity and a
 * confidence; the hit's ref is appended to the annotation's sources in one WorkspaceEdit (one undo).
 */
import * as path from "node:path";
import * as vscode from "vscode";
import { WorkDoneProgress } from "vscode-languageclient/node";
import { annotationIndexAt } from "../../shared/annotationList";
import type { EvidenceHitItem, FindEvidenceParams, FindEvidenceResult } from "../../shared/evidenceProtocol";
import { indexOfOrdinal, ordinal } from "../../shared/numbering";
import { rememberAnnotationFile } from "./annotationFiles";
import { appendSourceTo, chosenConfidence, revealAnnotation } from "./authoring";
import { type CitedSpansStore, uriKey } from "./citedSpans";
import { isAnnotationDocument } from "./config";
import {
    type AnnotationTarget,
    annotationArgMessage,
    type CurrentAnnotation,
    indexOfAnnotationArg,
} from "./currentAnnotation";
import type { Ref } from "./customRequestTypes";
import { annotationFilesRequest, fileAnnotationsRequest, findEvidenceRequest } from "./customRequestTypes";
import { toRange } from "./decorations";
import { annotationName, annotationNumbered, polarityWord, sourceName, sourceNumbered } from "./l10n";
import type { SourceCheckClient } from "./languageClient";
import { ask } from "./requests";
import { type Outcome, toLspRange } from "./selection";
import { fileSystemPath } from "./uriPaths";

export interface FindSourcesArgs {
    annotationFile?: string;
    /** The annotation whose claim is searched for, counted from 1 (docs/contract.md, "Numbers"). */
    annotation?: number;
    /** The hit to cite: its 0-based index in the list, or its path (the best hit from that file). */
    hit?: number | string;
    polarity?: "supports" | "refutes";
    confidence?: number;
    /**
     * When several annotation files cite the claim under the cursor: the one to search for (its URI or
     * file name) instead of asking.
     */
    citingFile?: string;
    /** For tests: cancel the search as the Cancel button does, once this many progress reports came. */
    cancelAfterProgress?: number;
}

/** What the pick asked when several annotation files cite the claim under the cursor. */
export interface AskedWhichFile {
    title: string;
    choices: string[];
}

export type FindSourcesResult =
    | Outcome<{
          annotationFile: string;
          /** The annotation and the source written, counted from 1. */
          annotation: number;
          source: number;
          ref: Ref;
          hits: EvidenceHitItem[];
          /** What the status bar said. */
          status: string;
      }>
    /** `alreadyCited`: the source of the annotation that cites the hit already, counted from 1. */
    | { ok: false; message: string; cancelled?: boolean; alreadyCited: number }
    | { ok: false; message: string; cancelled: true; progress: string[] }
    | { ok: false; message: string; cancelled: true; asked: AskedWhichFile };

export class FindSources {
    constructor(
        private readonly context: vscode.ExtensionContext,
        private readonly sc: SourceCheckClient,
        private readonly current: CurrentAnnotation,
        private readonly spans: CitedSpansStore,
    ) {}

    async run(args: FindSourcesArgs): Promise<FindSourcesResult> {
        const target = await this.target(args);
        if (!target.ok) return target;
        const fileUri = vscode.Uri.parse(target.annotationFile, true);
        const settings = vscode.workspace.getConfiguration("sourcecheck.evidence", fileUri);
        const storage = this.context.storageUri ?? this.context.globalStorageUri;
        const searched = await searchWithProgress(
            this.sc,
            {
                annotationUri: target.annotationFile,
                annotation: ordinal(target.index),
                include: settings.get<string[]>("include"),
                exclude: settings.get<string[]>("exclude"),
                unsafePatterns: settings.get<string[]>("unsafePatterns"),
                indexDir: fileSystemPath(storage),
            },
            args.cancelAfterProgress,
        );
        if (searched.cancelled)
            return { ok: false, message: vscode.l10n.t("Search cancelled."), cancelled: true, progress: searched.seen };
        const result = searched.result;
        if (!result?.ok)
            return {
                ok: false,
                message: vscode.l10n.t("Cannot search for sources: {0}", result?.message ?? vscode.l10n.t("no answer")),
            };
        const hits = result.hits.filter((h) => h.ref !== null);
        if (hits.length === 0)
            return {
                ok: false,
                message: vscode.l10n.t("No source in the workspace matches the claim “{0}”.", result.query),
            };
        const hit = await chooseHit(hits, result.query, args.hit);
        if (!hit.ok) return hit;
        const already = await this.citedAlready(target, hit.hit);
        if (already !== undefined) {
            const message = vscode.l10n.t(
                "{0} lines {1}–{2} is already {3} of {4}: nothing added.",
                hit.hit.path,
                hit.hit.ref!.start.line,
                hit.hit.ref!.end.line,
                sourceName(already),
                annotationName(target.index),
            );
            void vscode.window.showInformationMessage(vscode.l10n.t("SourceCheck: {0}", message));
            return { ok: false, message, cancelled: true, alreadyCited: ordinal(already) };
        }
        const polarity = args.polarity ?? (await pickPolarity());
        if (polarity !== "supports" && polarity !== "refutes") {
            return polarity === undefined
                ? { ok: false, message: vscode.l10n.t("No polarity chosen."), cancelled: true }
                : {
                      ok: false,
                      message: vscode.l10n.t(
                          'polarity must be "supports" or "refutes", not {0}.',
                          JSON.stringify(polarity),
                      ),
                  };
        }
        const confidence = await chosenConfidence(polarity, args.confidence);
        if (!confidence.ok) return confidence;
        const ref = hit.hit.ref!;
        const written = await appendSourceTo(this.sc, fileUri, target.index, {
            ...ref,
            polarity,
            confidence: confidence.confidence,
        });
        if (!written.ok) return written;
        // As after any authoring command: the annotation becomes current, the file remembered and shown.
        const index = indexOfOrdinal(written.annotation);
        this.current.set({ annotationFile: uriKey(fileUri), index });
        rememberAnnotationFile(this.context, fileUri);
        await revealAnnotation(written.document, index);
        const status = vscode.l10n.t(
            "SourceCheck: {0} source {1} added to {2} as {3}",
            polarityWord(polarity),
            hit.hit.path,
            annotationNumbered(written.annotation),
            sourceNumbered(written.source ?? 1),
        );
        vscode.window.setStatusBarMessage(`$(check) ${status}`, 8000);
        return {
            ok: true,
            status,
            annotationFile: uriKey(fileUri),
            annotation: written.annotation,
            source: written.source ?? 1,
            ref,
            hits: result.hits,
        };
    }

    /** The index of a source of the target annotation citing exactly the hit's span, if one does. */
    private async citedAlready(target: AnnotationTarget, hit: EvidenceHitItem): Promise<number | undefined> {
        const ref = hit.ref;
        if (!ref) return undefined;
        const result = await ask(this.sc, fileAnnotationsRequest, { uri: target.annotationFile });
        const annotation = result?.annotations?.find((a) => a.index === target.index);
        // The sources in order: the array position is the source's index.
        for (const [index, source] of (annotation?.sources ?? []).entries()) {
            if (!source.valid || !source.uri || !source.range || source.role !== "source") continue;
            const uri = vscode.Uri.parse(source.uri);
            if (!uri.path.endsWith(`/${ref.path}`)) continue;
            if (source.range.start.line + 1 !== ref.start.line || source.range.end.line + 1 !== ref.end.line) continue;
            const document = await vscode.workspace.openTextDocument(uri);
            if (document.getText(toRange(source.range)) === hit.refText) return index;
        }
        return undefined;
    }

    /**
     * Explicit args, else the claim under the cursor (in an annotation file or a cited document),
     * else ask: a pick of the workspace's claims (file names shown when two share text), or citing the
     * selection as a new claim first. Never a remembered claim: a search must act on what the user sees.
     */
    private async target(
        args: FindSourcesArgs,
    ): Promise<Outcome<AnnotationTarget> | { ok: false; message: string; cancelled: true; asked: AskedWhichFile }> {
        if (args.annotationFile !== undefined) {
            let uri: vscode.Uri;
            try {
                uri = vscode.Uri.parse(args.annotationFile, true);
            } catch {
                return { ok: false, message: vscode.l10n.t("annotationFile is not a URI: {0}", args.annotationFile) };
            }
            const index = indexOfAnnotationArg(args.annotation);
            if (index === undefined) return { ok: false, message: annotationArgMessage() };
            return { ok: true, annotationFile: uriKey(uri), index };
        }
        const editor = vscode.window.activeTextEditor;
        if (editor && (await this.isAnnotationFile(editor.document))) {
            const index = annotationIndexAt(
                editor.document.getText(),
                editor.document.offsetAt(editor.selection.active),
            );
            if (index !== undefined) return { ok: true, annotationFile: uriKey(editor.document.uri), index };
            return this.askForClaim(undefined);
        }
        if (editor) {
            const cursor = editor.selection.active;
            const claims = (await this.spans.spansOf(editor.document))
                .filter((s) => s.kind === "claim")
                .filter((s) => toRange(s.range).contains(cursor))
                .flatMap((s) => s.citations.filter((c) => c.role === "claim"));
            const unique = [...new Map(claims.map((c) => [`${c.annotationUri}#${c.annotation}`, c])).values()];
            if (unique.length === 1)
                return {
                    ok: true,
                    annotationFile: unique[0].annotationUri,
                    index: indexOfOrdinal(unique[0].annotation),
                };
            if (unique.length > 1)
                return pickCitingFile(
                    unique.map((c) => ({
                        annotationFile: c.annotationUri,
                        index: indexOfOrdinal(c.annotation),
                    })),
                    args.citingFile,
                );
            return this.askForClaim(editor.selection.isEmpty ? undefined : editor);
        }
        return this.askForClaim(undefined);
    }

    /** An annotation file by its language or settings, or one the server's scan or configuration found. */
    private async isAnnotationFile(document: vscode.TextDocument): Promise<boolean> {
        if (isAnnotationDocument(document)) return true;
        if (document.uri.scheme !== "file") return false;
        const files = await ask(this.sc, annotationFilesRequest, undefined);
        const key = uriKey(document.uri);
        return (files?.uris ?? []).some((uri) => uriKey(vscode.Uri.parse(uri)) === key);
    }

    /** No claim under the cursor: every claim of the workspace, and citing the selection first when there is one. */
    private async askForClaim(editor: vscode.TextEditor | undefined): Promise<Outcome<AnnotationTarget>> {
        const claims: ClaimChoice[] = [];
        const files = await ask(this.sc, annotationFilesRequest, undefined);
        for (const uri of Array.isArray(files?.uris) ? files.uris : []) {
            const result = await ask(this.sc, fileAnnotationsRequest, { uri });
            for (const annotation of result?.annotations ?? []) {
                if (annotation.claim?.valid)
                    claims.push({
                        annotationFile: uri,
                        index: annotation.index,
                        text: annotation.claim.text,
                    });
            }
        }
        if (claims.length === 0 && !editor)
            return {
                ok: false,
                message: vscode.l10n.t(
                    "Put the cursor on a claim (in the answer or in an annotation file) to find its sources, or select text to cite as a claim first.",
                ),
            };
        return this.pickClaim(claims, editor);
    }

    private async pickClaim(
        claims: ClaimChoice[],
        editor: vscode.TextEditor | undefined,
    ): Promise<Outcome<AnnotationTarget>> {
        const names = claims.map((c) => fileName(c.annotationFile));
        const texts = claims.map((c) => c.text ?? "");
        type Item = vscode.QuickPickItem & { claim?: ClaimChoice; citeFirst?: boolean };
        const items: Item[] = claims.map((claim, i) => {
            // The file's name tells apart claims with the same text in two annotation files.
            const shared = texts.filter((t) => t === texts[i]).length > 1;
            return {
                label: preview(claim.text ?? annotationName(claim.index), 100),
                description: `${annotationName(claim.index)} · ${names[i]}${shared ? vscode.l10n.t(" (same text in another file)") : ""}`,
                claim,
            };
        });
        if (editor)
            items.unshift({
                label: `$(add) ${vscode.l10n.t("Cite the selection as a new claim first")}`,
                description: preview(editor.document.getText(editor.selection), 60),
                citeFirst: true,
            });
        const picked = await vscode.window.showQuickPick(items, {
            title: vscode.l10n.t("SourceCheck: no claim under the cursor. Find sources for which claim?"),
            matchOnDescription: true,
        });
        if (!picked) return { ok: false, message: vscode.l10n.t("No claim chosen."), cancelled: true };
        if (picked.claim)
            return {
                ok: true,
                annotationFile: picked.claim.annotationFile,
                index: picked.claim.index,
            };
        const cited = await vscode.commands.executeCommand<{
            ok: boolean;
            annotationFile?: string;
            annotation?: number;
            message?: string;
            cancelled?: boolean;
        }>("sourcecheck.citeSelectionAsClaim", {
            uri: uriKey(editor!.document.uri),
            range: toLspRange(editor!.selection),
        });
        if (!cited?.ok || cited.annotationFile === undefined || cited.annotation === undefined)
            return {
                ok: false,
                message: cited?.message ?? vscode.l10n.t("The selection was not cited."),
                cancelled: cited?.cancelled,
            };
        return { ok: true, annotationFile: cited.annotationFile, index: indexOfOrdinal(cited.annotation) };
    }
}

/**
 * The claim under the cursor is cited by several annotations (in one file or several): ask which, by
 * file name and annotation, or take `citingFile` when given.
 */
async function pickCitingFile(
    citing: AnnotationTarget[],
    citingFile: string | undefined,
): Promise<Outcome<AnnotationTarget> | { ok: false; message: string; cancelled: true; asked: AskedWhichFile }> {
    const items = citing.map((target) => ({
        label: fileName(target.annotationFile),
        description: annotationName(target.index),
        detail: vscode.workspace.asRelativePath(vscode.Uri.parse(target.annotationFile), true),
        target,
    }));
    if (citingFile !== undefined) {
        const named = items.find((i) => i.target.annotationFile === citingFile || i.label === citingFile);
        if (named) return { ok: true, ...named.target };
        return { ok: false, message: vscode.l10n.t("{0} does not cite the claim under the cursor.", citingFile) };
    }
    const title = vscode.l10n.t(
        "SourceCheck: {0} cite the claim under the cursor. Find sources for which?",
        listed(items.map((i) => `${i.label} (${i.description})`)),
    );
    const picked = await vscode.window.showQuickPick(items, { title, matchOnDescription: true });
    if (picked) return { ok: true, ...picked.target };
    const asked = { title, choices: items.map((i) => `${i.label} (${i.description})`) };
    return { ok: false, message: vscode.l10n.t("No annotation file chosen."), cancelled: true, asked };
}

/** "a, b and c" in the display language. */
function listed(names: string[]): string {
    try {
        return new Intl.ListFormat(vscode.env.language, { type: "conjunction" }).format(names);
    } catch {
        return names.join(", ");
    }
}

interface ClaimChoice {
    annotationFile: string;
    index: number;
    text?: string;
}

function fileName(uri: string): string {
    return path.posix.basename(vscode.Uri.parse(uri).path);
}

function preview(text: string, max = 220): string {
    const flat = text.replace(/\s+/g, " ").trim();
    return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

async function chooseHit(
    hits: EvidenceHitItem[],
    query: string,
    wanted: number | string | undefined,
): Promise<Outcome<{ hit: EvidenceHitItem }>> {
    if (typeof wanted === "number") {
        const hit = hits[wanted];
        return hit
            ? { ok: true, hit }
            : { ok: false, message: vscode.l10n.t("There is no hit {0}: {1} found.", wanted, hits.length) };
    }
    if (typeof wanted === "string") {
        const hit = hits.find((h) => h.path === wanted || `${h.path}#L${h.startLine}-L${h.endLine}` === wanted);
        return hit ? { ok: true, hit } : { ok: false, message: vscode.l10n.t("No hit comes from {0}.", wanted) };
    }
    const best = Math.max(...hits.map((h) => h.score));
    const items = hits.map((hit) => ({
        label: `${hit.path}#L${hit.startLine}-L${hit.endLine}`,
        description: `${vscode.l10n.t("score {0}", hit.score.toFixed(2))}${hit.headingPath.length > 0 ? ` · ${hit.headingPath.join(" › ")}` : ""}`,
        detail: preview(hit.refText || hit.text),
        // Quick pick items have no tooltip of their own in VS Code 1.100; a button's tooltip explains the score.
        buttons: [{ iconPath: new vscode.ThemeIcon("info"), tooltip: scoreTooltip(hit.score, best) }],
        hit,
    }));
    const picked = await new Promise<(typeof items)[number] | undefined>((resolve) => {
        const pick = vscode.window.createQuickPick<(typeof items)[number]>();
        pick.title = vscode.l10n.t("SourceCheck: sources for “{0}”", preview(query, 80));
        pick.placeholder = vscode.l10n.t("Pick the passage to cite (ⓘ: what the score means)");
        pick.matchOnDescription = true;
        pick.matchOnDetail = true;
        pick.items = items;
        let chosen: (typeof items)[number] | undefined;
        pick.onDidTriggerItemButton((e) => {
            pick.placeholder = e.button.tooltip;
        });
        pick.onDidAccept(() => {
            chosen = pick.selectedItems[0];
            pick.hide();
        });
        pick.onDidHide(() => {
            pick.dispose();
            resolve(chosen);
        });
        pick.show();
    });
    return picked
        ? { ok: true, hit: picked.hit }
        : { ok: false, message: vscode.l10n.t("No source chosen."), cancelled: true };
}

/**
 * The search under a notification with a Cancel button: the server's work done progress (files read,
 * passages checked) fills it, and Cancel cancels the request, which the server hears between two steps
 * (docs/evidence.md, "Progress and cancel"). The notification closes at once; the answer, if it still
 * comes, is dropped. `seen` lists the progress messages shown.
 */
async function searchWithProgress(
    sc: SourceCheckClient,
    params: FindEvidenceParams,
    cancelAfter: number | undefined,
): Promise<{ cancelled: false; result: FindEvidenceResult } | { cancelled: true; seen: string[] }> {
    const workDoneToken = `sourcecheck-find-sources-${++searches}`;
    const seen: string[] = [];
    return vscode.window.withProgress(
        {
            location: vscode.ProgressLocation.Notification,
            title: vscode.l10n.t("SourceCheck: searching for sources"),
            cancellable: true,
        },
        async (progress, token) => {
            const source = new vscode.CancellationTokenSource();
            const cancel = token.onCancellationRequested(() => source.cancel());
            let shown = 0;
            const listening = sc.client.onProgress(WorkDoneProgress.type, workDoneToken, (value) => {
                if (value.kind !== "report") return;
                const percentage = value.percentage ?? shown;
                progress.report({ message: value.message, increment: Math.max(0, percentage - shown) });
                shown = Math.max(shown, percentage);
                seen.push(value.message ?? "");
                if (cancelAfter !== undefined && seen.length >= cancelAfter) source.cancel();
            });
            const cancelled = new Promise<undefined>((resolve) =>
                source.token.onCancellationRequested(() => resolve(undefined)),
            );
            try {
                const answer = ask(sc, findEvidenceRequest, { ...params, workDoneToken }, source.token);
                // A request cancelled may still answer (the server stops between steps): never an error.
                answer.catch(() => undefined);
                const result = await Promise.race([answer, cancelled]);
                if (result === undefined || (!result.ok && result.cancelled)) return { cancelled: true as const, seen };
                return { cancelled: false as const, result };
            } finally {
                listening.dispose();
                cancel.dispose();
                source.dispose();
            }
        },
    );
}

let searches = 0;

/** What a hit's score means, for the pick's tooltip: BM25 relevance, comparable only within one search. */
export function scoreTooltip(score: number, best: number): string {
    const share = best > 0 ? Math.round((score / best) * 100) : 0;
    return vscode.l10n.t(
        "Score {0}: BM25 relevance of the passage to the claim's words (rarer shared words weigh more). Higher is closer; {1}% of the best hit here. Scores compare hits of this search only.",
        score.toFixed(2),
        share,
    );
}

async function pickPolarity(): Promise<"supports" | "refutes" | undefined> {
    const picked = await vscode.window.showQuickPick(
        [
            {
                label: `$(pass) ${vscode.l10n.t("Supports")}`,
                description: vscode.l10n.t("the passage backs the claim"),
                polarity: "supports" as const,
            },
            {
                label: `$(error) ${vscode.l10n.t("Refutes")}`,
                description: vscode.l10n.t("the passage contradicts the claim"),
                polarity: "refutes" as const,
            },
        ],
        { title: vscode.l10n.t("SourceCheck: does this passage support or refute the claim?") },
    );
    return picked?.polarity;
}
