/**
 * Glob patterns matched in time linear in the path (docs/security.md, "Resource bounds"). picomatch
 * turns `*a*a*a*b` into a regular expression of lazy `[^/]*?` groups that backtracks exponentially
 * when a name almost matches: three stars took 7 s on a 255-character name, four took minutes.
 *
 * - A pattern whose segments hold only literal characters, `*`, `?` and whole `**` segments (nearly
 *   every real pattern) is matched here: each segment with the classic two-pointer wildcard match
 *   (at most name length x segment length steps), segments against `**` by a table over segments.
 * - Alternatives (`{a,b}`, `@(a|b)`, `?(a|b)`) are expanded into plain patterns matched as above, so
 *   `@(a|aa|aaa)` repeated k times never backtracks (picomatch's regular expression took 21.8 s at
 *   k = 20); their count is the pattern's budget: at most MAX_ALTERNATIVES, counted as the product
 *   over groups (what a backtracking match could try), repeated groups (`*(a|b)`, `+(a|b)`) refused.
 * - Any other pattern (classes, negations, escapes, ranges) still goes to picomatch, under the same
 *   alternative budget and with at most MAX_STARS_WITH_SYNTAX unbounded constructs in one segment:
 *   stars, negations `!(…)` and repetitions `+(…)` alike (unboundedIn), so its regular expression has
 *   at most that many unbounded quantifiers a segment and a failing match tries at most about
 *   (name length)^(MAX_STARS_WITH_SYNTAX + 1) positions.
 * - At most MAX_PATTERN_CHARS characters per pattern; callers cap how many patterns they take.
 */
import type picomatchModule from "picomatch";

export const MAX_PATTERN_CHARS = 1024;
export const MAX_STARS_WITH_SYNTAX = 2;
/** Patterns one configuration file (or one command line) may give. */
export const MAX_PATTERNS = 1000;

const SYNTAX = /[[\]{}()!+@\\]/;
/** Alternatives one pattern may stand for (docs/security.md, "Resource bounds"). */
export const MAX_ALTERNATIVES = 256;

/** Why a pattern is refused, or undefined when it is fine. */
export function globProblem(pattern: string): string | undefined {
    if (pattern.length > MAX_PATTERN_CHARS) return `the glob is over ${MAX_PATTERN_CHARS} characters`;
    if (!SYNTAX.test(pattern)) return undefined;
    const parsed = parseAlternatives(pattern);
    if (parsed.repeated) {
        return `the glob ${JSON.stringify(pattern)} repeats a group of alternatives or wildcards (*(…) or +(…)); such patterns can take exponential time`;
    }
    if (parsed.count > MAX_ALTERNATIVES) {
        return `the glob ${JSON.stringify(pattern)} stands for ${parsed.count > 1e9 ? "over 1,000,000,000" : parsed.count.toLocaleString("en-US")} alternatives (braces and extglobs multiply); at most ${MAX_ALTERNATIVES} are allowed (such patterns can take exponential time)`;
    }
    for (const segment of pattern.split("/")) {
        if (segment === "**") continue;
        const unbounded = unboundedIn(segment);
        if (unbounded > MAX_STARS_WITH_SYNTAX) {
            return `the glob ${JSON.stringify(pattern)} has ${unbounded} wildcards in one path segment (stars, negations !(…) and repetitions +(…) alike) together with braces, classes or escapes; at most ${MAX_STARS_WITH_SYNTAX} are allowed there (such patterns can take exponential time)`;
        }
    }
    return undefined;
}

/**
 * The constructs of a segment that picomatch compiles to an unbounded quantifier, each a place a
 * failing match can backtrack into: `*` (and the `*` of `*(…)`), a negation `!(…)` (a lazy
 * `[^/]*?` after a lookahead) and a repetition `+(…)`. A negation was once left out, and six of
 * them took 331 s on one 243-character name (docs/security.md, "Resource bounds").
 */
export function unboundedIn(segment: string): number {
    return (segment.match(/\*|[!+]\(/g) ?? []).length;
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
        // Alternatives only: each expansion is a plain pattern, matched without backtracking.
        const expanded = parseAlternatives(pattern).expansions;
        if (expanded?.every((one) => !SYNTAX.test(one))) return compileGlobs(expanded, options);
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

/** Steps taken by segmentMatches since the process started: what tests count instead of time. */
let steps = 0;
export function globSteps(): number {
    return steps;
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
        steps++;
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

/** A group of alternatives in a pattern: `{a,b}`, or an extglob `@(a|b)` and its kin. */
interface Group {
    kind: "{" | "@" | "?" | "*" | "+" | "!";
    alternatives: Sequence[];
}
type Sequence = (string | Group)[];

/**
 * The alternatives a pattern stands for: `count`, the product over its groups of their alternatives
 * (a group's count is the sum of its alternatives' own); `expansions`, the plain patterns when every
 * group is `{…}`, `@(…)` or `?(…)` and the count is within the budget; `repeated` for `*(…)` or
 * `+(…)` over more than one plain alternative. An unclosed group or a brace without a comma is
 * literal text, as in picomatch; a range (`{1..9}`) is left to picomatch.
 */
export function parseAlternatives(pattern: string): { count: number; expansions?: string[]; repeated: boolean } {
    const state = { at: 0, repeated: false };
    const sequence = parseSequence(pattern, state, "");
    const count = countOf(sequence);
    const expansions = count <= MAX_ALTERNATIVES ? expand(sequence) : undefined;
    return { count, expansions, repeated: state.repeated };
}

function parseSequence(pattern: string, state: { at: number; repeated: boolean }, stops: string): Sequence {
    const out: Sequence = [];
    let text = "";
    while (state.at < pattern.length && !stops.includes(pattern[state.at])) {
        const c = pattern[state.at];
        if (c === "\\") {
            text += pattern.slice(state.at, state.at + 2);
            state.at += 2;
            continue;
        }
        const group = groupAt(pattern, state);
        if (group) {
            if (text) out.push(text);
            text = "";
            out.push(group);
            continue;
        }
        text += c;
        state.at++;
    }
    if (text) out.push(text);
    return out;
}

/** The group starting at `state.at`, consumed; undefined (nothing consumed) when there is none. */
function groupAt(pattern: string, state: { at: number; repeated: boolean }): Group | undefined {
    const c = pattern[state.at];
    const extglob = "@?*+!".includes(c) && pattern[state.at + 1] === "(";
    if (!extglob && c !== "{") return undefined;
    const [open, separator, close] = extglob ? ["(", "|", ")"] : ["{", ",", "}"];
    const start = state.at;
    state.at += extglob ? 2 : 1;
    const alternatives: Sequence[] = [];
    for (;;) {
        alternatives.push(parseSequence(pattern, state, `${separator}${close}`));
        if (state.at >= pattern.length) break;
        if (pattern[state.at++] === close) {
            const kind = (extglob ? c : open) as Group["kind"];
            if (kind === "{" && (alternatives.length < 2 || pattern.slice(start, state.at).includes(".."))) break;
            if ((kind === "*" || kind === "+") && (alternatives.length > 1 || alternatives.some(hasWildcard)))
                state.repeated = true;
            return { kind, alternatives };
        }
    }
    state.at = start; // unclosed, or not a group: literal text
    return undefined;
}

function hasWildcard(sequence: Sequence): boolean {
    return sequence.some((item) => typeof item !== "string" || /[*?]/.test(item));
}

function countOf(sequence: Sequence): number {
    let product = 1;
    for (const item of sequence) {
        if (typeof item === "string") continue;
        let sum = item.kind === "?" ? 1 : 0;
        for (const alternative of item.alternatives) sum += countOf(alternative);
        product = Math.min(product * sum, Number.MAX_SAFE_INTEGER);
    }
    return product;
}

/** Every plain pattern of a sequence, or undefined when a group cannot be expanded (a negation, a repetition). */
function expand(sequence: Sequence): string[] | undefined {
    let out = [""];
    for (const item of sequence) {
        if (typeof item === "string") {
            out = out.map((prefix) => prefix + item);
            continue;
        }
        if (item.kind !== "{" && item.kind !== "@" && item.kind !== "?") return undefined;
        const options: string[] = item.kind === "?" ? [""] : [];
        for (const alternative of item.alternatives) {
            const expanded = expand(alternative);
            if (!expanded) return undefined;
            options.push(...expanded);
        }
        out = out.flatMap((prefix) => options.map((option) => prefix + option));
    }
    return out;
}
