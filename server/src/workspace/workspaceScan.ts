import { compileGlobs, globProblem, MAX_PATTERNS } from "./globs";

/** The glob keys of a `files.exclude`-style object that are switched on (`when` clauses are not read). */
export function enabledGlobs(setting: unknown): string[] {
    if (typeof setting !== "object" || setting === null || Array.isArray(setting)) return [];
    return Object.entries(setting)
        .filter(([glob, on]) => glob.length > 0 && on === true)
        .map(([glob]) => glob);
}

/** A matcher of such globs over `/`-separated paths relative to the workspace folder (a folder excludes what is below it). */
export function folderExcludeMatcher(globs: readonly string[]): (relative: string) => boolean {
    const patterns = globs.map((g) => g.replace(/^\.\//, "").replace(/\/+$/, "")).filter((g) => g.length > 0);
    const allowed = patterns.filter((pattern) => globProblem(pattern) === undefined).slice(0, MAX_PATTERNS);
    return allowed.length > 0 ? compileGlobs(allowed, { dot: true }) : () => false;
}
