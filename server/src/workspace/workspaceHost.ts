/**
 * What the language service needs of its host (LanguageServiceOptions: where links lead, the
 * discovery walk, locks, readers, URIs) over a `Workspace` with `/`-separated paths
 * (docs/architecture.md, "One door for files"): a memory workspace, for tests and embedders, whose
 * `reads` then say which files each request opened (docs/testing.md, "A feature test on the memory
 * workspace"). The readers, locks and walk are the browser's over the client's files (web/), with the
 * workspace's own real paths. Locks are read, never written: the service writes a lock at once, and
 * `Workspace.write` answers later (Lock Refs is the desktop's, through the safe writer). The disk's
 * host is nodeHost.ts. Pure: no fs.
 */
import type { HostReads } from "./hostReads";
import type { HostLocks } from "./lockPaths";
import { type UriSpace, virtualUriSpace } from "./uris";
import { clientLocks } from "./web/clientLocks";
import { clientReads } from "./web/clientReads";
import { asyncDiscoveryFsOver, discoveryFsOver } from "./web/clientWalk";
import type { Workspace } from "./workspace";
import { type PendingReads, SYNCHRONOUS_READS } from "./workspaceFiles";
import type { WalkFileSystems } from "./workspaceIndex";

export interface WorkspaceHost {
    /** Undefined for a workspace that answers every read at once (memory, the disk). */
    reads: PendingReads | undefined;
    realPath(path: string): string | undefined;
    walk: WalkFileSystems;
    locks: HostLocks;
    readers: HostReads;
    /** `file:` URIs whose path is the workspace's path (`/`-separated, as a memory workspace's, on every OS). */
    uris: (folderUris: string[]) => UriSpace;
}

export function workspaceHost(workspace: Workspace): WorkspaceHost {
    const realPath = (path: string) => workspace.realPath(path);
    return {
        reads: workspace.hasPending === SYNCHRONOUS_READS.hasPending ? undefined : workspace,
        realPath,
        walk: {
            sync: { ...discoveryFsOver(workspace), realPath },
            async: { ...asyncDiscoveryFsOver(() => workspace), realPath: async (path) => realPath(path) },
        },
        locks: clientLocks(
            workspace,
            "cannot be written by the language service over a workspace it did not get from the disk",
        ),
        readers: clientReads(workspace),
        uris: () => virtualUriSpace("file:///"),
    };
}
