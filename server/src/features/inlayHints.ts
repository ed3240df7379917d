/** Inlay hints after each ref: the text it resolves to, shortened (setting sourcecheck.inlayHints.enabled). */
import type { InlayHint, Range } from "vscode-languageserver-protocol";
import { spanEdges } from "../core/boundaries";
import { splitsSurrogatePair } from "../core/occurrences";
import type { AnnotationFile } from "../workspace/annotationFile";
import { shorten } from "./format";
import { positionAt } from "./positions";

/**
 * VS Code cuts inlay hints longer than `editor.inlayHints.maximumLength` (43 by default) with its own
 * "…": a label that fits, `⇒ "` + text + `"`, is shortened once, by us, with the head and tail kept.
 */
const MAX_TEXT = 38;

/**
 * At most `max` characters on one line: the middle replaced by one "…" (never a surrogate half). The
 * head ends and the tail begins at a word edge when one keeps at least a third of each, so a hint
 * reads "mobile clients…reconnected." rather than "mobile cl…n reconnected.".
 */
export function hintText(text: string, max = MAX_TEXT): string {
    const line = text.replace(/\n/g, "⏎").replace(/\t/g, "→");
    if (line.length <= max) return line;
    let head = Math.ceil((max - 1) * 0.6);
    let tail = max - 1 - head;
    const headEdge = spanEdges(line.slice(0, head + 1), "end")
        .filter((e) => e <= head && e >= head / 2)
        .pop();
    if (headEdge !== undefined) head = headEdge;
    const from = line.length - tail;
    const tailEdges = spanEdges(line.slice(from - 1), "start").map((s) => s + from - 1);
    const tailEdge = tailEdges.find((s) => s >= from && line.length - s >= tail / 3);
    if (tailEdge !== undefined) tail = line.length - tailEdge;
    if (splitsSurrogatePair(line, head)) head--;
    if (splitsSurrogatePair(line, line.length - tail)) tail--;
    return `${line.slice(0, head).trimEnd()}…${line.slice(line.length - tail).trimStart()}`;
}

/** Every hint of a file, computed once per stamp; requests (one per scroll) only filter by line. */
const cache = new WeakMap<AnnotationFile, { stamp: number; hints: InlayHint[] }>();

export function inlayHints(file: AnnotationFile, range: Range): InlayHint[] {
    let entry = cache.get(file);
    if (!entry || entry.stamp !== file.stamp) {
        entry = { stamp: file.stamp, hints: allHints(file) };
        cache.set(file, entry);
    }
    return entry.hints.filter((h) => h.position.line >= range.start.line && h.position.line <= range.end.line);
}

function allHints(file: AnnotationFile): InlayHint[] {
    const hints: InlayHint[] = [];
    const valid = file.sites.filter((site) => site.resolution.valid);
    file.spansOf(valid.map((site) => site.pointer));
    for (const site of valid) {
        if (!site.resolution.valid) continue; // (narrowing for the type checker)
        const token = file.spanOf(site.pointer);
        hints.push({
            position: positionAt(file, token.offset + token.length),
            label: `⇒ "${hintText(site.resolution.text)}"`,
            paddingLeft: true,
            tooltip: shorten(site.resolution.text, 1000),
        });
    }
    return hints;
}
