/**
 * An immutable text held in pieces (docs/architecture.md, "Edits cost what changed"). An edit makes a
 * new text that shares every piece it did not touch, so a one-character edit of a 1.6M-character file
 * copies one piece of about 16,000 characters, not the file: V8 would otherwise copy (flatten) the
 * whole string on the next read after each edit, which costs more than the incremental check itself.
 * The whole text as one string is made only when asked for, once per version. Two versions tell what
 * changed between them by their pieces (the same string object: the same text). Pure.
 */

import { lastAtMost } from "./lines";

/** Characters per piece when a text is cut; a piece grows to twice that before it is cut again. */
const PIECE = 1 << 14;

export class TextChunks {
    /** The whole text as one string, once made (or the string the text was made from). */
    private flat: string | undefined;
    /** Offset of each piece in the text. */
    private readonly starts: number[];
    readonly length: number;

    private constructor(
        private readonly pieces: readonly string[],
        /** Characters per piece (tests use small pieces to edit across many). */
        private readonly piece: number,
        flat?: string,
    ) {
        this.flat = flat;
        this.starts = new Array(pieces.length);
        let at = 0;
        for (let i = 0; i < pieces.length; i++) {
            this.starts[i] = at;
            at += pieces[i].length;
        }
        this.length = at;
    }

    /** A text of one string: its pieces are slices of it (no copy), and it is its own whole text. */
    static of(text: string, piece = PIECE): TextChunks {
        return new TextChunks(cut(text, piece), piece, text);
    }

    /** Characters per piece when this text is cut. */
    get pieceSize(): number {
        return this.piece;
    }

    toString(): string {
        if (this.flat === undefined) this.flat = this.pieces.length === 1 ? this.pieces[0] : this.pieces.join("");
        return this.flat;
    }

    /** The characters [from, to), as String.prototype.slice with offsets inside the text. */
    slice(from: number, to = this.length): string {
        const start = Math.max(0, Math.min(from, this.length));
        const end = Math.max(start, Math.min(to, this.length));
        if (this.flat !== undefined) return this.flat.slice(start, end);
        if (start === end) return "";
        const i = this.pieceAt(start);
        const piece = this.pieces[i];
        if (end <= this.starts[i] + piece.length) return piece.slice(start - this.starts[i], end - this.starts[i]);
        let text = piece.slice(start - this.starts[i]);
        for (let k = i + 1; k < this.pieces.length && this.starts[k] < end; k++) {
            text += this.pieces[k].slice(0, end - this.starts[k]);
        }
        return text;
    }

    /** The UTF-16 code unit at an offset; NaN outside the text (as a string's). */
    charCodeAt(offset: number): number {
        if (offset < 0 || offset >= this.length) return Number.NaN;
        if (this.flat !== undefined) return this.flat.charCodeAt(offset);
        const i = this.pieceAt(offset);
        return this.pieces[i].charCodeAt(offset - this.starts[i]);
    }

    /** The text with [from, to) replaced by `text`: a new text sharing the untouched pieces. */
    replace(from: number, to: number, text: string): TextChunks {
        if (this.pieces.length === 0) return TextChunks.of(text, this.piece);
        const start = Math.max(0, Math.min(from, this.length));
        const end = Math.max(start, Math.min(to, this.length));
        const i = this.pieceAt(start);
        const j = this.pieceAt(end);
        let middle =
            this.pieces[i].slice(0, start - this.starts[i]) + text + this.pieces[j].slice(end - this.starts[j]);
        let next = j + 1;
        // A piece left small joins the next one, so that deletions do not leave many tiny pieces.
        const piece = this.piece;
        if (
            middle.length < piece / 2 &&
            next < this.pieces.length &&
            middle.length + this.pieces[next].length <= 2 * piece
        ) {
            middle += this.pieces[next];
            next++;
        }
        const pieces = this.pieces.slice(0, i);
        if (middle.length > 2 * piece) pieces.push(...cut(middle, piece));
        else if (middle.length > 0) pieces.push(middle);
        for (let k = next; k < this.pieces.length; k++) pieces.push(this.pieces[k]);
        return new TextChunks(pieces, piece);
    }

    /** Length of the leading pieces this text shares with another (the same strings), in characters. */
    sharedPrefix(other: TextChunks): number {
        let at = 0;
        const count = Math.min(this.pieces.length, other.pieces.length);
        for (let i = 0; i < count && this.pieces[i] === other.pieces[i]; i++) at += this.pieces[i].length;
        return at;
    }

    /** Length of the trailing pieces this text shares with another, at most `limit` characters. */
    sharedSuffix(other: TextChunks, limit: number): number {
        let n = 0;
        for (let a = this.pieces.length - 1, b = other.pieces.length - 1; a >= 0 && b >= 0; a--, b--) {
            const piece = this.pieces[a];
            if (piece !== other.pieces[b] || n + piece.length > limit) break;
            n += piece.length;
        }
        return n;
    }

    /** The piece holding an offset (the last piece for the end of the text). */
    private pieceAt(offset: number): number {
        return lastAtMost(this.starts, offset);
    }
}

/** A text as an annotation file's check takes it: one string, or the pieces of an edited buffer. */
export type Text = string | TextChunks;

/** The whole text as one string. */
export function textString(text: Text): string {
    return typeof text === "string" ? text : text.toString();
}

function cut(text: string, piece: number): string[] {
    const pieces: string[] = [];
    for (let at = 0; at < text.length; at += piece) pieces.push(text.slice(at, at + piece));
    return pieces;
}

/** Blocks compared at once: string equality runs in the engine, a character loop would not. */
const BLOCK = 4096;

/** Length of the common prefix of two texts; two versions of one buffer skip the pieces they share. */
export function commonPrefix(a: Text, b: Text): number {
    const limit = Math.min(a.length, b.length);
    let at = a instanceof TextChunks && b instanceof TextChunks ? a.sharedPrefix(b) : 0;
    while (at + BLOCK <= limit && a.slice(at, at + BLOCK) === b.slice(at, at + BLOCK)) at += BLOCK;
    const end = Math.min(at + BLOCK, limit);
    const x = a.slice(at, end);
    const y = b.slice(at, end);
    let k = 0;
    while (k < x.length && x.charCodeAt(k) === y.charCodeAt(k)) k++;
    return at + k;
}

/** Length of the common suffix, at most `limit` (so that it does not overlap the common prefix). */
export function commonSuffix(a: Text, b: Text, limit: number): number {
    let n = a instanceof TextChunks && b instanceof TextChunks ? a.sharedSuffix(b, limit) : 0;
    while (
        n + BLOCK <= limit &&
        a.slice(a.length - n - BLOCK, a.length - n) === b.slice(b.length - n - BLOCK, b.length - n)
    )
        n += BLOCK;
    const size = Math.min(BLOCK, limit - n);
    const x = a.slice(a.length - n - size, a.length - n);
    const y = b.slice(b.length - n - size, b.length - n);
    let k = 0;
    while (k < size && x.charCodeAt(size - 1 - k) === y.charCodeAt(size - 1 - k)) k++;
    return n + k;
}
