/**
 * `lockFor` of the tool contexts (ToolContext.lockFor): the lock its host found beside an annotation
 * file (on disk, workspace/lockFiles.ts `lockUnderRoot`), or the refusal of a path outside the root
 * as the ToolError the tools answer with. Nothing here reads or writes: the host's access does.
 */
import type { LockAccess } from "../workspace/lockPaths";
import { ToolError } from "./tools";

export function toolLock(found: LockAccess | { code: "path-outside-root"; message: string }): LockAccess {
    if ("code" in found) throw new ToolError(found.code, found.message);
    return found;
}
