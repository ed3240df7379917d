/**
 * Definition (a ref -> its exact span), references (a position in any document -> every ref
 * covering it, across all annotation files) and document links (a ref's `path` -> the document).
 */
import type { DocumentLink, Location, LocationLink, Position } from "vscode-languageserver-protocol";
import { isDocumentFailure } from "../core/session";
import type { AnnotationFile } from "../workspace/annotationFile";
import type { FeatureWorkspace } from "./featureWorkspace";
import { fromLspPosition, locateSpan, offsetAt, prefetchRefSpans, rangeOfPointer, rangeOfSpan } from "./positions";

export function definition(
    workspace: FeatureWorkspace,
    file: AnnotationFile,
    position: Position,
    linkSupport: boolean,
): LocationLink[] | Location[] | null {
    const site = file.hitAt(offsetAt(file, position))?.site;
    if (!site) return null;
    let target: Location | undefined;
    if (site.resolution.valid) {
        target = locateSpan(workspace, file, site.ref.path, site.resolution.range);
    } else {
        // A broken ref still leads to its document when there is one: to the line it names, if any.
        const document = file.lookup.get(site.ref.path);
        if (!document || isDocumentFailure(document)) return null;
        const line = document.lines.hasLine(site.ref.start.line) ? site.ref.start.line : 1;
        target = locateSpan(workspace, file, site.ref.path, {
            start: { line, column: 0 },
            end: { line, column: 0 },
        });
    }
    if (!target) return null;
    if (!linkSupport) return [target];
    return [
        {
            originSelectionRange: rangeOfPointer(file, site.pointer),
            targetUri: target.uri,
            targetRange: target.range,
            targetSelectionRange: target.range,
        },
    ];
}

/** Every ref whose resolved span covers the position (1-based lines inside the core ranges). */
export function references(
    workspace: FeatureWorkspace,
    uri: string,
    position: Position,
    annotationFile: AnnotationFile | undefined,
): Location[] {
    let targetPath = workspace.uris.uriToPath(uri);
    let { line, column } = fromLspPosition(position);
    // On a ref in an annotation file: the references of the span it resolves to.
    if (annotationFile) {
        const site = annotationFile.hitAt(offsetAt(annotationFile, position))?.site;
        const absolute = site ? workspace.absoluteOf(annotationFile, site.ref.path) : undefined;
        if (!site?.resolution.valid || absolute === undefined) return [];
        targetPath = absolute;
        line = site.resolution.range.start.line;
        column = site.resolution.range.start.column;
    }
    if (targetPath === undefined) return [];
    const covering = workspace.citationsOf(targetPath).filter(({ site }) => {
        if (!site.resolution.valid) return false;
        const { start, end } = site.resolution.range;
        const afterStart = line > start.line || (line === start.line && column >= start.column);
        const beforeEnd = line < end.line || (line === end.line && column <= end.column);
        return afterStart && beforeEnd;
    });
    prefetchRefSpans(covering);
    const locations: Location[] = covering.map(({ file, site }) => ({
        uri: file.uri,
        range: rangeOfPointer(file, site.pointer),
    }));
    return locations.sort((a, b) => a.uri.localeCompare(b.uri) || a.range.start.line - b.range.start.line);
}

/** Links on `path` values to the cited document (workspace mode, documents that can be read). */
export function documentLinks(workspace: FeatureWorkspace, file: AnnotationFile): DocumentLink[] {
    const links: DocumentLink[] = [];
    file.spansOf(file.sites.map((site) => `${site.pointer}/path`));
    for (const site of file.sites) {
        const target = workspace.uriOf(file, site.ref.path);
        if (!target || isDocumentFailure(file.lookup.get(site.ref.path))) continue;
        const token = file.spanOf(`${site.pointer}/path`);
        // Inside the quotes, so the link underlines the path itself.
        links.push({
            range: rangeOfSpan(file, { offset: token.offset + 1, length: Math.max(0, token.length - 2) }),
            target,
            tooltip: `Open ${site.ref.path}`,
        });
    }
    return links;
}
