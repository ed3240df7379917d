/**
 * Which files of a corpus are evidence documents (docs/evidence.md, "Which files"): the patterns and the
 * one rule both walks apply, the disk's (evidenceStore.ts) and the web worker's over the client's files
 * (web/evidenceCorpus.ts). No file is read here: the walk is the caller's, with its own adapters.
 */
import { ANNOTATION_FILE_GLOBS } from "../../../shared/fileNames";
import { AnnotationRecognizer, Discovery, type FoundFile, kindByName } from "./discovery";
import type { AsyncDiscoveryFileSystem, DiscoveryFileSystem } from "./discoveryFs";
import { compileGlobs } from "./globs";
import type { ProjectConfigs } from "./projectConfig";

/** Every file is a candidate document; what is not UTF-8 text (binary, another encoding, too big) is refused. */
export const DEFAULT_INCLUDE = ["**/*"];
/** Left out unless the caller gives its own `exclude` (the caller's list replaces this one). */
export const DEFAULT_EXCLUDE = ["**/node_modules/**"];

/**
 * Never documents, whatever the caller asks (docs/evidence.md, "Which files"), as a result reports
 * them: annotation files and their locks (the citations, not the sources), TraceCite notes and traces
 * (an agent's working files). The files are told by the one rule of workspace/discovery.ts
 * (`AnnotationRecognizer.kind`), which also honours the `annotationFiles` of a sourcecheck.config.json.
 */
export { ANNOTATION_FILE_GLOBS };
export const ALWAYS_EXCLUDED = [
    ...ANNOTATION_FILE_GLOBS,
    "**/*.lock.json",
    "**/*.notes.md",
    "**/*.notes.txt",
    "**/*.trace.jsonl",
];

const SEPARATORS = "/\\";

/** Why an answer being written is left out of the hits (a search result names it). */
export const ANSWER_REASON = "the answer being written (a claim document of an annotation file)";

export interface CorpusPatternOptions {
    /** Globs relative to the corpus root, `/`-separated; dot folders and files are never matched. */
    include?: readonly string[];
    /** Replaces DEFAULT_EXCLUDE; ALWAYS_EXCLUDED applies in any case. */
    exclude?: readonly string[];
}

/** The include and exclude globs in force for these options (as a result reports them). */
export function corpusPatterns(options: CorpusPatternOptions = {}): { include: string[]; exclude: string[] } {
    const include = options.include && options.include.length > 0 ? [...options.include] : [...DEFAULT_INCLUDE];
    return { include, exclude: [...ALWAYS_EXCLUDED, ...(options.exclude ?? DEFAULT_EXCLUDE)] };
}

export interface CorpusWalk {
    /** The walk of the corpus: no .gitignore (a corpus of downloaded pages is often one git ignores), no dot entries, no symlinks. */
    discovery: Discovery;
    /** What a file the walk found is to the corpus: a document, an annotation file (it names answers), or neither. */
    kind(file: FoundFile): "document" | "annotation" | undefined;
}

/**
 * The walk of the corpus under `root` and the rule for what it finds, with the configurations under the
 * boundary (`configs`): anything but a `document` by the one rule of workspace/discovery.ts is never
 * a document, and of the documents only those their configuration's `sources` names.
 */
export function corpusWalk(
    root: string,
    options: CorpusPatternOptions,
    configs: ProjectConfigs,
    /** The walk's calls: the host's (nodeDiscovery.ts NODE_WALK on Node; the client's in the browser). */
    fileSystems: { sync: DiscoveryFileSystem; async: AsyncDiscoveryFileSystem },
): CorpusWalk {
    const patterns = corpusPatterns(options);
    // Linear-time globs (workspace/globs.ts): a pattern over the wildcard budget is refused there.
    const include = compileGlobs(patterns.include, { dot: false });
    const callerExcludes = patterns.exclude.slice(ALWAYS_EXCLUDED.length);
    const exclude = callerExcludes.length > 0 ? compileGlobs(callerExcludes, { dot: true }) : () => false;
    const kinds = new AnnotationRecognizer([], configs);
    const discovery = new Discovery(
        {
            base: root,
            exclude: (relative, isDirectory) => (isDirectory && exclude(`${relative}/`)) || exclude(relative),
            gitignore: false,
            dotEntries: false,
            symlinkedFiles: false,
        },
        fileSystems.sync,
        fileSystems.async,
    );
    // A walk gives the files of a folder in a row: whether the folder's configuration has globs that
    // could apply (`annotationFiles`, `sources`) is asked once per folder; without them a file's name
    // decides, as kinds.kind would (a third of a warm `sourcecheck evidence` on 20,000 files).
    let last: { folder: string; byName: boolean } | undefined;
    const byNameAlone = (file: FoundFile): boolean => {
        // The folder is the path less "/name" (a name as a folder lists it: never "." or "..", no separator).
        const { path, name } = file;
        const cut = path.length - name.length - 1;
        if (cut <= 0 || name === "." || name === ".." || !path.endsWith(name)) return false;
        if (!SEPARATORS.includes(path[cut]) || name.includes("/") || name.includes("\\")) return false;
        // The same folder as the file before (the usual case) is known without cutting a new string.
        if (last !== undefined && last.folder.length === cut && path.startsWith(last.folder)) return last.byName;
        const folder = path.slice(0, cut);
        if (last?.folder !== folder) {
            const config = configs.forFile(path)?.config;
            last = { folder, byName: config === undefined || (config.annotationFiles.length === 0 && !config.sources) };
        }
        return last.byName;
    };
    return {
        discovery,
        kind(file) {
            if (byNameAlone(file)) {
                const kind = kindByName(file.name);
                if (kind === "annotation") return "annotation";
                return kind === "document" && include(file.fromBase) ? "document" : undefined;
            }
            const kind = kinds.kind(file.path, file.fromBase);
            if (kind === "annotation") return "annotation";
            return kind === "document" && include(file.fromBase) && configs.isSource(file.path)
                ? "document"
                : undefined;
        },
    };
}
