/**
 * What the web worker gives the language server (docs/web.md): the workspace read through the client
 * (workspace/clientFiles.ts) and Find Sources over those files (features/browserEvidence.ts), whose
 * index follows the changes the client forwards. browserServer.ts starts the server with it; the tests
 * start it on a port of their own.
 */
import { BrowserEvidence } from "./features/browserEvidence";
import type { ServerHost } from "./languageServer";
import { ClientFiles, connectionAsker, installClientFiles, type RequestSender } from "./workspace/clientFiles";
import { useUriSpace } from "./workspace/web/uris";

export function browserHost(connection: RequestSender): ServerHost {
    const files = new ClientFiles(connectionAsker(connection));
    installClientFiles(files);
    const evidence = new BrowserEvidence(files);
    files.onChanged((path) => evidence.changed(path));
    return {
        reads: files,
        evidence,
        folders: (uris) => {
            if (uris.length > 0) useUriSpace(uris[0]);
        },
    };
}
