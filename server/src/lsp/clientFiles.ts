/**
 * The questions of workspace/clientFiles.ts sent over the connection (shared/webProtocol.ts): the web
 * worker's language server reads, stats and lists the workspace through the client (docs/web.md).
 */
import type { Connection } from "vscode-languageserver";
import { webListRequest, webReadRequest, webStatRequest } from "../../../shared/webProtocol";
import type { FileAsker } from "../workspace/clientFiles";
import { pathToUri } from "../workspace/uris";

export function connectionAsker(connection: Connection): FileAsker {
    return {
        read: (path, maxBytes) => connection.sendRequest(webReadRequest, { uri: pathToUri(path), maxBytes }),
        stat: async (path) => {
            const { stat } = await connection.sendRequest(webStatRequest, { uri: pathToUri(path) });
            if (!stat) return undefined;
            return { kind: stat.kind === "symlink" ? "other" : stat.kind, size: stat.size, mtime: stat.mtime };
        },
        list: async (directory) =>
            (await connection.sendRequest(webListRequest, { uri: pathToUri(directory) })).entries,
    };
}
