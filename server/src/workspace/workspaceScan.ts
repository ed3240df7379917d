/**
 * The editor's own excludes for the start-up scan: `files.exclude`, `search.exclude` and
 * `sourcecheck.exclude`, globs relative to the workspace folder as VS Code reads them
 * (docs/editor-features.md, "Workspace scan"). The scan itself is the one discovery of
 * discovery.ts, which adds `.gitignore`, `.git/info/exclude`, a `sourcecheck.config.json`'s
 * `exclude`, `node_modules` and `.git`.
 */
import picomatch from "picomatch";

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
    return patterns.length > 0 ? picomatch(patterns, { dot: true }) : () => false;
}
