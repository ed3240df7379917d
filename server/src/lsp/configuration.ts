/**
 * Configuration: the `sourcecheck` settings and the exclusions the workspace scan honours
 * (`files.exclude`, `search.exclude`, per folder), read at start-up and whenever they change. The
 * workspace is scanned and checked again only when what changed needs it (what is an annotation file,
 * what is excluded, where documents are read from), never for other settings.
 */
import { DidChangeConfigurationNotification } from "vscode-languageserver";
import type { ServerContext } from "./context";
import type { Indexer } from "./indexing";

/** The settings the server reads: its own, and the exclusions the workspace scan honours. */
const CONFIGURATION_SECTIONS = ["sourcecheck", "files.exclude", "search.exclude"];

/** Ask the client for the settings (when it can be asked) and apply them. */
export async function loadConfiguration(context: ServerContext): Promise<void> {
    const { connection, client, service } = context;
    if (!client.capabilities.workspace?.configuration) return;
    try {
        const request = service.configurationRequest();
        request.apply(await connection.workspace.getConfiguration(request.items));
    } catch (error) {
        connection.console.error(`sourcecheck: reading settings failed: ${String(error)}`);
    }
}

/** Settings changed: re-read them; index again only when the scan or the resolution depends on what changed. */
async function reconfigure(context: ServerContext, indexer: Indexer, raw: unknown): Promise<void> {
    const { client, service } = context;
    const section = (raw as { sourcecheck?: unknown } | null)?.sourcecheck;
    const before = service.configurationKey();
    if (client.capabilities.workspace?.configuration) await loadConfiguration(context);
    else if (section !== undefined) service.configure(section);
    service.configured();
    const after = service.configurationKey();
    if (after.scan !== before.scan || after.resolution !== before.resolution) await indexer.reindex();
    else if (after.inlayHints !== before.inlayHints) client.refreshInlayHints();
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
