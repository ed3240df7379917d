/**
 * *Find Sources for Claim* (docs/evidence.md, "Editor"): the server searches the workspace for the
 * claim of an annotation (`sourcecheck/findEvidence`); the user picks a hit, its polarity and a
 * confidence; the hit's ref is appended to the annotation's sources in one WorkspaceEdit (one undo).
 */
import * as vscode from "vscode";
import { annotationIndexAt, appendSource } from "../../shared/annotationJson";
import type { EvidenceHitItem } from "../../shared/evidenceProtocol";
import { annotationLabel } from "../../shared/numbering";
import { rememberAnnotationFile } from "./annotationFiles";
import { checkPathInSession, editAnnotationFile, pickConfidence, revealAnnotation } from "./authoring";
import { type CitedSpansStore, uriKey } from "./citedSpans";
import { isAnnotationDocument } from "./config";
import type { AnnotationTarget, CurrentAnnotation } from "./currentAnnotation";
import type { Ref } from "./customRequestTypes";
import { findEvidenceRequest } from "./customRequestTypes";
import type { SourceCheckClient } from "./languageClient";
import { ask } from "./requests";
import type { Outcome } from "./selection";

export interface FindSourcesArgs {
    annotationFile?: string;
    annotationIndex?: number;
    /** The hit to cite: its 0-based index in the list, or its path (the best hit from that file). */
    hit?: number | string;
    polarity?: "supports" | "refutes";
    confidence?: number;
}

export type FindSourcesResult = Outcome<{
    annotationFile: string;
    annotationIndex: number;
    sourceIndex: number;
    ref: Ref;
    hits: EvidenceHitItem[];
}>;

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
        const result = await vscode.window.withProgress(
            { location: vscode.ProgressLocation.Window, title: "SourceCheck: searching for sources" },
            () =>
                ask(this.sc, findEvidenceRequest, {
                    annotationUri: target.annotationFile,
                    annotationIndex: target.annotationIndex,
                    include: settings.get<string[]>("include"),
                    exclude: settings.get<string[]>("exclude"),
                    unsafePatterns: settings.get<string[]>("unsafePatterns"),
                    indexDir: storage.fsPath,
                }),
        );
        if (!result?.ok) return { ok: false, message: `Cannot search for sources: ${result?.message ?? "no answer"}` };
        const hits = result.hits.filter((h) => h.ref !== null);
        if (hits.length === 0)
            return { ok: false, message: `No source in the workspace matches the claim “${result.query}”.` };
        const hit = await chooseHit(hits, result.query, args.hit);
        if (!hit.ok) return hit;
        const polarity = args.polarity ?? (await pickPolarity());
        if (polarity !== "supports" && polarity !== "refutes") {
            return polarity === undefined
                ? { ok: false, message: "No polarity chosen.", cancelled: true }
                : { ok: false, message: `polarity must be "supports" or "refutes", not ${JSON.stringify(polarity)}.` };
        }
        const confidence = args.confidence ?? (await pickConfidence(polarity));
        if (confidence === undefined) return { ok: false, message: "No confidence chosen.", cancelled: true };
        if (typeof confidence !== "number" || !Number.isFinite(confidence) || confidence < 0 || confidence > 1) {
            return { ok: false, message: `confidence must be a number in [0, 1], not ${JSON.stringify(confidence)}.` };
        }
        const ref = hit.hit.ref!;
        const source = { ...ref, polarity, confidence };
        const written = await editAnnotationFile(
            fileUri,
            (text, name, formatting) =>
                checkPathInSession(text, name, source) ??
                appendSource(text, name, target.annotationIndex, source, formatting),
        );
        if (!written.ok) return written;
        // As after any authoring command: the annotation becomes current, the file remembered and shown.
        this.current.set({ annotationFile: uriKey(fileUri), annotationIndex: written.annotationIndex });
        rememberAnnotationFile(this.context, fileUri);
        await revealAnnotation(written.document, written.annotationIndex);
        vscode.window.setStatusBarMessage(
            `$(check) SourceCheck: ${polarity === "supports" ? "supporting" : "refuting"} source ${hit.hit.path} added to ${annotationLabel(written.annotationIndex)}`,
            5000,
        );
        return {
            ok: true,
            annotationFile: uriKey(fileUri),
            annotationIndex: written.annotationIndex,
            sourceIndex: written.sourceIndex ?? 0,
            ref,
            hits: result.hits,
        };
    }

    /** Explicit args, else the annotation or claim under the cursor, else the current annotation. */
    private async target(args: FindSourcesArgs): Promise<Outcome<AnnotationTarget>> {
        if (args.annotationFile !== undefined) {
            let uri: vscode.Uri;
            try {
                uri = vscode.Uri.parse(args.annotationFile, true);
            } catch {
                return { ok: false, message: `annotationFile is not a URI: ${args.annotationFile}` };
            }
            const current = this.current.get();
            const index =
                args.annotationIndex ?? (current?.annotationFile === uriKey(uri) ? current.annotationIndex : undefined);
            if (!Number.isInteger(index) || (index as number) < 0)
                return { ok: false, message: "Pass annotationIndex (a whole number) with annotationFile." };
            return { ok: true, annotationFile: uriKey(uri), annotationIndex: index as number };
        }
        const editor = vscode.window.activeTextEditor;
        if (editor && isAnnotationDocument(editor.document)) {
            const index = annotationIndexAt(
                editor.document.getText(),
                editor.document.offsetAt(editor.selection.active),
            );
            if (index === undefined) return { ok: false, message: "Put the cursor inside an annotation first." };
            return { ok: true, annotationFile: uriKey(editor.document.uri), annotationIndex: index };
        }
        if (editor) {
            const cursor = editor.selection.active;
            const claims = (await this.spans.spansOf(editor.document))
                .filter((s) => s.kind === "claim")
                .filter((s) => {
                    const r = s.range;
                    const after =
                        cursor.line > r.start.line ||
                        (cursor.line === r.start.line && cursor.character >= r.start.character);
                    const before =
                        cursor.line < r.end.line || (cursor.line === r.end.line && cursor.character <= r.end.character);
                    return after && before;
                })
                .flatMap((s) => s.citations.filter((c) => c.role === "claim"));
            if (claims.length === 1)
                return {
                    ok: true,
                    annotationFile: claims[0].annotationUri,
                    annotationIndex: claims[0].annotationIndex,
                };
            if (claims.length > 1) {
                const picked = await vscode.window.showQuickPick(
                    claims.map((c) => ({ label: c.claimText ?? annotationLabel(c.annotationIndex), citation: c })),
                    { title: "SourceCheck: which claim?" },
                );
                if (!picked) return { ok: false, message: "No claim chosen.", cancelled: true };
                return {
                    ok: true,
                    annotationFile: picked.citation.annotationUri,
                    annotationIndex: picked.citation.annotationIndex,
                };
            }
        }
        const current = this.current.get();
        if (current) return { ok: true, ...current };
        return {
            ok: false,
            message: "Put the cursor on a claim (in the answer or in an annotation file) to find its sources.",
        };
    }
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
        return hit ? { ok: true, hit } : { ok: false, message: `There is no hit ${wanted}: ${hits.length} found.` };
    }
    if (typeof wanted === "string") {
        const hit = hits.find((h) => h.path === wanted || `${h.path}#L${h.startLine}-L${h.endLine}` === wanted);
        return hit ? { ok: true, hit } : { ok: false, message: `No hit comes from ${wanted}.` };
    }
    const picked = await vscode.window.showQuickPick(
        hits.map((hit) => ({
            label: `${hit.path}#L${hit.startLine}-L${hit.endLine}`,
            description: `${hit.score.toFixed(2)}${hit.headingPath.length > 0 ? ` · ${hit.headingPath.join(" › ")}` : ""}`,
            detail: preview(hit.refText || hit.text),
            hit,
        })),
        {
            title: `SourceCheck: sources for “${preview(query, 80)}”`,
            placeHolder: "Pick the passage to cite",
            matchOnDescription: true,
            matchOnDetail: true,
        },
    );
    return picked ? { ok: true, hit: picked.hit } : { ok: false, message: "No source chosen.", cancelled: true };
}

async function pickPolarity(): Promise<"supports" | "refutes" | undefined> {
    const picked = await vscode.window.showQuickPick(
        [
            { label: "$(pass) Supports", description: "the passage backs the claim", polarity: "supports" as const },
            {
                label: "$(error) Refutes",
                description: "the passage contradicts the claim",
                polarity: "refutes" as const,
            },
        ],
        { title: "SourceCheck: does this passage support or refute the claim?" },
    );
    return picked?.polarity;
}
