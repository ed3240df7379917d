/**
 * Authoring commands: cite the selection as a claim, add it as a supporting or refuting source, copy
 * its ref. Every write is one WorkspaceEdit (so undo works in the annotation file) that the server
 * computes (`sourcecheck/annotationEdit`, its one writer of annotation JSON); nothing is written when the
 * selection cannot be cited uniquely.
 */
import * as path from "node:path";
import * as vscode from "vscode";
import { annotationCount, annotationSpan } from "../../shared/annotationList";
import { indexOfOrdinal, ordinal } from "../../shared/numbering";
import { pickAnnotationFile, rememberAnnotationFile } from "./annotationFiles";
import { uriKey } from "./citedSpans";
import {
    type AnnotationTarget,
    annotationArgMessage,
    type CurrentAnnotation,
    indexOfAnnotationArg,
} from "./currentAnnotation";
import { type AnnotationChange, annotationEditRequest, type LspRange, type Ref } from "./customRequestTypes";
import { annotationNumbered, polarityWord } from "./l10n";
import type { SourceCheckClient } from "./languageClient";
import { showNotice } from "./notices";
import { ask, messageOf } from "./requests";
import { type Outcome, refFor, type SelectionArgs, selectionTarget } from "./selection";
import { displayPath } from "./uriPaths";

/** The confidence a person picks, in bands (translated when asked, not at load). */
export function confidenceBands(): { confidence: number; label: string; detail: string }[] {
    return [
        {
            confidence: 0.95,
            label: vscode.l10n.t("0.95 — primary / authoritative"),
            detail: vscode.l10n.t("official spec, peer-reviewed paper, primary data, the entity itself"),
        },
        {
            confidence: 0.7,
            label: vscode.l10n.t("0.7 — reputable secondary"),
            detail: vscode.l10n.t("mainstream press, named-author technical post, third-party docs"),
        },
        {
            confidence: 0.4,
            label: vscode.l10n.t("0.4 — anecdotal / unverified"),
            detail: vscode.l10n.t("forum, social media, blog without attribution"),
        },
    ];
}

export interface CiteClaimArgs extends SelectionArgs {
    /** URI string of the annotation file; default: ask. */
    annotationFile?: string;
}

export interface AddSourceArgs extends SelectionArgs {
    annotationFile?: string;
    /** The annotation to add the source to, counted from 1 (docs/contract.md, "Numbers"). */
    annotation?: number;
    confidence?: number;
}

/**
 * `status`: what the status bar said; `widenedTo`: the range cited after snapping to words. Results
 * name the annotation and source written counted from 1, as every front end does (docs/contract.md).
 */
interface Said {
    status: string;
    widenedTo?: LspRange;
}
export type CiteClaimResult = Outcome<{ annotationFile: string; annotation: number; ref: Ref } & Said>;
export type AddSourceResult = Outcome<
    {
        annotationFile: string;
        annotation: number;
        source: number;
        ref: Ref;
    } & Said
>;
export type CopyRefResult = Outcome<{ ref: Ref; text: string; widenedTo?: LspRange }>;

export class Authoring {
    constructor(
        private readonly context: vscode.ExtensionContext,
        private readonly sc: SourceCheckClient,
        private readonly current: CurrentAnnotation,
    ) {}

    async citeSelectionAsClaim(args: CiteClaimArgs): Promise<CiteClaimResult> {
        const selected = await selectionTarget(args);
        if (!selected.ok) return selected;
        const reffed = await refFor(this.sc, selected.target);
        if (!reffed.ok) return reffed;
        let fileUri: vscode.Uri | undefined;
        if (args.annotationFile !== undefined) {
            fileUri = parseUri(args.annotationFile);
            if (!fileUri)
                return { ok: false, message: vscode.l10n.t("annotationFile is not a URI: {0}", args.annotationFile) };
        } else {
            fileUri = await pickAnnotationFile(this.sc, this.context, selected.target.document.uri);
            if (!fileUri) return { ok: false, message: vscode.l10n.t("No annotation file chosen."), cancelled: true };
        }
        const written = await editAnnotationFile(this.sc, fileUri, { kind: "appendClaim", claim: reffed.ref });
        if (!written.ok) return written;
        const annotationFile = await this.adopt(
            fileUri,
            written,
            vscode.l10n.t(
                "claim added as {0} in {1}; add a source next",
                annotationNumbered(written.annotation),
                fileName(fileUri),
            ),
            reffed.widenedNote,
        );
        return {
            ok: true,
            annotationFile: annotationFile.uri,
            annotation: written.annotation,
            ref: reffed.ref,
            status: annotationFile.status,
            widenedTo: reffed.widenedTo,
        };
    }

    /** After a write: the annotation becomes current, the file remembered and shown, the user told. */
    private async adopt(
        fileUri: vscode.Uri,
        written: { document: vscode.TextDocument; annotation: number },
        message: string,
        note?: string,
    ): Promise<{ uri: string; status: string }> {
        const annotationFile = uriKey(fileUri);
        const index = indexOfOrdinal(written.annotation);
        this.current.set({ annotationFile, index });
        rememberAnnotationFile(this.context, fileUri);
        await revealAnnotation(written.document, index);
        // The status bar holds the key fact; a widened selection is said where it stays (a notification).
        vscode.window.setStatusBarMessage(`$(check) SourceCheck: ${message}`, 8000);
        if (note) void showNotice("information", note);
        return { uri: annotationFile, status: `SourceCheck: ${withWidening(message, note)}` };
    }

    async addSelectionAsSource(polarity: "supports" | "refutes", args: AddSourceArgs): Promise<AddSourceResult> {
        const selected = await selectionTarget(args);
        if (!selected.ok) return selected;
        const reffed = await refFor(this.sc, selected.target);
        if (!reffed.ok) return reffed;
        const target = await this.sourceTarget(args);
        if (!target.ok) return target;
        const confidence = await chosenConfidence(polarity, args.confidence);
        if (!confidence.ok) return confidence;
        const fileUri = parseUri(target.annotationFile);
        if (!fileUri) return { ok: false, message: vscode.l10n.t("Not a URI: {0}", target.annotationFile) };
        const written = await appendSourceTo(this.sc, fileUri, target.index, {
            ...reffed.ref,
            polarity,
            confidence: confidence.confidence,
        });
        if (!written.ok) return written;
        const added = vscode.l10n.t(
            "{0} source added to {1}",
            polarityWord(polarity),
            annotationNumbered(written.annotation),
        );
        const annotationFile = await this.adopt(fileUri, written, added, reffed.widenedNote);
        return {
            ok: true,
            status: annotationFile.status,
            widenedTo: reffed.widenedTo,
            annotationFile: annotationFile.uri,
            annotation: written.annotation,
            source: written.source ?? 1,
            ref: reffed.ref,
        };
    }

    async copyRefForSelection(args: SelectionArgs): Promise<CopyRefResult> {
        const selected = await selectionTarget(args);
        if (!selected.ok) return selected;
        const reffed = await refFor(this.sc, selected.target);
        if (!reffed.ok) return reffed;
        const text = JSON.stringify(reffed.ref);
        await vscode.env.clipboard.writeText(text);
        vscode.window.setStatusBarMessage(
            `$(clippy) SourceCheck: ${withWidening(`copied ${text}`, reffed.widenedNote)}`,
            8000,
        );
        return { ok: true, ref: reffed.ref, text, widenedTo: reffed.widenedTo };
    }

    /** Explicit file/index, else the current annotation, else the last annotation of an explicit file. */
    private async sourceTarget(args: AddSourceArgs): Promise<Outcome<AnnotationTarget>> {
        if (args.annotationFile !== undefined) {
            const uri = parseUri(args.annotationFile);
            if (!uri) return { ok: false, message: vscode.l10n.t("Not a URI: {0}", args.annotationFile) };
            if (args.annotation !== undefined) {
                const index = indexOfAnnotationArg(args.annotation);
                if (index === undefined) return { ok: false, message: annotationArgMessage() };
                return { ok: true, annotationFile: uriKey(uri), index };
            }
            const current = this.current.get();
            if (current && current.annotationFile === uriKey(uri)) return { ok: true, ...current };
            const document = await openDocument(uri);
            if (!document.ok) return document;
            const count = annotationCount(document.document.getText()) ?? 0;
            if (count === 0)
                return {
                    ok: false,
                    message: vscode.l10n.t("{0} has no annotations yet: cite a claim first.", fileName(uri)),
                };
            return { ok: true, annotationFile: uriKey(uri), index: count - 1 };
        }
        const current = this.current.get();
        if (!current) {
            return {
                ok: false,
                message: vscode.l10n.t(
                    "No annotation to add the source to: cite a claim first (SourceCheck: Cite Selection as Claim), or put the cursor inside an annotation in an annotation file.",
                ),
            };
        }
        return { ok: true, ...current };
    }
}

function withWidening(message: string, note: string | undefined): string {
    return note ? `${message}; ${note}` : message;
}

/** The confidence given (checked to be a number in [0, 1]), or the one the person picks. */
export async function chosenConfidence(
    polarity: "supports" | "refutes",
    given: unknown,
): Promise<Outcome<{ confidence: number }>> {
    const confidence = given ?? (await pickConfidence(polarity));
    if (confidence === undefined)
        return { ok: false, message: vscode.l10n.t("No confidence chosen."), cancelled: true };
    if (typeof confidence !== "number" || !Number.isFinite(confidence) || confidence < 0 || confidence > 1) {
        return {
            ok: false,
            message: vscode.l10n.t("confidence must be a number in [0, 1], not {0}.", JSON.stringify(confidence)),
        };
    }
    return { ok: true, confidence };
}

/** Appends a source to an annotation of the file, refusing a path its embedded session lacks. */
export function appendSourceTo(
    sc: SourceCheckClient,
    fileUri: vscode.Uri,
    index: number,
    source: Ref & { polarity: "supports" | "refutes"; confidence: number },
): ReturnType<typeof editAnnotationFile> {
    return editAnnotationFile(sc, fileUri, { kind: "appendSource", annotation: ordinal(index), source });
}

async function pickConfidence(polarity: "supports" | "refutes"): Promise<number | undefined> {
    const picked = await vscode.window.showQuickPick(confidenceBands(), {
        title: vscode.l10n.t(
            "SourceCheck: how authoritative is this {0} source for the claim?",
            polarityWord(polarity),
        ),
        placeHolder: vscode.l10n.t("Confidence"),
    });
    return picked?.confidence;
}

function parseUri(value: string): vscode.Uri | undefined {
    try {
        return vscode.Uri.parse(value, true);
    } catch {
        return undefined;
    }
}

function fileName(uri: vscode.Uri): string {
    return path.posix.basename(uri.path);
}

async function openDocument(uri: vscode.Uri): Promise<Outcome<{ document: vscode.TextDocument }>> {
    try {
        return { ok: true, document: await vscode.workspace.openTextDocument(uri) };
    } catch (error) {
        return {
            ok: false,
            message: vscode.l10n.t(
                "Cannot open {0}: {1}",
                displayPath(uri),
                error instanceof Error ? error.message : String(error),
            ),
        };
    }
}

async function exists(uri: vscode.Uri): Promise<boolean> {
    if (vscode.workspace.textDocuments.some((d) => uriKey(d.uri) === uriKey(uri))) return true;
    try {
        await vscode.workspace.fs.stat(uri);
        return true;
    } catch {
        return false;
    }
}

/**
 * Applies the server's edit for `change`, computed on the document's current text, as one
 * WorkspaceEdit. A missing file is created in the same edit, so one undo removes both.
 */
export async function editAnnotationFile(
    sc: SourceCheckClient,
    uri: vscode.Uri,
    change: AnnotationChange,
): Promise<Outcome<{ document: vscode.TextDocument; annotation: number; source?: number }>> {
    const name = fileName(uri);
    let document: vscode.TextDocument | undefined;
    if (await exists(uri)) {
        const opened = await openDocument(uri);
        if (!opened.ok) return opened;
        document = opened.document;
    }
    const editorOptions = vscode.window.visibleTextEditors.find((e) => uriKey(e.document.uri) === uriKey(uri))?.options;
    const version = document?.version ?? null;
    let result: Awaited<ReturnType<typeof requestEdit>>;
    try {
        result = await requestEdit(sc, uri, document, change, {
            tabSize: typeof editorOptions?.tabSize === "number" ? editorOptions.tabSize : 2,
            insertSpaces: editorOptions?.insertSpaces !== false,
        });
    } catch (error) {
        return { ok: false, message: messageOf(error) };
    }
    if (!result.ok) {
        if (result.code !== "not-in-session") return { ok: false, message: result.message };
        return {
            ok: false,
            message: vscode.l10n.t(
                "{0} embeds its own session, which has no document {1}: cite text inside one of its documents' content, or use a workspace-mode annotation file.",
                name,
                JSON.stringify(result.path),
            ),
        };
    }
    // The edit was computed on the text as it was: typing meanwhile would put it in the wrong place.
    const changed = document !== undefined && document.version !== version;
    const workspaceEdit = await sc.client.protocol2CodeConverter.asWorkspaceEdit(result.edit);
    if (changed || !(await vscode.workspace.applyEdit(workspaceEdit))) {
        return {
            ok: false,
            message: vscode.l10n.t("Could not edit {0} (is it read-only, or was it changed meanwhile?).", name),
        };
    }
    const after = await openDocument(uri);
    if (!after.ok) return after;
    return {
        ok: true,
        document: after.document,
        annotation: result.annotation,
        source: result.source,
    };
}

function requestEdit(
    sc: SourceCheckClient,
    uri: vscode.Uri,
    document: vscode.TextDocument | undefined,
    change: AnnotationChange,
    formatting: { tabSize: number; insertSpaces: boolean },
) {
    return ask(sc, annotationEditRequest, {
        uri: sc.client.code2ProtocolConverter.asUri(uri),
        text: document?.getText() ?? "",
        version: document?.version ?? null,
        formatting,
        change,
    });
}

/** Shows the annotation without taking focus from the cited document, so selecting can go on. */
export async function revealAnnotation(document: vscode.TextDocument, index: number): Promise<void> {
    const span = annotationSpan(document.getText(), index);
    if (!span) return;
    const range = new vscode.Range(document.positionAt(span.offset), document.positionAt(span.offset + span.length));
    const visible = vscode.window.visibleTextEditors.find((e) => uriKey(e.document.uri) === uriKey(document.uri));
    if (visible) {
        visible.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
        return;
    }
    await vscode.window.showTextDocument(document, {
        viewColumn: vscode.ViewColumn.Beside,
        preserveFocus: true,
        preview: true,
        selection: new vscode.Range(range.start, range.start),
    });
}
