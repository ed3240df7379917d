/**
 * Entry point of the language server as a web worker (VS Code for the Web: docs/web.md). The same
 * server as server.ts, reading the workspace through the client (workspace/clientFiles.ts): its reads,
 * stats and listings are sent over the connection (shared/webProtocol.ts). The web build swaps the
 * Node modules under it for workspace/web/ and fails on any Node built-in.
 */
import { BrowserMessageReader, BrowserMessageWriter, createConnection } from "vscode-languageserver/browser";
import { startLanguageServer } from "./languageServer";
import { ClientFiles, connectionAsker, installClientFiles } from "./workspace/clientFiles";
import { useUriSpace } from "./workspace/web/uris";

declare const self: ConstructorParameters<typeof BrowserMessageReader>[0];

const connection = createConnection(new BrowserMessageReader(self), new BrowserMessageWriter(self));

const files = new ClientFiles(connectionAsker(connection));
installClientFiles(files);
startLanguageServer(connection, {
    reads: files,
    folders: (uris) => {
        if (uris.length > 0) useUriSpace(uris[0]);
    },
});
