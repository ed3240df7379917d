/**
 * Creating a file under a root (the agents' `annotate`, docs/agents.md): the one check that a path
 * names nothing yet and that its folder exists inside the root, symlinks resolved.
 */
import * as fs from "node:fs";
import * as nodePath from "node:path";
import type { DocumentFailure } from "../core/session";
import { isInside } from "./pathSafety";

/**
 * Where a file that does not exist yet would be created: its absolute path when nothing is at that
 * path (not even a dangling symlink) and its folder exists inside the root (real path); otherwise a
 * failure, or `{}` when something is there (the read's own failure then says what).
 */
export function newFileTarget(
    root: string,
    absolute: string,
    shown: string,
): string | DocumentFailure | { code?: undefined } {
    try {
        fs.lstatSync(absolute);
        return {};
    } catch {
        // Nothing there: it may be created.
    }
    const folder = nodePath.dirname(absolute);
    let realFolder: string;
    try {
        realFolder = fs.realpathSync(folder);
        if (!fs.statSync(realFolder).isDirectory()) throw new Error("not a folder");
    } catch {
        return {
            code: "unreadable-document",
            message: `no folder ${JSON.stringify(nodePath.relative(root, folder) || ".")} for ${JSON.stringify(shown)}: create the folder first, or write the file beside the answer`,
        };
    }
    if (!isInside(fs.realpathSync(root), realFolder)) {
        return {
            code: "path-outside-root",
            message: `the folder of ${JSON.stringify(shown)} is a symlink leading outside the root`,
        };
    }
    return nodePath.join(realFolder, nodePath.basename(absolute));
}
