/**
 * The start-up scan: every file of the workspace folders, found asynchronously (the server answers
 * requests between directories), skipping what the user excluded: `files.exclude`,
 * `search.exclude`, `sourcecheck.exclude` (globs relative to the workspace folder, as VS Code reads
 * them), the `exclude` of the governing `sourcecheck.config.json` (docs/config.md, as `sourcecheck
 * check DIR` applies it), every `.gitignore` on the way down, and always `node_modules` and `.git`
 * (docs/editor-features.md, "Workspace scan").
 */
import * as fsp from "node:fs/promises";
import * as nodePath from "node:path";
import ignore, { type Ignore } from "ignore";
import picomatch from "picomatch";

const ALWAYS_SKIPPED = new Set(["node_modules", ".git"]);

/** The glob keys of a `files.exclude`-style object that are switched on (`when` clauses are not read). */
export function enabledGlobs(setting: unknown): string[] {
    if (typeof setting !== "object" || setting === null || Array.isArray(setting)) return [];
    return Object.entries(setting)
        .filter(([glob, on]) => glob.length > 0 && on === true)
        .map(([glob]) => glob);
}

/** Excluded by a `sourcecheck.config.json` (absolute path; a folder or a file). */
export type ConfigExclusion = (absolutePath: string, isDirectory: boolean) => boolean;

/** What the scan skips below one workspace folder. */
export class ExcludeRules {
    private readonly globs: ((path: string) => boolean) | undefined;
    /** `.gitignore` rules by the directory holding them, loaded as the scan goes down. */
    private readonly gitignores = new Map<string, Ignore>();

    constructor(
        readonly folder: string,
        globs: readonly string[],
        private readonly configExcludes: ConfigExclusion = () => false,
    ) {
        const patterns = globs.map((g) => g.replace(/^\.\//, "").replace(/\/+$/, "")).filter((g) => g.length > 0);
        this.globs = patterns.length > 0 ? picomatch(patterns, { dot: true }) : undefined;
    }

    /** Reads the `.gitignore` of a directory, if it has one, before its entries are judged. */
    async loadGitignore(directory: string): Promise<void> {
        try {
            const text = await fsp.readFile(nodePath.join(directory, ".gitignore"), "utf8");
            this.gitignores.set(directory, ignore().add(text));
        } catch {
            // none, or unreadable: nothing to honour
        }
    }

    /**
     * True when the scan must not list (or, for a directory, enter) this path. `parentsChecked`: the
     * scan already judged every folder above it, so only the path itself is matched.
     */
    excludes(absolutePath: string, isDirectory: boolean, parentsChecked = false): boolean {
        const relative = nodePath.relative(this.folder, absolutePath);
        if (relative === "" || relative.startsWith("..") || nodePath.isAbsolute(relative)) return false;
        const segments = relative.split(nodePath.sep);
        const first = parentsChecked ? segments.length : 1;
        for (let i = first; i <= segments.length; i++) {
            if (ALWAYS_SKIPPED.has(segments[i - 1])) return true;
            if (this.globs?.(segments.slice(0, i).join("/"))) return true;
            const last = i === segments.length;
            const path = last ? absolutePath : nodePath.join(this.folder, ...segments.slice(0, i));
            if (this.configExcludes(path, last ? isDirectory : true)) return true;
        }
        // Each .gitignore above the path, from the nearest up to the folder.
        let directory = nodePath.dirname(absolutePath);
        for (;;) {
            const rules = this.gitignores.get(directory);
            if (rules) {
                const below = nodePath.relative(directory, absolutePath).split(nodePath.sep).join("/");
                if (rules.ignores(isDirectory ? `${below}/` : below)) return true;
            }
            if (directory === this.folder || nodePath.dirname(directory) === directory) return false;
            directory = nodePath.dirname(directory);
        }
    }
}

export interface ScanResult {
    files: string[];
    truncated: boolean;
}

/**
 * Every file below the folder that the rules leave in, at most `limit` of them; symlinked
 * directories are not followed. `yieldEvery` directories, the scan lets other work run.
 */
export async function scanFolder(rules: ExcludeRules, limit: number, yieldEvery = 16): Promise<ScanResult> {
    const files: string[] = [];
    const stack = [rules.folder];
    let directories = 0;
    while (stack.length > 0) {
        const directory = stack.pop() as string;
        if (++directories % yieldEvery === 0) await new Promise((resolve) => setImmediate(resolve));
        let entries: import("node:fs").Dirent[];
        try {
            entries = await fsp.readdir(directory, { withFileTypes: true });
        } catch {
            continue;
        }
        if (entries.some((e) => e.name === ".gitignore" && e.isFile())) await rules.loadGitignore(directory);
        for (const entry of entries) {
            const full = nodePath.join(directory, entry.name);
            if (entry.isDirectory()) {
                if (!rules.excludes(full, true, true)) stack.push(full);
            } else if ((entry.isFile() || entry.isSymbolicLink()) && !rules.excludes(full, false, true)) {
                files.push(full);
                if (files.length >= limit) return { files, truncated: true };
            }
        }
    }
    return { files, truncated: false };
}
