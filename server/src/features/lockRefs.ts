/**
 * The editor keeps the lock (docs/lock.md, "In the editor"): "SourceCheck: Lock Refs", saving an
 * annotation file whose lock exists, and "Accept the new text" on a `text-changed` ref. The lock is
 * computed by the lock operation (operations/lock.ts, as `sourcecheck lock` and the tools compute it)
 * from the file as the editor has it, and written through the one safe writer: never over a lock changed
 * on disk since it was read, never outside the workspace folder. The lock is computed in steps that
 * yield between annotations; `cancelled` stops it there (OperationCancelled), before anything is
 * written. No Connection here.
 */
import * as nodePath from "node:path";
import type { LockRefsParams, LockRefsResult } from "../../../shared/customProtocol";
import { type Cancelled, runCooperatively, SLICE_MS } from "../agentTools/cooperative";
import { refIdentity } from "../core/lock";
import type { Ref } from "../core/types";
import { lockSteps } from "../operations/lock";
import type { AnnotationFile } from "../workspace/annotationFile";
import { sha256 } from "../workspace/sha256";
import type { LockingWorkspace } from "./featureWorkspace";

const NOTHING = { written: false, hadLock: false, locked: 0, changed: 0, unresolved: 0, accepted: 0 } as const;

export async function lockRefs(
    workspace: LockingWorkspace,
    file: AnnotationFile | undefined,
    params: LockRefsParams,
    cancelled?: Cancelled,
): Promise<LockRefsResult> {
    if (!file) return { ok: false, message: "this is not an annotation file", ...NOTHING };
    const path = workspace.uris.uriToPath(file.uri);
    if (path === undefined) {
        return {
            ok: false,
            message: "only an annotation file saved on disk can have a lock: save it first",
            ...NOTHING,
        };
    }
    const setting = workspace.settings.lockUpdate;
    if (setting === "never") {
        return { ok: false, message: "the editor writes no locks here (sourcecheck.lock.update is never)", ...NOTHING };
    }
    if (params.mode === "update" && setting !== "onSave") return { ok: true, ...NOTHING };
    const read = workspace.locks.readForWrite(path);
    const lockUri = workspace.uris.pathToUri(read.path);
    const hadLock = read.lock !== undefined || read.error !== undefined;
    if (read.error) {
        // A lock that cannot be read is never overwritten from the editor: `sourcecheck lock` says why.
        return {
            ok: false,
            message: `${nodePath.basename(read.path)}: ${read.error.message}`,
            ...NOTHING,
            hadLock,
            lockUri,
        };
    }
    if (params.mode === "update" && !read.lock && !params.create) return { ok: true, ...NOTHING, lockUri };
    const target = params.mode === "accept" ? file.sites.find((s) => s.pointer === params.pointer) : undefined;
    if (params.mode === "accept") {
        if (!target || !file.driftOf(target)) {
            return {
                ok: false,
                message: "this ref's cited text is its locked text: nothing to accept",
                ...NOTHING,
                hadLock,
                lockUri,
            };
        }
    }
    const accept =
        params.mode === "lock"
            ? params.accept === true // changed texts only once the user said yes (client/src/lockRefs.ts)
            : target // the ref, and the refs identical to it (they share its entry)
              ? (s: { ref: Ref }) => refIdentity(s.ref) === refIdentity(target.ref)
              : false;
    // The very operation `sourcecheck lock` and the lock tools run (operations/lock.ts).
    const plan = await runCooperatively(
        lockSteps(
            { text: file.text, fileName: nodePath.basename(path), accept },
            { documents: file.lookup, lock: () => read, sha256 },
        ),
        SLICE_MS,
        cancelled,
    );
    if (!plan.ok) {
        const count = plan.schemaErrors ?? 0;
        return {
            ok: false,
            message:
                plan.kind === "invalid-lock"
                    ? `${nodePath.basename(read.path)}: ${plan.error.message}`
                    : `the file has ${count} schema error${count === 1 ? "" : "s"}: fix ${count === 1 ? "it" : "them"} before locking`,
            ...NOTHING,
            hadLock,
            lockUri,
        };
    }
    const { locked, changed, unresolved, accepted } = plan.result;
    const counts = { locked, changed, unresolved, accepted, hadLock, lockUri };
    if (plan.unchanged) return { ok: true, written: false, ...counts };
    try {
        const folder = workspace.folderOf(path) ?? nodePath.dirname(path);
        workspace.locks.write(read.path, plan.content, read.snapshot, folder);
    } catch (error) {
        return {
            ok: false,
            message: workspace.locks.describeWriteError(nodePath.basename(read.path), error),
            written: false,
            ...counts,
        };
    }
    return { ok: true, written: true, ...counts };
}
