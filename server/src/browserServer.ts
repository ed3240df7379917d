/**
 * Entry point of the language server as a web worker (VS Code for the Web: docs/web.md). The same
 * server as server.ts, reading the workspace through the client (browserHost.ts): its reads, stats and
 * listings are sent over the connection (shared/webProtocol.ts), and Find Sources searches those files.
 * The web build swaps the Node modules under it for their twins and fails on any Node built-in.
 */
import { BrowserMessageReader, BrowserMessageWriter, createConnection } from "vscode-languageserver/browser";
import { browserHost } from "./browserHost";
import { startLanguageServer } from "./languageServer";

declare const self: ConstructorParameters<typeof BrowserMessageReader>[0];

const connection = createConnection(new BrowserMessageReader(self), new BrowserMessageWriter(self));

startLanguageServer(connection, browserHost(connection));
