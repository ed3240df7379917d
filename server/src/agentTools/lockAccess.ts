/**
 * `lockFor` of both tool contexts, the editor's (features/agentTools.ts) and the MCP server's
 * (mcp/diskContext.ts): the lock beside an annotation file under the root. Each context says only how
 * it writes the lock.
 */
import * as nodePath from "node:path";
import { lockPathFor, readLockBeside } from "../workspace/lockFiles";
import { resolveUnderRoot } from "../workspace/pathSafety";
import { type LockAccess, ToolError } from "./tools";

/** Throws a ToolError for a path outside the root; `write` gets the lock's absolute path. */
export function lockUnderRoot(
    root: string,
    file: string,
    write: (absolutePath: string, text: string) => void | Promise<void>,
): LockAccess {
    const verdict = resolveUnderRoot(root, file);
    if (!verdict.ok) throw new ToolError("path-outside-root", verdict.message);
    const read = readLockBeside(verdict.absolute);
    return {
        path: nodePath.relative(root, lockPathFor(verdict.absolute)).replace(/\\/g, "/"),
        lock: read.lock,
        error: read.error,
        write: async (text) => write(read.path, text),
    };
}
