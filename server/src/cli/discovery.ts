/**
 * Which files `sourcecheck check PATH|GLOB...` checks (docs/ci.md): a file named explicitly always;
 * directories searched for annotation files (built-in names and the `annotationFiles` globs of the
 * governing sourcecheck.config.json); globs matched below their base folder. Searches honour
 * `.gitignore` files (from the repository's top down, nested ones included, and .git/info/exclude),
 * the configuration's `exclude` and `--exclude`; `.git` and `node_modules` are never entered.
 * The list is sorted, so shards and reports are the same on every machine.
 */
import * as fs from "node:fs";
import * as nodePath from "node:path";
import ignore, { type Ignore } from "ignore";
import picomatch from "picomatch";
import { configGlobMatcher, type ProjectConfigs } from "../workspace/projectConfig";
import { CliError } from "./files";

export interface FoundFile {
    /** Absolute path. */
    path: string;
    /** As given when named explicitly, else relative to the current folder (or absolute outside it), with `/`. */
    shown: string;
}

export interface DiscoveryOptions {
    cwd: string;
    /** `--exclude` globs, relative to the current folder. */
    exclude: string[];
    configs: ProjectConfigs;
}

const BUILT_IN_NAMES = [/\.sourcecheck\.json$/i, /\.annotations\.json$/i];
const NEVER_ENTERED = new Set([".git", "node_modules"]);
const GIT_IGNORE = ".gitignore";

const globMatcher = configGlobMatcher;

interface IgnoreLayer {
    base: string;
    rules: Ignore;
}

export function discoverFiles(args: readonly string[], options: DiscoveryOptions): FoundFile[] {
    const excluded = globMatcher(options.exclude);
    const search = new Search(options, excluded);
    const found = new Map<string, FoundFile>();
    const add = (file: FoundFile) => {
        if (!found.has(file.path)) found.set(file.path, file);
    };
    for (const arg of args) {
        const absolute = nodePath.resolve(options.cwd, arg);
        const stats = statOrUndefined(absolute);
        if (stats?.isFile()) {
            add({ path: absolute, shown: arg });
        } else if (stats?.isDirectory()) {
            for (const file of search.walk(absolute)) if (search.isAnnotationFile(file)) add(search.found(file));
        } else if (picomatch.scan(arg).isGlob) {
            const { base } = picomatch.scan(arg);
            const matches = picomatch(toSlashes(arg), { dot: false });
            const absolutePattern = nodePath.isAbsolute(arg);
            for (const file of search.walk(nodePath.resolve(options.cwd, base || "."))) {
                const candidate = absolutePattern ? toSlashes(file.path) : file.fromCwd;
                if (matches(candidate)) add(search.found(file));
            }
        } else if (stats) {
            throw new CliError(`cannot check ${arg}: not a regular file or directory`);
        } else {
            throw new CliError(`cannot check ${arg}: no such file or directory, and not a glob`);
        }
    }
    return [...found.values()].sort((a, b) => (a.shown < b.shown ? -1 : a.shown > b.shown ? 1 : 0));
}

/** Deterministic share K of N (1-based) of a sorted list: every N-th file, so shards partition it exactly. */
export function shardOf<T>(files: readonly T[], shard: { index: number; count: number }): T[] {
    return files.filter((_, i) => i % shard.count === shard.index - 1);
}

export function parseShard(value: string): { index: number; count: number } {
    const match = /^(\d+)\/(\d+)$/.exec(value.trim());
    const index = match ? Number(match[1]) : Number.NaN;
    const count = match ? Number(match[2]) : Number.NaN;
    if (!match || count < 1 || index < 1 || index > count)
        throw new CliError(`--shard must be K/N with 1 <= K <= N (e.g. 2/4), not ${JSON.stringify(value)}`);
    return { index, count };
}

/** A file met by a search, with its path relative to the current folder (`/`-separated). */
interface WalkedFile {
    path: string;
    fromCwd: string;
    name: string;
    folder: Folder;
}

/**
 * What the files of one folder share, worked out once per folder: its path relative to the current
 * folder, to its configuration's folder and to each .gitignore layer's folder, as a prefix to
 * which a file's name is appended (path.relative per file and per layer was most of a search).
 */
interface Folder {
    path: string;
    fromCwd: string;
    config: { root: string; matchers: Matchers; prefix: string } | undefined;
    layers: { rules: Ignore; prefix: string }[];
}

interface Matchers {
    annotation: (p: string) => boolean;
    excluded: (p: string) => boolean;
}

class Search {
    /** .gitignore layers by folder, each with its ancestors' first. */
    private readonly layers = new Map<string, IgnoreLayer[]>();
    private readonly configMatchers = new Map<string, Matchers>();

    constructor(
        private readonly options: DiscoveryOptions,
        private readonly excluded: (relative: string) => boolean,
    ) {}

    found(file: string | WalkedFile): FoundFile {
        const path = typeof file === "string" ? file : file.path;
        const relative = typeof file === "string" ? toSlashes(nodePath.relative(this.options.cwd, path)) : file.fromCwd;
        const inside = relative !== "" && !relative.startsWith("..") && !nodePath.isAbsolute(relative);
        return { path, shown: inside ? relative : toSlashes(path) };
    }

    isAnnotationFile(file: WalkedFile): boolean {
        if (BUILT_IN_NAMES.some((re) => re.test(file.name))) return true;
        const config = file.folder.config;
        return config?.matchers.annotation(config.prefix + file.name) === true;
    }

    /** Every regular file below a folder that no ignore rule or exclude removes (symlinked folders not followed). */
    walk(start: string): WalkedFile[] {
        const files: WalkedFile[] = [];
        const stack = [start];
        while (stack.length > 0) {
            const directory = stack.pop() as string;
            let entries: fs.Dirent[];
            try {
                entries = fs.readdirSync(directory, { withFileTypes: true });
            } catch {
                continue;
            }
            const folder = this.folder(directory);
            const fromCwd = folder.fromCwd === "" ? "" : `${folder.fromCwd}/`;
            for (const entry of entries) {
                const full = nodePath.join(directory, entry.name);
                const file = { path: full, fromCwd: fromCwd + entry.name, name: entry.name, folder };
                if (entry.isDirectory()) {
                    if (!NEVER_ENTERED.has(entry.name) && !this.isIgnored(file, true)) stack.push(full);
                } else if (entry.isFile() || (entry.isSymbolicLink() && statOrUndefined(full)?.isFile())) {
                    if (!this.isIgnored(file, false)) files.push(file);
                }
            }
        }
        return files;
    }

    /** The shared paths of a folder's files (see Folder). */
    private folder(directory: string): Folder {
        const prefix = (base: string) => {
            const relative = toSlashes(nodePath.relative(base, directory));
            return relative === "" ? "" : `${relative}/`;
        };
        const config = this.configFor(directory, true);
        return {
            path: directory,
            fromCwd: toSlashes(nodePath.relative(this.options.cwd, directory)),
            config: config && { ...config, prefix: prefix(config.root) },
            // Every layer's folder is this folder or above it, so no relative path climbs out.
            layers: this.layersFor(directory).map((layer) => ({ rules: layer.rules, prefix: prefix(layer.base) })),
        };
    }

    private isIgnored(file: WalkedFile, directory: boolean): boolean {
        if (this.excluded(file.fromCwd)) return true;
        // A folder is governed by its own configuration (one may sit inside it); a file by its folder's.
        const config = directory ? this.configFor(file.path, true) : file.folder.config;
        if (config) {
            const relative = directory ? toSlashes(nodePath.relative(config.root, file.path)) : undefined;
            if (config.matchers.excluded(relative ?? (file.folder.config as { prefix: string }).prefix + file.name))
                return true;
        }
        // Deeper .gitignore files override shallower ones (a `!pattern` may re-include).
        let ignored = false;
        for (const layer of file.folder.layers) {
            const relative = layer.prefix + file.name;
            const verdict = layer.rules.test(directory ? `${relative}/` : relative);
            if (verdict.ignored) ignored = true;
            else if (verdict.unignored) ignored = false;
        }
        return ignored;
    }

    private configFor(folder: string, directory = false) {
        const load = directory ? this.options.configs.forFolder(folder) : this.options.configs.forFile(folder);
        if (!load) return undefined;
        if (!load.ok) {
            const { problem } = load;
            throw new CliError(
                `${this.found(problem.file).shown}:${problem.line}:${problem.column}: ${problem.message}`,
            );
        }
        let matchers = this.configMatchers.get(load.config.file);
        if (!matchers) {
            matchers = {
                annotation: globMatcher(load.config.annotationFiles),
                excluded: globMatcher(load.config.exclude),
            };
            this.configMatchers.set(load.config.file, matchers);
        }
        return { root: load.config.root, matchers };
    }

    /** The .gitignore layers that apply inside a folder: from the repository's top (or the folder) down. */
    private layersFor(directory: string): IgnoreLayer[] {
        const known = this.layers.get(directory);
        if (known) return known;
        const parent = nodePath.dirname(directory);
        let inherited: IgnoreLayer[];
        if (this.layers.has(parent)) inherited = this.layers.get(parent) as IgnoreLayer[];
        else if (parent !== directory && !fs.existsSync(nodePath.join(directory, ".git")) && insideRepository(parent))
            inherited = this.layersFor(parent);
        else inherited = [];
        const own: IgnoreLayer[] = [];
        if (fs.existsSync(nodePath.join(directory, ".git"))) {
            const rules = readRules(nodePath.join(directory, ".git", "info", "exclude"));
            if (rules) own.push({ base: directory, rules });
        }
        const rules = readRules(nodePath.join(directory, GIT_IGNORE));
        if (rules) own.push({ base: directory, rules });
        const layers = own.length > 0 ? [...inherited, ...own] : inherited;
        this.layers.set(directory, layers);
        return layers;
    }
}

/** True when a folder is inside a git work tree (some ancestor holds `.git`). */
function insideRepository(directory: string): boolean {
    let current = directory;
    for (;;) {
        if (fs.existsSync(nodePath.join(current, ".git"))) return true;
        const parent = nodePath.dirname(current);
        if (parent === current) return false;
        current = parent;
    }
}

function readRules(file: string): Ignore | undefined {
    let text: string;
    try {
        text = fs.readFileSync(file, "utf8");
    } catch {
        return undefined;
    }
    return ignore().add(text);
}

function statOrUndefined(path: string): fs.Stats | undefined {
    try {
        return fs.statSync(path);
    } catch {
        return undefined;
    }
}

function toSlashes(path: string): string {
    return path.split(nodePath.sep).join("/");
}
