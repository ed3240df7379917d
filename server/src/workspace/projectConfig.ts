import * as nodePath from "node:path";
import { getNodeValue, type Node, type ParseError, parseTree, printParseErrorCode } from "jsonc-parser";
import { nestingBeyond } from "../../../shared/jsonNesting";
import { LineIndex } from "../core/lines";
import { readSeverityPolicy, type SeverityPolicy } from "../core/severity";
import { compileGlobs, globProblem, MAX_PATTERNS } from "./globs";
import type { HostReads } from "./hostReads";

export const CONFIG_FILE_NAME = "sourcecheck.config.json";

export interface ProjectConfig {
    /** Absolute path of the configuration file. */
    file: string;
    /** Its folder: the document root of the annotation files beneath it. */
    root: string;
    /** Extra globs recognising annotation files, relative to `root`. */
    annotationFiles: string[];
    /** Globs of files and folders never searched, relative to `root`. */
    exclude: string[];
    /** Size cap of a cited document, in bytes, when set. */
    maxDocumentSize?: number;
    /** Globs of the files that are evidence sources, relative to `root`; unset: every document (docs/evidence.md). */
    sources?: string[];
    /** The level of each code it sets (docs/codes.md, "Severity per code"). */
    severity?: SeverityPolicy;
}

/** What is wrong with a configuration file, at a 1-based line and column of it. */
export interface ConfigProblem {
    file: string;
    message: string;
    offset: number;
    length: number;
    line: number;
    column: number;
}

export type ConfigLoad =
    | { ok: true; config: ProjectConfig }
    | { ok: false; config: ProjectConfig; problem: ConfigProblem; problems: ConfigProblem[] };

/** The file-system calls made here, small so tests can count them. */
export interface ConfigFileSystem {
    /** The file's text, or undefined when there is no such regular file. */
    readConfig(path: string): string | undefined;
}

/** What a configuration path holds that is not a configuration: an error on that path, never ignored. */
export const UNREADABLE_CONFIG = "\u0000unreadable:";

/**
 * Configuration files read through a host's reader (the one safe reader on Node: nodeConfigs.ts; the
 * client's files in the browser: the workspace index passes its host's).
 */
export function configFileSystemOver(readText: HostReads["readText"]): ConfigFileSystem {
    return {
        readConfig(path) {
            // The safe reader: a FIFO is refused without blocking, the size is capped on the descriptor.
            const read = readText(path, { maxBytes: MAX_CONFIG_CHARS * 4 });
            if (read.ok) return read.text;
            // Pending (the browser: docs/web.md): absent for now; its arrival clears the configurations.
            if (read.reason === "missing" || read.reason === "pending") return undefined;
            return `${UNREADABLE_CONFIG}${read.message}`;
        },
    };
}

const KNOWN_KEYS = new Set(["$schema", "annotationFiles", "exclude", "maxDocumentSize", "sources", "severity"]);

/** Largest configuration file, and deepest nesting, parsed (docs/security.md, "Resource bounds"). */
export const MAX_CONFIG_CHARS = 1024 * 1024;
export const MAX_CONFIG_NESTING = 32;

/** A configuration path that is a directory, FIFO, device, binary or too large: an error on it. */
function unreadableConfig(file: string, clause: string): ConfigLoad {
    const problem = { file, message: `the configuration file ${clause}`, offset: 0, length: 0, line: 1, column: 1 };
    return {
        ok: false,
        config: { file, root: nodePath.dirname(file), annotationFiles: [], exclude: [] },
        problem,
        problems: [problem],
    };
}

/**
 * Parse and validate a configuration file's text. Every problem is reported (`problems`, in the
 * file's order; `problem` is the first), each on its offending token; the settings that are right
 * still apply.
 */
export function parseProjectConfig(file: string, text: string): ConfigLoad {
    const root = nodePath.dirname(file);
    const config: ProjectConfig = { file, root, annotationFiles: [], exclude: [] };
    // A leading byte-order mark is not JSON: parse after it, and count offsets in the whole text.
    const bom = text.charCodeAt(0) === 0xfeff ? 1 : 0;
    const problems: ConfigProblem[] = [];
    let lines: LineIndex | undefined;
    const report = (message: string, offset: number, length: number): void => {
        lines ??= new LineIndex(text);
        const position = lines.positionAt(offset + bom);
        problems.push({
            file,
            message,
            offset: offset + bom,
            length,
            line: position.line,
            column: position.column + 1,
        });
    };
    const done = (): ConfigLoad =>
        problems.length === 0 ? { ok: true, config } : { ok: false, config, problem: problems[0], problems };
    // Bounded before parsing: a configuration is a few lines, never megabytes or thousands deep.
    if (text.length > MAX_CONFIG_CHARS) {
        report(`the configuration file is over ${MAX_CONFIG_CHARS / 1024} KiB`, 0, 0);
        return done();
    }
    const deep = nestingBeyond(text, MAX_CONFIG_NESTING);
    if (deep !== -1) {
        report(`nested more than ${MAX_CONFIG_NESTING} levels deep`, Math.max(0, deep - bom), 1);
        return done();
    }
    const errors: ParseError[] = [];
    const tree = parseTree(text.slice(bom), errors, { disallowComments: true, allowTrailingComma: false });
    for (const error of errors) report(`invalid JSON: ${describeParseError(error.error)}`, error.offset, error.length);
    if (errors.length > 0) return done();
    if (tree?.type !== "object") {
        report("a configuration file is a JSON object", 0, text.length);
        return done();
    }
    for (const property of tree.children ?? []) {
        const [keyNode, valueNode] = property.children ?? [];
        const key = keyNode?.value as string;
        if (!KNOWN_KEYS.has(key)) {
            report(
                `unknown setting ${JSON.stringify(key)}: use annotationFiles, exclude, maxDocumentSize, sources or severity`,
                keyNode.offset,
                keyNode.length,
            );
            continue;
        }
        if (!valueNode) continue;
        const at = (message: string, node: Node = valueNode) => report(`${key}: ${message}`, node.offset, node.length);
        if (key === "$schema") {
            if (valueNode.type !== "string") at("must be a string");
        } else if (key === "severity") {
            config.severity = severityOf(valueNode, at);
        } else if (key === "maxDocumentSize") {
            const size = valueNode.value;
            if (valueNode.type !== "number" || !Number.isInteger(size) || size < 1)
                at("must be a whole number of bytes, at least 1");
            else config.maxDocumentSize = size;
        } else {
            if (valueNode.type !== "array") {
                at("must be an array of glob strings");
                if (key === "sources") config.sources = [];
                continue;
            }
            if ((valueNode.children?.length ?? 0) > MAX_PATTERNS) {
                at(`at most ${MAX_PATTERNS} globs, not ${valueNode.children?.length}`);
                continue;
            }
            const globs: string[] = [];
            for (const item of valueNode.children ?? []) {
                if (item.type !== "string" || (item.value as string).length === 0) {
                    at("every item must be a non-empty glob string", item);
                    continue;
                }
                const problem = globProblem(item.value as string);
                if (problem) {
                    at(problem, item);
                    continue;
                }
                globs.push(item.value as string);
            }
            if (key === "annotationFiles") config.annotationFiles = globs;
            else if (key === "exclude") config.exclude = globs;
            else {
                // Set even when no glob is usable: a broken `sources` narrows to nothing rather than to everything.
                config.sources = globs;
                if ((valueNode.children?.length ?? 0) === 0)
                    at("list at least one glob (leave the setting out and every document is a source)");
            }
        }
    }
    return done();
}

/** `"severity": { "<code>": level }`, each wrong code or level reported on its own token. */
function severityOf(node: Node, at: (message: string, node?: Node) => void): SeverityPolicy {
    const read = readSeverityPolicy(getNodeValue(node));
    for (const problem of read.problems) {
        const property = node.children?.find((child) => child.children?.[0]?.value === problem.code);
        at(problem.message, property?.children?.[problem.message.startsWith(`${problem.code}:`) ? 1 : 0] ?? node);
    }
    return read.policy;
}

function describeParseError(code: number): string {
    const name = printParseErrorCode(code);
    return name.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
}

/**
 * Finds and caches configuration files: each folder is asked at most once, so discovering thousands
 * of annotation files costs one look per folder, not one walk per file.
 */
/** A separator followed by a dot, another separator or the end: a path whose dirname may not be its folder. */
const NOT_NORMAL = /[\\/](?:\.|[\\/]|$)/;

export class ProjectConfigs {
    private readonly nearestByFolder = new Map<string, string | null>();
    private readonly loads = new Map<string, ConfigLoad>();
    private readonly annotationMatchers = new Map<string, (relative: string) => boolean>();
    private readonly excludeMatchers = new Map<string, (relative: string) => boolean>();
    private readonly sourceMatchers = new Map<string, (relative: string) => boolean>();
    /** The exclude matcher governing the folder asked about last (isExcluded), and its root. */
    private lastJudge: { folder: string; root: string; matcher?: (relative: string) => boolean } | undefined;
    /** The folder of the file asked about last (forFile) and its configuration. */
    private lastFolder: { folder: string; load: ConfigLoad | undefined } | undefined;

    /** @param fs how configuration files are read: the host's (nodeConfigs.ts on Node). */
    constructor(private readonly fs: ConfigFileSystem) {}

    /** The configuration governing files in `folder` (absolute): the nearest at or above it. */
    forFolder(folder: string): ConfigLoad | undefined {
        const file = this.nearestFile(nodePath.resolve(folder));
        return file === undefined ? undefined : this.loads.get(file);
    }

    /** The configuration governing an annotation file (absolute path). */
    forFile(file: string): ConfigLoad | undefined {
        // A walk asks about every file of a folder in a row (twice each: annotation globs, sources): the
        // folder's answer is kept for the next, without resolving the path again (a fifth of a warm
        // `sourcecheck evidence` on 20,000 files). Only for an absolute path already in normal form (no
        // "." or ".." segment, no doubled or trailing separator: "/w/./" is "/w", whose folder is "/"),
        // whose folder is then its dirname. A segment starting with a dot merely skips the shortcut.
        const plain = nodePath.isAbsolute(file) && !NOT_NORMAL.test(file);
        const folder = plain ? nodePath.dirname(file) : undefined;
        if (folder !== undefined && this.lastFolder?.folder === folder) return this.lastFolder.load;
        const load = this.forFolder(nodePath.dirname(nodePath.resolve(file)));
        if (folder !== undefined) this.lastFolder = { folder, load };
        return load;
    }

    /** Every configuration file read so far, valid or not (the editor shows the broken ones' problems). */
    loaded(): ConfigLoad[] {
        return [...this.loads.values()];
    }

    /** Is this file an annotation file by the `annotationFiles` globs of its configuration? */
    matchesAnnotationGlobs(file: string): boolean {
        const load = this.forFile(file);
        if (!load || load.config.annotationFiles.length === 0) return false;
        let matcher = this.annotationMatchers.get(load.config.file);
        if (!matcher) {
            matcher = configGlobMatcher(load.config.annotationFiles);
            this.annotationMatchers.set(load.config.file, matcher);
        }
        return matcher(toSlashes(nodePath.relative(load.config.root, nodePath.resolve(file))));
    }

    /**
     * Is this path (absolute and normalised) excluded by the `exclude` globs of its configuration, as
     * `sourcecheck check DIR` judges it: a folder by the configuration at or above it, a file by the
     * one governing its folder. Cheap enough to ask for every file of a workspace scan.
     */
    isExcluded(path: string, isDirectory: boolean): boolean {
        let judge = this.lastJudge;
        // A scan asks about every entry of a folder in a row: the folder's answer is kept for the next,
        // and a file directly in that folder without a matcher is answered without cutting its folder.
        if (judge !== undefined && !judge.matcher && !isDirectory && directlyIn(judge.folder, path)) return false;
        const folder = isDirectory ? path : nodePath.dirname(path);
        if (judge?.folder !== folder) {
            const file = this.nearestFile(folder);
            const config = file === undefined ? undefined : this.loads.get(file)?.config;
            judge = { folder, root: config?.root ?? "", matcher: config && this.excludeMatcher(config) };
            this.lastJudge = judge;
        }
        if (!judge.matcher) return false;
        const { root } = judge;
        const relative =
            path.startsWith(root) && path[root.length] === nodePath.sep
                ? path.slice(root.length + 1)
                : nodePath.relative(root, path);
        return relative !== "" && judge.matcher(toSlashes(relative));
    }

    /**
     * Is this document (absolute path) an evidence source by the `sources` globs of the configuration
     * governing its folder? Without such a setting every document is (docs/evidence.md, "Which files").
     */
    isSource(file: string): boolean {
        const load = this.forFile(file);
        const globs = load?.config.sources;
        if (!load || !globs) return true;
        let matcher = this.sourceMatchers.get(load.config.file);
        if (!matcher) {
            matcher = configGlobMatcher(globs);
            this.sourceMatchers.set(load.config.file, matcher);
        }
        return matcher(toSlashes(nodePath.relative(load.config.root, nodePath.resolve(file))));
    }

    /** The configuration files read so far whose `sources` setting narrows the evidence (absolute paths). */
    sourcesSettings(): string[] {
        return [...this.loads.values()].filter((load) => load.config.sources).map((load) => load.config.file);
    }

    /** The matcher of a configuration's `exclude`, undefined when it has none. */
    private excludeMatcher(config: ProjectConfig): ((relative: string) => boolean) | undefined {
        if (config.exclude.length === 0) return undefined;
        let matcher = this.excludeMatchers.get(config.file);
        if (!matcher) {
            matcher = configGlobMatcher(config.exclude);
            this.excludeMatchers.set(config.file, matcher);
        }
        return matcher;
    }

    /** Forget everything (a configuration file was created, changed or deleted). */
    clear(): void {
        this.nearestByFolder.clear();
        this.loads.clear();
        this.annotationMatchers.clear();
        this.excludeMatchers.clear();
        this.sourceMatchers.clear();
        this.lastJudge = undefined;
        this.lastFolder = undefined;
    }

    private nearestFile(folder: string): string | undefined {
        const visited: string[] = [];
        let current = folder;
        let found: string | null | undefined;
        for (;;) {
            found = this.nearestByFolder.get(current);
            if (found !== undefined) break;
            visited.push(current);
            const candidate = nodePath.join(current, CONFIG_FILE_NAME);
            const text = this.fs.readConfig(candidate);
            if (text !== undefined) {
                this.loads.set(
                    candidate,
                    text.startsWith(UNREADABLE_CONFIG)
                        ? unreadableConfig(candidate, text.slice(UNREADABLE_CONFIG.length))
                        : parseProjectConfig(candidate, text),
                );
                found = candidate;
                break;
            }
            const parent = nodePath.dirname(current);
            if (parent === current) {
                found = null;
                break;
            }
            current = parent;
        }
        for (const path of visited) this.nearestByFolder.set(path, found);
        return found ?? undefined;
    }
}

export interface RootOptions {
    /** `--root` or `sourcecheck.documentRoot`, already absolute: wins when given. */
    explicitRoot?: string;
    /** Without either and without a configuration file: the current directory (CLI) or workspace folder (editor). */
    fallback: string;
    /** The configurations read so far (nodeConfigs.ts's nodeProjectConfigs on the disk), shared between calls. */
    configs: ProjectConfigs;
}

export interface RootResolution {
    root: string;
    /** Where the root came from. */
    from: "explicit" | "config" | "default";
    /** The governing configuration, valid or not, when there is one (it still sets the size cap, globs). */
    config?: ProjectConfig;
    /** Set when the governing configuration file is broken: show it, do not ignore it. */
    problem?: ConfigProblem;
}

/**
 * The document root of an annotation file (absolute path; for stdin, a file in the current folder):
 * the explicit root when given, else the folder of the nearest `sourcecheck.config.json`, else the
 * fallback. A broken configuration file still marks its folder as the root (the file's presence is
 * unambiguous), and its problem is returned for the caller to report.
 */
export function resolveDocumentRoot(annotationFile: string, options: RootOptions): RootResolution {
    const load = options.configs.forFile(annotationFile);
    const problem = load && !load.ok ? load.problem : undefined;
    if (options.explicitRoot !== undefined)
        return { root: options.explicitRoot, from: "explicit", config: load?.config, problem };
    if (load) return { root: load.config.root, from: "config", config: load.config, problem };
    return { root: options.fallback, from: "default" };
}

/** One line for a person: `file:line:column: message`. */
export function formatConfigProblem(problem: ConfigProblem, shownFile = problem.file): string {
    return `${shownFile}:${problem.line}:${problem.column}: ${problem.message}`;
}

/**
 * A matcher for the globs of a configuration (or `--exclude`), over `/`-separated paths relative to
 * its folder; a glob without `/` matches the base name at any depth, as in .gitignore.
 */
export function configGlobMatcher(globs: readonly string[]): (relative: string) => boolean {
    // Linear-time matching (workspace/globs.ts); patterns were checked against its budget when the
    // configuration was parsed, and `--exclude` on the command line.
    const allowed = globs.filter((glob) => globProblem(glob) === undefined);
    return allowed.length > 0 ? compileGlobs(allowed, { dot: true, basename: true }) : () => false;
}

function toSlashes(path: string): string {
    return nodePath.sep === "/" ? path : path.split(nodePath.sep).join("/");
}

/** Whether `path` names an entry directly in `folder` ("/a/b" and "/a/b/c"), as nodePath.dirname would say. */
function directlyIn(folder: string, path: string): boolean {
    const cut = folder.length;
    return (
        path.length > cut + 1 &&
        path.startsWith(folder) &&
        path[cut] === nodePath.sep &&
        !folder.endsWith(nodePath.sep) &&
        path.indexOf(nodePath.sep, cut + 1) === -1 &&
        path.indexOf("/", cut + 1) === -1
    );
}
