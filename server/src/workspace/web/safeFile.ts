/**
 * The browser's twin of workspace/safeFile.ts (docs/web.md): the same reads over the client's files
 * (workspace/clientFiles.ts), which enforce the size cap and strict UTF-8 on the client's side. A read
 * still on its way is "pending", never "missing": the check that asked is run again once it arrived
 * (workspace/workspaceIndex.ts), and nothing it decided meanwhile is shown (docs/web.md).
 */

import { formatBytes } from "../../core/bytes";
import { clientFiles } from "../clientFiles";
import type { SafeRead, SafeReadOptions } from "../safeFile";
import { sha256 } from "../sha256";

// The same result and options as the desktop's reader (type-only: nothing of node:fs reaches the bundle);
// `fs` is the desktop's test seam and is not consulted here.
export type { SafeFileSystem, SafeRead, SafeReadOptions } from "../safeFile";
/** Sizes in messages are worded once, for every host (core/bytes.ts). */
export { formatBytes };

export function readTextFile(path: string, options: SafeReadOptions = {}): SafeRead {
    const read = clientFiles().readText(path, options.maxBytes ?? Number.MAX_SAFE_INTEGER);
    if (read.ok) return { ok: true, text: read.text, textSha256: options.textSha256 ? sha256(read.text) : undefined };
    if (read.reason === "pending") return { ok: false, reason: "pending", message: "is still being read" };
    if (read.reason === "too-large" && options.maxBytes !== undefined)
        return { ...read, reason: "too-large", message: `is over the ${formatBytes(options.maxBytes)} size cap` };
    return { ok: false, reason: read.reason, message: read.message, size: read.size };
}

/** Bytes as text: UTF-8 only, no NUL bytes (binary), a leading BOM dropped (as safeFile.ts). */
export function decodeText(bytes: Uint8Array): { ok: true; text: string } | { ok: false; message: string } {
    if (bytes.indexOf(0) !== -1) return { ok: false, message: "is binary (it contains NUL bytes), not text" };
    try {
        const text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
        return { ok: true, text: text.charCodeAt(0) === 0xfeff ? text.slice(1) : text };
    } catch {
        return { ok: false, message: "is not valid UTF-8 text" };
    }
}
