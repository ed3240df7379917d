/**
 * Watched files: creations and deletions keep the workspace's list of files current (path completion,
 * what an annotation file cites); a changed annotation file on disk is checked again unless its buffer
 * is open; a changed sourcecheck.config.json may move document roots, so everything is indexed again.
 */
import { DidChangeWatchedFilesNotification } from "vscode-languageserver";
import type { ServerContext } from "./context";
import type { DiagnosticsChannel } from "./diagnostics";
import type { Indexer } from "./indexing";

export function registerWatchedFiles(context: ServerContext, diagnostics: DiagnosticsChannel, indexer: Indexer): void {
    const { connection, service, safe } = context;
    connection.onDidChangeWatchedFiles(
        safe("watched files", undefined, ({ changes }) => {
            let configChanged = false;
            for (const change of changes) {
                const { config, forget } = service.fileChangedOnDisk(change);
                if (forget) diagnostics.forget(change.uri);
                if (config) configChanged = true;
            }
            // Document roots may have moved: check everything again against the new configuration.
            if (configChanged) {
                service.configurationFilesChanged();
                void indexer.reindex();
            }
        }),
    );
}

/** Once initialized: ask the client to watch every file, when it lets servers register watchers. */
export function watchFiles({ connection, client }: ServerContext): void {
    if (client.capabilities.workspace?.didChangeWatchedFiles?.dynamicRegistration) {
        void connection.client.register(DidChangeWatchedFilesNotification.type, {
            watchers: [{ globPattern: "**/*" }],
        });
    }
}
