/**
 * Code actions that edit an annotation, as lint users expect of a problem's neighbourhood
 * (docs/editor-features.md, "Editing annotations"): on any ref, remove its annotation; on a source,
 * remove that source, flip its polarity, or set its confidence. Every edit comes from the one writer of
 * annotation files (core/annotationEdits.ts) or replaces exactly one token; numbers are from 1.
 */
import { type CodeAction, CodeActionKind, type TextEdit } from "vscode-languageserver-protocol";
import { ordinal } from "../../../shared/numbering";
import { type OffsetEdit, removeAnnotation, removeSource } from "../core/annotationEdits";
import type { AnnotationFile, RefSite } from "../workspace/annotationFile";
import { ACTION_TEXTS, ENGLISH, type Translate } from "./messages";
import { positionAt } from "./positions";

/** The confidences offered by "Set confidence": high, middling, low. */
export const CONFIDENCE_CHOICES = [0.9, 0.7, 0.5] as const;

export type AnnotationActionKind = "removeAnnotation" | "removeSource" | "polarity" | "confidence";

/** The actions on the ref at `site`: its annotation's, and its source's when it is one. */
export function annotationActions(file: AnnotationFile, site: RefSite, t: Translate = ENGLISH): CodeAction[] {
    const name = fileNameOf(file.uri);
    const annotation = ordinal(site.annotation);
    const actions: CodeAction[] = [];
    const whole = removeAnnotation(file.text, name, site.annotation);
    if (whole.ok)
        actions.push(
            action(file, site, t(ACTION_TEXTS.removeAnnotation, { annotation }), "removeAnnotation", whole.edits),
        );
    if (site.role === "claim") return actions;
    const numbers = { source: ordinal(site.role), annotation };
    const removed = removeSource(file.text, name, site.annotation, site.role);
    if (removed.ok)
        actions.push(action(file, site, t(ACTION_TEXTS.removeSource, numbers), "removeSource", removed.edits));
    const polarity = tokenOf(file, `${site.pointer}/polarity`);
    if (polarity && (site.polarity === "supports" || site.polarity === "refutes")) {
        const flipped = site.polarity === "supports" ? "refutes" : "supports";
        actions.push(
            action(
                file,
                site,
                t(flipped === "supports" ? ACTION_TEXTS.makeSupports : ACTION_TEXTS.makeRefutes, numbers),
                "polarity",
                [{ ...polarity, content: JSON.stringify(flipped) }],
            ),
        );
    }
    const confidence = tokenOf(file, `${site.pointer}/confidence`);
    if (confidence) {
        for (const value of CONFIDENCE_CHOICES) {
            if (value === site.confidence) continue;
            actions.push(
                action(file, site, t(ACTION_TEXTS.setConfidence, { ...numbers, confidence: value }), "confidence", [
                    { ...confidence, content: String(value) },
                ]),
            );
        }
    }
    return actions;
}

function action(
    file: AnnotationFile,
    site: RefSite,
    title: string,
    kind: AnnotationActionKind,
    edits: OffsetEdit[],
): CodeAction {
    const textEdits: TextEdit[] = edits.map((edit) => ({
        range: { start: positionAt(file, edit.offset), end: positionAt(file, edit.offset + edit.length) },
        newText: edit.content,
    }));
    return {
        title,
        kind: CodeActionKind.RefactorRewrite,
        edit: { changes: { [file.uri]: textEdits } },
        data: { uri: file.uri, version: file.version, kind, pointer: site.pointer },
    };
}

/** The token a pointer names, when the file has it. */
function tokenOf(file: AnnotationFile, pointer: string): { offset: number; length: number } | undefined {
    const span = file.spanOf(pointer);
    return span && span.length > 0 ? { offset: span.offset, length: span.length } : undefined;
}

function fileNameOf(uri: string): string {
    const path = uri.replace(/[?#].*$/, "");
    return decodeURIComponent(path.slice(path.lastIndexOf("/") + 1));
}
