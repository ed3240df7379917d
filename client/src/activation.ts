/**
 * Activation: the language client, decorations, hovers, language status and commands. Each piece
 * lives in its own module; this file only wires them together and registers the commands (every
 * command also takes explicit arguments, see client/E2E-HOOKS.md). The same activation serves the
 * desktop and VS Code for the Web: each entry (extension.ts, browserExtension.ts) passes in how its
 * language server is reached (serverConnection.ts, docs/web.md).
 */
import * as vscode from "vscode";
import { type AddSourceArgs, Authoring, type CiteClaimArgs } from "./authoring";
import { CitedSpansStore, uriKey } from "./citedSpans";
import { type CiteQuoteArgs, citeQuote } from "./citeQuote";
import { extensionEnabled, toggleDecorationsSetting } from "./config";
import { CoverageMarks } from "./coverageMarks";
import { CurrentAnnotation } from "./currentAnnotation";
import { CurrentAnnotationStatus } from "./currentAnnotationStatus";
import type { LspRange } from "./customRequestTypes";
import { ACCEPT_CHANGED_TEXT_COMMAND } from "./customRequestTypes";
import { CitedSpanDecorations, toRange } from "./decorations";
import { DocumentScopes } from "./documentScopes";
import { FileMoves } from "./fileMoves";
import { FindSources, type FindSourcesArgs } from "./findSources";
import { FIX_REF_COMMAND, fixRef } from "./fixRef";
import { FollowEdits, RefUpdates, UNDO_REF_UPDATE_COMMAND } from "./followEdits";
import { CitedSpanHoverProvider, OPEN_REF_COMMAND } from "./hover";
import { type ImportCitationsArgs, importCitations } from "./importCitations";
import { associateAnnotationFiles } from "./languageAssociation";
import { documentSchemes, SourceCheckClient } from "./languageClient";
import { registerLanguageModelTools } from "./languageModelTools";
import { LanguageStatus } from "./languageStatus";
import { LINE_INDEX_SCHEME, LineIndexProvider, showLineIndex } from "./lineIndex";
import { LockKeeper } from "./lockRefs";
import { showNotice } from "./notices";
import { registerQuoteFiles } from "./quoteFiles";
import { repairWorkspace } from "./repairWorkspace";
import { messageOf } from "./requests";
import { argsObject, type SelectionArgs } from "./selection";
import type { ServerConnection } from "./serverConnection";
import { buildSessionFromOpenDocuments } from "./sessionBuilder";
import { SourceCheckView } from "./sourceCheckView";
import { registerTestHooks } from "./testHooks";
import { fileSystemPath } from "./uriPaths";
import { unavailableHere } from "./webLimits";

let sourceCheck: SourceCheckClient | undefined;

type Result = { ok: boolean; message?: string; cancelled?: boolean };

/** Runs a command body; failures become one error message (never a stack trace) and a result object. */
async function reporting<T extends Result>(body: () => Promise<T>): Promise<T | { ok: false; message: string }> {
    try {
        const result = await body();
        if (!result.ok && !result.cancelled && result.message) void showNotice("error", result.message);
        return result;
    } catch (error) {
        const message = messageOf(error);
        void showNotice("error", message);
        return { ok: false, message };
    }
}

export async function activate(context: vscode.ExtensionContext, connection: ServerConnection): Promise<void> {
    const output = vscode.window.createOutputChannel("SourceCheck");
    const sc = new SourceCheckClient(context, output, connection);
    sourceCheck = sc;
    const store = new CitedSpansStore(sc, output);
    const current = new CurrentAnnotation();
    const decorations = new CitedSpanDecorations(context, store);
    const status = new LanguageStatus(sc, store);
    const lineIndex = new LineIndexProvider(sc);
    const authoring = new Authoring(context, sc, current);
    const scopes = new DocumentScopes(sc, store, new CitedSpanHoverProvider(store));
    context.subscriptions.push(output, sc, store, current, decorations, status, lineIndex, associateAnnotationFiles());
    context.subscriptions.push(new CurrentAnnotationStatus(current), scopes);
    context.subscriptions.push(registerQuoteFiles(sc));
    const refUpdates = new RefUpdates(sc, output);
    context.subscriptions.push(
        new FollowEdits(sc, refUpdates, output).start(),
        new FileMoves(sc, refUpdates, output).start(),
    );
    context.subscriptions.push(vscode.workspace.registerTextDocumentContentProvider(LINE_INDEX_SCHEME, lineIndex));

    registerLanguageModelTools(context, sc);
    // Commands are offered on every scheme the server reads (package.json's `when` clauses).
    void vscode.commands.executeCommand("setContext", "sourcecheck.documentSchemes", documentSchemes());

    // What cannot run in VS Code for the Web says so there instead of failing (webLimits.ts).
    const command = (id: string, handler: (...args: unknown[]) => unknown) =>
        context.subscriptions.push(
            vscode.commands.registerCommand(id, (...args: unknown[]) => unavailableHere(id) ?? handler(...args)),
        );

    command("sourcecheck.citeSelectionAsClaim", (arg) =>
        reporting(() => authoring.citeSelectionAsClaim(argsObject<CiteClaimArgs>(arg))),
    );
    command("sourcecheck.addSelectionAsSupportingSource", (arg) =>
        reporting(() => authoring.addSelectionAsSource("supports", argsObject<AddSourceArgs>(arg))),
    );
    command("sourcecheck.addSelectionAsRefutingSource", (arg) =>
        reporting(() => authoring.addSelectionAsSource("refutes", argsObject<AddSourceArgs>(arg))),
    );
    command("sourcecheck.copyRefForSelection", (arg) =>
        reporting(() => authoring.copyRefForSelection(argsObject<SelectionArgs>(arg))),
    );
    command("sourcecheck.citeQuote", (arg) => reporting(() => citeQuote(sc, argsObject<CiteQuoteArgs>(arg))));
    const findSources = new FindSources(context, sc, current, store);
    command("sourcecheck.findSourcesForClaim", (arg) =>
        reporting(() => findSources.run(argsObject<FindSourcesArgs>(arg))),
    );
    command("sourcecheck.showLineIndex", (arg) => reporting(() => showLineIndex(arg)));
    // Locks (docs/lock.md, "In the editor"): the command, the accept fix's command, saving, the offer.
    const lockKeeper = new LockKeeper(context, sc, output);
    context.subscriptions.push(lockKeeper);
    command("sourcecheck.lockRefs", (arg) => reporting(() => lockKeeper.lockFile(arg)));
    command(ACCEPT_CHANGED_TEXT_COMMAND, (arg) => reporting(() => lockKeeper.accept(arg)));
    command("sourcecheck.repairWorkspace", () => reporting(() => repairWorkspace(sc)));
    command("sourcecheck.importCitations", (arg) =>
        reporting(() => importCitations(sc, argsObject<ImportCitationsArgs>(arg))),
    );
    command("sourcecheck.buildSessionFromOpenDocuments", () => reporting(() => buildSessionFromOpenDocuments()));
    command("sourcecheck.toggleDecorations", () =>
        reporting(async () => {
            const enabled = await toggleDecorationsSetting();
            vscode.window.setStatusBarMessage(
                enabled ? vscode.l10n.t("SourceCheck: decorations on") : vscode.l10n.t("SourceCheck: decorations off"),
                3000,
            );
            return { ok: true, enabled };
        }),
    );
    command("sourcecheck.restartServer", () =>
        reporting(async () => {
            if (!extensionEnabled()) {
                return {
                    ok: false,
                    message: vscode.l10n.t("SourceCheck is turned off in this workspace (sourcecheck.enable)."),
                };
            }
            output.appendLine("[client] restarting the language server on request");
            await sc.restart();
            return { ok: true };
        }),
    );
    command("sourcecheck.showOutput", () => output.show(true));
    command(OPEN_REF_COMMAND, (arg) => reporting(() => openRef(arg)));
    command(FIX_REF_COMMAND, (arg) => reporting(() => fixRef(arg)));

    // Undo of the last automatic ref update (the status bar item of follow edits offers it).
    command(UNDO_REF_UPDATE_COMMAND, () => reporting(() => refUpdates.undoLast()));
    // The SourceCheck view in the Explorer, and Show Coverage (docs/view.md).
    const view = new SourceCheckView(sc, store);
    const coverageMarks = new CoverageMarks(sc, store);
    context.subscriptions.push(view, coverageMarks);
    command("sourcecheck.view.showAll", () => view.setFilter("all"));
    command("sourcecheck.view.showBroken", () => view.setFilter("broken"));
    command("sourcecheck.view.showContested", () => view.setFilter("contested"));
    command("sourcecheck.view.refresh", () => view.refresh());
    command("sourcecheck.showCoverage", (arg) => reporting(() => toggleCoverage(coverageMarks, arg)));
    // Hooks for the e2e suite, registered only when VS Code runs the tests (client/E2E-HOOKS.md).
    registerTestHooks(context, vscode.ExtensionMode.Test, command, {
        decorationsForEditor: async (uri) => {
            if (typeof uri !== "string") throw new Error("sourcecheck._decorationsForEditor takes a URI string");
            await decorations.settled();
            return decorations.appliedTo(uri);
        },
        languageStatus: () => status.settled(),
        currentAnnotation: () => current.get(),
        refUpdates: (arg) => {
            const answer = (arg as { answer?: unknown } | undefined)?.answer;
            if (answer !== undefined) refUpdates.autoAnswer = typeof answer === "string" ? answer : undefined;
            return refUpdates.log;
        },
        viewSnapshot: () => view.snapshot(),
        viewReveal: (uri, index) => view.revealAnnotation(String(uri), Number(index)),
        coverageMarks: (uri) => coverageMarks.marked(String(uri))?.map(rangeJson),
        featureRequests: () => sc.requests.take(),
        citedDocumentSelector: () => scopes.citedSelector(),
        serverPid: () => sc.serverPid(),
        // The extension's log folder; the extension host's own log (its warnings) is in the folder above.
        logFolder: () => fileSystemPath(context.logUri),
        lockKeeper: (arg) => lockKeeper.testHook(arg),
    });

    // `sourcecheck.enable`: the whole extension on or off for this workspace, without a reload.
    context.subscriptions.push(
        vscode.workspace.onDidChangeConfiguration((event) => {
            if (!event.affectsConfiguration("sourcecheck.enable")) return;
            store.invalidate(undefined);
            void (extensionEnabled() ? startServer(sc, output) : stopServer(sc, output));
        }),
    );
    if (extensionEnabled()) await startServer(sc, output);
    else output.appendLine("[client] SourceCheck is turned off in this workspace (sourcecheck.enable)");
}

/** Show Coverage: marks the answer's uncovered text, or clears the marks when run again without an argument. */
async function toggleCoverage(coverageMarks: CoverageMarks, arg: unknown) {
    const uri = typeof arg === "string" ? vscode.Uri.parse(arg) : arg instanceof vscode.Uri ? arg : undefined;
    const document = uri ? await vscode.workspace.openTextDocument(uri) : vscode.window.activeTextEditor?.document;
    if (!document) return { ok: false, message: vscode.l10n.t("Open the answer document to show its coverage.") };
    if (coverageMarks.isShown(document) && arg === undefined) {
        coverageMarks.hide(document);
        return { ok: true, shown: false, uncovered: [] };
    }
    const ranges = await coverageMarks.show(document);
    return { ok: true, shown: true, uncovered: ranges.map(rangeJson) };
}

async function startServer(sc: SourceCheckClient, output: vscode.OutputChannel): Promise<void> {
    try {
        await sc.start();
        output.appendLine("[client] SourceCheck language server started");
    } catch (error) {
        // Commands stay registered: restarting after a rebuild must be possible without reloading.
        output.appendLine(`[client] SourceCheck: the language server did not start: ${messageOf(error)}`);
        const message = vscode.l10n.t("SourceCheck: the language server did not start: {0}", messageOf(error));
        void vscode.window.showErrorMessage(message, vscode.l10n.t("Show Output")).then((choice) => {
            if (choice) output.show(true);
        });
    }
}

async function stopServer(sc: SourceCheckClient, output: vscode.OutputChannel): Promise<void> {
    if (sc.client.needsStop()) await sc.client.stop();
    output.appendLine("[client] SourceCheck turned off in this workspace (sourcecheck.enable): server stopped");
}

/** Opens an annotation file at a citing ref (the target of hover links). */
async function openRef(arg: unknown): Promise<{ ok: true } | { ok: false; message: string }> {
    const { uri, range } = argsObject<{ uri: string; range: LspRange }>(arg);
    if (typeof uri !== "string") return { ok: false, message: "openRef needs { uri, range }." };
    const document = await vscode.workspace.openTextDocument(vscode.Uri.parse(uri, true));
    const visible = vscode.window.visibleTextEditors.find((e) => uriKey(e.document.uri) === uriKey(document.uri));
    const selection = range ? toRange(range) : undefined;
    await vscode.window.showTextDocument(document, { viewColumn: visible?.viewColumn, selection, preview: true });
    return { ok: true };
}

export async function deactivate(): Promise<void> {
    const client = sourceCheck;
    sourceCheck = undefined;
    if (client?.client.needsStop()) await client.client.stop();
}

/** A range as the commands' results carry it (0-based, like the API). */
function rangeJson(r: vscode.Range) {
    return {
        startLine: r.start.line,
        startCharacter: r.start.character,
        endLine: r.end.line,
        endCharacter: r.end.character,
    };
}
