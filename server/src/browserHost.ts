/**
 * What the web worker gives the language server (docs/web.md): the workspace read through the client
 * (workspace/clientFiles.ts), URIs of the workspace's own scheme (workspace/uris.ts), and Find Sources
 * over those files (features/browserEvidence.ts), whose index follows the changes the client forwards.
 * browserServer.ts starts the server with it; the tests start it on a port of their own.
 */
import { BrowserEvidence } from "./features/browserEvidence";
import type { ServerHost } from "./languageServer";
import { ClientFiles, connectionAsker, type RequestSender } from "./workspace/clientFiles";
import { type UriSpace, virtualUriSpace } from "./workspace/uris";
import { clientLocks } from "./workspace/web/clientLocks";
import { clientReads } from "./workspace/web/clientReads";
import { asyncDiscoveryFsOver, discoveryFsOver } from "./workspace/web/clientWalk";

export function browserHost(connection: RequestSender): ServerHost {
    // `file:` until the workspace folders are known (initialize), then the first folder's scheme and authority.
    let space: UriSpace = virtualUriSpace("file:///");
    const files = new ClientFiles(connectionAsker(connection, () => space));
    const evidence = new BrowserEvidence(files);
    files.onChanged((path) => evidence.changed(path));
    return {
        reads: files,
        // A virtual file system has no links the server can see: every path is its own real path.
        realPath: (path) => path,
        walk: { sync: discoveryFsOver(files), async: asyncDiscoveryFsOver(() => files) },
        locks: clientLocks(files),
        readers: clientReads(files),
        evidence,
        uris: (folderUris) => {
            if (folderUris.length > 0) space = virtualUriSpace(folderUris[0]);
            return space;
        },
    };
}
