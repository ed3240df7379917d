/**
 * `lockFor` of both tool contexts, the editor's (features/agentTools.ts) and the MCP server's
 * (mcp/diskContext.ts): the lock beside an annotation file under the root. Each context says only how
 * it writes the lock.
 */
import * as fs from "node:fs";
import * as nodePath from "node:path";
import { lockPathFor, readLockBeside } from "../workspace/lockFiles";
import { resolveUnderRoot } from "../workspace/pathSafety";
import { SafeWriteError, writeFileWithinRoot } from "../workspace/safeWrite";
import { type LockAccess, ToolError } from "./tools";

/**
 * Throws a ToolError for a path outside the root. Read and written contained in the root, whoever
 * calls (docs/security.md, "Agents"): the opened lock must lie under the root, and the write goes
 * through `writeFileWithinRoot`, only while the lock is as it was read.
 */
export function lockUnderRoot(root: string, file: string): LockAccess {
    const verdict = resolveUnderRoot(root, file);
    if (!verdict.ok) throw new ToolError("path-outside-root", verdict.message);
    const read = readLockBeside(verdict.absolute, { within: realRoot(root), snapshot: true });
    return {
        path: nodePath.relative(root, lockPathFor(verdict.absolute)).replace(/\\/g, "/"),
        lock: read.lock,
        error: read.error,
        write: async (text) => {
            try {
                writeFileWithinRoot(root, read.path, text, { expected: read.snapshot });
            } catch (error) {
                throw new Error(error instanceof SafeWriteError ? `it ${error.message}` : String(error));
            }
        },
    };
}

function realRoot(root: string): string | undefined {
    try {
        return fs.realpathSync(root);
    } catch {
        return undefined;
    }
}
