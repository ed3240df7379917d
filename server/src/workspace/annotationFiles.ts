/**
 * Which files are annotation files (docs/contract.md section 4): by name (`*.sourcecheck.json`,
 * `*.annotations.json`, plus the `sourcecheck.annotationFiles` globs) or by language id `sourcecheck`.
 */
import * as nodePath from "node:path";
import picomatch from "picomatch";

export const ANNOTATION_LANGUAGE_ID = "sourcecheck";
const BUILT_IN = [/\.sourcecheck\.json$/i, /\.annotations\.json$/i];

/**
 * One glob engine for every file-name glob of the tool: picomatch (`**` any depth, `*` and `?`
 * within a segment, `{a,b}`, `[...]`). A glob without `/` matches the base name anywhere, as VS
 * Code's `files.associations` does; dot files match like any other.
 */
export function globMatcher(glob: string): (path: string) => boolean {
    const pattern = glob.startsWith("./") ? glob.slice(2) : glob;
    return picomatch(pattern, { dot: true, basename: !pattern.includes("/") });
}

export class AnnotationFileMatcher {
    private readonly extra: ((path: string) => boolean)[];

    constructor(globs: readonly string[] = []) {
        this.extra = globs.map(globMatcher);
    }

    /** `relativePath` is relative to the workspace folder when known (globs are), else absolute. */
    matches(absolutePath: string, relativePath?: string): boolean {
        const base = nodePath.basename(absolutePath);
        if (BUILT_IN.some((re) => re.test(base))) return true;
        const candidates = [absolutePath, relativePath].filter((p): p is string => p !== undefined).map(toSlashes);
        return this.extra.some((matches) => candidates.some((p) => matches(p)));
    }
}

function toSlashes(path: string): string {
    return path.replace(/\\/g, "/");
}
