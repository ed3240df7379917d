/**
 * The client side of quote-based citations (docs/quotes.md, "In the editor"): files matched by the
 * `sourcecheck.traceFiles` / `sourcecheck.notesFiles` globs get their language, and two commands ask
 * the server: re-fetch the pages a notes file or report cites (only in a trusted workspace, with a
 * cancellable progress notification), and convert the quotes to a SourceCheck file, which is then
 * written beside the file and opened. Nothing is matched or fetched here.
 */
import * as vscode from "vscode";
import { CONVERT_QUOTES_COMMAND, NOTES_LANGUAGE, TRACE_LANGUAGE } from "../../shared/quoteProtocol";
import { quoteGlobs } from "./config";
import { convertQuotesRequest, refetchQuotesRequest } from "./customRequestTypes";
import { counted } from "./l10n";
import type { SourceCheckClient } from "./languageClient";
import { ask, messageOf } from "./requests";
import { unavailableHere } from "./webLimits";

export const REFETCH_COMMAND = "sourcecheck.refetchCitedPages";

/** Languages a matched file may be switched from: a language picked on purpose is left alone. */
const SWITCHABLE = new Set(["plaintext", "json", "jsonl", "jsonc", "markdown"]);

function matches(document: vscode.TextDocument, patterns: string[]): boolean {
    return patterns.some((pattern) => vscode.languages.match({ scheme: "file", pattern }, document) > 0);
}

function associate(document: vscode.TextDocument): void {
    if (document.uri.scheme !== "file" || !SWITCHABLE.has(document.languageId)) return;
    const language = matches(document, quoteGlobs("traceFiles"))
        ? TRACE_LANGUAGE
        : matches(document, quoteGlobs("notesFiles"))
          ? NOTES_LANGUAGE
          : undefined;
    if (language && document.languageId !== language)
        void vscode.languages.setTextDocumentLanguage(document, language).then(undefined, () => undefined);
}

function targetUri(arg: unknown): string | undefined {
    const uri = (arg as { uri?: unknown } | undefined)?.uri;
    if (typeof uri === "string") return uri;
    if (arg instanceof vscode.Uri) return arg.toString();
    return vscode.window.activeTextEditor?.document.uri.toString();
}

type Outcome = { ok: boolean; message?: string; cancelled?: boolean; [key: string]: unknown };

/** Re-fetch on the user's explicit request only, never in an untrusted workspace. */
async function refetch(sc: SourceCheckClient, arg: unknown): Promise<Outcome> {
    if (!vscode.workspace.isTrusted)
        return { ok: false, message: "re-fetching cited pages is disabled in an untrusted workspace." };
    const uri = targetUri(arg);
    if (!uri)
        return { ok: false, message: vscode.l10n.t("open a notes file or Markdown report to re-fetch its pages.") };
    const result = await vscode.window.withProgress(
        {
            location: vscode.ProgressLocation.Notification,
            title: vscode.l10n.t("SourceCheck: re-fetching cited pages"),
            cancellable: true,
        },
        async (_progress, token) => {
            // Cancelling the notification cancels the request; the server aborts its fetches.
            if (token.isCancellationRequested) return { ok: false as const, cancelled: true, message: "cancelled" };
            return sc.client.sendRequest(refetchQuotesRequest, { uri }, token).catch((error: unknown) => {
                if (token.isCancellationRequested) return { ok: false as const, cancelled: true, message: "cancelled" };
                throw error;
            });
        },
    );
    if (result.ok) {
        vscode.window.setStatusBarMessage(
            vscode.l10n.t(
                "SourceCheck: {0}/{1} found in {2}",
                result.matchedCount,
                counted(
                    result.citationCount,
                    vscode.l10n.t("1 quote"),
                    vscode.l10n.t("{0} quotes", result.citationCount),
                ),
                counted(result.pageCount, vscode.l10n.t("1 page"), vscode.l10n.t("{0} pages", result.pageCount)),
            ) + (result.failedCount > 0 ? vscode.l10n.t(" ({0} unavailable)", result.failedCount) : ""),
            5000,
        );
    }
    return result;
}

/** Ask the server for the converted file, write it beside the source file, and open it. */
async function convert(sc: SourceCheckClient, arg: unknown): Promise<Outcome> {
    const uri = targetUri(arg);
    if (!uri) return { ok: false, message: vscode.l10n.t("open a trace, notes file or Markdown report to convert.") };
    const result = await ask(sc, convertQuotesRequest, { uri });
    if (!result.ok) return result;
    if (result.convertedCount === 0) {
        // An empty annotation file would pass a check and cite nothing: write nothing, say why.
        const why =
            result.unconvertedCount === 0
                ? vscode.l10n.t("it holds no quotes")
                : result.unconvertedCount === 1
                  ? vscode.l10n.t("its 1 quote could not be cited (not found in its source)")
                  : vscode.l10n.t(
                        "none of its {0} quotes could be cited (not found in its source)",
                        result.unconvertedCount,
                    );
        return { ok: false, message: vscode.l10n.t("nothing to convert: {0}; no file was written.", why) };
    }
    const target = vscode.Uri.parse(result.targetUri, true);
    await vscode.workspace.fs.writeFile(target, Buffer.from(result.content, "utf8"));
    const document = await vscode.workspace.openTextDocument(target);
    await vscode.window.showTextDocument(document, { preview: false });
    if (result.unconvertedCount > 0) {
        void vscode.window.showWarningMessage(
            result.unconvertedCount === 1
                ? vscode.l10n.t('SourceCheck: 1 citation could not be converted; it is listed under "unconverted".')
                : vscode.l10n.t(
                      'SourceCheck: {0} citations could not be converted; they are listed under "unconverted".',
                      result.unconvertedCount,
                  ),
        );
    }
    return { ok: true, targetUri: result.targetUri, convertedCount: result.convertedCount };
}

export function registerQuoteFiles(sc: SourceCheckClient): vscode.Disposable {
    for (const document of vscode.workspace.textDocuments) associate(document);
    const report = (body: () => Promise<Outcome>) => async () => {
        try {
            const outcome = await body();
            if (!outcome.ok && !outcome.cancelled && outcome.message)
                void vscode.window.showErrorMessage(`SourceCheck: ${outcome.message}`);
            return outcome;
        } catch (error) {
            const message = messageOf(error);
            void vscode.window.showErrorMessage(`SourceCheck: ${message}`);
            return { ok: false, message };
        }
    };
    return vscode.Disposable.from(
        vscode.workspace.onDidOpenTextDocument(associate),
        vscode.workspace.onDidChangeConfiguration((event) => {
            if (
                event.affectsConfiguration("sourcecheck.traceFiles") ||
                event.affectsConfiguration("sourcecheck.notesFiles")
            )
                for (const document of vscode.workspace.textDocuments) associate(document);
        }),
        vscode.commands.registerCommand(
            REFETCH_COMMAND,
            (arg) => unavailableHere(REFETCH_COMMAND) ?? report(() => refetch(sc, arg))(),
        ),
        vscode.commands.registerCommand(CONVERT_QUOTES_COMMAND, (arg) => report(() => convert(sc, arg))()),
    );
}
