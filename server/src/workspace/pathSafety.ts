/**
 * Which relative document paths may be opened under a root (docs/contract.md section 3: `path-outside-root`):
 * no absolute paths, no drive letters or URLs, no `~`, no `..` climbing out. Symlinks are checked
 * later against the real path, once the file is known to exist.
 */
import * as nodePath from "node:path";

export type PathVerdict = { ok: true; absolute: string } | { ok: false; message: string };

export function resolveUnderRoot(root: string, documentPath: string): PathVerdict {
    const quoted = JSON.stringify(documentPath);
    if (documentPath.includes("\0")) return { ok: false, message: `the path ${quoted} contains a NUL character` };
    // Windows' absolute forms by hand (`\x`, `C:\x`): the browser's path module has no win32 (docs/web.md).
    if (nodePath.posix.isAbsolute(documentPath) || /^([\\/]|[a-zA-Z]:[\\/])/.test(documentPath)) {
        return { ok: false, message: `the path ${quoted} is absolute: document paths are relative to the root` };
    }
    if (/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(documentPath)) {
        return {
            ok: false,
            message: `the path ${quoted} looks like a URL or drive: document paths are relative to the root`,
        };
    }
    if (documentPath === "~" || documentPath.startsWith("~/") || documentPath.startsWith("~\\")) {
        return { ok: false, message: `the path ${quoted} starts with ~ (the home directory), outside the root` };
    }
    const absolute = nodePath.resolve(root, documentPath.replace(/\\/g, "/"));
    if (!isInside(root, absolute)) {
        return { ok: false, message: `the path ${quoted} leads outside the document root` };
    }
    return { ok: true, absolute };
}

/** True when `candidate` is `root` or below it (both absolute, normalised). The one rule: no private copies. */
export function isInside(root: string, candidate: string): boolean {
    const relative = nodePath.relative(root, candidate);
    return relative === "" || !climbsOut(relative);
}

/** True when `candidate` is below `root`, not `root` itself. */
export function isBelow(root: string, candidate: string): boolean {
    const relative = nodePath.relative(root, candidate);
    return relative !== "" && !climbsOut(relative);
}

/**
 * Whether a relative path (as `path.relative` gives it) leads out of its folder: `..` itself, a path
 * starting `../`, or an absolute one (another drive). "..notes.md" is a file inside, not a climb.
 */
export function climbsOut(relative: string): boolean {
    return (
        relative === ".." ||
        relative.startsWith(`..${nodePath.sep}`) ||
        relative.startsWith("../") ||
        nodePath.isAbsolute(relative)
    );
}
