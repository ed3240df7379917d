/**
 * Converting between core coordinates and LSP ones. Core: 1-based lines, 0-based UTF-16 columns,
 * offsets into LF-normalised content. LSP: 0-based lines and characters. Normalising CRLF to LF
 * keeps every line and column, so a cited document's core range is its LSP range shifted by a line.
 */
import type { Location, Position as LspPosition, Range as LspRange } from "vscode-languageserver-protocol";
import { rawOffsetInJsonString } from "../core/jsonString";
import { LineIndex } from "../core/lines";
import { isDocumentFailure } from "../core/session";
import type { Range } from "../core/types";
import type { AnnotationFile, RefSite } from "../workspace/annotationFile";
import type { FeatureWorkspace } from "./featureWorkspace";

const fileLines = new WeakMap<AnnotationFile, LineIndex>();

/** The line index of an annotation file's own text (cached per file version). */
export function linesOf(file: AnnotationFile): LineIndex {
    let lines = fileLines.get(file);
    if (!lines) {
        lines = new LineIndex(file.text);
        fileLines.set(file, lines);
    }
    return lines;
}

/** An LSP position for a place as people read it: line and column both counted from 1. */
export function lspPositionOfPeoples(place: { line: number; column: number }): LspPosition {
    return { line: place.line - 1, character: place.column - 1 };
}

export function positionAt(file: AnnotationFile, offset: number): LspPosition {
    const at = linesOf(file).positionAt(Math.max(0, Math.min(offset, file.text.length)));
    return { line: at.line - 1, character: at.column };
}

export function offsetAt(file: AnnotationFile, position: LspPosition): number {
    const lines = linesOf(file);
    const line = Math.min(position.line + 1, lines.lineCount);
    if (line < 1) return 0;
    return Math.min(lines.lineStart(line) + position.character, lines.lineEnd(line));
}

export function rangeOfSpan(file: AnnotationFile, span: { offset: number; length: number }): LspRange {
    return { start: positionAt(file, span.offset), end: positionAt(file, span.offset + span.length) };
}

/** The range of the token a JSON pointer names in the annotation file. */
export function rangeOfPointer(file: AnnotationFile, pointer: string): LspRange {
    return rangeOfSpan(file, file.spanOf(pointer));
}

/** Locate the ref objects of many citations with one scan per annotation file. */
export function prefetchRefSpans(citations: { file: AnnotationFile; site: RefSite }[]): void {
    const byFile = new Map<AnnotationFile, string[]>();
    for (const { file, site } of citations) {
        const list = byFile.get(file);
        if (list) list.push(site.pointer);
        else byFile.set(file, [site.pointer]);
    }
    for (const [file, pointers] of byFile) file.spansOf(pointers);
}

/** The core's place (line from 1, column from 0) as an LSP position (line from 0): the one conversion. */
export function toLspPosition(place: { line: number; column: number }): LspPosition {
    return { line: place.line - 1, character: place.column };
}

/** An LSP position as the core's place (line from 1, column from 0). */
export function fromLspPosition(position: LspPosition): { line: number; column: number } {
    return { line: position.line + 1, column: position.character };
}

export function toLspRange(range: Range): LspRange {
    return { start: toLspPosition(range.start), end: toLspPosition(range.end) };
}

/** The whole of a line (from 1) of `length` characters, as an LSP range. */
export function lineRange(line: number, length: number): LspRange {
    return toLspRange({ start: { line, column: 0 }, end: { line, column: length } });
}

/**
 * Where a span of a cited document is: in its file (workspace mode), or inside the `content`
 * string of the embedded document (sessions), so every span has somewhere to point.
 */
export function locateSpan(
    workspace: FeatureWorkspace,
    file: AnnotationFile,
    path: string,
    range: Range,
): Location | undefined {
    if (!file.embedded) {
        const uri = workspace.uriOf(file, path);
        return uri ? { uri, range: toLspRange(range) } : undefined;
    }
    const embedded = file.documents?.find((d) => d.path === path);
    const document = file.lookup.get(path);
    if (!embedded || !document || isDocumentFailure(document)) return undefined;
    const token = file.spanOf(`${embedded.pointer}/content`);
    const raw = file.text.slice(token.offset, token.offset + token.length);
    const toFile = (line: number, column: number) =>
        token.offset + rawOffsetInJsonString(raw, document.lines.offsetAt(line, column));
    return {
        uri: file.uri,
        range: {
            start: positionAt(file, toFile(range.start.line, range.start.column)),
            end: positionAt(file, toFile(range.end.line, range.end.column)),
        },
    };
}
