/**
 * Where the evidence index lives and how it follows the corpus (docs/evidence-internals.md, "Index files"):
 * one file per corpus path, outside the corpus (the user's cache directory unless told otherwise),
 * written atomically; a missing index is built, a stale one updated for the changed, added and
 * deleted files only, and an unreadable one or one of another version rebuilt with a warning.
 * Files are found without following symlinks and read only if they are still the file found.
 */
import * as fs from "node:fs";
import * as nodePath from "node:path";
import { DEFAULT_MAX_CHARS } from "../evidence/chunker";
import { EvidenceIndex, type IndexFile, IndexFormatError, type IndexSettings } from "../evidence/index";
import type { CurrentText } from "../evidence/select";
import { runSteps, type Steps } from "../evidence/steps";
import { boundedConfigs } from "./boundedConfigs";
import { type RawFile, readFiles } from "./corpusReader";
import { corpusPatterns, corpusWalk } from "./corpusRules";
import type { FoundFile } from "./discovery";
import { nodeStatWalkFs } from "./discoveryFs";
import { DEFAULT_MAX_DOCUMENT_BYTES, readDocumentUnderRoot } from "./diskDocuments";
import { NODE_WALK } from "./nodeDiscovery";
import { decodeText } from "./safeFile";
import { SafeWriteError, type WriteContent, writeFileSafely } from "./safeWrite";
import { sha256 } from "./sha256";

/** An evidence index larger than this is not read (it is rebuilt): a cache never needs to be huge. */
const MAX_INDEX_BYTES = 1024 * 1024 * 1024;

/**
 * An index whose postings take at most this is read whole on opening, every list checked (a few
 * milliseconds); a larger one's lists are read, and checked, when a query or an update needs them.
 */
export const READ_WHOLE_UP_TO = 16 * 1024 * 1024;

export {
    ALWAYS_EXCLUDED,
    ANNOTATION_FILE_GLOBS,
    corpusPatterns,
    DEFAULT_EXCLUDE,
    DEFAULT_INCLUDE,
} from "./corpusRules";

/**
 * Changes since the index file was written are re-done by every run (re-reading those files) until
 * they pass either bound; then the whole index is written again (docs/evidence-internals.md, "Index files").
 * An edit or two between queries costs a few file reads, not a rewrite of the index.
 */
export const DEFERRED_CHANGES = { files: 64, bytes: 4 * 1024 * 1024 };

export interface CorpusOptions {
    /** Globs relative to the corpus root, `/`-separated; dot folders and files are never matched. */
    include?: readonly string[];
    /** Replaces DEFAULT_EXCLUDE; ALWAYS_EXCLUDED applies in any case. */
    exclude?: readonly string[];
    /**
     * The folder (real path, at or above the corpus) whose sourcecheck.config.json files, and those
     * below it, say which files are annotation files and which are sources (`sources`); default the
     * corpus. No configuration above it is read.
     */
    configBoundary?: string;
    unsafePatterns?: readonly string[];
    maxChars?: number;
    maxBytes?: number;
    /** Bounds of the changes left unwritten (default DEFERRED_CHANGES; zero: write every change at once). */
    deferred?: { files: number; bytes: number };
    /** Files to read before a worker thread reads them (default corpusReader's WORKER_MIN_FILES). */
    minFilesForWorker?: number;
    /** Why the index file is not to be read (it failed a later read): it is rebuilt, with a warning. */
    rebuild?: string;
    /** Read all of the index file at once (many queries to come), not each query's postings when asked. */
    wholeIndex?: boolean;
    /** Postings of at most this many bytes are read whole on opening (default READ_WHOLE_UP_TO). */
    readWholeUpTo?: number;
    /** Files read between two steps of a stepwise sync (default: all in one step; evidence/steps.ts). */
    filesPerStep?: number;
    /**
     * The kept index is known to be current (a watcher saw every change and refreshChanged applied
     * them): it is used as it is, without the walk.
     */
    upToDate?: boolean;
}

export interface SyncReport {
    added: number;
    updated: number;
    unchanged: number;
    deleted: number;
    /** True when the index file was (re)written. */
    written: boolean;
    /** Bytes of the files read (new or changed since the index file was written). */
    readBytes: number;
}

/** What a search looked at, for a result to say (with no hit: how many files and which patterns). */
export interface CorpusScope {
    /** Files indexed as documents. */
    documents: number;
    /** Files the patterns matched that are not documents (binary, not UTF-8 text, too big, unreadable). */
    refused: number;
    include: string[];
    exclude: string[];
    /** Annotation files found under the corpus (corpus-relative), left out of the documents. */
    annotationFiles: string[];
    /** The configuration files whose `sources` setting chose the documents (relative to the config boundary). */
    sources?: string[];
}

export interface OpenedIndex {
    index: EvidenceIndex;
    indexFile: string;
    report: SyncReport;
    warnings: string[];
    scope: CorpusScope;
}

/** The per-user cache directory for evidence indexes. */
export function defaultIndexDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
    // node:os, node:v8 and node:vm are required where used: a query with --index-dir needs none (start-up).
    const home = (require("node:os") as typeof import("node:os")).homedir();
    let base: string;
    if (platform === "win32") base = env.LOCALAPPDATA || nodePath.join(home, "AppData", "Local");
    else if (platform === "darwin") base = nodePath.join(home, "Library", "Caches");
    else base = env.XDG_CACHE_HOME || nodePath.join(home, ".cache");
    return nodePath.join(base, "sourcecheck", "evidence");
}

/** The index file of a corpus in a directory: named after the corpus's real path, so each has its own. */
export function indexFileFor(indexDir: string, realRoot: string): string {
    const key = sha256(realRoot).slice(0, 16);
    return nodePath.join(indexDir, `evidence-${key}.idx`);
}

interface Found {
    path: string;
    absolute: string;
}

/**
 * Corpus files under `root` (real path), as `/`-separated relative paths, in a stable order: the one
 * discovery walk (workspace/discovery.ts) without .gitignore (a corpus of downloaded pages is often
 * one git ignores), dot entries or symlinks (evidence never comes from outside the corpus). The
 * annotation files met on the way (never part of the corpus) are pushed to `annotationFiles` if given.
 */
export function listCorpus(root: string, options: CorpusOptions = {}, annotationFiles?: Found[]): Found[] {
    return walkCorpus(root, options, annotationFiles).sort(byPath);
}

function byPath(a: Found, b: Found): number {
    return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}

/**
 * listCorpus in the order the walk meets the files (a warm sync sorts only the files it reads). With
 * `unchanged`, the walk lstats every entry (walkStatsSync) and the documents it says are unchanged
 * are left out.
 */
function walkCorpus(
    root: string,
    options: CorpusOptions,
    annotationFiles?: Found[],
    sourcesSettings?: string[],
    unchanged?: (path: string, stats: fs.Stats) => boolean,
): Found[] {
    // The configurations under the boundary say which files are annotation files and which are sources.
    const configs = boundedConfigs(options.configBoundary ?? root);
    const { discovery, kind } = corpusWalk(root, options, configs, NODE_WALK);
    const found: Found[] = [];
    // Each file is decided as it is listed (no list of every file is kept): young objects only.
    const decide = (file: FoundFile, stats?: fs.Stats) => {
        const what = kind(file);
        if (what === "annotation") annotationFiles?.push({ path: file.fromBase, absolute: file.path });
        else if (what === "document" && !(stats && unchanged?.(file.fromBase, stats)))
            found.push({ path: file.fromBase, absolute: file.path });
        return false;
    };
    if (unchanged) discovery.walkStatsSync(root, nodeStatWalkFs, decide);
    else discovery.walkSync(root, Number.POSITIVE_INFINITY, decide);
    if (sourcesSettings)
        for (const config of configs.sourcesSettings())
            sourcesSettings.push(
                nodePath
                    .relative(options.configBoundary ?? root, config)
                    .split(nodePath.sep)
                    .join("/"),
            );
    return found;
}

/**
 * A full garbage collection after every 16 MiB of files read, in builds that large only: a file's text
 * over 128 KB lands in V8's large-object space, freed only by a full collection, which V8 put off
 * until a gigabyte build held about its corpus's size (docs/benchmarks-evidence.md, "A corpus of a gigabyte").
 * The collector is had from a fresh context once `--expose-gc` is set (it is not exposed to the
 * program); undefined if the runtime refuses.
 */
const COLLECT_EVERY = 16 * 1024 * 1024;
let collector: (() => void) | null | undefined;

function collectGarbage(): void {
    if (collector === undefined) {
        try {
            (require("node:v8") as typeof import("node:v8")).setFlagsFromString("--expose-gc");
            const collect = (require("node:vm") as typeof import("node:vm")).runInNewContext("gc");
            collector = typeof collect === "function" ? () => collect() : null;
        } catch {
            collector = null;
        }
    }
    collector?.();
}

/** The text of a file as read, or why it is not a document (binary, not UTF-8, too big). */
function decoded(file: RawFile, maxBytes: number): { text: string } | { refused: string } {
    if (file.kind === "too-big") return { refused: `is larger than ${maxBytes} bytes` };
    if (file.kind !== "read") throw new Error("decoded: no bytes");
    const text = decodeText(file.bytes);
    return text.ok ? { text: text.text.replace(/\r\n?/g, "\n") } : { refused: text.message };
}

const LSTAT_OPTIONS = { throwIfNoEntry: false } as const;

function settingsOf(options: CorpusOptions): IndexSettings {
    return { maxChars: options.maxChars ?? DEFAULT_MAX_CHARS, unsafePatterns: [...(options.unsafePatterns ?? [])] };
}

/**
 * Loads the index of a corpus (or starts a new one), brings it up to date, and saves it if it changed.
 * `kept` is an index already in memory (the language server's): reused when it is for the same file
 * and settings, so only the stat walk is paid.
 */
export function openIndex(
    corpus: string,
    indexDir: string,
    options: CorpusOptions = {},
    kept?: OpenedIndex,
): OpenedIndex {
    return runSteps(openIndexSteps(corpus, indexDir, options, kept));
}

/** openIndex as steps (evidence/steps.ts): one after each `filesPerStep` files read. */
export function* openIndexSteps(
    corpus: string,
    indexDir: string,
    options: CorpusOptions = {},
    kept?: OpenedIndex,
): Steps<OpenedIndex> {
    const root = fs.realpathSync(corpus);
    const indexFile = indexFileFor(indexDir, root);
    const settings = settingsOf(options);
    const warnings: string[] = [];
    let index: EvidenceIndex | undefined;
    const reusable =
        kept !== undefined &&
        kept.indexFile === indexFile &&
        EvidenceIndex.settingsKey(kept.index.settings) === EvidenceIndex.settingsKey(settings);
    if (reusable && options.upToDate) {
        const report = {
            added: 0,
            updated: 0,
            unchanged: kept.index.documentCount,
            deleted: 0,
            written: false,
            readBytes: 0,
        };
        return { ...kept, report, warnings: [] };
    }
    if (reusable) index = kept.index;
    else if (!options.rebuild) {
        try {
            // The front only (documents, chunk table); a query reads its own terms' postings later.
            const loaded = EvidenceIndex.open(indexFileReader(indexFile), options.readWholeUpTo ?? READ_WHOLE_UP_TO);
            if (loaded.root !== root) {
                warnings.push(
                    `the evidence index ${indexFile} belongs to another corpus (${loaded.root}); rebuilding it`,
                );
            } else if (loaded.key !== EvidenceIndex.settingsKey(settings)) {
                warnings.push(
                    `the evidence index ${indexFile} was built by another version or with other settings; rebuilding it`,
                );
            } else {
                if (options.wholeIndex) loaded.index.readAllPostings();
                index = loaded.index;
            }
        } catch (error) {
            if (!(error instanceof IndexMissing)) {
                const reason = error instanceof IndexFormatError ? error.message : (error as Error).message;
                warnings.push(`the evidence index ${indexFile} is unreadable (${reason}); rebuilding it`);
            }
        }
    } else warnings.push(`the evidence index ${indexFile} is unreadable (${options.rebuild}); rebuilding it`);
    const fresh = index === undefined;
    index ??= new EvidenceIndex(root, settings);
    const { scope, touched, ...report } = yield* syncIndexSteps(index, root, options);
    const deferred = options.deferred ?? DEFERRED_CHANGES;
    const changed = report.added + report.updated + report.deleted + touched;
    // The language server's index in memory is already up to date: its changes are written at the next big one.
    if (fresh || (changed > 0 && (changed > deferred.files || report.readBytes > deferred.bytes))) {
        index.compactIfWorthIt();
        writeAtomic(indexFile, (write) => index.serializeTo(write));
        report.written = true;
    }
    return { index, indexFile, report, warnings, scope };
}

/**
 * Brings a kept index up to date for the files a watcher saw change (corpus-relative paths), without
 * a walk (docs/evidence-internals.md, "In a server"). False, with nothing done, when a path is neither a
 * document the index knows nor a known annotation file (a new file, a folder, a configuration): the
 * caller walks the corpus instead.
 */
export function refreshChanged(
    opened: OpenedIndex,
    changed: readonly string[],
    maxBytes = DEFAULT_MAX_DOCUMENT_BYTES,
): boolean {
    if (changed.length === 0) return true;
    const index = opened.index;
    const annotationFiles = new Set(opened.scope.annotationFiles);
    if (changed.some((path) => index.document(path) === undefined && !annotationFiles.has(path))) return false;
    const toRead: string[] = [];
    for (const path of changed) {
        if (annotationFiles.has(path)) continue; // read afresh by every query (the answers they name)
        const stats = fs.lstatSync(nodePath.join(index.root, path), LSTAT_OPTIONS);
        if (!stats?.isFile()) index.remove(path);
        else if (!index.sameFile(path, stats.size, stats.mtimeMs, stats.ino)) toRead.push(path);
    }
    readFiles(
        toRead.map((path) => nodePath.join(index.root, path)),
        maxBytes,
        (at, file) => {
            const path = toRead[at];
            if (file.kind === "gone") {
                index.remove(path);
                return;
            }
            const read = decoded(file, maxBytes);
            if ("refused" in read) index.refuse(path, file.size, file.mtimeMs, read.refused, file.ino);
            else index.upsert(path, file.size, file.mtimeMs, read.text, file.ino);
        },
        { within: index.root },
    );
    opened.scope = { ...opened.scope, ...index.counts() };
    return true;
}

/** Why an index file read again is refused when another run wrote a new one meanwhile. */
export const INDEX_REPLACED = "it was replaced while in use";

/** The index file is not there (a first build, no warning). */
class IndexMissing extends Error {}

/**
 * Opens the index file for EvidenceIndex.open, and again for each later read of its postings: never
 * through a symlink, a FIFO or a device (O_NOFOLLOW, non-blocking, a regular file only), and never a
 * file other than the one first opened (an index rewritten meanwhile is IndexFormatError).
 */
function indexFileReader(indexFile: string): IndexFile {
    let first: { ino: number; size: number; mtimeMs: number } | undefined;
    return () => {
        const { O_RDONLY, O_NOFOLLOW, O_NONBLOCK } = fs.constants;
        let fd: number;
        try {
            fd = fs.openSync(indexFile, O_RDONLY | (O_NOFOLLOW ?? 0) | (O_NONBLOCK ?? 0));
        } catch (error) {
            const code = (error as NodeJS.ErrnoException).code;
            if (first === undefined && code === "ENOENT") throw new IndexMissing();
            if (code === "ELOOP" || code === "EMLINK") throw new IndexFormatError("it is a symbolic link");
            throw new IndexFormatError((error as Error).message);
        }
        try {
            const stats = fs.fstatSync(fd);
            if (!stats.isFile()) throw new IndexFormatError("it is not a regular file");
            if (stats.size > MAX_INDEX_BYTES) throw new IndexFormatError(`it is larger than ${MAX_INDEX_BYTES} bytes`);
            const identity = { ino: stats.ino, size: stats.size, mtimeMs: stats.mtimeMs };
            first ??= identity;
            if (identity.ino !== first.ino || identity.size !== first.size || identity.mtimeMs !== first.mtimeMs)
                throw new IndexFormatError(INDEX_REPLACED);
        } catch (error) {
            fs.closeSync(fd);
            throw error;
        }
        return {
            size: first.size,
            read: (position, length) => {
                const bytes = Buffer.allocUnsafe(length);
                let done = 0;
                while (done < length) {
                    const read = fs.readSync(fd, bytes, done, length - done, position + done);
                    if (read === 0) throw new IndexFormatError("it is truncated");
                    done += read;
                }
                return bytes;
            },
            close: () => fs.closeSync(fd),
        };
    };
}

/** Brings an index up to date with the files under `root` (its real path). */
export function syncIndex(
    index: EvidenceIndex,
    root: string,
    options: CorpusOptions = {},
): SyncReport & { touched: number; scope: CorpusScope } {
    return runSteps(syncIndexSteps(index, root, options));
}

/**
 * syncIndex as steps: the files to read go `filesPerStep` at a time, a step after each. Stopped
 * between two, the index holds every file read so far, whole; the rest are read by the next sync.
 */
function* syncIndexSteps(
    index: EvidenceIndex,
    root: string,
    options: CorpusOptions,
): Steps<SyncReport & { touched: number; scope: CorpusScope }> {
    const maxBytes = options.maxBytes ?? DEFAULT_MAX_DOCUMENT_BYTES;
    const report = { added: 0, updated: 0, unchanged: 0, deleted: 0, written: false, readBytes: 0, touched: 0 };
    // The documents the walk met, by number: those it did not meet are deleted files.
    const seen = new Uint8Array(index.numbered);
    const annotationFiles: Found[] = [];
    const sourcesSettings: string[] = [];
    // Known files cost one lstat when unchanged (size, mtime and inode as read, compared with the
    // index's columns: no record is built), compared as the walk lists them, so that nothing of an
    // unchanged file outlives its turn (its document is marked by number); the others are read, in
    // path order, their stat coming with them. A new index has no stat to compare: every file is read.
    const unchanged =
        index.documentCount === 0
            ? undefined
            : (path: string, stats: fs.Stats) => {
                  const at = index.unchangedAt(path, stats.size, stats.mtimeMs, stats.ino);
                  if (at === undefined) return false;
                  seen[at] = 1;
                  report.unchanged++;
                  return true;
              };
    const toRead = walkCorpus(root, options, annotationFiles, sourcesSettings, unchanged);
    toRead.sort(byPath);
    let collectedAt = 0;
    const perStep = Math.max(1, options.filesPerStep ?? toRead.length);
    for (let from = 0; from < toRead.length; from += perStep) {
        const slice = toRead.slice(from, from + perStep);
        // Read on a worker thread when there are many (corpusReader.ts), indexed here in path order.
        readFiles(
            slice.map((file) => file.absolute),
            maxBytes,
            (at, file) => {
                if (file.kind === "gone") return; // vanished or not a regular file any more: dropped below
                const path = slice[at].path;
                const known = index.numberOf(path);
                if (known !== undefined && known < seen.length) seen[known] = 1;
                report.readBytes += file.size;
                if (report.readBytes - collectedAt >= COLLECT_EVERY) {
                    collectedAt = report.readBytes;
                    collectGarbage();
                }
                const record = known === undefined ? undefined : index.documentAt(known);
                const read = decoded(file, maxBytes);
                if ("refused" in read) {
                    const known = record?.refused !== undefined;
                    index.refuse(path, file.size, file.mtimeMs, read.refused, file.ino);
                    if (known) report.touched++;
                    else report[record ? "updated" : "added"]++;
                    return;
                }
                const outcome = index.upsert(path, file.size, file.mtimeMs, read.text, file.ino);
                if (outcome === "unchanged") {
                    report.unchanged++;
                    report.touched++;
                } else report[outcome]++;
            },
            { minFilesForWorker: options.minFilesForWorker, within: root },
        );
        yield { phase: "reading", done: from + slice.length, total: toRead.length };
    }
    // A document the walk did not meet is a deleted file (those read in this sync are numbered past `seen`).
    report.deleted += index.removeUnseen(seen);
    const patterns = corpusPatterns(options);
    const scope: CorpusScope = {
        ...index.counts(),
        ...patterns,
        annotationFiles: annotationFiles.map((f) => f.path).sort(),
    };
    if (sourcesSettings.length > 0) scope.sources = sourcesSettings.sort();
    return { ...report, scope };
}

/** The current text of a corpus file for stale checks, with every path-safety check. */
export function readCurrent(root: string, path: string, maxBytes?: number): CurrentText {
    const read = readDocumentUnderRoot(root, path, { maxBytes });
    if (read.ok) return { ok: true, content: read.content };
    if (read.failure.code === "path-outside-root") return { ok: false, missing: false, escapes: true };
    return { ok: false, missing: !fs.existsSync(nodePath.join(root, path)) };
}

/**
 * A whole file or nothing, through the one safe writer (workspace/safeWrite.ts: never over a
 * symlink, device or directory). Not flushed to disk first: the index is a cache, and a file torn by
 * a power loss fails its checksum and is rebuilt (an fsync of megabytes cost more than the rest of a
 * warm update on a busy disk).
 */
export function writeAtomic(target: string, content: WriteContent): void {
    try {
        writeFileSafely(target, content, { fsync: false, makeDirectory: true, newFileMode: 0o644 });
    } catch (error) {
        // Name the file and the way out; the index has no --follow-symlinks to offer.
        if (!(error instanceof SafeWriteError) || error.code === "io-error" || error.code.endsWith("changed"))
            throw error;
        const what = error.code === "symlink" ? "is a symbolic link" : error.message;
        throw new SafeWriteError(error.code, `${target} ${what}: remove it, and the index is rebuilt`);
    }
}
