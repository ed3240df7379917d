/**
 * What the Node language server's host gives the language service of the disk (server.ts passes it;
 * the service's tests on temp folders too): where links lead, and the disk's discovery walk. The web
 * entry gives the client's instead (browserHost.ts, docs/web.md); the service imports neither.
 */
import { realPathOrUndefined } from "./fileStat";
import { NODE_WALK } from "./nodeDiscovery";

export const NODE_HOST = { realPath: realPathOrUndefined, walk: NODE_WALK } as const;
