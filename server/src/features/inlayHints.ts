/** Inlay hints after each ref: the text it resolves to, shortened (setting sourcecheck.inlayHints.enabled). */
import type { InlayHint, Range } from "vscode-languageserver";
import type { AnnotationFile } from "../workspace/annotationFile";
import { oneLine, shorten } from "./format";
import { positionAt } from "./positions";

const MAX_LABEL = 48;

export function inlayHints(file: AnnotationFile, range: Range): InlayHint[] {
    const hints: InlayHint[] = [];
    for (const site of file.sites) {
        if (!site.resolution.valid) continue;
        const token = file.spanOf(site.pointer);
        const position = positionAt(file, token.offset + token.length);
        if (position.line < range.start.line || position.line > range.end.line) continue;
        hints.push({
            position,
            label: `⇒ "${oneLine(site.resolution.text, MAX_LABEL)}"`,
            paddingLeft: true,
            tooltip: shorten(site.resolution.text, 1000),
        });
    }
    return hints;
}
