/**
 * Watched files: creations and deletions keep the workspace's list of files current (path completion,
 * what an annotation file cites); a changed annotation file on disk is checked again unless its buffer
 * is open; a changed sourcecheck.config.json may move document roots, so everything is indexed again.
 */
import { DidChangeWatchedFilesNotification, FileChangeType, type FileEvent } from "vscode-languageserver";
import { annotationPathOfLock } from "../workspace/lockFiles";
import { CONFIG_FILE_NAME } from "../workspace/projectConfig";
import { pathToUri, uriToPath } from "../workspace/uris";
import type { ServerContext } from "./context";
import type { DiagnosticsChannel } from "./diagnostics";
import type { OpenBuffers } from "./documents";
import type { Indexer } from "./indexing";

/** One change on disk; true when it was a configuration file. */
function fileChanged(
    context: ServerContext,
    diagnostics: DiagnosticsChannel,
    change: FileEvent,
    buffers: OpenBuffers | undefined,
): boolean {
    const { service, documents } = context;
    const { workspace, analysis } = service;
    const path = uriToPath(change.uri);
    if (path === undefined) return false;
    if (change.type === FileChangeType.Deleted) {
        workspace.noteFileDeleted(path);
        // A deleted folder comes as one event: every cited document below it changed too.
        for (const below of workspace.citedUnder(path)) analysis.citedChanged(pathToUri(below));
    } else {
        workspace.noteFileCreated(path);
    }
    const isConfig = path.split(/[\\/]/).pop() === CONFIG_FILE_NAME;
    // A lock written or deleted (by `sourcecheck lock`, git, the editor): its file's drift changes.
    const locked = annotationPathOfLock(path);
    if (locked !== undefined && workspace.get(pathToUri(locked))) analysis.fileChanged(pathToUri(locked));
    if (documents.get(change.uri) !== undefined) {
        // The buffer wins over the disk, except over a deletion of a cited document it did not edit since.
        if (workspace.isAnnotationFile(change.uri)) return isConfig;
        if (change.type === FileChangeType.Deleted) buffers?.fileDeleted(change.uri);
        else if (change.type === FileChangeType.Created) buffers?.kept(change.uri);
        else return isConfig;
        analysis.citedChanged(change.uri);
        return isConfig;
    }
    if (workspace.isAnnotationFile(change.uri) && !workspace.isSkipped(path)) {
        if (change.type === FileChangeType.Deleted) {
            workspace.remove(change.uri);
            diagnostics.forget(change.uri);
        } else {
            analysis.fileChanged(change.uri);
        }
    }
    analysis.citedChanged(change.uri);
    return isConfig;
}

export function registerWatchedFiles(
    context: ServerContext,
    diagnostics: DiagnosticsChannel,
    indexer: Indexer,
    buffers?: OpenBuffers,
): void {
    const { connection, service, safe } = context;
    connection.onDidChangeWatchedFiles(
        safe("watched files", undefined, ({ changes }) => {
            let configChanged = false;
            for (const change of changes) if (fileChanged(context, diagnostics, change, buffers)) configChanged = true;
            // Document roots may have moved: check everything again against the new configuration.
            if (configChanged) {
                service.workspace.configs.clear();
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
