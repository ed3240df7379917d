/**
 * Which files of a folder tree count, and which of them are annotation files: the one answer for
 * `sourcecheck check DIR|GLOB`, the language server's scan (and so the SourceCheck view and the
 * editor's diagnostics), the MCP server, repair's candidate paths and the evidence corpus
 * (docs/architecture.md, "Discovery").
 *
 * Ignore rules follow git (`git ls-files --others --exclude-standard` is the test oracle):
 * `.git/info/exclude` and every `.gitignore` from the repository's top down, a deeper file's rule
 * (a `!pattern` included) overriding a shallower one, and nothing below an ignored folder ever
 * re-included. Outside a repository the `.gitignore` files from the searched folder down apply.
 * Besides: the `exclude` of the governing `sourcecheck.config.json`, the caller's own excludes
 * (`--exclude`, `files.exclude`...), and never `.git` or `node_modules`.
 *
 * The walk is written once, as a generator of file-system requests, and driven by a synchronous
 * (CLI) or an asynchronous (language server) adapter.
 */

import * as nodePath from "node:path";
import type { Ignore } from "ignore";
import { isAnnotationFileName as isBuiltInAnnotationName } from "../../../shared/fileNames";
import { isLockFileName } from "../core/lock/names";
import type {
    AsyncDiscoveryFileSystem,
    DirectoryEntry,
    DiscoveryFileSystem,
    EntryStats,
    StatWalkFileSystem,
} from "./discoveryFs";
import { compileGlob, GlobError } from "./globs";
import { type IgnoreFileText, ignoreLinesOf } from "./ignoreLines";
import { climbsOut, isBelow, isInside } from "./pathSafety";
import type { ConfigProblem, ProjectConfigs } from "./projectConfig";

export type {
    AsyncDiscoveryFileSystem,
    DirectoryEntry,
    DiscoveryFileSystem,
    EntryKind,
    EntryStats,
    StatWalkFileSystem,
} from "./discoveryFs";

/** TraceCite's notes and traces by name (docs/quotes.md): an agent's working files, never evidence. */
const NOTES_NAMES = [/\.notes\.md$/i, /\.notes\.txt$/i];
const TRACE_NAMES = [/\.trace\.jsonl$/i];
const NEVER_ENTERED = new Set([".git", "node_modules"]);
/** git compares ignore patterns case-sensitively where its file systems are (core.ignorecase). */
// No `process` in a web worker (docs/web.md): a virtual file system compares names exactly.
const IGNORE_CASE = typeof process !== "undefined" && (process.platform === "win32" || process.platform === "darwin");

/** Lets other work in: setImmediate on Node, a timer in a web worker, which has none (docs/web.md). */
const yieldTurn: (resolve: () => void) => void =
    typeof setImmediate === "function" ? (resolve) => setImmediate(resolve) : (resolve) => setTimeout(resolve, 0);

/** One file-system request of the walk; the adapter answers it. */
type Request = { op: keyof DiscoveryFileSystem; path: string } | { op: "pause" };
type Steps<T> = Generator<Request, T, unknown>;

function runSync<T>(steps: Steps<T>, fileSystem: DiscoveryFileSystem): T {
    let next = steps.next();
    while (!next.done) {
        const request = next.value;
        next = steps.next(request.op === "pause" ? undefined : fileSystem[request.op](request.path));
    }
    return next.value;
}

async function runAsync<T>(steps: Steps<T>, fileSystem: AsyncDiscoveryFileSystem): Promise<T> {
    let next = steps.next();
    while (!next.done) {
        const request = next.value;
        const answer =
            request.op === "pause"
                ? await new Promise<void>((resolve) => yieldTurn(resolve))
                : await fileSystem[request.op](request.path);
        next = steps.next(answer);
    }
    return next.value;
}

function* ask<T>(op: keyof DiscoveryFileSystem, path: string): Steps<T> {
    return (yield { op, path }) as T;
}

/** A file a walk found. */
export interface FoundFile {
    /** Absolute path. */
    path: string;
    /** Relative to the options' `base`, `/`-separated (may start with `../` when the walk is outside it). */
    fromBase: string;
    name: string;
}

export interface DiscoveryOptions {
    /** The folder that `exclude` and `annotationGlobs` are relative to (CLI: the current folder; editor: the workspace folder). */
    base: string;
    /** The caller's excludes (`--exclude`, `files.exclude`...) over paths relative to `base`. */
    exclude?: (fromBase: string, isDirectory: boolean) => boolean;
    /** `sourcecheck.config.json` lookups: their `exclude` and `annotationFiles` apply. */
    configs?: ProjectConfigs;
    /** Called for a broken configuration governing a searched folder (the CLI stops on it). */
    onConfigProblem?: (problem: ConfigProblem) => void;
    /** Extra annotation-file globs (`sourcecheck.annotationFiles`), relative to `base`. */
    annotationGlobs?: readonly string[];
    /** Honour `.gitignore` and `.git/info/exclude` (default true). */
    gitignore?: boolean;
    /** Told once per ignore file passed over in whole or in part, naming it (ignoreFile.ts). */
    onWarning?: (message: string) => void;
    /** List files and enter folders whose name starts with `.` (default true). */
    dotEntries?: boolean;
    /** List symlinks to regular files inside the searched tree (default true; symlinked folders are never followed). */
    symlinkedFiles?: boolean;
}

/** What the entries of one folder share, worked out once per folder rather than per entry. */
interface Folder {
    path: string;
    /** Prefixes to which an entry's name is appended. */
    fromBase: string;
    fromTop: string;
    ignores: Ignore | undefined;
    chain: IgnoreChain | undefined;
}

/** The ignore rules in force inside one folder: every layer from its top down, rebased onto the top. */
interface IgnoreChain {
    top: string;
    patterns: string[];
    matcher: Ignore | undefined;
}

export class Discovery {
    private readonly chains = new Map<string, IgnoreChain>();
    /** Warnings already told (ignoreFile.ts): each once per discovery. */
    private readonly warned = new Set<string>();
    private readonly repositories = new Map<string, boolean>();
    private readonly folders = new Map<string, Folder>();
    private readonly recognizer: AnnotationRecognizer;
    private readonly options: Required<Pick<DiscoveryOptions, "gitignore" | "dotEntries" | "symlinkedFiles">> &
        DiscoveryOptions;

    constructor(
        options: DiscoveryOptions,
        /** The walk's calls: the host's (nodeDiscovery.ts on Node; over the client's files in the browser). */
        private readonly fileSystem: DiscoveryFileSystem,
        private readonly asyncFileSystem: AsyncDiscoveryFileSystem,
    ) {
        this.options = { gitignore: true, dotEntries: true, symlinkedFiles: true, ...options };
        this.recognizer = new AnnotationRecognizer(options.annotationGlobs ?? [], options.configs);
    }

    get base(): string {
        return this.options.base;
    }

    /**
     * Every file below `start` that no rule removes, synchronously. With `keep`, each file is handed
     * to it as it is listed and only those it keeps are gathered: a caller that decides files one by
     * one holds no record of the others (a warm `sourcecheck evidence`, docs/benchmarks-evidence.md "Speed").
     */
    walkSync(
        start: string,
        limit = Number.POSITIVE_INFINITY,
        keep?: (file: FoundFile) => boolean,
    ): { files: FoundFile[]; truncated: boolean } {
        return runSync(this.walkSteps(nodePath.resolve(start), limit, 0, keep), this.fileSystem);
    }

    /**
     * The walk of walkSync, for a caller that stats every file it finds (a warm `sourcecheck evidence`
     * compares each file's stat with its index): a folder is listed by name alone and each entry told
     * apart by its lstat, which `visit` gets with the file (a listed symlink's: its target's). Same
     * rules as walkSync; a folder's names come in sorted order, the order an index keeps its paths in.
     * On 19,788 files, about 30 ms less than walkSync's typed listing plus an lstat per file
     * (docs/benchmarks-evidence.md, "Speed").
     */
    walkStatsSync<S extends EntryStats>(
        start: string,
        fileSystem: StatWalkFileSystem<S>,
        visit: (file: FoundFile, stats: S) => void,
    ): void {
        const top = nodePath.resolve(start);
        const stack = [top];
        const linked = this.linkedFileRule(top);
        while (stack.length > 0) {
            const directory = stack.pop() as string;
            const names = fileSystem.names(directory);
            if (!names) continue;
            names.sort();
            const folder = runSync(this.folderSteps(directory, top), this.fileSystem);
            for (const name of names) {
                if (!this.options.dotEntries && name.startsWith(".")) continue;
                const full = directory + nodePath.sep + name;
                let stats = fileSystem.lstat(full);
                if (stats === undefined) continue;
                if (stats.isDirectory()) {
                    if (!this.excludes(folder, name, true)) stack.push(full);
                    continue;
                }
                if (stats.isSymbolicLink()) {
                    if (!this.options.symlinkedFiles || !runSync(linked(full), this.fileSystem)) continue;
                    stats = fileSystem.stat(full);
                    if (stats === undefined) continue;
                } else if (!stats.isFile()) continue;
                if (this.excludes(folder, name, false)) continue;
                visit({ path: full, fromBase: folder.fromBase + name, name }, stats);
            }
        }
    }

    /** The same, asynchronously; other work runs between folders. */
    walk(start: string, limit = Number.POSITIVE_INFINITY): Promise<{ files: FoundFile[]; truncated: boolean }> {
        return runAsync(this.walkSteps(nodePath.resolve(start), limit, 16), this.asyncFileSystem);
    }

    /** The annotation files below `start`, sorted. */
    annotationFilesSync(start: string): FoundFile[] {
        return this.walkSync(start)
            .files.filter((file) => this.isAnnotationFile(file.path, file.fromBase))
            .sort(byPath);
    }

    /** Annotation file by name, the `annotationGlobs`, or its configuration's `annotationFiles`. */
    isAnnotationFile(absolutePath: string, fromBase?: string): boolean {
        return this.recognizer.matches(absolutePath, fromBase);
    }

    /**
     * Would a walk from `base` leave this path out (or, for a folder, not enter it)? Every folder
     * between `base` and the path is judged, as the walk would; paths outside `base` are never excluded.
     */
    isExcluded(absolutePath: string, isDirectory: boolean): boolean {
        const base = this.options.base;
        const relative = nodePath.relative(base, absolutePath);
        if (relative === "" || climbsOut(relative)) return false;
        const segments = relative.split(nodePath.sep);
        let directory = base;
        for (let i = 0; i < segments.length; i++) {
            const last = i === segments.length - 1;
            const folder = runSync(this.folderSteps(directory, base), this.fileSystem);
            if (this.excludes(folder, segments[i], last ? isDirectory : true)) return true;
            directory = nodePath.join(directory, segments[i]);
        }
        return false;
    }

    private *walkSteps(
        start: string,
        limit: number,
        pauseEvery = 0,
        keep?: (file: FoundFile) => boolean,
    ): Steps<{ files: FoundFile[]; truncated: boolean }> {
        const files: FoundFile[] = [];
        const stack = [start];
        let folders = 0;
        const linked = this.linkedFileRule(start);
        while (stack.length > 0) {
            const directory = stack.pop() as string;
            if (pauseEvery > 0 && ++folders % pauseEvery === 0) yield { op: "pause" };
            const entries = yield* ask<DirectoryEntry[] | undefined>("list", directory);
            if (!entries) continue;
            const folder = yield* this.folderSteps(directory, start);
            for (const entry of entries) {
                if (!this.options.dotEntries && entry.name.startsWith(".")) continue;
                const full = directory + nodePath.sep + entry.name;
                if (entry.kind === "directory") {
                    if (!this.excludes(folder, entry.name, true)) stack.push(full);
                    continue;
                }
                const listed =
                    entry.kind === "file" ||
                    (entry.kind === "symlink" && this.options.symlinkedFiles && (yield* linked(full)));
                if (!listed || this.excludes(folder, entry.name, false)) continue;
                const file = { path: full, fromBase: folder.fromBase + entry.name, name: entry.name };
                if (keep !== undefined && !keep(file)) continue;
                files.push(file);
                if (files.length >= limit) return { files, truncated: true };
            }
        }
        return { files, truncated: false };
    }

    /**
     * Whether a symlink found in a walk of `start` is listed as a file: it leads to a regular file and
     * stays inside the searched tree (docs/security.md). The real path of `start` is asked once a walk.
     */
    private linkedFileRule(start: string): (link: string) => Steps<boolean> {
        let realStart: string | undefined | null = null;
        return function* (link) {
            if (!(yield* ask<boolean>("isFile", link))) return false;
            if (realStart === null) realStart = yield* ask<string | undefined>("realPath", start);
            const real = yield* ask<string | undefined>("realPath", link);
            if (realStart === undefined || real === undefined) return false;
            return isBelow(realStart, real);
        };
    }

    private excludes(folder: Folder, name: string, isDirectory: boolean): boolean {
        if (isDirectory && NEVER_ENTERED.has(name)) return true;
        if (this.options.exclude?.(folder.fromBase + name, isDirectory)) return true;
        if (this.options.configs?.isExcluded(folder.path + nodePath.sep + name, isDirectory)) return true;
        const fromTop = folder.fromTop + name;
        return this.ignored(folder, isDirectory ? `${fromTop}/` : fromTop);
    }

    /**
     * Whether the ignore rules of a folder ignore a path. The package compiles a pattern when first
     * tested: one that cannot compile (a 40,000-character line was "Invalid regular expression: too
     * large", exit 3) is dropped from its chain with a warning, and the rest still apply.
     */
    private ignored(folder: Folder, fromTop: string): boolean {
        if (!folder.ignores || !folder.chain) return false;
        try {
            return folder.ignores.ignores(fromTop);
        } catch {
            const chain = folder.chain;
            const kept = chain.patterns.filter((pattern) => compiles(pattern));
            this.warnOnce(
                `${chain.top}: ${chain.patterns.length - kept.length} ignore pattern(s) that cannot be compiled are ignored`,
            );
            chain.patterns = kept;
            chain.matcher = undefined;
            folder.ignores = matcherOf(chain);
            return folder.ignores?.ignores(fromTop) === true;
        }
    }

    private warnOnce(warning: string): void {
        if (this.warned.has(warning)) return;
        this.warned.add(warning);
        this.options.onWarning?.(warning);
    }

    /**
     * The shared paths and rules of a folder. `floor` is the folder searched: outside a repository
     * the .gitignore files count from there down (both are cached per floor).
     */
    private *folderSteps(directory: string, floor: string): Steps<Folder> {
        const key = `${floor}\0${directory}`;
        const known = this.folders.get(key);
        if (known) return known;
        const load = this.options.configs?.forFolder(directory);
        if (load && !load.ok) this.options.onConfigProblem?.(load.problem);
        const chain = this.options.gitignore ? yield* this.chainSteps(directory, floor) : undefined;
        const folder: Folder = {
            path: directory,
            fromBase: prefix(this.options.base, directory),
            fromTop: chain ? prefix(chain.top, directory) : "",
            ignores: chain && matcherOf(chain),
            chain,
        };
        this.folders.set(key, folder);
        return folder;
    }

    private *chainSteps(directory: string, floor: string): Steps<IgnoreChain> {
        const key = `${floor}\0${directory}`;
        const known = this.chains.get(key);
        if (known) return known;
        let chain: IgnoreChain;
        if (yield* ask<boolean>("exists", nodePath.join(directory, ".git"))) {
            chain = { top: directory, patterns: [], matcher: undefined };
            const excludeFile = nodePath.join(directory, ".git", "info", "exclude");
            const exclude = yield* ask<string | IgnoreFileText | undefined>("readText", excludeFile);
            chain.patterns.push(...rebase(this.boundedText(exclude, excludeFile), ""));
        } else {
            const parent = nodePath.dirname(directory);
            const belowFloor = directory !== floor && isInside(floor, directory);
            const inherits = parent !== directory && (belowFloor || (yield* this.insideRepository(parent)));
            chain = inherits
                ? yield* this.chainSteps(parent, floor)
                : { top: directory, patterns: [], matcher: undefined };
        }
        const ownFile = nodePath.join(directory, ".gitignore");
        const own = yield* ask<string | IgnoreFileText | undefined>("readText", ownFile);
        const rebased = rebase(this.boundedText(own, ownFile), prefix(chain.top, directory));
        if (rebased.length > 0 || chain.top === directory)
            chain = { top: chain.top, patterns: [...chain.patterns, ...rebased], matcher: undefined };
        this.chains.set(key, chain);
        return chain;
    }

    /** An ignore file's patterns within the limits, its warnings told once (docs/security.md, "Resource bounds"). */
    private boundedText(read: string | IgnoreFileText | undefined, file: string): string | undefined {
        if (read === undefined) return undefined;
        const bounded = typeof read === "string" ? ignoreLinesOf(read, file) : read;
        for (const warning of bounded.warnings) this.warnOnce(warning);
        return bounded.lines.join("\n");
    }

    private *insideRepository(directory: string): Steps<boolean> {
        const known = this.repositories.get(directory);
        if (known !== undefined) return known;
        const parent = nodePath.dirname(directory);
        const inside =
            (yield* ask<boolean>("exists", nodePath.join(directory, ".git"))) ||
            (parent !== directory && (yield* this.insideRepository(parent)));
        this.repositories.set(directory, inside);
        return inside;
    }
}

/** Whether one ignore pattern compiles (a negation checked as its pattern). */
function compiles(pattern: string): boolean {
    const ignore = require("ignore") as typeof import("ignore");
    try {
        ignore({ ignorecase: IGNORE_CASE }).add(pattern.replace(/^!/, "")).ignores("probe");
        return true;
    } catch {
        return false;
    }
}

function matcherOf(chain: IgnoreChain): Ignore | undefined {
    if (chain.patterns.length === 0) return undefined;
    // Loaded on first use: a walk without .gitignore rules (the evidence corpus) never needs it.
    const ignore = require("ignore") as typeof import("ignore");
    chain.matcher ??= ignore({ ignorecase: IGNORE_CASE }).add(chain.patterns);
    return chain.matcher;
}

/**
 * The patterns of one ignore file, rewritten relative to the repository's top, so that every layer
 * joins one rule list in which the last match wins, as git's deepest-file-first rule does. A
 * pattern without a slash (but a trailing one) matches at any depth below its file: `dir/**\/p`;
 * any other is anchored at its file's folder: `dir/p`.
 */
export function rebase(text: string | undefined, directory: string): string[] {
    if (text === undefined) return [];
    const escaped = directory.replace(/[\\*?[\]!#]/g, "\\$&");
    const patterns: string[] = [];
    for (const raw of text.split(/\r?\n/)) {
        // Trailing spaces are dropped unless escaped with a backslash.
        const line = raw.replace(/(?<!\\)( +)$/, "");
        if (line === "" || line.startsWith("#")) continue;
        if (escaped === "") {
            patterns.push(line);
            continue;
        }
        const negative = line.startsWith("!");
        const body = negative ? line.slice(1) : line;
        const anchored = body.replace(/\/+$/, "").includes("/");
        const rebased = anchored ? escaped + body.replace(/^\//, "") : `${escaped}**/${body}`;
        patterns.push(negative ? `!${rebased}` : rebased);
    }
    return patterns;
}

/**
 * What a file is to SourceCheck (docs/config.md, "Which files are annotation files"). A `document`
 * may be cited and searched as evidence; the others never are: an annotation file or its lock holds
 * citations, not sources; notes and traces are an agent's working files.
 */
export type FileKind = "annotation" | "lock" | "notes" | "trace" | "document";

/**
 * The one rule for which files are annotation files, used by `check DIR`, the language server's scan,
 * the evidence corpus and the MCP server: the built-in names in any case, the `sourcecheck.annotationFiles`
 * globs, or the `annotationFiles` of the file's `sourcecheck.config.json`; a lock never, whatever a
 * glob says. (Which folders are searched at all, `exclude` included, is the walk's business.)
 */
export class AnnotationRecognizer {
    private readonly extra: ((path: string) => boolean)[];

    constructor(
        globs: readonly string[] = [],
        private readonly configs?: ProjectConfigs,
    ) {
        this.extra = globs.map(globMatcher);
    }

    /** `fromBase` is relative to the workspace folder when known (the globs are), else only the absolute path is matched. */
    matches(absolutePath: string, fromBase?: string): boolean {
        return this.kind(absolutePath, fromBase) === "annotation";
    }

    kind(absolutePath: string, fromBase?: string): FileKind {
        const name = nodePath.basename(absolutePath);
        // A lock (docs/lock.md) is never an annotation file, whatever a configured glob says.
        if (isLockFileName(name)) return "lock";
        if (isAnnotationFileName(name)) return "annotation";
        if (this.extra.length > 0) {
            const candidates = [absolutePath, fromBase].filter((p): p is string => p !== undefined).map(toSlashes);
            if (this.extra.some((matches) => candidates.some((p) => matches(p)))) return "annotation";
        }
        if (this.configs?.matchesAnnotationGlobs(absolutePath) === true) return "annotation";
        if (NOTES_NAMES.some((re) => re.test(name))) return "notes";
        if (TRACE_NAMES.some((re) => re.test(name))) return "trace";
        return "document";
    }
}

/**
 * What a file is by its name alone: AnnotationRecognizer.kind when no glob applies to it (no
 * `annotationGlobs`, no `annotationFiles` in its configuration), as a walk asks of every file.
 */
export function kindByName(name: string): FileKind {
    // Every name pattern ends ".<kind>.<extension>": a name with fewer than two dots is a document.
    if (name.lastIndexOf(".", name.lastIndexOf(".") - 1) < 0) return "document";
    if (isLockFileName(name)) return "lock";
    if (isAnnotationFileName(name)) return "annotation";
    if (NOTES_NAMES.some((re) => re.test(name))) return "notes";
    if (TRACE_NAMES.some((re) => re.test(name))) return "trace";
    return "document";
}

/** Annotation files by name (docs/contract.md section 4), in any case: the one rule of shared/fileNames.ts. */
export function isAnnotationFileName(name: string): boolean {
    return isBuiltInAnnotationName(name);
}

/**
 * The glob engine of the editor's file-name globs: picomatch (`**` any depth, `*` and `?` within a
 * segment, `{a,b}`, `[...]`). A glob without `/` matches the base name anywhere, as VS Code's
 * `files.associations` does; dot files match like any other.
 */
export function globMatcher(glob: string): (path: string) => boolean {
    const pattern = glob.startsWith("./") ? glob.slice(2) : glob;
    // Linear-time matching (workspace/globs.ts); a pattern over the wildcard budget matches nothing
    // here: the CLI and the configuration refuse it with a clear error before it gets this far.
    try {
        return compileGlob(pattern, { dot: true, basename: true });
    } catch (error) {
        if (error instanceof GlobError) return () => false;
        throw error;
    }
}

function byPath(a: FoundFile, b: FoundFile): number {
    return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}

/** `directory` relative to `from`, `/`-separated with a trailing `/`, or "" for the folder itself. */
function prefix(from: string, directory: string): string {
    const relative = toSlashes(nodePath.relative(from, directory));
    return relative === "" ? "" : `${relative}/`;
}

function toSlashes(path: string): string {
    return nodePath.sep === "/" ? path : path.split(nodePath.sep).join("/");
}
