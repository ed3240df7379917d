/**
 * What a word is, for every part that needs one (docs/architecture.md, "One definition of a word"):
 * boundaries and their edges, `mid-word-boundary`, cite, repair's readings and the evidence tokenizer.
 * A word is a run of letters, combining marks, digits and `_` (an identifier is one word); in a script written without spaces between
 * words (Han, Hiragana, Katakana with its prolonged sound mark, Thai, Lao, Khmer, Myanmar) every
 * character is a word of its own. Pure.
 */

/** Letters, combining marks, digits, `_`: the inside of a regular-expression character class (`u` or `v`). */
export const WORD_CHAR_CLASS = "\\p{L}\\p{M}\\p{N}_";

/** Scripts written without spaces between words: the inside of a character class (`u` or `v`). */
export const UNSPACED_CHAR_CLASS =
    "\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\u30FC\\p{Script=Thai}\\p{Script=Lao}\\p{Script=Khmer}\\p{Script=Myanmar}";

const WORD_CHAR = new RegExp(`[${WORD_CHAR_CLASS}]`, "u");
const WORD_CHARS = new RegExp(`[${WORD_CHAR_CLASS}]`, "gu");
/** Runs of word characters, global (for `matchAll`, which copies it, and `match`, which resets it). */
export const WORD_RUNS = new RegExp(`[${WORD_CHAR_CLASS}]+`, "gu");
const UNSPACED = new RegExp(`[${UNSPACED_CHAR_CLASS}]`, "u");

/**
 * ASCII text is judged without the Unicode classes above: V8 compiles a regular expression on its
 * first use, and one with `\p{…}` classes costs a command's start-up about a millisecond each (the
 * token edges' negated class about four). The ASCII part of each class is spelled out here.
 */
const NOT_ASCII = /[\u0080-\uffff]/;
const ASCII_WORD_CHAR = /[A-Za-z0-9_]/;
/** `TOKEN_EDGES` (below) for ASCII text: `\p{L}` there is `A-Za-z`, `\p{N}` is `0-9`, `\p{M}` has none. */
const ASCII_TOKEN_EDGES = /^[^A-Za-z0-9_%$]+|[^A-Za-z0-9_%$]+$/g;

/** Letters, digits and `_` of ASCII (a character code). */
function isAsciiWordCode(code: number): boolean {
    return (
        (code >= 0x61 && code <= 0x7a) ||
        (code >= 0x41 && code <= 0x5a) ||
        (code >= 0x30 && code <= 0x39) ||
        code === 0x5f
    );
}

/** Whether `char` (one character) can be part of a word. */
export function isWordChar(char: string): boolean {
    if (char.length === 1 && char.charCodeAt(0) < 0x80) return isAsciiWordCode(char.charCodeAt(0));
    return WORD_CHAR.test(char);
}

/** Whether `text` holds a character of a script written without spaces between words (none in ASCII). */
export function isUnspaced(text: string): boolean {
    if (text.length === 1 ? text.charCodeAt(0) < 0x80 : !NOT_ASCII.test(text)) return false;
    return UNSPACED.test(text);
}

/** The runs of word characters in `text`, in order (a run of an unspaced script is one run here). */
export function wordRuns(text: string): string[] {
    return text.match(WORD_RUNS) ?? [];
}

/** How many word characters `text` has. */
export function wordCharCount(text: string): number {
    return text.match(WORD_CHARS)?.length ?? 0;
}

/** English words that carry no evidence on their own (search terms) and say nothing in a boundary. */
export const STOP_WORDS: ReadonlySet<string> = new Set([
    "a",
    "an",
    "and",
    "are",
    "as",
    "at",
    "be",
    "by",
    "can",
    "do",
    "for",
    "from",
    "in",
    "is",
    "it",
    "of",
    "on",
    "or",
    "the",
    "this",
    "to",
    "was",
    "what",
    "which",
    "with",
]);

/**
 * Words that say how a claim is put rather than what it is about (questions, modals, pronouns). They
 * are indexed and scored like any term, but left out of a query's coverage, so that "how should"
 * absent from every document does not make a query look unanswerable (docs/evidence.md, "Abstention").
 */
export const WEAK_WORDS: ReadonlySet<string> = new Set(
    (
        "about all also any been being but could did does each every had has have he her his how if into its may " +
        "might more most must no not only our she should so some such than that their them then there these they " +
        "those us very was we were when where who why will would you your"
    ).split(" "),
);

/** A word of this many characters or more can carry a boundary's meaning (two in an unspaced script). */
const MEANINGFUL_LENGTH = 3;

/** What surrounds a word in a token and is not part of what it says: quotes, brackets, closing punctuation (not `%` `$` `€` `£` `¥`). */
const TOKEN_EDGES = new RegExp(`^[^${WORD_CHAR_CLASS}%$€£¥]+|[^${WORD_CHAR_CLASS}%$€£¥]+$`, "gu");

/**
 * Whether `text` holds a word a reader can anchor on (docs/boundaries.md, "Readable"): a token
 * (between spaces, without the punctuation around it) that is not a stop or weak word ("The", "A",
 * "Our") and has at least three characters ("01" and "is" say little, "37%" and "2.3" do), or two
 * characters of a script written without spaces.
 */
export function hasMeaningfulWord(text: string): boolean {
    const ascii = !NOT_ASCII.test(text);
    for (const token of text.split(/\s+/u)) {
        const core = token.replace(ascii ? ASCII_TOKEN_EDGES : TOKEN_EDGES, "");
        if (!(ascii ? ASCII_WORD_CHAR : WORD_CHAR).test(core)) continue;
        const length = ascii ? core.length : [...core].length;
        if (!ascii && isUnspaced(core)) {
            if (length >= 2) return true;
            continue;
        }
        if (length < MEANINGFUL_LENGTH) continue;
        const folded = core.toLowerCase();
        if (!STOP_WORDS.has(folded) && !WEAK_WORDS.has(folded)) return true;
    }
    return false;
}
