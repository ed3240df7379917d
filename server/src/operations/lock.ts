/**
 * The lock operation (docs/lock.md, docs/contract.md "Operations"): beside one annotation file, the
 * lock of what each of its refs resolves to now. `sourcecheck lock`, the MCP and VS Code `lock`
 * tools and the editor's "Lock Refs" all run this one function; they differ only in how they read,
 * write and word. A ref whose locked text differs from its text now keeps its locked text unless
 * the caller accepts it (docs/security.md, "The lock's trust model").
 */
import { pointerWithReading } from "../../../shared/numbering";
import { runSteps } from "../core/check";
import {
    changedDocuments,
    type LockBasis,
    type LockError,
    type LockFile,
    type LockRefSite,
    lockAnnotationTextSteps,
    type NotLocked,
    refCountIfAllResolve,
    serializeLock,
} from "../core/lock";
import type { DocumentLookup } from "../core/session";
import { type RefPlace, refPlace } from "./numbers";

export interface LockRequest {
    /** The annotation file's text, as stored or as open in the editor. */
    text: string;
    /** The annotation file's name (without folders): the lock names it. */
    fileName: string;
    /**
     * Accept changed texts: all (`--accept`, `accept: true`, the editor after the user said yes),
     * or the refs a predicate picks (the editor's "Accept the new text" on one ref). Default none.
     */
    accept?: boolean | ((site: LockRefSite) => boolean);
    /** The SHA-256 of `text` when the front end hashed the bytes it read (cheaper). */
    textSha256?: string;
}

/** A lock whose basis vouches for its entries (workspace/lockFiles.ts): read whole only if needed. */
export interface LockOnBasisRead {
    path: string;
    basis: LockBasis;
    /** The whole lock, read again. */
    load(): LockRead;
    /** Its bytes, read again; undefined if its entries are no longer those the basis vouches for. */
    bytes(): Uint8Array | undefined;
}

/** The lock beside the file as read: none, one, or why it cannot be used. */
export interface LockRead {
    /** The lock file as its reader names it. */
    path: string;
    lock?: LockFile;
    error?: LockError;
}

/** What lock reads, injected by each front end. */
export interface LockCapabilities {
    /** The documents under the file's document root. */
    documents: DocumentLookup;
    lock(): LockRead | LockOnBasisRead;
    sha256: (text: string) => string;
}

/** A ref not locked to its text now, its place counted from 1 (docs/contract.md, "Numbers"). */
export type NotLockedItem = RefPlace & Omit<NotLocked, "annotation" | "role">;

export interface LockResult {
    /** The lock file, as the front end names it. */
    lock: string;
    /** Refs whose entry now holds the text they resolve to. */
    locked: number;
    /** Refs whose changed text was accepted (counted in `locked` too). */
    accepted: number;
    /** Refs whose cited text changed and was not accepted: the lock keeps their locked text. */
    changed: number;
    /** Refs that do not resolve (their last entry kept when they had one). */
    unresolved: number;
    /** The refs not locked, each with its next step. */
    notLocked: NotLockedItem[];
    /** Whether the lock file was written: set by the front end, which writes. */
    written: boolean;
}

export type LockPlan =
    | {
          ok: true;
          result: LockResult;
          /** What to write as the lock file. */
          content: string | Uint8Array;
          /** The lock there is already holds these very bytes: nothing need be written. */
          unchanged: boolean;
      }
    | {
          ok: false;
          /** `invalid-lock`: the lock beside the file cannot be used; `schema`: the annotation file fails the schema. */
          kind: "invalid-lock" | "schema";
          /** The lock error's code (`lock-invalid-json`...) or the first schema error's. */
          error: { code: string; message: string };
          lock: string;
          /** With `schema`: how many schema errors. */
          schemaErrors?: number;
      };

/** Lock one annotation file's refs over the lock beside it; nothing is written here. */
export function lockPlan(request: LockRequest, capabilities: LockCapabilities): LockPlan {
    return runSteps(lockSteps(request, capabilities));
}

/** The operation as steps: the check of the refs yields after each annotation, so a server can answer others meanwhile. */
export function* lockSteps(request: LockRequest, capabilities: LockCapabilities): Generator<void, LockPlan, void> {
    const { documents, sha256 } = capabilities;
    let read = capabilities.lock();
    if (isOnBasis(read)) {
        // Nothing the lock was taken over changed and every ref resolves: locking again would write
        // these very bytes (docs/lock.md, "Basis"), so they are not built again.
        const count =
            changedDocuments(read.basis, documents, sha256).size === 0
                ? yield* refCountIfAllResolve(request.text, documents)
                : undefined;
        const bytes = count !== undefined ? read.bytes() : undefined;
        if (count !== undefined && bytes) {
            return { ok: true, result: emptyResult(read.path, count), content: bytes, unchanged: true };
        }
        read = read.load();
    }
    if (read.error) {
        return {
            ok: false,
            kind: "invalid-lock",
            lock: read.path,
            error: {
                code: read.error.code,
                message: `${read.error.message}; fix or delete the lock file to lock again (nothing was written)`,
            },
        };
    }
    const locked = yield* lockAnnotationTextSteps(
        request.text,
        request.fileName,
        documents,
        read.lock,
        sha256,
        request.accept ?? false,
        request.textSha256,
    );
    if (locked.schemaErrors) {
        const first = locked.schemaErrors[0];
        const count = locked.schemaErrors.length;
        return {
            ok: false,
            kind: "schema",
            lock: read.path,
            schemaErrors: count,
            error: {
                code: first.code,
                message: `${count} schema error${count === 1 ? "" : "s"}, the first at ${pointerWithReading(first.pointer)}: ${first.message}; the lock is left as it was`,
            },
        };
    }
    const notLocked = locked.notLocked.map(notLockedItem);
    const changed = notLocked.filter((n) => n.code === "text-changed").length;
    return {
        ok: true,
        result: {
            lock: read.path,
            locked: locked.locked,
            accepted: locked.accepted,
            changed,
            unresolved: notLocked.length - changed,
            notLocked,
            written: false,
        },
        content: locked.content,
        // Unchanged entries: the file is left alone (no diff, no watcher churn on every save).
        unchanged: read.lock !== undefined && serializeLock(read.lock) === locked.content,
    };
}

function isOnBasis(read: LockRead | LockOnBasisRead): read is LockOnBasisRead {
    return "basis" in read && "load" in read;
}

function emptyResult(lock: string, locked: number): LockResult {
    return { lock, locked, accepted: 0, changed: 0, unresolved: 0, notLocked: [], written: false };
}

function notLockedItem({ annotation, role, ...rest }: NotLocked): NotLockedItem {
    return { ...refPlace(annotation, role), ...rest };
}
