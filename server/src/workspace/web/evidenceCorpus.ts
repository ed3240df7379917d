/**
 * Find Sources' corpus in a web worker (docs/web.md, docs/evidence.md "In the browser"): the documents
 * under a document root, found by the corpus walk of the disk (corpusRules.ts) and read through the
 * client's files (`WorkspaceFiles`, injected), indexed by the same evidence index in memory (there is no
 * cache folder to keep an index file in). The index follows the changes the client forwards: a changed
 * document is read again, and a change it cannot place (a new file or folder, a configuration) walks the
 * corpus again (the listing only: unchanged documents are not read again).
 */
import * as nodePath from "node:path";
import { normalizeLineEndings } from "../../core/lines";
import { parseJsonText } from "../../core/parse";
import { claimPathsOf } from "../../evidence/answers";
import { DEFAULT_MAX_CHARS } from "../../evidence/chunker";
import { EvidenceIndex } from "../../evidence/index";
import { type CurrentText, type EvidenceResult, type SelectOptions, searchEvidenceSteps } from "../../evidence/select";
import type { Steps } from "../../evidence/steps";
import { ANSWER_REASON, corpusWalk } from "../corpusRules";
import type { CorpusOptions } from "../evidenceStore";
import { isInside } from "../pathSafety";
import {
    CONFIG_FILE_NAME,
    type ConfigFileSystem,
    MAX_CONFIG_CHARS,
    ProjectConfigs,
    resolveDocumentRoot,
    UNREADABLE_CONFIG,
} from "../projectConfig";
import { DEFAULT_MAX_DOCUMENT_BYTES } from "../workspace";
import type { WorkspaceFiles } from "../workspaceFiles";
import { asyncDiscoveryFsOver, discoveryFsOver } from "./clientWalk";

/**
 * Files a browser corpus walk lists at most: each is a request to the client, and every document read
 * is kept in the worker's memory. A larger folder is searched in its first files, with a warning.
 */
export const MAX_BROWSER_CORPUS_FILES = 20_000;

/** The same cap as the desktop's documents: the client's answers are shared with the workspace's reads. */
const MAX_BYTES = DEFAULT_MAX_DOCUMENT_BYTES;

/** What a browser search is asked: SelectOptions without the reader (the corpus reads). */
export type CorpusQuery = Omit<SelectOptions, "read" | "skipPath" | "skipReason"> & {
    /** Paths (relative to the root) never shown: the claim's own document. */
    alsoSkip: readonly string[];
    /** Files read between two steps. */
    filesPerStep: number;
};

/** Configurations read through the client, a pending one absent for now (the walk settles and asks again). */
function configsOver(files: WorkspaceFiles): ProjectConfigs {
    const fileSystem: ConfigFileSystem = {
        readConfig(path) {
            const read = files.readText(path, MAX_CONFIG_CHARS * 4);
            if (read.ok) return read.text;
            if (read.reason === "missing" || read.reason === "pending") return undefined;
            return `${UNREADABLE_CONFIG}${read.message}`;
        },
    };
    return new ProjectConfigs(fileSystem);
}

export class ClientCorpus {
    readonly index: EvidenceIndex;
    /** The documents of the last walk (relative to the root); undefined until a walk, or after a change it cannot place. */
    private documents: Set<string> | undefined;
    private annotationFiles = new Set<string>();
    private configs: ProjectConfigs;
    /** Documents to read again: the client said they changed. */
    private readonly stale = new Set<string>();
    private truncated = false;

    constructor(
        readonly root: string,
        private readonly options: CorpusOptions,
        private readonly files: WorkspaceFiles,
    ) {
        this.index = new EvidenceIndex(root, {
            maxChars: options.maxChars ?? DEFAULT_MAX_CHARS,
            unsafePatterns: [...(options.unsafePatterns ?? [])],
        });
        this.configs = configsOver(files);
    }

    /** The client said `path` (absolute) changed, was created or deleted. */
    changed(path: string): void {
        if (this.documents === undefined || !isInside(this.root, path)) return;
        const relative = nodePath.relative(this.root, path).split(nodePath.sep).join("/");
        if (this.annotationFiles.has(path)) return; // read afresh by every search (the answers it names)
        if (this.documents.has(relative) && nodePath.basename(path) !== CONFIG_FILE_NAME) this.stale.add(relative);
        else this.documents = undefined; // a new file or folder, a deleted folder, a configuration: walk again
    }

    /** What the search says besides its hits. */
    warnings(): string[] {
        return this.truncated
            ? [
                  `only the first ${MAX_BROWSER_CORPUS_FILES} files under ${this.root} were searched (VS Code for the Web)`,
              ]
            : [];
    }

    /** Walks the corpus when no walk vouches for its list of documents (the listing only, through the client). */
    async walk(): Promise<void> {
        if (this.documents !== undefined) return;
        const walk = { sync: discoveryFsOver(this.files), async: asyncDiscoveryFsOver(() => this.files) };
        for (;;) {
            // Configurations still on their way count as absent: once they arrived, the files are sorted again.
            const configs = configsOver(this.files);
            const { discovery, kind } = corpusWalk(this.root, this.options, configs, walk);
            const walked = await discovery.walk(this.root, MAX_BROWSER_CORPUS_FILES);
            const documents = new Set<string>();
            const annotationFiles = new Set<string>();
            for (const file of walked.files) {
                const what = kind(file);
                if (what === "document") documents.add(file.fromBase);
                else if (what === "annotation") annotationFiles.add(file.path);
            }
            if (this.files.hasPending()) {
                await this.files.settle();
                continue;
            }
            this.documents = documents;
            this.annotationFiles = annotationFiles;
            this.configs = configs;
            this.truncated = walked.truncated;
            return;
        }
    }

    /**
     * The documents that annotation files under the root use as claim paths (relative to the root): the
     * answers being written are never their own sources (docs/evidence.md, "Which files").
     */
    async answers(): Promise<Set<string>> {
        const texts = await this.readAll([...this.annotationFiles]);
        const answers = new Set<string>();
        for (const [file, text] of texts) {
            const documentRoot = resolveDocumentRoot(file, { fallback: this.root, configs: this.configs }).root;
            for (const path of claimPathsOf(parseJsonText(text).value)) {
                const absolute = nodePath.resolve(documentRoot, path);
                if (isInside(this.root, absolute))
                    answers.add(nodePath.relative(this.root, absolute).split(nodePath.sep).join("/"));
            }
        }
        return answers;
    }

    /** The texts of these files once the client answered (those that are text). */
    private async readAll(paths: readonly string[]): Promise<Map<string, string>> {
        for (;;) {
            const texts = new Map<string, string>();
            let pending = false;
            for (const path of paths) {
                const read = this.files.readText(path, MAX_BYTES);
                if (read.ok) texts.set(path, read.text);
                else if (read.reason === "pending") pending = true;
            }
            if (!pending) return texts;
            await this.files.settle();
        }
    }

    /**
     * The search as steps (evidence/steps.ts): the documents not read yet or changed since read a slice at
     * a time, then the candidates checked. After asking for a slice the steps yield until it is answered:
     * whoever runs them waits for the client (`files.settle()`) between two.
     */
    *searchSteps(query: string, request: CorpusQuery, answers: ReadonlySet<string>): Steps<EvidenceResult> {
        const { alsoSkip, filesPerStep, ...select } = request;
        yield* this.syncSteps(filesPerStep);
        const skip = new Set([...answers, ...alsoSkip]);
        return yield* searchEvidenceSteps(this.index, query, {
            ...select,
            read: (path) => this.current(path),
            skipPath: (path) => skip.has(path),
            skipReason: ANSWER_REASON,
        });
    }

    /** Brings the index up to the walk's documents and the changes heard since. */
    private *syncSteps(perStep: number): Steps<void> {
        const documents = this.documents ?? new Set<string>();
        for (const path of this.index.paths) if (!documents.has(path)) this.index.remove(path);
        const toRead = [...documents].filter((path) => this.stale.has(path) || this.index.document(path) === undefined);
        toRead.sort();
        const step = Math.max(1, perStep);
        for (let from = 0; from < toRead.length; from += step) {
            const slice = toRead.slice(from, from + step);
            while (slice.some((path) => this.ask(path) === "pending"))
                yield { phase: "reading", done: from, total: toRead.length };
            for (const path of slice) this.indexRead(path);
            yield { phase: "reading", done: from + slice.length, total: toRead.length };
        }
    }

    /** Asks the client for a document (kept once answered): "pending" while on its way. */
    private ask(path: string): "pending" | "answered" {
        const read = this.files.readText(nodePath.join(this.root, path), MAX_BYTES);
        return !read.ok && read.reason === "pending" ? "pending" : "answered";
    }

    private indexRead(path: string): void {
        const read = this.files.readText(nodePath.join(this.root, path), MAX_BYTES);
        this.stale.delete(path);
        if (read.ok) {
            const text = normalizeLineEndings(read.text);
            this.index.upsert(path, text.length, 0, text);
        } else if (read.reason === "too-large" || read.reason === "not-text") {
            this.index.refuse(path, read.size ?? 0, 0, read.message);
        } else {
            // Gone, a folder now, unreadable (or changed again while read: the event brings it back).
            this.index.remove(path);
            this.documents?.delete(path);
        }
    }

    /** A document's text now, for the stale check of each candidate (what the client last said). */
    private current(path: string): CurrentText {
        const read = this.files.readText(nodePath.join(this.root, path), MAX_BYTES);
        if (read.ok) return { ok: true, content: normalizeLineEndings(read.text) };
        return { ok: false, missing: read.reason === "missing" };
    }
}
