/**
 * The workspace model: which files are annotation files, the document root of each, the checked
 * state of every annotation file (open or found on disk), and the index "cited document -> the
 * annotation files and refs citing it" that lets a change in one document re-check only its refs.
 */

import * as nodePath from "node:path";
import { CheckMemo } from "../core/checkMemo";
import { type DocumentFailure, type DocumentLookup, isDocumentFailure, type SessionDocument } from "../core/session";
import { mergeSeverity, type SeverityPolicy } from "../core/severity";
import type { Text } from "../core/textChunks";
import type { Citation } from "./annotationFile";
import { AnnotationFile } from "./annotationFile";
import { CitationGraph } from "./citationGraph";
import { AnnotationRecognizer, type AsyncDiscoveryFileSystem, Discovery, type DiscoveryFileSystem } from "./discovery";
import { type BufferStore, DocumentSource } from "./documentSource";
import type { HostReads } from "./hostReads";
import { KnownFiles } from "./knownFiles";
import type { HostLocks, LockRead } from "./lockPaths";
import { isInside } from "./pathSafety";
import { PathTree } from "./pathTree";
import { configFileSystemOver, ProjectConfigs, resolveDocumentRoot } from "./projectConfig";
import { DEFAULT_SETTINGS, type Settings } from "./settings";
import { FILE_URIS, type UriSpace } from "./uris";
import { type PendingReads, SYNCHRONOUS_READS } from "./workspaceFiles";
import { folderExcludeMatcher } from "./workspaceScan";

export type { Citation } from "./annotationFile";

/** The language id of annotation files (docs/contract.md section 4). */
export const ANNOTATION_LANGUAGE_ID = "sourcecheck";

const NO_ROOT: DocumentLookup = {
    get: (): DocumentFailure => ({
        code: "unreadable-document",
        message: "this annotation file has no document root: save it inside a workspace folder, or embed the documents",
    }),
};

/** The files a folder's ignore rules come from: `.gitignore`, `.git` and what is under it. */
const GIT_RULES = /[\\/]\.git(ignore)?([\\/]|$)/;

/** At most this many files are remembered for path completion. */
const SCAN_LIMIT = 200_000;

/** What the workspace index is given of its host's files (WorkspaceIndex's constructor). */
export interface WorkspaceHost {
    realPath(path: string): string | undefined;
    /** The discovery walk's calls (workspace/nodeDiscovery.ts on Node; over the client in the browser). */
    walk: WalkFileSystems;
    /** How locks are read and written (lockFiles.ts's NODE_LOCKS; web/clientLocks.ts in the browser). */
    locks: HostLocks;
    /** How files and documents are read (the safe readers on Node: nodeHost.ts; web/clientReads.ts). */
    readers: HostReads;
    reads?: PendingReads;
}

/** The discovery walk's calls, synchronous and asynchronous. */
export interface WalkFileSystems {
    sync: DiscoveryFileSystem;
    async: AsyncDiscoveryFileSystem;
}

export class WorkspaceIndex {
    readonly reads: PendingReads;
    private readonly walk: WalkFileSystems;
    folders: string[] = [];
    settings: Settings = { ...DEFAULT_SETTINGS };
    /** sourcecheck.config.json files found above annotation files; cleared when one changes. */
    readonly configs: ProjectConfigs;
    readonly source: DocumentSource;
    private recognizer: AnnotationRecognizer;
    private readonly files = new Map<string, AnnotationFile>();
    /** Each annotation file's last resolutions: a re-check resolves only what an edit touched. */
    private readonly memos = new Map<string, CheckMemo>();
    /** Locks beside annotation files, parsed again only when they change on disk. */
    private readonly lockReader: { readBeside(annotationPath: string): LockRead };
    /** How locks are read and written: the host's (Lock Refs writes through it: features/lockRefs.ts). */
    readonly locks: HostLocks;
    /** How files and documents are read: the host's. */
    readonly readers: HostReads;
    /** Cited document -> the annotation files and refs citing it. */
    private readonly citations = new CitationGraph();
    /** Every file found by the last scan, for path completion without touching the disk; the scans under way. */
    private readonly knownFiles = new KnownFiles();
    /** Exclusion globs of each workspace folder (`files.exclude`, `search.exclude`). */
    private folderExcludes = new Map<string, string[]>();
    /** The discovery of each folder (workspace/discovery.ts), with the `.gitignore` files it read. */
    private discoveries = new Map<string, Discovery>();
    /** Annotation files checked while some read was pending (docs/web.md): checked again once it arrived. */
    private readonly halfRead = new Set<string>();
    /**
     * How URIs name paths: the host's (FILE_URIS on Node; the workspace folder's scheme in the browser),
     * set from the workspace folders when the service starts (docs/web.md).
     */
    uris: UriSpace = FILE_URIS;
    /** Where a warning of the scan goes (an ignore file passed over: ignoreFile.ts); the service logs it. */
    warn: (message: string) => void = () => {};

    /**
     * @param host what the host's files give: `realPath`, where a path leads once links are followed
     *   (Node: workspace/fileStat.ts; the browser: the path itself), the discovery `walk`, and `reads` that may still be on
     *   their way (the browser's files come from the client: docs/web.md), which whoever checks waits
     *   for, checking again (features/analysis.ts).
     */
    constructor(buffers: BufferStore, host: WorkspaceHost) {
        this.reads = host.reads ?? SYNCHRONOUS_READS;
        this.walk = host.walk;
        this.locks = host.locks;
        this.readers = host.readers;
        this.configs = new ProjectConfigs(
            configFileSystemOver((path, options) => host.readers.readText(path, options)),
        );
        this.recognizer = new AnnotationRecognizer([], this.configs);
        this.lockReader = host.locks.reader();
        const reads = this.reads;
        this.source = new DocumentSource(
            buffers,
            DEFAULT_SETTINGS.maxDocumentSize,
            (path) => host.realPath(path),
            (root, path, options) => host.readers.readDocument(root, path, options),
        );
        // A configuration's maxDocumentSize governs the documents under its root.
        this.source.maxBytesFor = (root) => this.configs.forFolder(root)?.config.maxDocumentSize;
        // Whoever waited for it, an answer drops what was decided while it was pending.
        reads.onArrived((path) => this.arrived(path));
    }

    /** The `files.exclude` and `search.exclude` globs of each folder (switched-on keys only). */
    configureExcludes(byFolder: Map<string, string[]>): void {
        this.folderExcludes = byFolder;
        this.discoveries.clear();
    }

    /** The globs the scan skips in a folder, with the settings they come from, to tell when a rescan is due. */
    scanKey(): string {
        return JSON.stringify([
            this.settings.annotationFiles,
            this.settings.exclude,
            [...this.folderExcludes],
            this.folders,
        ]);
    }

    /** The one discovery (workspace/discovery.ts) below a workspace folder, as `sourcecheck check FOLDER` would search it. */
    private discoveryFor(folder: string): Discovery {
        let discovery = this.discoveries.get(folder);
        if (!discovery) {
            const excluded = folderExcludeMatcher([
                ...(this.folderExcludes.get(folder) ?? []),
                ...this.settings.exclude,
            ]);
            discovery = new Discovery(
                {
                    base: folder,
                    exclude: (relative) => excluded(relative),
                    configs: this.configs,
                    annotationGlobs: this.settings.annotationFiles,
                    onWarning: (message) => this.warn(message),
                },
                this.walk.sync,
                this.walk.async,
            );
            this.discoveries.set(folder, discovery);
        }
        return discovery;
    }

    configure(settings: Settings): void {
        this.discoveries.clear();
        this.settings = settings;
        this.recognizer = new AnnotationRecognizer(settings.annotationFiles, this.configs);
        this.source.maxBytes = settings.maxDocumentSize;
        this.configs.clear();
        this.source.invalidateAll();
    }

    isAnnotationFile(uri: string, languageId?: string): boolean {
        if (languageId === ANNOTATION_LANGUAGE_ID) return true;
        const path = this.uris.uriToPath(uri);
        if (path === undefined) return false;
        const folder = this.folderOf(path);
        return this.recognizer.matches(path, folder ? nodePath.relative(folder, path) : undefined);
    }

    folderOf(absolutePath: string): string | undefined {
        let best: string | undefined;
        for (const folder of this.folders) {
            if (isInside(folder, absolutePath) && (!best || folder.length > best.length)) best = folder;
        }
        return best;
    }

    /**
     * The document root of an annotation file (docs/config.md): `sourcecheck.documentRoot` when set,
     * else the folder of the nearest sourcecheck.config.json, else its workspace folder (or directory).
     */
    rootFor(uri: string): string | undefined {
        const path = this.uris.uriToPath(uri);
        const folder = path !== undefined ? this.folderOf(path) : this.folders[0];
        const base = folder ?? (path !== undefined ? nodePath.dirname(path) : undefined);
        if (base === undefined) return undefined;
        const explicitRoot = this.settings.documentRoot
            ? nodePath.resolve(base, this.settings.documentRoot)
            : undefined;
        if (path === undefined) return explicitRoot ?? base;
        return resolveDocumentRoot(path, { explicitRoot, fallback: base, configs: this.configs }).root;
    }

    get(uri: string): AnnotationFile | undefined {
        return this.files.get(uri);
    }

    /** The level of each code for a file: the setting over its configuration's (docs/codes.md). */
    severityOf(file: AnnotationFile): SeverityPolicy | undefined {
        const path = this.uris.uriToPath(file.uri);
        const configured = path !== undefined ? this.configs.forFile(path)?.config.severity : undefined;
        return mergeSeverity(configured, this.settings.severity);
    }

    all(): AnnotationFile[] {
        return [...this.files.values()];
    }

    /** Check a version of an annotation file and make it the current one. */
    analyze(uri: string, version: number, text: Text, keepValue = true): AnnotationFile {
        const root = this.rootFor(uri);
        const lookup = root !== undefined ? this.source.lookupFor(root) : NO_ROOT;
        const path = this.uris.uriToPath(uri);
        const lock = path !== undefined ? this.lockReader.readBeside(path) : undefined;
        // Only a file being edited keeps a memo (an open buffer); one checked from disk holds none.
        let memo = keepValue ? this.memos.get(uri) : undefined;
        if (keepValue && !memo) {
            memo = new CheckMemo();
            this.memos.set(uri, memo);
        } else if (!keepValue) this.memos.delete(uri);
        const file = new AnnotationFile(uri, version, text, root, lookup, keepValue, lock, memo);
        // A read still pending was taken as absent by this check (or by a cached one it reused).
        if (this.reads.hasPending()) this.halfRead.add(uri);
        else this.halfRead.delete(uri);
        this.files.set(uri, file);
        this.index(file);
        return file;
    }

    /** Read and check an annotation file from disk; undefined when it cannot be read as text. */
    analyzeFromDisk(uri: string, version = 0): AnnotationFile | undefined {
        const path = this.uris.uriToPath(uri);
        if (path === undefined) return undefined;
        // A FIFO named like an annotation file is refused at once (safeFile.ts), never read.
        const read = this.readers.readText(path);
        if (!read.ok) return undefined;
        const text = read.text;
        // Not open in an editor: no completion will read its JSON value, so it is not kept.
        return this.analyze(uri, version, text, false);
    }

    remove(uri: string): void {
        this.files.delete(uri);
        this.memos.delete(uri);
        this.citations.delete(uri);
        this.halfRead.delete(uri);
    }

    /** True when the file's current check was made while a read was pending (docs/web.md). */
    isHalfRead(uri: string): boolean {
        return this.halfRead.has(uri);
    }

    /** The annotation files checked while a read was pending, to check again once it arrived. */
    halfReadFiles(): string[] {
        return [...this.halfRead];
    }

    /** A read that was pending arrived: forget what was decided without it (documents, configurations). */
    private arrived(path: string): void {
        this.source.invalidate(path);
        this.configs.clear();
        // A folder judged while its ignore rules were pending (web/discoveryFs.ts) is judged again.
        if (GIT_RULES.test(path)) this.discoveries.clear();
    }

    /** The annotation files whose refs cite this absolute path. */
    dependentsOf(absolutePath: string): AnnotationFile[] {
        return this.citations
            .citing(absolutePath)
            .map((uri) => this.files.get(uri))
            .filter((f): f is AnnotationFile => f !== undefined);
    }

    /**
     * A cited document changed (buffer edit or disk): re-resolve only the refs into it. Returns the
     * annotation files whose results changed.
     */
    documentChanged(absolutePath: string): AnnotationFile[] {
        this.reads.changed(absolutePath);
        this.source.invalidate(absolutePath);
        const changed: AnnotationFile[] = [];
        for (const file of this.dependentsOf(absolutePath)) {
            if (file.refresh(this.citations.refPaths(file.uri, absolutePath))) changed.push(file);
        }
        return changed;
    }

    /** Every absolute path some annotation file cites (valid refs or not). */
    citedPaths(): string[] {
        return this.citations.citedPaths();
    }

    /** Cited absolute paths below a path (a folder was deleted or renamed): proportional to what is below. */
    citedUnder(absolutePath: string): string[] {
        return this.citations.citedUnder(absolutePath);
    }

    /** Every ref of every annotation file citing this absolute path (valid or not). */
    citationsOf(absolutePath: string): Citation[] {
        const citations: Citation[] = [];
        for (const file of this.dependentsOf(absolutePath)) {
            for (const refPath of this.citations.refPaths(file.uri, absolutePath)) {
                for (const site of file.sitesByPath.get(refPath) ?? []) citations.push({ file, site });
            }
        }
        return citations;
    }

    /** The absolute path a workspace-mode ref of this file names, when it is under the root. */
    absoluteOf(file: AnnotationFile, refPath: string): string | undefined {
        if (file.embedded || file.root === undefined) return undefined;
        const verdict = this.source.locate(file.root, refPath);
        return verdict.ok ? verdict.absolute : undefined;
    }

    uriOf(file: AnnotationFile, refPath: string): string | undefined {
        const absolute = this.absoluteOf(file, refPath);
        return absolute !== undefined ? this.uris.pathToUri(absolute) : undefined;
    }

    /**
     * A document as a workspace-mode ref would cite it: its path relative to the document root and
     * its content (buffer first), or why it cannot be cited.
     */
    citable(uri: string): { ok: true; path: string; document: SessionDocument } | { ok: false; message: string } {
        const path = this.uris.uriToPath(uri);
        const root = this.rootFor(uri);
        if (path === undefined || root === undefined)
            return { ok: false, message: "only files can be cited: save the document first" };
        if (!isInside(root, path)) return { ok: false, message: `the document is outside the document root ${root}` };
        const relative = nodePath.relative(root, path).split(nodePath.sep).join("/");
        const document = this.source.get(root, relative);
        return isDocumentFailure(document)
            ? { ok: false, message: document.message }
            : { ok: true, path: relative, document };
    }

    /** The text of any file as the resolver sees it (open buffer first, LF-normalised), even outside the root. */
    documentText(uri: string): string | undefined {
        const cited = this.citable(uri);
        if (cited.ok) return cited.document.content;
        const path = this.uris.uriToPath(uri);
        if (path === undefined) return undefined;
        const entry = this.source.get(nodePath.dirname(path), nodePath.basename(path));
        return isDocumentFailure(entry) ? undefined : entry.content;
    }

    /** Files under a root, relative to it, from the last scan (no disk access; partial while it runs). */
    filesUnder(root: string): string[] {
        return this.knownFiles.under(root);
    }

    /**
     * Excluded from the scan (node_modules, .git, the exclude settings, a sourcecheck.config.json's
     * exclude, .gitignore): never scanned, never listed.
     */
    isSkipped(absolutePath: string): boolean {
        const folder = this.folderOf(absolutePath);
        return folder !== undefined && this.discoveryFor(folder).isExcluded(absolutePath, false);
    }

    noteFileCreated(absolutePath: string): void {
        this.reads.changed(absolutePath);
        if (this.knownFiles.has(absolutePath) || this.knownFiles.size >= SCAN_LIMIT || this.isSkipped(absolutePath))
            return;
        this.knownFiles.add(absolutePath);
    }

    /** A file or a folder was deleted: costs time in proportion to what was below it. */
    noteFileDeleted(absolutePath: string): void {
        this.reads.changed(absolutePath);
        this.knownFiles.deleteUnder(absolutePath);
    }

    /**
     * Scan every folder asynchronously (see workspaceScan.ts) and return the annotation files found;
     * remembers every file for path completion.
     */
    scan(limit = SCAN_LIMIT): Promise<string[]> {
        const scanning = this.scanFolders(limit);
        this.knownFiles.track(scanning);
        return scanning;
    }

    /** A scan that is about to start (settings are read first): whenScanned waits for it. */
    expectScan(scan: Promise<unknown>): void {
        this.knownFiles.track(scan);
    }

    /** True while a scan is under way. */
    scanPending(): boolean {
        return this.knownFiles.scanPending();
    }

    /** Resolves once the scan under way (if any) is over: path completion waits for the whole list. */
    async whenScanned(): Promise<void> {
        await this.knownFiles.whenScanned();
    }

    private async scanFolders(limit: number): Promise<string[]> {
        const known = new PathTree();
        const annotationFiles: string[] = [];
        this.discoveries.clear();
        for (const folder of this.folders) {
            const { files } = await this.discoveryFor(folder).walk(folder, limit - known.size);
            for (const file of files) {
                known.add(file.path);
                if (this.recognizer.matches(file.path, file.fromBase)) annotationFiles.push(file.path);
            }
        }
        this.knownFiles.replace(known);
        return annotationFiles.sort();
    }

    private index(file: AnnotationFile): void {
        const byAbsolute = new Map<string, string[]>();
        for (const refPath of file.citedPaths()) {
            const absolute = this.absoluteOf(file, refPath);
            if (absolute === undefined) continue;
            const list = byAbsolute.get(absolute);
            if (list) list.push(refPath);
            else byAbsolute.set(absolute, [refPath]);
        }
        this.citations.set(file.uri, byAbsolute);
    }
}
