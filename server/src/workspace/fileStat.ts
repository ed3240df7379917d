/** A path's stat following symlinks, or undefined when it cannot be had (missing, unreadable, a dangling link). */
import * as fs from "node:fs";

export function statOrUndefined(path: string): fs.Stats | undefined {
    try {
        return fs.statSync(path);
    } catch {
        return undefined;
    }
}

/** A path with every symlink resolved, or undefined when it does not resolve. */
export function realPathOrUndefined(path: string): string | undefined {
    try {
        return fs.realpathSync(path);
    } catch {
        return undefined;
    }
}
