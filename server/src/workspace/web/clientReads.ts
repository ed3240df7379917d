/**
 * Reads over the client's files (docs/web.md), as the web entry gives them to the language service
 * (browserHost.ts): the same results as the desktop's safe reader and document reader, over the
 * client's files (workspace/clientFiles.ts), which enforce the size cap and strict UTF-8 on the
 * client's side. A read still on its way is "pending", never "missing": the check that asked is run
 * again once it arrived (workspace/workspaceIndex.ts), and nothing it decided meanwhile is shown. A
 * virtual file system has no symlinks to follow out of the root: the path check is the whole check.
 */
import { formatBytes } from "../../core/bytes";
import { normalizeLineEndings } from "../../core/lines";
import { noFileMessage } from "../../core/session";
import type { DiskRead } from "../diskDocuments";
import type { HostReads } from "../hostReads";
import { resolveUnderRoot } from "../pathSafety";
import type { SafeRead, SafeReadOptions } from "../safeFile";
import { sha256 } from "../sha256";
import { DEFAULT_MAX_DOCUMENT_BYTES } from "../workspace";
import type { WorkspaceFiles } from "../workspaceFiles";

function readTextOver(files: WorkspaceFiles, path: string, options: SafeReadOptions = {}): SafeRead {
    const read = files.readText(path, options.maxBytes ?? Number.MAX_SAFE_INTEGER);
    if (read.ok) return { ok: true, text: read.text, textSha256: options.textSha256 ? sha256(read.text) : undefined };
    if (read.reason === "pending") return { ok: false, reason: "pending", message: "is still being read" };
    if (read.reason === "too-large" && options.maxBytes !== undefined)
        return { ...read, reason: "too-large", message: `is over the ${formatBytes(options.maxBytes)} size cap` };
    return { ok: false, reason: read.reason, message: read.message, size: read.size };
}

export function clientReads(files: WorkspaceFiles): HostReads {
    return {
        readText: (path, options) => readTextOver(files, path, options),
        readDocument(root, documentPath, options = {}): DiskRead {
            const quoted = JSON.stringify(documentPath);
            const verdict = resolveUnderRoot(root, documentPath);
            if (!verdict.ok) return { ok: false, failure: { code: "path-outside-root", message: verdict.message } };
            const read = readTextOver(files, verdict.absolute, {
                maxBytes: options.maxBytes ?? DEFAULT_MAX_DOCUMENT_BYTES,
                textSha256: options.contentSha256,
            });
            if (!read.ok) {
                // A pending read is never "no file": it says so, and the check is made again once it arrived.
                const message = read.reason === "missing" ? noFileMessage(documentPath) : `${quoted} ${read.message}`;
                return { ok: false, failure: { code: "unreadable-document", message } };
            }
            const content = normalizeLineEndings(read.text);
            const contentSha256 = content === read.text ? read.textSha256 : undefined;
            return { ok: true, content, raw: read.text, contentSha256 };
        },
    };
}
