/**
 * How the language service reads files through its host (docs/web.md): a file's text through the
 * host's safe reader, and a document under a root with every safety rule (docs/contract.md, section 3).
 * On Node the one safe reader and readDocumentUnderRoot (nodeHost.ts); in the browser the client's
 * files (web/clientReads.ts). Types only: nothing here reads.
 */
import type { DiskDocumentsOptions, DiskRead } from "./diskDocuments";
import type { SafeRead, SafeReadOptions } from "./safeFile";

export interface HostReads {
    /** A file's text (strict UTF-8, under the cap); "pending" where the host answers later. */
    readText(path: string, options?: SafeReadOptions): SafeRead;
    /** A document path under a root, refused with a stable code when it may not be read. */
    readDocument(root: string, documentPath: string, options?: DiskDocumentsOptions): DiskRead;
}
