/**
 * What a command acts on: an explicit `{ uri, range }` argument (for scripts and the e2e suite) or the
 * active editor's selection. Turned into a ref only by the server (`sourcecheck/refForSelection`).
 */
import * as vscode from "vscode";
import { uriKey } from "./citedSpans";
import { type LspRange, type Ref, refForSelectionRequest } from "./customRequestTypes";
import type { SourceCheckClient } from "./languageClient";
import { ask } from "./requests";

export type Outcome<T> = ({ ok: true } & T) | { ok: false; message: string; cancelled?: boolean };

export interface SelectionArgs {
    /** The document to cite (URI string); default: the active editor's document. */
    uri?: string;
    /** 0-based LSP range; default: the active editor's selection. */
    range?: LspRange;
}

export interface Target {
    document: vscode.TextDocument;
    range: vscode.Range;
}

/** Command arguments are plain objects; a menu passes a Uri instead, which means "the active editor". */
export function argsObject<T extends object>(arg: unknown): Partial<T> {
    if (arg === null || typeof arg !== "object" || arg instanceof vscode.Uri) return {};
    return arg as Partial<T>;
}

function isPosition(value: unknown): value is { line: number; character: number } {
    const p = value as { line?: unknown; character?: unknown } | undefined;
    return (
        typeof p?.line === "number" &&
        typeof p.character === "number" &&
        Number.isInteger(p.line) &&
        Number.isInteger(p.character)
    );
}

export async function selectionTarget(args: SelectionArgs): Promise<Outcome<{ target: Target }>> {
    let document: vscode.TextDocument;
    let range: vscode.Range;
    if (args.uri !== undefined) {
        try {
            document = await vscode.workspace.openTextDocument(vscode.Uri.parse(args.uri, true));
        } catch (error) {
            return {
                ok: false,
                message: vscode.l10n.t(
                    "Cannot open {0}: {1}",
                    String(args.uri),
                    error instanceof Error ? error.message : String(error),
                ),
            };
        }
        const given = args.range;
        if (given === undefined) {
            const editor = vscode.window.visibleTextEditors.find(
                (e) => uriKey(e.document.uri) === uriKey(document.uri),
            );
            if (!editor)
                return { ok: false, message: vscode.l10n.t("Pass a range: the document is not shown in an editor.") };
            range = editor.selection;
        } else {
            if (!isPosition(given.start) || !isPosition(given.end)) {
                return {
                    ok: false,
                    message: vscode.l10n.t(
                        "range must be { start: { line, character }, end: { line, character } } (0-based).",
                    ),
                };
            }
            range = new vscode.Range(given.start.line, given.start.character, given.end.line, given.end.character);
        }
    } else {
        const editor = vscode.window.activeTextEditor;
        if (!editor) return { ok: false, message: vscode.l10n.t("Select the text to cite in an editor first.") };
        document = editor.document;
        range = editor.selection;
    }
    if (range.isEmpty)
        return { ok: false, message: vscode.l10n.t("Select the text to cite first: the selection is empty.") };
    return { ok: true, target: { document, range } };
}

export function toLspRange(range: vscode.Range): LspRange {
    return {
        start: { line: range.start.line, character: range.start.character },
        end: { line: range.end.line, character: range.end.character },
    };
}

/**
 * The server's ref for the target, or its reason why the selection cannot be cited uniquely.
 * `widenedTo`: the selection cut into a word and the ref cites the whole word (boundary style `words`).
 */
export async function refFor(
    sc: SourceCheckClient,
    target: Target,
): Promise<Outcome<{ ref: Ref; widenedTo?: LspRange; widenedNote?: string }>> {
    const result = await ask(sc, refForSelectionRequest, {
        uri: uriKey(target.document.uri),
        range: toLspRange(target.range),
    });
    if (result?.ok === true && result.ref) {
        if (!result.widenedTo) return { ok: true, ref: result.ref };
        const w = result.widenedTo;
        const cited = target.document.getText(
            new vscode.Range(w.start.line, w.start.character, w.end.line, w.end.character),
        );
        const shown = cited.length > 60 ? `${cited.slice(0, 59)}…` : cited;
        return {
            ok: true,
            ref: result.ref,
            widenedTo: w,
            widenedNote: vscode.l10n.t(
                "the selection cut a word, so whole words are cited: “{0}” (setting sourcecheck.boundaryStyle: shortest keeps the exact selection)",
                shown,
            ),
        };
    }
    const reason =
        result && result.ok === false && result.message ? result.message : vscode.l10n.t("the server gave no ref");
    return { ok: false, message: vscode.l10n.t("Cannot cite this selection: {0}", reason) };
}
