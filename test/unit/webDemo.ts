/**
 * What the browser-twin tests share: the small demo they serve from memory (one annotation whose claim
 * and source resolve, in a folder of the `sourcecheck-mem:` scheme, no `file:` URI anywhere), the
 * bundling of a test entry as the web worker gets it (scripts/web-build.mjs's options),
 * and a client over a MessageChannel that answers the worker's reads, stats and listings from memory.
 */
import * as assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { MessageChannel, type MessagePort } from "node:worker_threads";
import {
    type WebListResult,
    type WebReadResult,
    type WebStatResult,
    webListRequest,
    webReadRequest,
    webStatRequest,
} from "../../shared/webProtocol";

const repo = path.resolve(__dirname, "../../..");

/**
 * Bundles `entry` (its text, given a quoter of server/src module paths) with scripts/web-build.mjs's web
 * options, and loads it. A build that fails fails the test with esbuild's messages.
 */
export function loadWebEntry<T>(name: string, entry: (server: (module: string) => string) => string): T {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), `sc-${name}-`));
    const entryFile = path.join(dir, "entry.ts");
    const out = path.join(dir, "out.js");
    fs.writeFileSync(
        entryFile,
        entry((module) => JSON.stringify(path.join(repo, "server", "src", module))),
    );
    const webBuild = JSON.stringify(path.join(repo, "scripts", "web-build.mjs"));
    const built = spawnSync(
        process.execPath,
        [
            "--input-type=module",
            "-e",
            `import * as web from ${webBuild};
            import { build } from "esbuild";
            await build({ ...web.webOptions(), logLevel: "silent", sourcemap: false, entryPoints: [${JSON.stringify(entryFile)}],
                outfile: ${JSON.stringify(out)}, define: { SOURCECHECK_VERSION: '"test"' },
                nodePaths: [${JSON.stringify(path.join(repo, "node_modules"))}] })
                .catch((e) => { console.log(e.errors.map((x) => x.text).join("\\n")); process.exit(1); });`,
        ],
        { cwd: repo, encoding: "utf8" },
    );
    assert.equal(built.status, 0, built.stdout + built.stderr);
    return require(out) as T;
}
export const WEB_ANSWER = JSON.stringify({
    annotations: [
        {
            claim: { path: "answer.md", start: { line: 1, str: "Cold" }, end: { line: 1, str: "faster." } },
            sources: [
                {
                    path: "sources/benchmark.txt",
                    start: { line: 4, str: "delta" },
                    end: { line: 4, str: "-37%" },
                    polarity: "supports",
                    confidence: 0.9,
                },
            ],
        },
    ],
});

export const WEB_BENCHMARK = "Cold start, median of 50 runs\n2.3.0: 820ms\n2.4.0: 517ms\ndelta: -37%\n";

/** The client's end, by method name: a bundle has its own copy of vscode-jsonrpc, types and all. */
export interface WebTestClient {
    onRequest(method: string, handler: (params: { uri: string; items: unknown[] }) => unknown): void;
    onNotification(handler: (method: string) => void): void;
    sendRequest<R>(method: string, params: unknown, token?: unknown): Promise<R>;
    sendNotification(method: string, params: unknown): void;
    listen(): void;
}

/** A bundled web server and the client's connection, both on ports of one MessageChannel. */
export interface WebServerBundle {
    /** browserServer.ts's start, on a port instead of the worker's own scope. */
    startWebServer(port: MessagePort): void;
    clientConnection(port: MessagePort): WebTestClient;
}

/**
 * Bundles the web worker's language server as browserServer.ts starts it (browserHost), but on a port
 * of the test's, with the client's connection beside it; `extra` adds lines to the entry (more exports).
 */
export function loadWebServer<T extends WebServerBundle = WebServerBundle>(
    name: string,
    extra: (server: (module: string) => string) => string = () => "",
): T {
    return loadWebEntry<T>(
        name,
        (server) =>
            `import { BrowserMessageReader, BrowserMessageWriter, createConnection } from "vscode-languageserver/browser";
        import { createProtocolConnection } from "vscode-languageserver-protocol/browser";
        import { browserHost } from ${server("browserHost")};
        import { startLanguageServer } from ${server("languageServer")};
        export function startWebServer(port) {
            const connection = createConnection(new BrowserMessageReader(port), new BrowserMessageWriter(port));
            startLanguageServer(connection, browserHost(connection));
        }
        export function clientConnection(port) {
            return createProtocolConnection(new BrowserMessageReader(port), new BrowserMessageWriter(port));
        }
        ${extra(server)}`,
    );
}

type Answer = <T>(method: "read" | "stat" | "list", uri: string, value: () => T) => unknown;

/**
 * Answers the worker's reads, stats and listings from `files` (URI → text; a folder is any prefix of
 * a file's URI). `answer` decides when and how each is answered: at once, recorded, or held.
 */
export function serveFromMemory(client: WebTestClient, files: Map<string, string>, answer: Answer): void {
    const isFolder = (uri: string) => [...files.keys()].some((file) => file.startsWith(`${uri}/`));
    client.onRequest(webReadRequest.method, ({ uri }) =>
        answer("read", uri, (): WebReadResult => {
            const text = files.get(uri);
            return text === undefined ? { kind: "missing" } : { kind: "text", text };
        }),
    );
    client.onRequest(webStatRequest.method, ({ uri }) =>
        answer("stat", uri, (): WebStatResult => {
            const text = files.get(uri);
            if (text !== undefined) return { stat: { kind: "file", size: text.length, mtime: 1 } };
            return isFolder(uri) ? { stat: { kind: "directory", size: 0, mtime: 1 } } : {};
        }),
    );
    client.onRequest(webListRequest.method, ({ uri }) =>
        answer("list", uri, (): WebListResult => {
            const names = new Map<string, "file" | "directory">();
            for (const file of files.keys()) {
                if (!file.startsWith(`${uri}/`)) continue;
                const [name, ...below] = file.slice(uri.length + 1).split("/");
                names.set(name, below.length > 0 ? "directory" : "file");
            }
            return { entries: [...names].map(([name, kind]) => ({ name, kind })) };
        }),
    );
}

/**
 * Starts `bundle`'s server on one port of a new channel and an initialized client on the other, with the
 * workspace folder `root` served by `serve` (called before the client listens). Close `ports` after.
 */
export async function startWebClient<W>(
    bundle: WebServerBundle,
    root: string,
    serve: (client: WebTestClient) => W,
): Promise<{ client: WebTestClient; workspace: W; ports: MessagePort[] }> {
    const { port1, port2 } = new MessageChannel();
    bundle.startWebServer(port1);
    const client = bundle.clientConnection(port2);
    client.onRequest("workspace/configuration", (params) => params.items.map(() => null));
    client.onRequest("client/registerCapability", () => null);
    client.onNotification(() => undefined);
    const workspace = serve(client);
    client.listen();
    await client.sendRequest("initialize", {
        processId: null,
        rootUri: root,
        workspaceFolders: [{ uri: root, name: "demo" }],
        capabilities: { workspace: { didChangeWatchedFiles: { dynamicRegistration: true } } },
    });
    client.sendNotification("initialized", {});
    return { client, workspace, ports: [port1, port2] };
}
