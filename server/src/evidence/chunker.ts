/**
 * Heading-aware chunking of Markdown (docs/evidence-internals.md, "Chunks"). A section runs from an ATX heading
 * to the next one; headings inside fenced code are text, not headings. A section is cut into chunks of
 * contiguous lines at blank lines once it grows past `maxChars` (a target, not a cap); a paragraph of
 * more than twice that (a fenced block of more than 16 times) is first cut at line ends, preferring
 * sentence ends (a huge single line stays whole). A section with no text under its heading yields no
 * chunk of its own: its heading lives on in the heading path of the sections below it.
 */

export const DEFAULT_MAX_CHARS = 900;

export interface Chunk {
    /** 1-based, inclusive; the first chunk of a section starts at its heading line. */
    startLine: number;
    endLine: number;
    headingPath: string[];
    /** The chunk's lines joined with `\n`. */
    text: string;
}

const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

interface Section {
    headingPath: string[];
    /** Index of the heading line, or -1 for text before the first heading. */
    headingLine: number;
    /** Body lines [from, to), 0-based. */
    from: number;
    to: number;
}

/** `lines` are the document's lines (LF-split); returns chunks in document order. */
export function chunkMarkdown(lines: readonly string[], maxChars = DEFAULT_MAX_CHARS): Chunk[] {
    const chunks: Chunk[] = [];
    for (const section of sections(lines)) chunkSection(lines, section, maxChars, chunks);
    return chunks;
}

function sections(lines: readonly string[]): Section[] {
    const found: Section[] = [];
    const stack: { level: number; title: string }[] = [];
    let current: Section = { headingPath: [], headingLine: -1, from: 0, to: 0 };
    let fence: string | undefined;
    for (let i = 0; i < lines.length; i++) {
        const line = lines[i];
        const before = fence;
        fence = fenceAfter(line, before);
        if (before !== undefined || fence !== undefined) continue; // fenced code: no heading here
        const heading = HEADING.exec(line);
        if (!heading) continue;
        current.to = i;
        found.push(current);
        const level = heading[1].length;
        while (stack.length > 0 && stack[stack.length - 1].level >= level) stack.pop();
        stack.push({ level, title: (heading[2] ?? "").trim() });
        current = { headingPath: stack.map((h) => h.title), headingLine: i, from: i + 1, to: i + 1 };
    }
    current.to = lines.length;
    found.push(current);
    return found;
}

/** The fence open after `line` (CommonMark fenced code), given the one open before it (undefined: none). */
function fenceAfter(line: string, open: string | undefined): string | undefined {
    const match = FENCE.exec(line);
    if (open !== undefined) {
        // A closing fence: the same character, at least as long, nothing after it.
        const closes =
            match !== null && match[1][0] === open[0] && match[1].length >= open.length && line.trim() === match[1];
        return closes ? undefined : open;
    }
    // A backtick fence's info string may not contain a backtick.
    if (match && (match[1][0] !== "`" || !line.slice(match[0].length).includes("`"))) return match[1];
    return undefined;
}

function isBlank(line: string): boolean {
    return line.trim() === "";
}

/** Blocks of a section body: paragraphs and whole fenced blocks, as [from, to) line ranges. */
function blocks(lines: readonly string[], from: number, to: number): [number, number][] {
    const found: [number, number][] = [];
    let start = -1;
    let fence: string | undefined;
    for (let i = from; i < to; i++) {
        const line = lines[i];
        const before = fence;
        fence = fenceAfter(line, before);
        if (before !== undefined) continue; // inside the block, or its closing line
        if (fence !== undefined) {
            if (start === -1) start = i;
            continue;
        }
        if (isBlank(line)) {
            if (start !== -1) found.push([start, i]);
            start = -1;
        } else if (start === -1) {
            start = i;
        }
    }
    if (start !== -1) found.push([start, lastNonBlank(lines, start, to)]);
    return found;
}

/** One past the last non-blank line in [from, to) (an unclosed fence may end in blank lines). */
function lastNonBlank(lines: readonly string[], from: number, to: number): number {
    let end = to;
    while (end > from && isBlank(lines[end - 1])) end--;
    return end;
}

/** A fenced block stays one chunk up to this many times the chunk size. */
const FENCE_WHOLE_UP_TO = 16;

/** A line that ends a sentence (a full stop, question or exclamation mark, maybe closed by a quote or bracket). */
const SENTENCE_END = /[.!?。！？…]["'”’)\]]*\s*$/;

/**
 * A block (a paragraph without blank lines; a fenced block only past FENCE_WHOLE_UP_TO times) longer than twice the chunk size, cut
 * into pieces at line ends: after a line that ends a sentence once a piece holds half the size, at
 * any line end once it holds twice the size. One pass: the work grows with the text, not its square
 * (a 5 MB file without blank lines is no longer one chunk). A single line is never cut.
 */
function bounded(lines: readonly string[], [from, to]: [number, number], maxChars: number): [number, number][] {
    // Code is read whole: a fenced block is cut only when it is far too big to be one passage.
    const whole = FENCE.test(lines[from]) ? FENCE_WHOLE_UP_TO * maxChars : 2 * maxChars;
    if (charsIn(lines, from, to) <= whole) return [[from, to]];
    const pieces: [number, number][] = [];
    let start = from;
    let size = 0;
    for (let i = from; i < to; i++) {
        size += lines[i].length + 1;
        // A piece starts on a line of text: never on a blank line (in a fence) or one that reads as a heading.
        const cuttable = i + 1 < to && !isBlank(lines[i + 1]) && !HEADING.test(lines[i + 1]);
        if (cuttable && ((size >= maxChars / 2 && SENTENCE_END.test(lines[i])) || size >= 2 * maxChars)) {
            pieces.push([start, i + 1]);
            start = i + 1;
            size = 0;
        }
    }
    pieces.push([start, to]);
    return pieces;
}

function chunkSection(lines: readonly string[], section: Section, maxChars: number, out: Chunk[]): void {
    const body = blocks(lines, section.from, section.to).flatMap((block) => bounded(lines, block, maxChars));
    if (body.length === 0) return; // heading only (or nothing at all): no chunk
    const emit = (from: number, to: number) => {
        const slice = lines.slice(from, to);
        out.push({ startLine: from + 1, endLine: to, headingPath: section.headingPath, text: slice.join("\n") });
    };
    let from = section.headingLine >= 0 ? section.headingLine : body[0][0];
    let to = body[0][1];
    let size = charsIn(lines, from, to);
    for (let b = 1; b < body.length; b++) {
        const [blockFrom, blockTo] = body[b];
        const blockSize = charsIn(lines, blockFrom, blockTo);
        if (size + blockSize > maxChars) {
            emit(from, to);
            from = blockFrom;
            size = 0;
        }
        to = blockTo;
        size += blockSize;
    }
    emit(from, to);
}

function charsIn(lines: readonly string[], from: number, to: number): number {
    let size = 0;
    for (let i = from; i < to; i++) size += lines[i].length + 1;
    return size;
}
