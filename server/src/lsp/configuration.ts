/**
 * Configuration: the `sourcecheck` settings and the exclusions the workspace scan honours
 * (`files.exclude`, `search.exclude`, per folder), read at start-up and whenever they change. The
 * workspace is scanned and checked again only when what changed needs it (what is an annotation file,
 * what is excluded, where documents are read from), never for other settings.
 */
import { DidChangeConfigurationNotification } from "vscode-languageserver";
import { readSettings } from "../workspace/settings";
import { pathToUri } from "../workspace/uris";
import { enabledGlobs } from "../workspace/workspaceScan";
import type { ServerContext } from "./context";
import type { Indexer } from "./indexing";

/** The settings the server reads: its own, and the exclusions the workspace scan honours. */
const CONFIGURATION_SECTIONS = ["sourcecheck", "files.exclude", "search.exclude"];

/** Ask the client for the settings (when it can be asked) and apply them. */
export async function loadConfiguration(context: ServerContext): Promise<void> {
    const { connection, client, service } = context;
    const { workspace } = service;
    if (!client.capabilities.workspace?.configuration) return;
    try {
        const folders = workspace.folders;
        const [section, ...excludes] = await connection.workspace.getConfiguration([
            { section: "sourcecheck" },
            ...folders.flatMap((folder) => [
                { section: "files.exclude", scopeUri: pathToUri(folder) },
                { section: "search.exclude", scopeUri: pathToUri(folder) },
            ]),
        ]);
        const settings = section !== null && section !== undefined ? readSettings(section) : undefined;
        if (settings && JSON.stringify(settings) !== JSON.stringify(workspace.settings)) workspace.configure(settings);
        const globs = (i: number) => [...enabledGlobs(excludes[2 * i]), ...enabledGlobs(excludes[2 * i + 1])];
        workspace.configureExcludes(new Map(folders.map((folder, i) => [folder, globs(i)])));
    } catch (error) {
        connection.console.error(`sourcecheck: reading settings failed: ${String(error)}`);
    }
}

/** Settings changed: re-read them; index again only when the scan or the resolution depends on what changed. */
async function reconfigure(context: ServerContext, indexer: Indexer, raw: unknown): Promise<void> {
    const { client, service } = context;
    const { workspace } = service;
    const section = (raw as { sourcecheck?: unknown } | null)?.sourcecheck;
    const resolutionKey = () => JSON.stringify([workspace.settings.documentRoot, workspace.settings.maxDocumentSize]);
    const before = {
        scan: workspace.scanKey(),
        resolution: resolutionKey(),
        inlay: workspace.settings.inlayHintsEnabled,
    };
    if (client.capabilities.workspace?.configuration) await loadConfiguration(context);
    else if (section !== undefined) workspace.configure(readSettings(section));
    service.follower.configured();
    if (workspace.scanKey() !== before.scan || resolutionKey() !== before.resolution) await indexer.reindex();
    else if (workspace.settings.inlayHintsEnabled !== before.inlay) client.refreshInlayHints();
}

export function registerConfiguration(context: ServerContext, indexer: Indexer): void {
    context.connection.onDidChangeConfiguration(
        context.safe("configuration", undefined, (params) => void reconfigure(context, indexer, params.settings)),
    );
}

/** Once initialized: ask to be told of changes to the sections read, when the client lets servers register. */
export function askForConfigurationChanges({ connection, client }: ServerContext): void {
    if (client.capabilities.workspace?.didChangeConfiguration?.dynamicRegistration) {
        void connection.client.register(DidChangeConfigurationNotification.type, { section: CONFIGURATION_SECTIONS });
    }
}
