/**
 * What the Node language server's host gives the language service of the disk (server.ts passes it;
 * the service's tests on temp folders too): where links lead, the disk's discovery walk, its locks and
 * its readers. The web entry gives the client's instead (browserHost.ts, docs/web.md); the service
 * imports neither. Files are read through the one safe reader, documents with every rule of the root
 * (diskDocuments.ts), and locks read and written through the safe reader and writer (lockFiles.ts).
 */
import { readDocumentUnderRoot } from "./diskDocuments";
import { realPathOrUndefined } from "./fileStat";
import type { HostReads } from "./hostReads";
import { NODE_LOCKS } from "./lockFiles";
import { NODE_WALK } from "./nodeDiscovery";
import { readTextFile } from "./safeFile";

/** The one safe reader, and the document reader (no escape from the root). */
const NODE_READS: HostReads = { readText: readTextFile, readDocument: readDocumentUnderRoot };

export const NODE_HOST = {
    realPath: realPathOrUndefined,
    walk: NODE_WALK,
    locks: NODE_LOCKS,
    readers: NODE_READS,
} as const;
