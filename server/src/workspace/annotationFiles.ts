/**
 * Which files are annotation files (DESIGN section 4): by name (`*.sourcecheck.json`,
 * `*.annotations.json`, plus the `sourcecheck.annotationFiles` globs) or by language id `sourcecheck`.
 */
import * as nodePath from "node:path";

export const ANNOTATION_LANGUAGE_ID = "sourcecheck";
const BUILT_IN = [/\.sourcecheck\.json$/i, /\.annotations\.json$/i];

/**
 * A glob as a regular expression over `/`-separated paths: `**` any depth, `*` and `?` within a
 * segment, `{a,b}` alternatives, `[...]` classes. A glob without `/` matches the base name anywhere,
 * as VS Code's `files.associations` does.
 */
export function globToRegExp(glob: string): RegExp {
    let source = "";
    let depth = 0;
    for (let i = 0; i < glob.length; i++) {
        const c = glob[i];
        if (c === "*") {
            if (glob[i + 1] === "*") {
                const slashAfter = glob[i + 2] === "/";
                source += slashAfter ? "(?:.*/)?" : ".*";
                i += slashAfter ? 2 : 1;
            } else {
                source += "[^/]*";
            }
        } else if (c === "?") source += "[^/]";
        else if (c === "{") {
            source += "(?:";
            depth++;
        } else if (c === "}" && depth > 0) {
            source += ")";
            depth--;
        } else if (c === "," && depth > 0) source += "|";
        else if (c === "[") {
            const close = glob.indexOf("]", i + 1);
            if (close === -1) source += "\\[";
            else {
                source += `[${glob
                    .slice(i + 1, close)
                    .replace(/^!/, "^")
                    .replace(/\\/g, "\\\\")}]`;
                i = close;
            }
        } else source += c.replace(/[.+^$()|\\\]]/g, "\\$&");
    }
    source += ")".repeat(depth);
    const anchored = glob.includes("/") ? `^${source.replace(/^\.\//, "")}$` : `(?:^|/)${source}$`;
    return new RegExp(anchored);
}

export class AnnotationFileMatcher {
    private readonly extra: RegExp[];

    constructor(globs: readonly string[] = []) {
        this.extra = globs.map(globToRegExp);
    }

    /** `relativePath` is relative to the workspace folder when known (globs are), else absolute. */
    matches(absolutePath: string, relativePath?: string): boolean {
        const base = nodePath.basename(absolutePath);
        if (BUILT_IN.some((re) => re.test(base))) return true;
        const candidates = [absolutePath, relativePath].filter((p): p is string => p !== undefined).map(toSlashes);
        return this.extra.some((re) => candidates.some((p) => re.test(p)));
    }
}

function toSlashes(path: string): string {
    return path.replace(/\\/g, "/");
}
