/**
 * What a person reads, in the display language (docs/localization.md): the client's sentences go
 * through `vscode.l10n.t`, whose translations live in l10n/bundle.l10n.<locale>.json. Annotations and
 * sources are numbered from 1 here as everywhere a person reads (shared/numbering.ts).
 */
import * as vscode from "vscode";
import { ordinal } from "../../shared/numbering";

/** "annotation 9" (or "Annotation 9") for the 0-based index 8, translated. */
export function annotationName(index: number, capital = false): string {
    return capital ? vscode.l10n.t("Annotation {0}", ordinal(index)) : vscode.l10n.t("annotation {0}", ordinal(index));
}

/** "source 1" (or "Source 1") for the 0-based index 0, translated. */
export function sourceName(index: number, capital = false): string {
    return capital ? vscode.l10n.t("Source {0}", ordinal(index)) : vscode.l10n.t("source {0}", ordinal(index));
}

/** "annotation 9" for `annotation: 9` of the server's protocol, which counts from 1 (docs/custom-protocol.md). */
export function annotationNumbered(annotation: number, capital = false): string {
    return capital ? vscode.l10n.t("Annotation {0}", annotation) : vscode.l10n.t("annotation {0}", annotation);
}

/** "source 1" for `source: 1` of the server's protocol, which counts from 1. */
export function sourceNumbered(source: number, capital = false): string {
    return capital ? vscode.l10n.t("Source {0}", source) : vscode.l10n.t("source {0}", source);
}

/** "supporting" or "refuting", translated. */
export function polarityWord(polarity: "supports" | "refutes"): string {
    return polarity === "supports" ? vscode.l10n.t("supporting") : vscode.l10n.t("refuting");
}

/** The singular or the plural sentence by `count` (both already translated by the caller). */
export function counted(count: number, one: string, many: string): string {
    return count === 1 ? one : many;
}

/** "2 refs in 1 annotation file", translated. */
export function countedRefsInFiles(refCount: number, fileCount: number): string {
    const refs = counted(refCount, vscode.l10n.t("1 ref"), vscode.l10n.t("{0} refs", refCount));
    return counted(
        fileCount,
        vscode.l10n.t("{0} in 1 annotation file", refs),
        vscode.l10n.t("{0} in {1} annotation files", refs, fileCount),
    );
}

/** Asks with buttons shown translated and answers by the button's id (what tests and callers compare). */
export async function askWithButtons<Id extends string>(
    message: string,
    buttons: Record<Id, string>,
    severity: "information" | "error" = "information",
): Promise<Id | undefined> {
    const shown = Object.values(buttons) as string[];
    const show = severity === "error" ? vscode.window.showErrorMessage : vscode.window.showInformationMessage;
    const choice = await show(message, ...shown);
    return (Object.keys(buttons) as Id[]).find((id) => buttons[id] === choice);
}

/** A verdict (docs/verdicts.md) in words, translated; an unknown one as it is. */
export function verdictWord(verdict: string): string {
    switch (verdict) {
        case "supported":
            return vscode.l10n.t("supported");
        case "contested":
            return vscode.l10n.t("contested");
        case "refuted":
            return vscode.l10n.t("refuted");
        case "broken":
            return vscode.l10n.t("broken");
        default:
            return verdict;
    }
}
