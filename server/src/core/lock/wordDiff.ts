/**
 * The words that changed between a locked text and the text a ref cites now, for people (the
 * editor's hover on a `text-changed` ref). jsdiff's word diff (the `diff` package, already used by
 * cite and repair); pure. Texts longer than MAX_DIFFED are not diffed: the diff would be unreadable
 * and its cost quadratic in the worst case.
 */
import { diffWordsWithSpace } from "diff";
import { visible } from "../visible";

export interface DiffPiece {
    op: "same" | "removed" | "added";
    text: string;
}

export const MAX_DIFFED = 4000;

/** The pieces in reading order (a removal before the addition that replaces it); undefined when too long. */
export function wordDiff(before: string, after: string): DiffPiece[] | undefined {
    if (before.length > MAX_DIFFED || after.length > MAX_DIFFED) return undefined;
    const pieces: DiffPiece[] = [];
    for (const change of diffWordsWithSpace(before, after)) {
        const op = change.added ? "added" : change.removed ? "removed" : "same";
        const last = pieces.at(-1);
        if (last && last.op === op) last.text += change.value;
        else pieces.push({ op, text: change.value });
    }
    return pieces;
}

/** Words of unchanged text kept on each side of a change in a diff line. */
const CONTEXT_WORDS = 3;

/**
 * The words that changed, on one line a model or a terminal reads (docs/agents.md, "Brief check"):
 * `… rebalancing [-is about-]{+now takes+} 40% …`, removed words in `[-…-]`, added in `{+…+}`, at most
 * CONTEXT_WORDS unchanged words around each change, control and bidi characters escaped, and the line
 * cut at `maxChars` after the first change at the latest. Undefined when the texts are too long to diff.
 */
export function wordDiffLine(before: string, after: string, maxChars = 240): string | undefined {
    const diffed = wordDiff(before, after);
    if (!diffed) return undefined;
    const pieces = changeRuns(diffed);
    const shown = pieces.map((piece, i) => {
        const text = piece.text.replace(/\s+/g, " ");
        if (piece.op === "removed") return `[-${text}-]`;
        if (piece.op === "added") return `{+${text}+}`;
        return context(text, i > 0, i < pieces.length - 1);
    });
    const line = visible(shown.join(""));
    if (line.length <= maxChars) return line;
    // Keep whole the first change at least: the words that changed are the point of the line.
    let firstEnd = endOfMark(line, line.search(/\[-|\{\+/));
    if (line.startsWith("{+", firstEnd)) firstEnd = endOfMark(line, firstEnd);
    return `${line.slice(0, Math.max(maxChars - 1, firstEnd))}…`;
}

/**
 * Changes separated only by spaces read as one: `[-group rebalancing is-]{+groups now rebalance+}`
 * rather than three word-by-word swaps. Each run of changes becomes one removal and one addition, and
 * a run takes in the rest of the words it touches: `2.9` → `3.1` reads `[-2.9-]{+3.1+}`, not
 * `[-2-]{+3+}.[-9-]{+1+}` (jsdiff cuts at punctuation).
 */
function changeRuns(pieces: DiffPiece[]): DiffPiece[] {
    const runs: DiffPiece[] = [];
    let removed = "";
    let added = "";
    const open = () => removed !== "" || added !== "";
    const both = (text: string) => {
        removed += text;
        added += text;
    };
    const flush = () => {
        if (removed.trim() !== "") runs.push({ op: "removed", text: removed.trim() });
        if (added.trim() !== "") runs.push({ op: "added", text: added.trim() });
        removed = "";
        added = "";
    };
    for (let i = 0; i < pieces.length; i++) {
        const piece = pieces[i];
        if (piece.op === "removed") removed += piece.text;
        else if (piece.op === "added") added += piece.text;
        else {
            let text = piece.text;
            const changeFollows = i < pieces.length - 1;
            if (open()) {
                // The end of the word a change is in, and anything up to the next change without a space.
                const joins = changeFollows && (text.trim() === "" || !/\s/.test(text));
                const inWord = [removed, added].some((t) => /\S$/.test(t));
                const tail = joins ? text : inWord ? wordHead(text) : "";
                both(tail);
                text = text.slice(tail.length);
                if (text === "") continue;
                flush();
            }
            // The start of the word the next change is in.
            const head = changeFollows && nextChangeInWord(pieces, i + 1) ? wordTail(text) : "";
            const kept = text.slice(0, text.length - head.length);
            if (kept !== "") runs.push({ op: "same", text: kept });
            both(head);
        }
    }
    flush();
    return runs.map((piece, i) => {
        if (piece.op !== "same") return piece;
        const lead = i > 0 && !/^\s/.test(piece.text) ? " " : "";
        const trail = i < runs.length - 1 && !/\s$/.test(piece.text) ? " " : "";
        return { op: "same", text: `${lead}${piece.text}${trail}` };
    });
}

/** Whether the change at `at` (a removal, an addition, or one of each) starts inside a word. */
function nextChangeInWord(pieces: DiffPiece[], at: number): boolean {
    for (let i = at; i < pieces.length && pieces[i].op !== "same"; i++) {
        if (/^\S/.test(pieces[i].text)) return true;
    }
    return false;
}

/** The characters before the first white space (all of a text without any). */
function wordHead(text: string): string {
    return /^\S*/.exec(text)?.[0] ?? "";
}

/** The characters after the last white space (all of a text without any). */
function wordTail(text: string): string {
    return /\S*$/.exec(text)?.[0] ?? "";
}

/** Where the `[-…-]` or `{+…+}` mark starting at `at` ends. */
function endOfMark(line: string, at: number): number {
    const close = line.indexOf(line.startsWith("[-", at) ? "-]" : "+}", at + 2);
    return close === -1 ? line.length : close + 2;
}

/** Unchanged words around changes: the last few before a change, the first few after one. */
function context(text: string, afterChange: boolean, beforeChange: boolean): string {
    const words = text
        .trim()
        .split(" ")
        .filter((word) => word !== "");
    const lead = text.startsWith(" ") ? " " : "";
    const trail = text.endsWith(" ") ? " " : "";
    const keep = (afterChange ? CONTEXT_WORDS : 0) + (beforeChange ? CONTEXT_WORDS : 0);
    if (words.length <= keep || (!afterChange && !beforeChange)) return text;
    const head = afterChange ? `${lead}${words.slice(0, CONTEXT_WORDS).join(" ")} ` : "";
    const tail = beforeChange ? ` ${words.slice(-CONTEXT_WORDS).join(" ")}${trail}` : "";
    return `${head}…${tail}`;
}
