/**
 * Glob patterns matched in time linear in the path (docs/security.md, "Resource bounds"). picomatch
 * turns `*a*a*a*b` into a regular expression of lazy `[^/]*?` groups that backtracks exponentially
 * when a name almost matches: three stars took 7 s on a 255-character name, four took minutes.
 *
 * - A pattern whose segments hold only literal characters, `*`, `?` and whole `**` segments (nearly
 *   every real pattern) is matched here: each segment with the classic two-pointer wildcard match
 *   (at most name length x segment length steps), segments against `**` by a table over segments.
 * - Any other pattern (braces, classes, extglobs, escapes) still goes to picomatch, but only with at
 *   most MAX_STARS_WITH_SYNTAX stars in one segment; more is refused with a clear message.
 * - At most MAX_PATTERN_CHARS characters per pattern; callers cap how many patterns they take.
 */
import type picomatchModule from "picomatch";

export const MAX_PATTERN_CHARS = 1024;
export const MAX_STARS_WITH_SYNTAX = 2;
/** Patterns one configuration file (or one command line) may give. */
export const MAX_PATTERNS = 1000;

const SYNTAX = /[[\]{}()!+@\\]/;

/** Why a pattern is refused, or undefined when it is fine. */
export function globProblem(pattern: string): string | undefined {
    if (pattern.length > MAX_PATTERN_CHARS) return `the glob is over ${MAX_PATTERN_CHARS} characters`;
    if (!SYNTAX.test(pattern)) return undefined;
    for (const segment of pattern.split("/")) {
        if (segment === "**") continue;
        const stars = (segment.match(/\*/g) ?? []).length;
        if (stars > MAX_STARS_WITH_SYNTAX) {
            return `the glob ${JSON.stringify(pattern)} has ${stars} wildcards in one path segment together with braces, classes or escapes; at most ${MAX_STARS_WITH_SYNTAX} are allowed there (such patterns can take exponential time)`;
        }
    }
    return undefined;
}

export class GlobError extends Error {}

export interface GlobOptions {
    /** `*` and `?` match a leading dot (default true, as the configuration's globs do). */
    dot?: boolean;
    /** A pattern without `/` matches the last segment of the path (as .gitignore does). */
    basename?: boolean;
}

/** One matcher for several patterns (any may match); throws GlobError for a refused pattern. */
export function compileGlobs(patterns: readonly string[], options: GlobOptions = {}): (path: string) => boolean {
    const matchers = patterns.map((pattern) => compileGlob(pattern, options));
    if (matchers.length === 1) return matchers[0];
    return (path) => matchers.some((matches) => matches(path));
}

export function compileGlob(pattern: string, options: GlobOptions = {}): (path: string) => boolean {
    const problem = globProblem(pattern);
    if (problem) throw new GlobError(problem);
    const dot = options.dot ?? true;
    const onName = options.basename === true && !pattern.includes("/");
    if (SYNTAX.test(pattern)) {
        // Loaded on first use: most commands' globs never need it, and its tables cost every start.
        const picomatch = require("picomatch") as typeof picomatchModule;
        const matches = picomatch(pattern, { dot });
        return onName ? (path) => matches(lastSegment(path)) : matches;
    }
    const segments = pattern.replace(/^\.\//, "").split("/");
    if (onName) return (path) => segmentMatches(segments[0], lastSegment(path), dot);
    return fastMatcher(segments, dot) ?? ((path) => segmentsMatch(segments, path.split("/"), dot));
}

/**
 * A first segment `**` then one name, with or without a last `**` (every default include and
 * exclude), matched without the table over segments: the
 * evidence walk tests each of 20,000 files against nine patterns, and the table's arrays were a
 * third of a warm query. Same answers as segmentsMatch (tested against it as the oracle).
 */
function fastMatcher(segments: readonly string[], dot: boolean): ((path: string) => boolean) | undefined {
    if (segments[0] !== "**" || segments.length < 2 || segments.length > 3) return undefined;
    const name = segments[1];
    if (name === "**") return undefined;
    // What follows the name's last wildcard ends every path it matches (`.lock.json` of `*.lock.json`):
    // most paths fail that test without a slice of their name being made.
    const tail = name.slice(Math.max(name.lastIndexOf("*"), name.lastIndexOf("?")) + 1);
    if (segments.length === 2) {
        return (path) => {
            if (!path.endsWith(tail)) return false;
            const cut = path.lastIndexOf("/");
            // `**` never crosses a dot folder unless dot is on.
            if (!dot && cut >= 0 && (path.charCodeAt(0) === DOT || indexOfDotSegment(path) < cut)) return false;
            if (name === "*") return anyName(path, cut + 1, dot);
            return segmentMatches(name, cut < 0 ? path : path.slice(cut + 1), dot);
        };
    }
    if (segments[2] !== "**") return undefined;
    const literal = tail === name;
    return (path) => {
        if (literal && !path.includes(name)) return false;
        const parts = path.split("/");
        for (let j = 0; j < parts.length; j++) {
            if (!segmentMatches(name, parts[j], dot)) continue;
            if (dot || parts.every((part, i) => i === j || part.charCodeAt(0) !== DOT)) return true;
        }
        return false;
    };
}

const DOT = 46;

/** segmentMatches("*", the path's name from `from` on, dot) without slicing the name out. */
function anyName(path: string, from: number, dot: boolean): boolean {
    const length = path.length - from;
    if (length === 0) return false;
    if (path.charCodeAt(from) !== DOT) return true;
    // `*` matches neither "." nor "..", nor a dot name unless dot is on.
    return dot && !(length === 1 || (length === 2 && path.charCodeAt(from + 1) === DOT));
}

/** Where the first `/` followed by a dot is (a segment after the first starting with "."), or Infinity. */
function indexOfDotSegment(path: string): number {
    const at = path.indexOf("/.");
    return at < 0 ? Number.POSITIVE_INFINITY : at;
}

/** The general match of pattern segments against a path (exported as the oracle of the fast paths). */
export function matchSegments(pattern: readonly string[], path: string, dot: boolean): boolean {
    return segmentsMatch(pattern, path.split("/"), dot);
}

function lastSegment(path: string): string {
    return path.slice(path.lastIndexOf("/") + 1);
}

/** Pattern segments against path segments; `**` takes any number of whole segments. */
function segmentsMatch(pattern: readonly string[], path: readonly string[], dot: boolean): boolean {
    // reachable[j]: the pattern so far can consume exactly the first j path segments.
    let reachable = new Array<boolean>(path.length + 1).fill(false);
    reachable[0] = true;
    for (const segment of pattern) {
        const next = new Array<boolean>(path.length + 1).fill(false);
        if (segment === "**") {
            let any = false;
            for (let j = 0; j <= path.length; j++) {
                // ** never walks into dot folders unless dot is on (as picomatch).
                any = any || reachable[j];
                next[j] = any;
                if (!dot && j < path.length && path[j].startsWith(".")) any = false;
            }
        } else {
            for (let j = 0; j < path.length; j++) {
                if (reachable[j] && segmentMatches(segment, path[j], dot)) next[j + 1] = true;
            }
        }
        reachable = next;
    }
    return reachable[path.length];
}

/** `*` and `?` within one segment: the two-pointer match, never exponential. */
export function segmentMatches(pattern: string, name: string, dot: boolean): boolean {
    if (name === "." || name === "..") return pattern === name;
    if (!dot && name.startsWith(".") && !pattern.startsWith(".")) return false;
    let p = 0;
    let n = 0;
    let star = -1;
    let resume = 0;
    while (n < name.length) {
        if (p < pattern.length && (pattern[p] === "?" || pattern[p] === name[n]) && pattern[p] !== "*") {
            p++;
            n++;
        } else if (p < pattern.length && pattern[p] === "*") {
            star = p++;
            resume = n;
        } else if (star !== -1) {
            p = star + 1;
            n = ++resume;
        } else {
            return false;
        }
    }
    while (p < pattern.length && pattern[p] === "*") p++;
    return p === pattern.length && name.length > 0;
}
