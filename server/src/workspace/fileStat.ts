/** A path's stat following symlinks, or undefined when it cannot be had (missing, unreadable, a dangling link). */
import * as fs from "node:fs";

export function statOrUndefined(path: string): fs.Stats | undefined {
    try {
        return fs.statSync(path);
    } catch {
        return undefined;
    }
}
