/** Inlay hints after each ref: the text it resolves to, shortened (setting sourcecheck.inlayHints.enabled). */
import type { InlayHint, Range } from "vscode-languageserver";
import type { AnnotationFile } from "../workspace/annotationFile";
import { oneLine, shorten } from "./format";
import { positionAt } from "./positions";

const MAX_LABEL = 48;

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
            label: `⇒ "${oneLine(site.resolution.text, MAX_LABEL)}"`,
            paddingLeft: true,
            tooltip: shorten(site.resolution.text, 1000),
        });
    }
    return hints;
}
