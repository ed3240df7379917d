/**
 * The LanguageClient over IPC to dist/server.js, with a crash policy: restart after a crash, but
 * stop retrying (and say so, with a Restart button) when the server keeps dying, so a broken server
 * cannot spin forever.
 */
import * as vscode from "vscode";
import {
    type BaseLanguageClient,
    CloseAction,
    type CloseHandlerResult,
    ErrorAction,
    type ErrorHandler,
    type ErrorHandlerResult,
    type LanguageClientOptions,
    type Middleware,
    State,
    type StaticFeature,
} from "vscode-languageclient";
import { annotationFileGlobs, CONFIG_LANGUAGE, quoteDocumentSelector } from "./config";
import { askWithButtons } from "./l10n";
import type { ServerConnection } from "./serverConnection";

const CRASH_WINDOW_MS = 3 * 60 * 1000;

/**
 * Diagnostics are pushed by the server, never pulled (docs/editor-features.md, "One state"): this
 * client pulls only for documents shown in tabs and drops what it pulled when a tab closes, which
 * the server cannot see; an annotation file loaded without a tab, or whose tab closed, then showed
 * no problem at all while the view called it broken. Registered after the built-in features, so
 * the pull capability they announce is taken back before `initialize`.
 */
const PUSHED_DIAGNOSTICS: StaticFeature = {
    fillClientCapabilities: (capabilities) => {
        if (capabilities.textDocument) delete capabilities.textDocument.diagnostic;
    },
    initialize: () => {},
    getState: () => ({ kind: "static" }),
    clear: () => {},
};
const MAX_CRASHES_IN_WINDOW = 5;

class RestartingErrorHandler implements ErrorHandler {
    private crashes: number[] = [];

    constructor(private readonly output: vscode.OutputChannel) {}

    error(error: Error, _message: unknown, count: number | undefined): ErrorHandlerResult {
        this.output.appendLine(`[client] connection error (${count ?? 1}): ${error.message}`);
        // A dying server produces a burst of write errors (EPIPE, "Channel closed") before `closed`;
        // shutting down on them would pre-empt the restart, so the crash budget lives in `closed` only.
        return { action: ErrorAction.Continue, handled: true };
    }

    closed(): CloseHandlerResult {
        const now = Date.now();
        this.crashes = this.crashes.filter((at) => now - at < CRASH_WINDOW_MS);
        this.crashes.push(now);
        if (this.crashes.length > MAX_CRASHES_IN_WINDOW) {
            this.output.appendLine(
                `[client] the server stopped ${this.crashes.length} times in 3 minutes; not restarting`,
            );
            void askWithButtons(
                vscode.l10n.t(
                    "The SourceCheck language server keeps stopping. See the SourceCheck output for details.",
                ),
                { restart: vscode.l10n.t("Restart Server"), output: vscode.l10n.t("Show Output") },
                "error",
            ).then((choice) => {
                if (choice === "restart") void vscode.commands.executeCommand("sourcecheck.restartServer");
                if (choice === "output") this.output.show(true);
            });
            return { action: CloseAction.DoNotRestart, handled: true };
        }
        this.output.appendLine("[client] the server stopped; restarting it");
        return { action: CloseAction.Restart, handled: true };
    }

    /** A deliberate restart starts the crash count afresh. */
    reset(): void {
        this.crashes = [];
    }
}

/**
 * The documents the client sent feature requests for (hover, completion, code actions, ...), so
 * the e2e suite can check that no request goes out for a document the features do not belong to.
 */
class FeatureRequestLog {
    private readonly uris = new Set<string>();

    record(document: vscode.TextDocument | vscode.Uri): void {
        const uri = document instanceof vscode.Uri ? document : document.uri;
        if (this.uris.size < 10_000) this.uris.add(uri.toString());
    }

    /** The URIs recorded since the last call. */
    take(): string[] {
        const uris = [...this.uris];
        this.uris.clear();
        return uris;
    }

    middleware(): Middleware {
        // Every provider middleware takes the document first and `next` last.
        const recorded =
            () =>
            (document: vscode.TextDocument | vscode.Uri, ...rest: unknown[]) => {
                this.record(document);
                const next = rest[rest.length - 1] as (...args: unknown[]) => unknown;
                return next(document, ...rest.slice(0, -1));
            };
        return {
            provideHover: recorded(),
            provideCompletionItem: recorded(),
            provideCodeActions: recorded(),
            provideDefinition: recorded(),
            provideReferences: recorded(),
            provideDocumentLinks: recorded(),
            provideInlayHints: recorded(),
            provideDiagnostics: recorded(),
        } as Middleware;
    }
}

/**
 * The server asks to hear of changes to `sourcecheck`, `files.exclude` and `search.exclude`, and
 * reads them itself per workspace folder (workspace/configuration with the folder's URI). The
 * notification only says that something changed: it carries the `sourcecheck` section, never the
 * resource-scoped exclusions, which read without a resource make VS Code warn ("Accessing a resource
 * scoped configuration without providing a resource is not expected").
 */
const windowScopedOnly = (sections: string[] | undefined, next: (sections: string[] | undefined) => Promise<void>) =>
    next(sections?.filter((section) => section === "sourcecheck"));

/** The scheme of the workspace's files: its first folder's (file: when there is none). */
export function workspaceScheme(): string {
    return vscode.workspace.workspaceFolders?.[0]?.uri.scheme ?? "file";
}

/**
 * The schemes of the documents the server reads: files on disk, and in VS Code for the Web the
 * workspace's own scheme (docs/web.md). Commands are offered where their document's scheme is one of
 * these (the context key `sourcecheck.documentSchemes`, package.json's `when` clauses).
 */
export function documentSchemes(): string[] {
    return [...new Set(["file", workspaceScheme()])];
}

export class SourceCheckClient implements vscode.Disposable {
    readonly client: BaseLanguageClient;
    readonly requests = new FeatureRequestLog();
    private readonly errorHandler: RestartingErrorHandler;

    constructor(
        context: vscode.ExtensionContext,
        output: vscode.OutputChannel,
        private readonly connection: ServerConnection,
    ) {
        this.errorHandler = new RestartingErrorHandler(output);
        // By scheme: the workspace's own (file: on the desktop, any in VS Code for the Web: docs/web.md).
        const scheme = workspaceScheme();
        const annotationPatterns = annotationFileGlobs().map((pattern) => ({ scheme, pattern }));
        const clientOptions: LanguageClientOptions = {
            // The server's language features serve annotation files only; cited documents get theirs,
            // and every file document its text sync, from DocumentScopes (docs/editor-features.md).
            documentSelector: [
                { language: "sourcecheck" },
                ...annotationPatterns,
                ...quoteDocumentSelector(),
                // sourcecheck.config.json: its own language, so only our server checks and completes it.
                { language: CONFIG_LANGUAGE },
            ],
            middleware: { ...this.requests.middleware(), workspace: { didChangeConfiguration: windowScopedOnly } },
            // The server registers its own file watchers and pulls `sourcecheck.*` settings; these are
            // only its first view of them. With them, the display language's bundle (the server's
            // diagnostics, hovers and progress are translated by it: docs/localization.md); `locale`
            // of `initialize` is vscode.env.language.
            initializationOptions: () => ({
                sourcecheck: JSON.parse(JSON.stringify(vscode.workspace.getConfiguration("sourcecheck"))),
                l10n: vscode.l10n.bundle,
            }),
            outputChannel: output,
            errorHandler: this.errorHandler,
        };
        // A Node process over IPC on the desktop, a web worker in the browser: the entry's connection.
        this.client = connection.createLanguageClient(context, clientOptions);
        this.client.registerFeature(PUSHED_DIAGNOSTICS);
    }

    /** The process id of the running server (the client library keeps its child process private). */
    serverPid(): number | undefined {
        return this.isRunning ? this.connection.serverProcessId(this.client) : undefined;
    }

    get isRunning(): boolean {
        return this.client.state === State.Running;
    }

    start(): Promise<void> {
        return this.client.start();
    }

    async restart(): Promise<void> {
        this.errorHandler.reset();
        if (this.client.state === State.Stopped) await this.client.start();
        else {
            // The Node client has restart(); the browser's stops and starts its worker.
            const client = this.client as BaseLanguageClient & { restart?: () => Promise<void> };
            if (client.restart) await client.restart();
            else {
                await client.stop();
                await client.start();
            }
        }
    }

    onRunning(listener: () => void): vscode.Disposable {
        return this.client.onDidChangeState((event) => {
            if (event.newState === State.Running) listener();
        });
    }

    dispose(): void {
        void this.client.dispose();
    }
}
