/**
 * What happens to the workspace, told to the language service: documents opened, edited and closed,
 * files changed on disk, folders and settings changed, and the scan-and-check of every annotation
 * file (lsp/indexing.ts paces it; the service does each step).
 */
import {
    type ConfigurationItem,
    FileChangeType,
    type InitializeParams,
    type PublishDiagnosticsParams,
    type TextDocumentContentChangeEvent,
} from "vscode-languageserver-protocol";
import type { TextDocument } from "vscode-languageserver-textdocument";
import { publishConfigProblems } from "../features/configDiagnostics";
import type { AnnotationFile } from "../workspace/annotationFile";
import { EditedDocument } from "../workspace/editedDocument";
import { annotationPathOfLock } from "../workspace/lockPaths";
import { CONFIG_FILE_NAME } from "../workspace/projectConfig";
import { readSettings } from "../workspace/settings";
import { enabledGlobs } from "../workspace/workspaceScan";
import type { ServiceCore } from "./core";
import { translateFor } from "./language";

/** What an open, change or close of a document was, for the diagnostics' bookkeeping. */
export type DocumentRole = "annotation" | "cited";

/** What the configuration the service depends on is, to tell which change needs what. */
export interface ConfigurationKey {
    /** What the scan finds (recognition, exclusions). */
    scan: string;
    /** Where documents are read from and how much of them. */
    resolution: string;
    inlayHints: boolean;
}

export function documentEvents(core: ServiceCore) {
    const { workspace, analysis, quotes, follower, buffers } = core;
    /** A document opened or changed: re-check it as an annotation file, or what cites it. */
    const changed = (document: TextDocument): DocumentRole => {
        if (workspace.isAnnotationFile(document.uri, document.languageId)) {
            analysis.fileChanged(document.uri);
            return "annotation";
        }
        analysis.citedChanged(document.uri);
        return "cited";
    };
    return {
        /** An opened document (TextDocuments' `create`): its text in pieces, so that an edit costs what changed. */
        createDocument: (uri: string, languageId: string, version: number, text: string): TextDocument =>
            EditedDocument.create(uri, languageId, version, text),
        /** Applies an edit to an open document, recording edits of cited documents (features/followEdits.ts). */
        applyChanges: (document: TextDocument, changes: TextDocumentContentChangeEvent[], version: number) =>
            follower.update(document, changes, version),
        isAnnotationFile: (uri: string, languageId?: string): boolean => workspace.isAnnotationFile(uri, languageId),
        /** An open trace, notes file or Markdown report (docs/quotes.md). */
        isQuoteFile: (uri: string): boolean => quotes.handles(uri),
        /** A quote file's language was just switched (a configured glob): pulled under its old one. */
        quoteLanguageSwitched: (document: TextDocument): boolean => quotes.switchedLanguage(document),
        documentOpened(document: TextDocument): DocumentRole {
            buffers.opened(document.uri);
            return changed(document);
        },
        documentEdited(document: TextDocument): DocumentRole {
            buffers.kept(document.uri);
            return changed(document);
        },
        /**
         * A document closed: its unsaved edits are gone. An annotation file on disk under a folder is
         * checked again as saved; one that is not (untitled, outside every folder) is forgotten: "forgotten".
         */
        documentClosed(document: TextDocument): DocumentRole | "forgotten" {
            buffers.closed(document.uri);
            follower.closed(document.uri);
            quotes.closed(document.uri);
            if (!workspace.isAnnotationFile(document.uri, document.languageId)) {
                analysis.citedChanged(document.uri);
                return "cited";
            }
            const path = workspace.uris.uriToPath(document.uri);
            if (path !== undefined && workspace.folderOf(path) !== undefined) {
                analysis.fileChanged(document.uri);
                return "annotation";
            }
            workspace.remove(document.uri);
            return "forgotten";
        },
        /**
         * One change on disk (a watched file). `config`: it was a sourcecheck.config.json; `forget`: an
         * annotation file was deleted, its diagnostics go.
         */
        fileChangedOnDisk: (change: { uri: string; type: FileChangeType }) => fileChangedOnDisk(core, change),
    };
}

function fileChangedOnDisk(
    { workspace, analysis, buffers, documents }: ServiceCore,
    change: { uri: string; type: FileChangeType },
): { config: boolean; forget: boolean } {
    const { uriToPath, pathToUri } = workspace.uris;
    const path = uriToPath(change.uri);
    if (path === undefined) return { config: false, forget: false };
    if (change.type === FileChangeType.Deleted) {
        workspace.noteFileDeleted(path);
        // A deleted folder comes as one event: every cited document below it changed too.
        for (const below of workspace.citedUnder(path)) analysis.citedChanged(pathToUri(below));
    } else {
        workspace.noteFileCreated(path);
    }
    const config = path.split(/[\\/]/).pop() === CONFIG_FILE_NAME;
    // A lock written or deleted (by `sourcecheck lock`, git, the editor): its file's drift changes.
    const locked = annotationPathOfLock(path);
    if (locked !== undefined && workspace.get(pathToUri(locked))) analysis.fileChanged(pathToUri(locked));
    if (documents.get(change.uri) !== undefined) {
        // The buffer wins over the disk, except over a deletion of a cited document it did not edit since.
        if (workspace.isAnnotationFile(change.uri)) return { config, forget: false };
        if (change.type === FileChangeType.Deleted) buffers.fileDeleted(change.uri);
        else if (change.type === FileChangeType.Created) buffers.kept(change.uri);
        else return { config, forget: false };
        analysis.citedChanged(change.uri);
        return { config, forget: false };
    }
    let forget = false;
    if (workspace.isAnnotationFile(change.uri) && !workspace.isSkipped(path)) {
        if (change.type === FileChangeType.Deleted) {
            workspace.remove(change.uri);
            forget = true;
        } else {
            analysis.fileChanged(change.uri);
        }
    }
    analysis.citedChanged(change.uri);
    return { config, forget };
}

export function workspaceEvents(core: ServiceCore) {
    const { workspace, analysis, follower, documents } = core;
    const folderPaths = (uris: readonly string[]) =>
        uris.map((uri) => workspace.uris.uriToPath(uri)).filter((path): path is string => path !== undefined);
    return {
        /** The workspace folders, the settings and the display language the client started with (`initialize`). */
        initialize(
            params: Partial<
                Pick<InitializeParams, "workspaceFolders" | "rootUri" | "rootPath" | "initializationOptions" | "locale">
            >,
        ) {
            core.translate = translateFor(params.locale, params.initializationOptions);
            const folderUris = params.workspaceFolders?.map((f) => f.uri) ?? (params.rootUri ? [params.rootUri] : []);
            // The folders' URIs say how URIs name paths (the browser's scheme), before any is read.
            workspace.uris = core.uriSpaceFor(folderUris);
            const folders = params.workspaceFolders?.map((f) => workspace.uris.uriToPath(f.uri)) ?? [
                params.rootUri ? workspace.uris.uriToPath(params.rootUri) : (params.rootPath ?? undefined),
            ];
            workspace.folders = folders.filter((f): f is string => typeof f === "string");
            workspace.configure(readSettings(params.initializationOptions));
        },
        /** Folders added or removed (URIs); the caller indexes again. */
        changeFolders(added: readonly string[], removed: readonly string[]): void {
            const gone = new Set(folderPaths(removed));
            workspace.folders = [...workspace.folders.filter((f) => !gone.has(f)), ...folderPaths(added)];
        },
        /**
         * The settings to ask the client for (`sourcecheck`, then each folder's exclusions), and how to
         * apply its answer, in the same order, to the folders asked about.
         */
        configurationRequest(): { items: ConfigurationItem[]; apply(values: unknown[]): void } {
            const folders = workspace.folders;
            const items: ConfigurationItem[] = [
                { section: "sourcecheck" },
                ...folders.flatMap((folder) => [
                    { section: "files.exclude", scopeUri: workspace.uris.pathToUri(folder) },
                    { section: "search.exclude", scopeUri: workspace.uris.pathToUri(folder) },
                ]),
            ];
            const apply = ([section, ...excludes]: unknown[]) => {
                const settings = section !== null && section !== undefined ? readSettings(section) : undefined;
                if (settings && JSON.stringify(settings) !== JSON.stringify(workspace.settings))
                    workspace.configure(settings);
                const globs = (i: number) => [...enabledGlobs(excludes[2 * i]), ...enabledGlobs(excludes[2 * i + 1])];
                workspace.configureExcludes(new Map(folders.map((folder, i) => [folder, globs(i)])));
            };
            return { items, apply };
        },
        /** A `sourcecheck` section pushed by a client that cannot be asked. */
        configure: (section: unknown): void => workspace.configure(readSettings(section)),
        /** Settings were applied: refs waiting to follow edits follow the new ones. */
        configured: (): void => follower.configured(),
        configurationKey: (): ConfigurationKey => ({
            scan: workspace.scanKey(),
            // The levels of codes too: every file's diagnostics are published again at the new levels.
            resolution: JSON.stringify([
                workspace.settings.documentRoot,
                workspace.settings.maxDocumentSize,
                workspace.settings.severity,
            ]),
            inlayHints: workspace.settings.inlayHintsEnabled,
        }),
        /** A sourcecheck.config.json changed: document roots may have moved, configurations are read again. */
        configurationFilesChanged: (): void => workspace.configs.clear(),
        /** Find every annotation file (absolute paths). */
        scan: (): Promise<string[]> => workspace.scan(),
        /** A scan under way: path completion waits for it. */
        expectScan: (scan: Promise<unknown>): void => workspace.expectScan(scan),
        settleReads: (): Promise<void> => workspace.reads.settle(),
        /** Check one annotation file the scan found (its open buffer, else the disk); the documents it cites. */
        checkFound(path: string): { file?: AnnotationFile; cited: string[] } {
            const uri = workspace.uris.pathToUri(path);
            const file = documents.get(uri) !== undefined ? analysis.current(uri) : workspace.analyzeFromDisk(uri);
            return file ? { file, cited: analysis.citedUris(file) } : { cited: [] };
        },
        /**
         * Before indexing again (roots or recognition changed): forget closed annotation files, check the
         * open ones again, forget open documents no longer recognised. The annotation files known before.
         */
        beforeReindex(open: readonly TextDocument[]): string[] {
            const before = workspace.all().map((f) => f.uri);
            for (const uri of before) if (documents.get(uri) === undefined) workspace.remove(uri);
            for (const document of open) {
                if (workspace.isAnnotationFile(document.uri, document.languageId)) analysis.fileChanged(document.uri);
                else if (workspace.get(document.uri)) workspace.remove(document.uri);
            }
            return before;
        },
        /** Still a known annotation file. */
        isKnown: (uri: string): boolean => workspace.get(uri) !== undefined,
        /** Publish the problems of the configuration files read so far; clear those fixed since `shown`. */
        publishConfigProblems: (send: (params: PublishDiagnosticsParams) => void, shown: Set<string>): void =>
            publishConfigProblems(send, workspace, shown),
    };
}
