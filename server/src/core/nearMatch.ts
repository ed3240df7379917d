/**
 * One notion of a near match (docs/repair.md, "Near matches"), used by cite, annotate (through cite),
 * repair's only reading, its search and the editor's candidates (through repair). Text is compared
 * the way a person misquotes it: Unicode compatibility forms (NFKC), runs of whitespace, typographic
 * versus straight quotes and dashes, and case do not count (tier 0). Beyond that a string may be off
 * by a few edits (tier 1): counted in characters for scripts written without spaces (each character
 * a word: words.ts), in words elsewhere, with a character budget that grows with the string. A
 * figure differs only as one whole number replaced by another. Pure.
 */
import search from "approx-string-match";
import { levenshtein } from "./editDistance";
import { isUnspaced, isWordChar, WORD_RUNS } from "./words";

const FOLD: Record<string, string> = {
    "\u2018": "'",
    "\u2019": "'",
    "\u201a": "'",
    "\u201b": "'",
    "\u2032": "'",
    "`": "'",
    "\u201c": '"',
    "\u201d": '"',
    "\u201e": '"',
    "\u201f": '"',
    "\u2033": '"',
    "\u00ab": '"',
    "\u00bb": '"',
    "\u2010": "-",
    "\u2011": "-",
    "\u2012": "-",
    "\u2013": "-",
    "\u2014": "-",
    "\u2015": "-",
    "\u2212": "-",
    "\u00a0": " ",
};

export interface FoldedText {
    text: string;
    /** starts[i]: the original column of folded character i; ends[i]: just past it. */
    starts: number[];
    ends: number[];
}

/**
 * Fold one string: each character in its compatibility form (NFKC: full-width letters and
 * punctuation, ligatures), lower case (where that keeps the length), quotes and dashes unified,
 * whitespace runs as one space. Keeps a map back to the original columns, so a match found in the
 * folded text is a range of the real line.
 */
export function fold(original: string): FoldedText {
    let text = "";
    const starts: number[] = [];
    const ends: number[] = [];
    let i = 0;
    while (i < original.length) {
        const ch = original[i];
        if (/\s/.test(ch)) {
            let j = i + 1;
            while (j < original.length && /\s/.test(original[j])) j++;
            text += " ";
            starts.push(i);
            ends.push(j);
            i = j;
            continue;
        }
        const cp = original.codePointAt(i) ?? 0;
        const width = cp > 0xffff ? 2 : 1;
        const char = original.slice(i, i + width);
        // ASCII is its own compatibility form: skip NFKC on the common path.
        const compatible = cp < 0x80 ? char : char.normalize("NFKC");
        for (const piece of compatible) {
            const mapped = FOLD[piece] ?? piece;
            const lower = mapped.toLowerCase();
            const out = lower.length === mapped.length ? lower : mapped;
            for (let k = 0; k < out.length; k++) {
                text += out[k];
                starts.push(i);
                ends.push(i + width);
            }
        }
        i += width;
    }
    return { text, starts, ends };
}

/** The original range of folded characters [from, to). */
export function originalRange(folded: FoldedText, from: number, to: number): { start: number; end: number } {
    return { start: folded.starts[from], end: folded.ends[to - 1] };
}

/**
 * Optimal string alignment distance over code points: insertions, deletions, substitutions and a
 * swap of two neighbours ("Reciept", "paylaod") each one edit. Stops early above `max`.
 */
export function osaDistance(a: string, b: string, max = Number.POSITIVE_INFINITY): number {
    const x = Array.from(a);
    const y = Array.from(b);
    if (Math.abs(x.length - y.length) > max) return max + 1;
    let before: number[] = [];
    let previous = Array.from({ length: y.length + 1 }, (_, j) => j);
    for (let i = 1; i <= x.length; i++) {
        const current = [i];
        let rowMin = i;
        for (let j = 1; j <= y.length; j++) {
            const cost = x[i - 1] === y[j - 1] ? 0 : 1;
            let value = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
            if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1])
                value = Math.min(value, before[j - 2] + 1);
            current[j] = value;
            rowMin = Math.min(rowMin, value);
        }
        if (rowMin > max) return max + 1;
        before = previous;
        previous = current;
    }
    return previous[y.length];
}

/**
 * The limits (docs/repair.md, "Near matches"). A string with fewer letters or digits than these is
 * compared in tier 0 only: a two-letter word one edit away is another common word ("of", "or").
 */
export const MIN_NEAR_LETTERS = 3;
export const MIN_NEAR_UNSPACED = 3;
/** Strings under this many characters may be one edit off. */
export const ONE_EDIT_BELOW = 8;
/** Longer ones: this share of their characters (at least two), about one word in eight. */
export const NEAR_EDIT_RATE = 0.12;
/** Unspaced scripts: one character in this many (at least one): a character there is a word. */
export const UNSPACED_CHARS_PER_EDIT = 4;
/** Spaced scripts: one whole word dropped, added or changed per this many words (at least one). */
export const WORDS_PER_EDIT = 8;
/**
 * Wider nets whose hits are judged by more than the text: the repair search's prefilter (each hit
 * is also held to one word of difference, and is only a candidate unless its margin is clear), and
 * a whole locked text found again after its document drifted (judged with its locked context;
 * core/repair/locked.ts).
 */
export const SEARCH_ERROR_RATE = 0.34;
export const DRIFTED_TEXT_RATE = 0.25;

/** How a string's edits are counted: characters for a script written without spaces, else words. */
export function nearUnit(text: string): "characters" | "words" {
    return isUnspaced(text) ? "characters" : "words";
}

/** The edits (in characters) a folded string may be off by in tier 1; 0 when only tier 0 applies. */
export function maxNearEdits(folded: string): number {
    if (isUnspaced(folded)) {
        const chars = Array.from(folded).filter((c) => c !== " ").length;
        return chars < MIN_NEAR_UNSPACED ? 0 : Math.max(1, Math.floor(chars / UNSPACED_CHARS_PER_EDIT));
    }
    const letters = (folded.match(WORD_RUNS) ?? []).join("").length;
    if (letters < MIN_NEAR_LETTERS) return 0;
    return folded.length < ONE_EDIT_BELOW ? 1 : Math.max(2, Math.floor(folded.length * NEAR_EDIT_RATE));
}

export interface Nearness {
    /** 0: equal once folded (case, whitespace, NFKC, quote and dash forms); 1: within the limits (or edge marks added). */
    tier: 0 | 1;
    /** Character edits between the folded strings (a changed number: 1). */
    edits: number;
    /** A whole number replaced by another, the rest as written. */
    number?: true;
}

const NUMBER = /\p{N}+/gu;
const HAS_NUMBER = /\p{N}/u;

/** Whether `found` is a near match of `written`, and how near; undefined when beyond the limits. */
export function nearness(written: string, found: string): Nearness | undefined {
    return nearnessFolded(fold(written).text, fold(found).text);
}

/** Marks a person adds at a string's edges (a full stop, a bracket, a quotation mark): left out, the rest compares. */
const LEADING_MARKS = /^[`"'([{*_]+/u;
const TRAILING_MARKS = /[.,;:!?)\]}"'`*_]+$/u;

/** The string without its leading marks, its trailing marks, or both (each only when it differs and keeps a letter or digit). */
function withoutEdgeMarks(a: string): string[] {
    const lead = a.replace(LEADING_MARKS, "");
    const trail = a.replace(TRAILING_MARKS, "");
    return [lead, trail, lead.replace(TRAILING_MARKS, "")].filter((bare) => bare !== a && /\p{L}|\p{N}/u.test(bare));
}

function nearnessFolded(a: string, b: string): Nearness | undefined {
    if (a.length === 0 || b.length === 0) return undefined;
    if (a === b) return { tier: 0, edits: 0 };
    // A mark the author added at an edge ("If." for "If"): the words themselves are as written.
    for (const bare of withoutEdgeMarks(a)) if (bare === b) return { tier: 1, edits: a.length - bare.length };
    const numbersA = a.match(NUMBER) ?? [];
    const numbersB = b.match(NUMBER) ?? [];
    if (numbersA.join(" ") !== numbersB.join(" ")) {
        // A figure is the claim itself: it may differ only as one whole number replaced by another,
        // everything around it as written ("is 31 seconds" for "is 30 seconds").
        if (numbersA.length !== numbersB.length || a.replace(NUMBER, "#") !== b.replace(NUMBER, "#")) return undefined;
        const changed = numbersA.filter((n, i) => n !== numbersB[i]).length;
        return changed === 1 ? { tier: 1, edits: 1, number: true } : undefined;
    }
    const budget = maxNearEdits(a);
    if (budget === 0) return undefined;
    const edits = osaDistance(a, b, budget);
    if (edits > budget) return undefined;
    if (nearUnit(a) === "words") {
        const wordsA = a.match(WORD_RUNS) ?? [];
        const wordsB = b.match(WORD_RUNS) ?? [];
        if (levenshtein(wordsA, wordsB) > Math.max(1, Math.floor(wordsA.length / WORDS_PER_EDIT))) return undefined;
    }
    return { tier: 1, edits };
}

export interface NearSpan {
    /** Columns of the line: the matched text is [from, to). */
    from: number;
    to: number;
    tier: 0 | 1;
    edits: number;
    /**
     * The span cuts a word at an edge ("en" of "end"): never a reading, yet a near match all the same,
     * so it leaves the line without a single reading (docs/repair.md, "Near matches").
     */
    cutsWord?: boolean;
    /** A whole number replaced by another (Nearness.number). */
    number?: true;
}

/** Lines longer than this are not searched for near matches (the cost grows with the line). */
export const MAX_NEAR_LINE = 20_000;
/** Strings longer than this are not matched approximately. */
export const MAX_NEAR_STRING = 300;

type CharClass = "space" | "word" | "mark";
function classOf(char: string | undefined): CharClass | undefined {
    if (char === undefined) return undefined;
    if (/\s/.test(char)) return "space";
    return isWordChar(char) ? "word" : "mark";
}

/** A word character of a script written with spaces (in an unspaced script every character is an edge). */
function spacedWord(char: string | undefined): boolean {
    return char !== undefined && isWordChar(char) && !isUnspaced(char);
}

/**
 * The near matches of a boundary string on one line, one per place (docs/repair.md, "The minimal
 * edit"): every span within the limits is looked at, and of the spans of one place (they overlap)
 * the one fewest edits from the written string is kept (placesOf). A span never begins (ends) with
 * a mark where the string does not, nor with a space; one that cuts a word is kept, flagged
 * `cutsWord`, only to show that the line holds another near match.
 * Exact occurrences are the caller's business: a string that occurs as written is not misquoted.
 */
export function nearSpans(line: string, written: string, boundary: "start" | "end"): NearSpan[] {
    if (line.length === 0 || line.length > MAX_NEAR_LINE || written.length > MAX_NEAR_STRING) return [];
    const needle = fold(written).text;
    if (!(needle.match(WORD_RUNS) ?? []).length) return [];
    const folded = fold(line);
    const tried = new Set<string>();
    const spans: NearSpan[] = [];
    const consider = (from: number, to: number) => {
        if (from < 0 || to > folded.text.length || to <= from) return;
        const { start, end } = originalRange(folded, from, to);
        const key = `${start}:${end}`;
        if (tried.has(key)) return;
        tried.add(key);
        const near = nearnessFolded(needle, folded.text.slice(from, to));
        if (near === undefined || !edgesKept(line, start, end, written)) return;
        const cutsWord =
            (spacedWord(line[start - 1]) && spacedWord(line[start])) ||
            (spacedWord(line[end - 1]) && spacedWord(line[end]));
        spans.push({ from: start, to: end, ...near, ...(cutsWord ? { cutsWord } : {}) });
    };
    for (const variant of new Set([needle, ...withoutEdgeMarks(needle)]))
        for (let at = folded.text.indexOf(variant); at !== -1; at = folded.text.indexOf(variant, at + 1))
            consider(at, at + variant.length);
    const budget = maxNearEdits(needle);
    // Levenshtein counts a swap as two edits: search one wider, then judge each span by nearness.
    if (budget > 0) {
        for (const hit of search(folded.text, needle, budget + 1))
            for (let from = hit.start - 2; from <= hit.start + 2; from++)
                for (let to = hit.end - 2; to <= hit.end + 2; to++) consider(from, to);
    }
    // A changed number: the written string with each number free.
    if (HAS_NUMBER.test(needle)) {
        const literal = needle.split(NUMBER).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
        for (const hit of folded.text.matchAll(new RegExp(literal.join("\\p{N}+"), "gu")))
            consider(hit.index, hit.index + hit[0].length);
    }
    const edgeChar = boundary === "start" ? needle.trimStart()[0] : needle.trimEnd().at(-1);
    const keepsEdge = (span: NearSpan) => {
        const found = fold(line.slice(span.from, span.to)).text;
        return (boundary === "start" ? found[0] : found.at(-1)) === edgeChar;
    };
    return placesOf(spans, boundary, keepsEdge, isWordChar(edgeChar ?? " "), written.trim().length);
}

/** Whether the span [start, end) of `line` keeps the written string's edges (see nearSpans). */
function edgesKept(line: string, start: number, end: number, written: string): boolean {
    const first = line[start];
    const last = line[end - 1];
    if (classOf(first) === "space" || classOf(last) === "space") return false;
    const writtenFirst = written.trimStart()[0];
    const writtenLast = written.trimEnd().at(-1);
    if (classOf(first) === "mark" && classOf(writtenFirst) !== "mark") return false;
    if (classOf(last) === "mark" && classOf(writtenLast) !== "mark") return false;
    return true;
}

/**
 * Overlapping spans are one place: the nearest span is taken first (fewest edits; then the one whose
 * edge character is the written one's: "重试机制", not "机制", for "重机制"; then the length nearest the
 * written one's at a word edge; then the narrower edge),
 * and every span overlapping a taken one is dropped. A span bridging two places ("A session A" in
 * "A session A session") never merges them into one.
 */
function placesOf(
    spans: NearSpan[],
    boundary: "start" | "end",
    keepsEdge: (span: NearSpan) => boolean,
    wordEdge: boolean,
    writtenLength: number,
): NearSpan[] {
    const kept = new Map(spans.map((span) => [span, keepsEdge(span)]));
    // Between a substitution and a deletion of the same character, the substitution: the author's
    // edge stays where they put it. Only where the written edge is a word character: a mark the
    // author wrote is rather left out than swapped for the document's ("here." reads "here", not "here,").
    const lengthGap = (span: NearSpan) => (wordEdge ? Math.abs(span.to - span.from - writtenLength) : 0);
    const order = [...spans].sort(
        (a, b) =>
            Number(a.cutsWord ?? false) - Number(b.cutsWord ?? false) ||
            a.tier - b.tier ||
            a.edits - b.edits ||
            Number(kept.get(b)) - Number(kept.get(a)) ||
            lengthGap(a) - lengthGap(b) ||
            (boundary === "start" ? b.from - a.from : a.to - b.to) ||
            a.from - b.from,
    );
    const taken: NearSpan[] = [];
    for (const span of order) if (!taken.some((t) => span.from < t.to && t.from < span.to)) taken.push(span);
    return taken.sort((a, b) => a.from - b.from);
}
