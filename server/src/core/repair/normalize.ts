/**
 * Text compared the way a person misquotes it: case, runs of whitespace, typographic versus straight
 * quotes and dashes do not count. Keeps a map back to the original columns, so a match found in the
 * folded text is a range of the real line.
 */

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

/** Fold one string: lower case (where it keeps the length), quotes and dashes unified, whitespace runs as one space. */
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
        const mapped = FOLD[ch] ?? ch;
        const lower = mapped.toLowerCase();
        text += lower.length === 1 ? lower : mapped;
        starts.push(i);
        ends.push(i + 1);
        i++;
    }
    return { text, starts, ends };
}

/** The original range of folded characters [from, to). */
export function originalRange(folded: FoldedText, from: number, to: number): { start: number; end: number } {
    return { start: folded.starts[from], end: folded.ends[to - 1] };
}
