/**
 * The browser's twin of workspace/diskDocuments.ts (docs/web.md): documents under a root read from the
 * client's files, with the same refusals and codes (`path-outside-root`, `unreadable-document`). A
 * virtual file system has no symlinks to follow out of the root: the path check is the whole check.
 */
import { normalizeLineEndings } from "../../core/lines";
import { type DocumentFailure, noFileMessage } from "../../core/session";
import { resolveUnderRoot } from "../pathSafety";
import { readTextFile } from "./safeFile";

export { decodeText, formatBytes } from "./safeFile";

export const DEFAULT_MAX_DOCUMENT_BYTES = 64 * 1024 * 1024;

export interface DiskDocumentsOptions {
    maxBytes?: number;
    contentSha256?: boolean;
}

export type DiskRead =
    | { ok: true; content: string; raw: string; contentSha256?: string }
    | { ok: false; failure: DocumentFailure };

export function readDocumentUnderRoot(
    root: string,
    documentPath: string,
    options: DiskDocumentsOptions = {},
): DiskRead {
    const quoted = JSON.stringify(documentPath);
    const verdict = resolveUnderRoot(root, documentPath);
    if (!verdict.ok) return { ok: false, failure: { code: "path-outside-root", message: verdict.message } };
    const read = readTextFile(verdict.absolute, {
        maxBytes: options.maxBytes ?? DEFAULT_MAX_DOCUMENT_BYTES,
        textSha256: options.contentSha256,
    });
    if (!read.ok) {
        // A pending read is never "no file": it says so, and the check is made again once it arrived.
        const message = read.reason === "missing" ? noFileMessage(documentPath) : `${quoted} ${read.message}`;
        return { ok: false, failure: { code: "unreadable-document", message } };
    }
    const content = normalizeLineEndings(read.text);
    return { ok: true, content, raw: read.text, contentSha256: content === read.text ? read.textSha256 : undefined };
}
