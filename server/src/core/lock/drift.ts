/**
 * Drift: a ref that resolves to other text than its locked text (docs/lock.md, "Drift"). The
 * warning carries both texts as data; its message shows the words that changed, in the window around
 * them (`… median SCOP of [-2.9-]{+3.1+} over …`), so every output that prints the message (Problems,
 * CLI text, GitHub, SARIF) shows what drifted. Texts too long to diff, or differing only in spacing,
 * are quoted whole instead, shortened and escaped: locked text is whatever a document once said and
 * may hold control or bidi characters.
 */
import type { NextStep } from "../nextStep";
import type { RefResolution } from "../resolve";
import type { RefWarning } from "../types";
import { isLockedText, lockedTextOf } from "./entry";
import type { LockMatch } from "./match";
import type { Sha256 } from "./types";
import { wordDiffLine } from "./wordDiff";

export interface TextChangedWarning extends RefWarning {
    code: "text-changed";
    /** The locked text: whole, or its two ends around "…" when it was longer than the cap. */
    lockedText: string;
    /** The text the ref resolves to now. */
    text: string;
    /** Read the new text; accept it if it still supports the claim (worded by each front end). */
    next: NextStep;
}

/** The `text-changed` warning of a matched, resolving ref; undefined when its text is the locked one. */
export function driftOf(
    match: LockMatch | undefined,
    resolution: RefResolution,
    sha256: Sha256,
): TextChangedWarning | undefined {
    if (!match || !resolution.valid) return undefined;
    if (isLockedText(match.entry, resolution.text, sha256)) return undefined;
    const locked = lockedTextOf(match.entry).text;
    return {
        code: "text-changed",
        lockedText: locked,
        text: resolution.text,
        next: { action: "accept-text", path: resolution.path, line: resolution.range.start.line },
        message: `the cited text changed since it was locked: ${driftWords(locked, resolution.text)}`,
    };
}

/** Longest word-diff window in a drift message: long enough for the changed words and a few around them. */
const DRIFT_WINDOW = 160;

/** The changed words in their window, or both texts quoted when no word changed visibly or they are too long. */
export function driftWords(locked: string, text: string): string {
    const spacing = (t: string) => t.replace(/\s+/g, " ").trim();
    const words = spacing(locked) === spacing(text) ? undefined : wordDiffLine(locked, text, DRIFT_WINDOW);
    if (words !== undefined && /\[-|\{\+/.test(words)) return words;
    return `was ${quoteForPeople(locked)}, now ${quoteForPeople(text)}`;
}

/**
 * What `check --locked` says of a resolving ref the lock has no entry for. What to do is the
 * warning's `next` (`lock`), worded by each front end: no command is named here.
 */
export function unlockedMessage(lockFileName: string | undefined): string {
    return lockFileName
        ? `this ref is not in the lock ${JSON.stringify(lockFileName)}: lock it`
        : "this file has no lock: lock its refs";
}

const SHOWN = 80;

/**
 * A text quoted for a message: JSON string escapes (quotes, backslashes, C0 controls), plus C1
 * controls, line/paragraph separators and bidi controls as \u escapes, and the middle cut to keep
 * it short. Safe in a terminal, a hover's Markdown code span and an HTML text node once escaped.
 */
export function quoteForPeople(text: string): string {
    const shown =
        text.length <= SHOWN ? text : `${text.slice(0, SHOWN / 2)}…${text.slice(text.length - SHOWN / 2 + 1)}`;
    return JSON.stringify(shown).replace(
        /[\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g,
        (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
    );
}
