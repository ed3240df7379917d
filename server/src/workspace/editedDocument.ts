/**
 * The open buffers of the language server (docs/architecture.md, "Edits cost what changed"): the
 * `TextDocument` of vscode-languageserver-textdocument, the same lines, positions and offsets, with
 * its text held in pieces (core/textChunks.ts). That library keeps one string and concatenates the
 * whole of it again at every edit, which V8 then copies (flattens) on the next read: at 1.6M
 * characters that copy was most of an edit's cost. Here an edit copies one piece and updates the
 * line starts after it; the whole text is made only when something asks for it (`getText()`), and an
 * annotation file's check reads the pieces (`documentText`).
 */
import type { Position, Range } from "vscode-languageserver-protocol";
import { TextDocument, type TextDocumentContentChangeEvent } from "vscode-languageserver-textdocument";
import { lastAtMost } from "../core/lines";
import { type Text, TextChunks } from "../core/textChunks";

const LF = 10;
const CR = 13;

export class EditedDocument implements TextDocument {
    private content: TextChunks;
    /** The offset where each line starts, as vscode-languageserver-textdocument counts lines (LF, CRLF, CR). */
    private lineOffsets: number[] | undefined;

    private constructor(
        readonly uri: string,
        readonly languageId: string,
        private currentVersion: number,
        text: string,
        piece?: number,
    ) {
        this.content = TextChunks.of(text, piece);
    }

    /** TextDocuments' `create` (`piece`: characters per piece, for tests that edit across many). */
    static create(uri: string, languageId: string, version: number, text: string, piece?: number): EditedDocument {
        return new EditedDocument(uri, languageId, version, text, piece);
    }

    /** TextDocuments' `update`: the changes applied in order; the same document is returned. */
    static update(document: TextDocument, changes: TextDocumentContentChangeEvent[], version: number): TextDocument {
        if (!(document instanceof EditedDocument)) throw new Error("EditedDocument.update: not an EditedDocument");
        for (const change of changes) document.apply(change);
        document.currentVersion = version;
        return document;
    }

    get version(): number {
        return this.currentVersion;
    }

    /** The text now, as pieces that later edits do not change. */
    get text(): TextChunks {
        return this.content;
    }

    get lineCount(): number {
        return this.offsets().length;
    }

    getText(range?: Range): string {
        if (!range) return this.content.toString();
        // As String.prototype.substring, which that library uses: a reversed range reads the same text.
        const start = this.offsetAt(range.start);
        const end = this.offsetAt(range.end);
        return this.content.slice(Math.min(start, end), Math.max(start, end));
    }

    positionAt(offset: number): Position {
        const at = Math.max(Math.min(offset, this.content.length), 0);
        const lineOffsets = this.offsets();
        if (lineOffsets.length === 0) return { line: 0, character: at };
        // The first line starts at 0 and `at` is at least 0: the last line starting at or before it.
        const line = lastAtMost(lineOffsets, at);
        return { line, character: this.beforeEol(at, lineOffsets[line]) - lineOffsets[line] };
    }

    offsetAt(position: Position): number {
        const lineOffsets = this.offsets();
        if (position.line >= lineOffsets.length) return this.content.length;
        if (position.line < 0) return 0;
        const lineOffset = lineOffsets[position.line];
        if (position.character <= 0) return lineOffset;
        const next = position.line + 1 < lineOffsets.length ? lineOffsets[position.line + 1] : this.content.length;
        return this.beforeEol(Math.min(lineOffset + position.character, next), lineOffset);
    }

    getLineRange(line: number): Range {
        const lineOffsets = this.offsets();
        if (line >= lineOffsets.length) {
            const last = lineOffsets.length - 1;
            const end = { line: last, character: this.content.length - lineOffsets[last] };
            return { start: { line: last, character: 0 }, end };
        }
        if (line < 0) return { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
        const start = lineOffsets[line];
        const next = line + 1 < lineOffsets.length ? lineOffsets[line + 1] : this.content.length;
        return { start: { line, character: 0 }, end: { line, character: this.beforeEol(next, start) - start } };
    }

    getEOLCharacters(line: number): string {
        const lineOffsets = this.offsets();
        if (line >= lineOffsets.length || line < 0) return "";
        const next = line + 1 < lineOffsets.length ? lineOffsets[line + 1] : this.content.length;
        return this.content.slice(this.beforeEol(next, lineOffsets[line]), next);
    }

    /** One change, as vscode-languageserver-textdocument applies it (its line offsets updated the same way). */
    private apply(change: TextDocumentContentChangeEvent): void {
        if (!("range" in change) || change.range === undefined) {
            this.content = TextChunks.of(change.text, this.content.pieceSize);
            this.lineOffsets = undefined;
            return;
        }
        const range = wellFormed(change.range);
        const start = this.offsetAt(range.start);
        const end = this.offsetAt(range.end);
        this.content = this.content.replace(start, end, change.text);
        const insertedEnd = start + change.text.length;
        const crlfAtStart = this.content.charCodeAt(start - 1) === CR && this.content.charCodeAt(start) === LF;
        const crlfAtEnd =
            this.content.charCodeAt(insertedEnd - 1) === CR && this.content.charCodeAt(insertedEnd) === LF;
        const lines = this.lineOffsets?.length ?? 0;
        if (crlfAtStart || crlfAtEnd || range.end.line >= lines) {
            // A CRLF pair across the edit's edges is not in the inserted text's line starts, and a range
            // past the last line has no line to splice at: the lines are counted again when asked.
            this.lineOffsets = undefined;
            return;
        }
        const startLine = Math.max(range.start.line, 0);
        const endLine = Math.max(range.end.line, 0);
        let lineOffsets = this.offsets();
        const added = lineStarts(change.text, false, start);
        if (endLine - startLine === added.length) {
            for (let i = 0; i < added.length; i++) lineOffsets[i + startLine + 1] = added[i];
        } else if (added.length < 10_000) {
            lineOffsets.splice(startLine + 1, endLine - startLine, ...added);
        } else {
            lineOffsets = lineOffsets.slice(0, startLine + 1).concat(added, lineOffsets.slice(endLine + 1));
            this.lineOffsets = lineOffsets;
        }
        const diff = change.text.length - (end - start);
        if (diff !== 0) {
            for (let i = startLine + 1 + added.length; i < lineOffsets.length; i++) lineOffsets[i] += diff;
        }
    }

    private offsets(): number[] {
        if (this.lineOffsets === undefined) this.lineOffsets = lineStarts(this.content.toString(), true);
        return this.lineOffsets;
    }

    private beforeEol(offset: number, lineOffset: number): number {
        let at = offset;
        while (at > lineOffset && isEol(this.content.charCodeAt(at - 1))) at--;
        return at;
    }
}

/** Apply changes to an open document, of this module or of vscode-languageserver-textdocument. */
export function updateDocument(
    document: TextDocument,
    changes: TextDocumentContentChangeEvent[],
    version: number,
): TextDocument {
    return document instanceof EditedDocument
        ? EditedDocument.update(document, changes, version)
        : TextDocument.update(document, changes, version);
}

/** The text of an open document for a check: the pieces of an EditedDocument, else its string. */
export function documentText(document: TextDocument): Text {
    return document instanceof EditedDocument ? document.text : document.getText();
}

function lineStarts(text: string, atLineStart: boolean, textOffset = 0): number[] {
    const result = atLineStart ? [textOffset] : [];
    for (let i = 0; i < text.length; i++) {
        const ch = text.charCodeAt(i);
        if (isEol(ch)) {
            if (ch === CR && i + 1 < text.length && text.charCodeAt(i + 1) === LF) i++;
            result.push(textOffset + i + 1);
        }
    }
    return result;
}

function isEol(ch: number): boolean {
    return ch === CR || ch === LF;
}

function wellFormed(range: Range): Range {
    const { start, end } = range;
    if (start.line > end.line || (start.line === end.line && start.character > end.character)) {
        return { start: end, end: start };
    }
    return range;
}
