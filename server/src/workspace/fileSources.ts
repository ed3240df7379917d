/**
 * Quote files offline (docs/quotes.md): a notes file or report that cites a `file:` URL is checked
 * against that file as it is on disk, read the way `trace verify-files` reads a trace's sources.
 * A relative `file:` path is tried against the citing file's folder, then each workspace folder; an
 * absolute one (`file:///...`) only when it lies inside a workspace folder. Nothing outside the
 * workspace is ever read, and nothing goes to the network.
 */
import * as nodePath from "node:path";
import { fileUriPath, type PageText, tidyPageText } from "../core/pageSources";
import type { DiskRead } from "./diskDocuments";
import { isInside } from "./pathSafety";

/**
 * The visible text of an HTML page, its parser required (never imported) with the first page a quote
 * file cites: most cite none (docs/architecture.md, "CLI bundles").
 */
function htmlVisibleText(html: string): string {
    return (require("../fetch/visibleText") as typeof import("../fetch/visibleText")).visibleText(html);
}

export type RootedRead = (root: string, relativePath: string) => DiskRead;

/** Whether a cited URL is a `file:` URL (read from the workspace, never fetched). */
export function isFileUrl(url: string): boolean {
    return /^file:/i.test(url);
}

/** The visible text of a `file:` source for the live quote check, or why it is unavailable. */
export function readFileSource(
    url: string,
    citingFile: string | undefined,
    roots: readonly string[],
    /** A document under a root, with every safety rule: the host's (readDocumentUnderRoot on Node). */
    read: RootedRead,
): PageText {
    const named = fileUriPath(url);
    if (named === undefined) return { ok: false, code: "SOURCE_UNAVAILABLE", message: `${url} names no local file` };
    let target: string;
    try {
        target = decodeURIComponent(named);
    } catch {
        return { ok: false, code: "SOURCE_UNAVAILABLE", message: `${url} is not a well-formed file: URL` };
    }
    const candidates: string[] = [];
    if (nodePath.isAbsolute(target)) candidates.push(nodePath.normalize(target));
    else {
        if (citingFile !== undefined) candidates.push(nodePath.resolve(nodePath.dirname(citingFile), target));
        for (const root of roots) candidates.push(nodePath.resolve(root, target));
    }
    let failure: string | undefined;
    for (const candidate of candidates) {
        const root = roots.find((r) => isInside(r, candidate));
        if (root === undefined) continue;
        const result = read(root, nodePath.relative(root, candidate));
        if (result.ok) {
            const html = /\.x?html?$/i.test(candidate);
            return { ok: true, text: tidyPageText(html ? htmlVisibleText(result.content) : result.content) };
        }
        failure ??= `${result.failure.code}: ${result.failure.message}`;
    }
    if (failure !== undefined) return { ok: false, code: "SOURCE_UNAVAILABLE", message: failure };
    return { ok: false, code: "FILE_OUTSIDE_WORKSPACE", message: `${url} is outside the workspace: not read` };
}
