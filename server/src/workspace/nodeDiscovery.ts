/**
 * The discovery walk (discovery.ts) over the disk: what the CLI, the MCP server and the Node language
 * server walk with. discovery.ts takes its file system from its caller, so the web worker's bundle walks
 * through the client (web/clientWalk.ts) and never reaches node:fs (docs/web.md).
 */
import { AnnotationRecognizer, Discovery, type DiscoveryOptions, type FoundFile } from "./discovery";
import {
    type AsyncDiscoveryFileSystem,
    type DiscoveryFileSystem,
    nodeAsyncDiscoveryFs,
    nodeDiscoveryFs,
} from "./discoveryFs";
import { nodeProjectConfigs } from "./nodeConfigs";

/** The disk's walk, synchronous and asynchronous (a host's `walk`: service/core.ts). */
export const NODE_WALK: { sync: DiscoveryFileSystem; async: AsyncDiscoveryFileSystem } = {
    sync: nodeDiscoveryFs,
    async: nodeAsyncDiscoveryFs,
};

/** A discovery of the disk. */
export function nodeDiscovery(options: DiscoveryOptions): Discovery {
    return new Discovery(options, nodeDiscoveryFs, nodeAsyncDiscoveryFs);
}

/** At most this many candidate documents are listed. */
const MAX_CANDIDATES = 50_000;

/**
 * The documents under a root a ref could be meant to name (repair's candidate paths, for the CLI
 * and the MCP server alike), relative to it and sorted: dot entries and symlinks are left out (a
 * candidate never leads outside the root); .gitignore is not applied, as a cited document may well
 * be one git ignores.
 */
export function listCandidateDocuments(root: string, limit = MAX_CANDIDATES): string[] {
    const discovery = nodeDiscovery({ base: root, gitignore: false, dotEntries: false, symlinkedFiles: false });
    // Annotation files and locks hold citations, not sources: never a candidate, by their built-in or
    // configured names (a sourcecheck.config.json's `annotationFiles`).
    const recognizer = new AnnotationRecognizer([], nodeProjectConfigs());
    const cites = (file: FoundFile) => {
        const kind = recognizer.kind(file.path);
        return kind === "annotation" || kind === "lock";
    };
    return discovery
        .walkSync(root, limit, (file) => !cites(file))
        .files.map((file) => file.fromBase)
        .sort();
}
