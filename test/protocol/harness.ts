/**
 * A minimal LSP client for protocol tests: starts the bundled `dist/server.js --stdio`, speaks
 * LSP over its pipes, answers the server's requests, and records what it is sent.
 */
import { type ChildProcess, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import {
    type ClientCapabilities,
    createProtocolConnection,
    type Diagnostic,
    type DocumentDiagnosticReport,
    type ProtocolConnection,
    type PublishDiagnosticsParams,
    StreamMessageReader,
    StreamMessageWriter,
} from "vscode-languageserver-protocol/node";

export const repoRoot = path.resolve(__dirname, "../../..");
export const demoRoot = path.join(repoRoot, "examples", "demo");

/** A fresh copy of the demo workspace in a temp dir. */
export function copyDemo(): string {
    const dir = fs.mkdtempSync(path.join(fs.realpathSync(os.tmpdir()), "sourcecheck-protocol-"));
    fs.cpSync(demoRoot, dir, { recursive: true });
    return dir;
}

export function uriOf(root: string, relative: string): string {
    return pathToFileURL(path.join(root, relative)).href;
}

export interface StartOptions {
    root: string;
    pull: boolean;
    settings?: Record<string, unknown>;
    sections?: Record<string, unknown>;
    progress?: boolean;
}

export function sleep(ms: number): Promise<void> {
    return new Promise((resolve) => setTimeout(resolve, ms));
}

export class TestClient {
    readonly connection: ProtocolConnection;
    readonly child: ChildProcess;
    readonly published = new Map<string, PublishDiagnosticsParams>();
    readonly publishLog: PublishDiagnosticsParams[] = [];
    readonly citedSpansChanged: string[][] = [];
    readonly progress: unknown[] = [];
    readonly refreshes = { diagnostics: 0, inlayHints: 0 };
    readonly stderr: string[] = [];
    /** Every window/logMessage the server sent (handler failures are logged there, not on stderr). */
    readonly logs: string[] = [];
    private readonly versions = new Map<string, number>();
    private readonly texts = new Map<string, string>();
    settings: Record<string, unknown>;
    /** Other configuration sections, such as `files.exclude`, by name. */
    sections: Record<string, unknown>;
    exited = false;
    /** Waits that re-check their condition on every message from the server (see `until`). */
    private readonly waiting = new Set<() => void>();

    constructor(readonly options: StartOptions) {
        this.settings = options.settings ?? {};
        this.sections = options.sections ?? {};
        this.child = spawn(process.execPath, [path.join(repoRoot, "dist", "server.js"), "--stdio"], {
            stdio: ["pipe", "pipe", "pipe"],
        });
        this.child.stderr?.on("data", (chunk) => this.stderr.push(String(chunk)));
        this.child.on("exit", () => {
            this.exited = true;
            this.wake();
        });
        this.connection = createProtocolConnection(
            new StreamMessageReader(this.child.stdout!),
            new StreamMessageWriter(this.child.stdin!),
        );
        this.connection.onNotification("textDocument/publishDiagnostics", (params: PublishDiagnosticsParams) => {
            this.published.set(params.uri, params);
            this.publishLog.push(params);
            this.wake();
        });
        this.connection.onNotification("sourcecheck/citedSpansChanged", (params: { uris: string[] }) => {
            this.citedSpansChanged.push(params.uris);
            this.wake();
        });
        this.connection.onNotification("$/progress", (params) => {
            this.progress.push(params);
            this.wake();
        });
        this.connection.onNotification("window/logMessage", (params: { message: string }) => {
            this.logs.push(params.message);
            this.wake();
        });
        // Any other notification (a test's own handler, set with onNotification below, runs first).
        this.connection.onUnhandledNotification(() => this.wake());
        this.connection.onRequest("workspace/configuration", (params: { items: { section?: string }[] }) =>
            params.items.map((item) =>
                item.section && item.section !== "sourcecheck" ? (this.sections[item.section] ?? null) : this.settings,
            ),
        );
        this.connection.onRequest("client/registerCapability", () => null);
        this.connection.onRequest("window/workDoneProgress/create", () => null);
        this.connection.onRequest("workspace/diagnostic/refresh", () => {
            this.refreshes.diagnostics++;
            this.wake();
            return null;
        });
        this.connection.onRequest("workspace/inlayHint/refresh", () => {
            this.refreshes.inlayHints++;
            this.wake();
            return null;
        });
        this.connection.listen();
    }

    async initialize(): Promise<void> {
        const capabilities: ClientCapabilities = {
            workspace: {
                configuration: true,
                didChangeWatchedFiles: { dynamicRegistration: true },
                diagnostics: { refreshSupport: true },
                inlayHint: { refreshSupport: true },
                workspaceFolders: true,
            },
            textDocument: {
                hover: { contentFormat: ["markdown", "plaintext"] },
                publishDiagnostics: { relatedInformation: true, versionSupport: true },
                codeAction: {
                    codeActionLiteralSupport: {
                        codeActionKind: {
                            valueSet: ["quickfix", "refactor", "refactor.rewrite", "source", "source.fixAll"],
                        },
                    },
                    dataSupport: true,
                },
                completion: { completionItem: { snippetSupport: false } },
                definition: { linkSupport: true },
                inlayHint: {},
                documentLink: {},
                ...(this.options.pull
                    ? { diagnostic: { dynamicRegistration: false, relatedDocumentSupport: false } }
                    : {}),
            },
            window: { workDoneProgress: this.options.progress ?? true },
        };
        await this.connection.sendRequest("initialize", {
            processId: process.pid,
            rootUri: pathToFileURL(this.options.root).href,
            workspaceFolders: [{ uri: pathToFileURL(this.options.root).href, name: "demo" }],
            capabilities,
            initializationOptions: this.settings,
        });
        await this.connection.sendNotification("initialized", {});
    }

    uri(relative: string): string {
        return uriOf(this.options.root, relative);
    }

    text(uri: string): string {
        return this.texts.get(uri) ?? "";
    }

    async open(relative: string, languageId = "plaintext", text?: string): Promise<string> {
        const uri = this.uri(relative);
        const content = text ?? fs.readFileSync(path.join(this.options.root, relative), "utf8");
        this.versions.set(uri, 1);
        this.texts.set(uri, content);
        await this.connection.sendNotification("textDocument/didOpen", {
            textDocument: { uri, languageId, version: 1, text: content },
        });
        return uri;
    }

    async change(uri: string, text: string): Promise<number> {
        const version = (this.versions.get(uri) ?? 1) + 1;
        this.versions.set(uri, version);
        this.texts.set(uri, text);
        await this.connection.sendNotification("textDocument/didChange", {
            textDocument: { uri, version },
            contentChanges: [{ text }],
        });
        return version;
    }

    async close(uri: string): Promise<void> {
        await this.connection.sendNotification("textDocument/didClose", { textDocument: { uri } });
    }

    version(uri: string): number {
        return this.versions.get(uri) ?? 0;
    }

    request<R>(method: string, params: unknown): Promise<R> {
        return this.connection.sendRequest(method, params) as Promise<R>;
    }

    async pull(uri: string): Promise<Diagnostic[]> {
        const report = await this.request<DocumentDiagnosticReport>("textDocument/diagnostic", {
            textDocument: { uri },
        });
        if (report.kind !== "full") throw new Error("expected a full report");
        return report.items;
    }

    /** A notification handler of a test's own; waits re-check their conditions after it ran. */
    onNotification<P>(method: string, handler: (params: P) => void): void {
        this.connection.onNotification(method, (params: P) => {
            handler(params);
            this.wake();
        });
    }

    /** Re-check every wait: called on each message from the server, and when it exits. */
    private wake(): void {
        for (const check of [...this.waiting]) check();
    }

    /**
     * Resolves with `probe()`'s value once it is not undefined, checked now and again on each message
     * from the server (a notification, a request, a log line); fails when the server exits first. No
     * deadline of its own: the test's timeout is the one overall limit, and a slow machine only waits
     * longer.
     */
    until<T>(probe: () => T | undefined, what: string): Promise<T> {
        return new Promise<T>((resolve, reject) => {
            const check = () => {
                let value: T | undefined;
                try {
                    value = probe();
                } catch (error) {
                    this.waiting.delete(check);
                    reject(error);
                    return;
                }
                if (value !== undefined) {
                    this.waiting.delete(check);
                    resolve(value);
                } else if (this.exited) {
                    this.waiting.delete(check);
                    reject(new Error(`the server exited while waiting for ${what}: ${this.stderr.join("")}`));
                }
            };
            this.waiting.add(check);
            check();
        });
    }

    /** The next message from the server of any kind (or its exit). */
    nextMessage(): Promise<void> {
        let seen = false;
        const next = this.until(() => (seen ? true : undefined), "a message from the server");
        seen = true;
        return next.then(() => undefined);
    }

    /** Wait until a publishDiagnostics for `uri` satisfies `accept`. */
    waitForPublished(
        uri: string,
        accept: (params: PublishDiagnosticsParams) => boolean = () => true,
    ): Promise<PublishDiagnosticsParams> {
        return this.until(
            () => {
                const params = this.published.get(uri);
                return params && accept(params) ? params : undefined;
            },
            `diagnostics published for ${uri} (last: ${JSON.stringify(this.published.get(uri))})`,
        );
    }

    async waitFor(condition: () => boolean, what: string): Promise<void> {
        await this.until(() => (condition() ? true : undefined), what);
    }

    /**
     * Pull diagnostics until `accept` takes them: a pull answers the server's state now, so after
     * one that is not yet accepted, the next pull waits for a message from the server (a refresh,
     * a log line of a finished check...).
     */
    async pullUntil(uri: string, accept: (items: Diagnostic[]) => boolean): Promise<Diagnostic[]> {
        for (;;) {
            const next = this.nextMessage();
            const items = await this.pull(uri);
            if (accept(items)) return items;
            await next;
        }
    }

    async stop(): Promise<void> {
        if (this.exited) return;
        try {
            await Promise.race([this.connection.sendRequest("shutdown"), sleep(2000)]);
            await this.connection.sendNotification("exit");
        } catch {
            // already gone
        }
        await Promise.race([new Promise((resolve) => this.child.once("exit", resolve)), sleep(2000)]);
        if (!this.exited) this.child.kill();
        this.connection.dispose();
    }
}

export async function startClient(options: Partial<StartOptions> & { pull: boolean }): Promise<TestClient> {
    const client = new TestClient({ root: options.root ?? copyDemo(), ...options });
    await client.initialize();
    return client;
}

/** The 0-based LSP range of `needle` (the n-th occurrence) in a text. */
export function rangeOf(text: string, needle: string, occurrence = 0) {
    let at = -1;
    for (let i = 0; i <= occurrence; i++) {
        at = text.indexOf(needle, at + 1);
        if (at === -1) throw new Error(`${needle} not found`);
    }
    return { start: positionOf(text, at), end: positionOf(text, at + needle.length) };
}

export function positionOf(text: string, offset: number) {
    const before = text.slice(0, offset);
    const line = before.split("\n").length - 1;
    return { line, character: offset - (before.lastIndexOf("\n") + 1) };
}

export interface Edit {
    range: { start: { line: number; character: number }; end: { line: number; character: number } };
    newText: string;
}

/** Apply non-overlapping LSP text edits to a text. */
export function applyEdits(text: string, edits: Edit[]): string {
    const offsetOf = (p: { line: number; character: number }) => {
        let offset = 0;
        for (let line = 0; line < p.line; line++) offset = text.indexOf("\n", offset) + 1;
        return offset + p.character;
    };
    const sorted = edits
        .map((e) => ({ start: offsetOf(e.range.start), end: offsetOf(e.range.end), text: e.newText }))
        .sort((a, b) => b.start - a.start);
    let result = text;
    for (const e of sorted) result = result.slice(0, e.start) + e.text + result.slice(e.end);
    return result;
}
