/**
 * Entry point of the language server as a web worker (VS Code for the Web: docs/web.md). The same
 * server as server.ts, reading the workspace through the client (browserHost.ts): its reads, stats and
 * listings are sent over the connection (shared/webProtocol.ts), and Find Sources searches those files.
 * What the worker does differently is passed in by browserHost.ts; the web build fails on any Node built-in.
 */
import { BrowserMessageReader, BrowserMessageWriter, createConnection } from "vscode-languageserver/browser";
import { browserHost } from "./browserHost";
import { startLanguageServer } from "./languageServer";

declare const self: ConstructorParameters<typeof BrowserMessageReader>[0];

const connection = createConnection(new BrowserMessageReader(self), new BrowserMessageWriter(self));

startLanguageServer(connection, browserHost(connection));
