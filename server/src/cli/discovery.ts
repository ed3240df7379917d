import * as nodePath from "node:path";
import type picomatchModule from "picomatch";
import { isLockFileName } from "../core/lock/names";
import { statOrUndefined } from "../workspace/fileStat";
import { globProblem } from "../workspace/globs";
import { nodeDiscovery } from "../workspace/nodeDiscovery";
import { climbsOut } from "../workspace/pathSafety";
import { configGlobMatcher, formatConfigProblem, type ProjectConfigs } from "../workspace/projectConfig";
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
    /** An ignore file passed over in whole or in part (workspace/ignoreFile.ts); the walk goes on. */
    warn?: (message: string) => void;
}

/** The files `check` names: searches go through the one discovery of workspace/discovery.ts. */
export function discoverFiles(args: readonly string[], options: DiscoveryOptions): FoundFile[] {
    const excluded = configGlobMatcher(options.exclude);
    const discovery = nodeDiscovery({
        base: options.cwd,
        exclude: (fromCwd) => excluded(fromCwd),
        configs: options.configs,
        onWarning: options.warn,
        onConfigProblem: (problem) => {
            throw new CliError(formatConfigProblem(problem, shownPath(options.cwd, problem.file)));
        },
    });
    const found = new Map<string, FoundFile>();
    const add = (path: string, shown: string) => {
        if (!found.has(path)) found.set(path, { path, shown });
    };
    const addFound = (file: { path: string; fromBase: string }) =>
        add(file.path, isInsideRelative(file.fromBase) ? file.fromBase : toSlashes(file.path));
    for (const arg of args) {
        const absolute = nodePath.resolve(options.cwd, arg);
        const stats = statOrUndefined(absolute);
        if (stats?.isFile()) {
            refuseLockFile(arg);
            add(absolute, arg);
        } else if (stats?.isDirectory()) {
            for (const file of discovery.walkSync(absolute).files)
                if (discovery.isAnnotationFile(file.path)) addFound(file);
        } else if (globs().scan(arg).isGlob) {
            // The pattern budget first (workspace/globs.ts): alternatives multiply into exponential matching.
            const problem = globProblem(arg);
            if (problem) throw new CliError(`cannot check ${arg}: ${problem}`);
            const picomatch = globs();
            const { base } = picomatch.scan(arg);
            const matches = picomatch(toSlashes(arg), { dot: false });
            const absolutePattern = nodePath.isAbsolute(arg);
            for (const file of discovery.walkSync(nodePath.resolve(options.cwd, base || ".")).files) {
                const candidate = absolutePattern ? toSlashes(file.path) : file.fromBase;
                if (matches(candidate) && !isLockFileName(nodePath.basename(file.path))) addFound(file);
            }
        } else if (stats) {
            throw new CliError(`cannot check ${arg}: not a regular file or directory`);
        } else {
            throw new CliError(`cannot check ${arg}: no such file or directory, and not a glob`);
        }
    }
    return [...found.values()].sort((a, b) => (a.shown < b.shown ? -1 : a.shown > b.shown ? 1 : 0));
}

/** A lock file named on the command line is a usage error, not an annotation file to check. */
export function refuseLockFile(arg: string): void {
    if (isLockFileName(nodePath.basename(arg))) {
        throw new CliError(
            `${arg} is a lock file (docs/lock.md), not an annotation file: give the annotation file it sits beside`,
        );
    }
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

function shownPath(cwd: string, path: string): string {
    const relative = toSlashes(nodePath.relative(cwd, path));
    return isInsideRelative(relative) ? relative : toSlashes(path);
}

function isInsideRelative(relative: string): boolean {
    return relative !== "" && !climbsOut(relative);
}

/** picomatch, required on the first argument that is neither file nor folder: most name files. */
function globs(): typeof picomatchModule {
    return require("picomatch") as typeof picomatchModule;
}

function toSlashes(path: string): string {
    return path.split(nodePath.sep).join("/");
}
