/**
 * What the Node language server's host gives the language service of the disk (server.ts passes it;
 * the service's tests on temp folders too): where links lead, the disk's discovery walk and its locks. The web
 * entry gives the client's instead (browserHost.ts, docs/web.md); the service imports neither. Locks
 * are read and written through the one safe reader and writer (lockFiles.ts).
 */
import { realPathOrUndefined } from "./fileStat";
import { NODE_LOCKS } from "./lockFiles";
import { NODE_WALK } from "./nodeDiscovery";

export const NODE_HOST = { realPath: realPathOrUndefined, walk: NODE_WALK, locks: NODE_LOCKS } as const;
