/**
 * One evidence search over files, for the CLI, the agent tools (MCP, VS Code) and Find Sources for
 * Claim (docs/evidence.md): the corpus index brought up to date, the answers being written left out
 * (documents used as claim paths by annotation files under the boundary), and every hit given its
 * text, cut to fit `maxChars` rather than dropped. A result also says what was searched, so an empty
 * one is never a silent "nothing".
 */
import * as fs from "node:fs";
import * as nodePath from "node:path";
import { parseJsonText } from "../core/parse";
import type { DocumentFailure } from "../core/session";
import type { Ref } from "../core/types";
import { claimPathsOf } from "../evidence/answers";
import { IndexFormatError } from "../evidence/index";
import { scriptNote } from "../evidence/scripts";
import {
    DEFAULT_BUDGET,
    DEFAULT_TOP_K,
    type EvidenceHit,
    type EvidenceResult,
    hitsWithText,
    searchEvidenceSteps,
    type TextHit,
} from "../evidence/select";
import { runSteps, type Steps } from "../evidence/steps";
import { boundedConfigs } from "./boundedConfigs";
import { ANSWER_REASON } from "./corpusRules";
import { CorpusWatcher } from "./corpusWatcher";
import {
    ANNOTATION_FILE_GLOBS,
    type CorpusOptions,
    DEFAULT_EXCLUDE,
    defaultIndexDir,
    INDEX_REPLACED,
    listCorpus,
    type OpenedIndex,
    openIndexSteps,
    readCurrent,
    refreshChanged,
} from "./evidenceStore";
import { isInside, resolveUnderRoot } from "./pathSafety";
import { resolveDocumentRoot } from "./projectConfig";
import { readTextFile } from "./safeFile";

/** Annotation files larger than this are not read for their claim paths (they are not answers' lists). */
const MAX_ANNOTATION_FILE_BYTES = 16 * 1024 * 1024;

export { ANSWER_REASON } from "./corpusRules";

/** `maxChars` of CorpusOptions is the chunk size of the index; the hits' budget is `maxTextChars`. */
export interface EvidenceQuery extends CorpusOptions {
    query: string;
    topK?: number;
    /** Hits' texts together hold at most this many characters (default DEFAULT_BUDGET); none is dropped. */
    maxTextChars?: number;
    /** Where the index file lives (default: the user's cache directory). */
    indexDir?: string;
    /** Name every refused chunk in `rejected` (default true). */
    explain?: boolean;
    /** Corpus-relative paths to leave out besides the answers found (the editor's own claim document). */
    alsoSkip?: readonly string[];
    /**
     * The answer being written, relative to the search's root (agents: the workspace): never a hit,
     * whether or not an annotation file names it yet (docs/evidence.md, "Which files").
     */
    answer?: string | readonly string[];
    /** The abstention floor (default ABSTAIN_FLOOR of evidence/select.ts; 0: none). */
    floor?: number;
    /** Cut the evidence prompt at this budget (text output: blocks that do not fit are left out, named). */
    promptBudget?: number;
}

export interface EvidenceSearched {
    /** Files indexed as documents. */
    documents: number;
    /** Files matched by the patterns but refused: binary, not UTF-8 text, too big. */
    refused: number;
    include: string[];
    exclude: string[];
    /** Documents left out as answers being written (paths as hits give them). */
    answers: string[];
    /** The sourcecheck.config.json files whose `sources` setting chose the documents (relative to the root). */
    sources?: string[];
}

/** The JSON answer of a query (`--json`, the `evidence` tool). */
export interface EvidenceAnswer {
    hits: TextHit[];
    /** Refused chunks by id, at most 50, the most telling first (evidence/select.ts MAX_REJECTED_NAMED). */
    rejected: Record<string, string>;
    /** How many more were refused than `rejected` names; absent when it names them all. */
    rejectedOmitted?: number;
    topK: number;
    maxChars: number;
    /** Hits whose text was cut to fit `maxChars`, and the length they were cut at (at least). */
    truncatedHits: number;
    cutAt?: number;
    searched: EvidenceSearched;
    /** The abstention floor: the least share of the query's weight a hit holds (docs/evidence.md, "Abstention"). */
    floor: number;
    /**
     * The best passages the floor turned away, with their text, in the places the hits left (at most
     * `topK` with the hits): never hits; a model judges them (docs/evidence.md, "Below the floor").
     */
    belowFloor?: TextHit[];
    /** With no hit: why, what was searched and with which patterns. */
    message?: string;
    /**
     * When no hit is written in the query's scripts and the corpus holds another: that matching is
     * lexical, and which scripts the corpus holds (evidence/scripts.ts).
     */
    note?: string;
}

export interface CorpusSearch {
    answer: EvidenceAnswer;
    /** The selection itself (the prompt, the chunks' lines), for the text output and the editor. */
    result: EvidenceResult;
    opened: OpenedIndex;
}

/**
 * Searches the folder `corpus` (absolute), whose annotation files and those under `boundary` (the
 * document root: MCP's --root, the workspace folder, the corpus itself for the CLI) name the answers.
 * Hit paths are relative to the corpus.
 */
export function searchCorpus(
    corpus: string,
    boundary: string,
    request: EvidenceQuery,
    kept?: OpenedIndex,
): CorpusSearch {
    return runSteps(searchCorpusSteps(corpus, boundary, request, kept));
}

/**
 * searchCorpus as steps (evidence/steps.ts), for a caller that reports progress and can stop between
 * two (the editor's Find Sources): files are read `filesPerStep` at a time (default: all in one step).
 */
export function* searchCorpusSteps(
    corpus: string,
    boundary: string,
    request: EvidenceQuery,
    kept?: OpenedIndex,
): Steps<CorpusSearch> {
    try {
        return yield* searchOnce(corpus, boundary, request, kept);
    } catch (error) {
        if (!(error instanceof IndexFormatError)) throw error;
        // A list of postings read after the index was opened failed: the file was replaced by another
        // run (read it again) or is damaged (build it again, with a warning).
        const replaced = error.message === INDEX_REPLACED;
        return yield* searchOnce(corpus, boundary, replaced ? request : { ...request, rebuild: error.message });
    }
}

function* searchOnce(
    corpus: string,
    boundary: string,
    request: EvidenceQuery,
    kept?: OpenedIndex,
): Steps<CorpusSearch> {
    // The configurations that say which files are sources are those under the boundary (docs/evidence.md).
    const configBoundary = realOrSelf(boundary);
    const opened = yield* openIndexSteps(
        corpus,
        request.indexDir ?? defaultIndexDir(),
        { ...request, configBoundary },
        kept,
    );
    const index = opened.index;
    const annotationFiles = annotationFilesFor(index.root, boundary, opened.scope.annotationFiles);
    const answers = answerPaths(annotationFiles, boundary, index.root);
    for (const path of request.alsoSkip ?? []) answers.add(path);
    const topK = request.topK ?? DEFAULT_TOP_K;
    const maxChars = request.maxTextChars ?? DEFAULT_BUDGET;
    const result = yield* searchEvidenceSteps(index, request.query, {
        topK,
        budget: request.promptBudget ?? Number.POSITIVE_INFINITY,
        explain: request.explain ?? true,
        read: (path) => readCurrent(index.root, path),
        skipPath: (path) => answers.has(path),
        skipReason: ANSWER_REASON,
        floor: request.floor,
    });
    const below = result.belowFloor ?? [];
    // Hits and the passages below the floor share the budget, hits first.
    const fitted = hitsWithText([...result.hits, ...below], maxChars);
    const belowFloor = fitted.hits.splice(result.hits.length);
    const scope = opened.scope;
    const answer: EvidenceAnswer = {
        hits: fitted.hits,
        rejected: result.rejected,
        ...(result.rejectedOmitted === undefined ? {} : { rejectedOmitted: result.rejectedOmitted }),
        topK,
        maxChars,
        truncatedHits: fitted.hits.filter((hit) => hit.truncated).length,
        searched: {
            documents: scope.documents,
            refused: scope.refused,
            include: scope.include,
            exclude: scope.exclude,
            answers: [...answers].filter((path) => index.document(path) !== undefined).sort(),
            ...(scope.sources ? { sources: scope.sources } : {}),
        },
        floor: result.floor,
    };
    if (fitted.cutAt !== undefined) answer.cutAt = fitted.cutAt;
    if (belowFloor.length > 0) answer.belowFloor = belowFloor;
    if (answer.hits.length === 0) answer.message = noHitMessage(answer.searched, belowFloor, result.floor);
    const scripts = scriptNote(
        request.query,
        answer.hits.map((hit) => hit.text),
        () => index.scripts(),
    );
    if (scripts) answer.note = scripts.note;
    return { answer, result, opened };
}

/**
 * What an empty result says, once and short (the patterns are in `searched`): how many documents were
 * searched, and with passages below the floor, that they are there to be judged (docs/evidence.md,
 * "Below the floor").
 */
export function noHitMessage(searched: EvidenceSearched, below: readonly EvidenceHit[] = [], floor = 0): string {
    const files = `${searched.documents} document${searched.documents === 1 ? "" : "s"}`;
    const parts =
        below.length > 0
            ? [
                  `No hit holds ${percent(floor)} of the query's weight in ${files}; belowFloor has the ` +
                      `${below.length === 1 ? "best passage" : `${below.length} best passages`} under it (the best holds ` +
                      `${percent(below[0].coverage)}): judge each, cite one that supports or refutes the claim, else record it as unsourced (annotate with unsourced)`,
              ]
            : [`No evidence matched the query in ${files}`];
    if (searched.refused > 0) parts.push(`; ${searched.refused} matching file(s) refused as not UTF-8 text or too big`);
    if (searched.sources) parts.push(`; only the sources that ${searched.sources.join(", ")} names`);
    return `${parts.join("")}.`;
}

/** The patterns and answers a search used, for a person reading the command line's text. */
export function searchedLine(searched: EvidenceSearched): string {
    const answers = searched.answers.length > 0 ? `; left out as answers: ${searched.answers.join(", ")}` : "";
    return `Searched ${searched.documents} document(s): include ${searched.include.join(", ")}; exclude ${searched.exclude.join(", ")}${answers}.`;
}

function percent(share: number): string {
    return `${Math.round(share * 100)}%`;
}

/** Annotation files (absolute) under the boundary: those the corpus walk met, or a walk of the boundary. */
function annotationFilesFor(corpusRoot: string, boundary: string, inCorpus: readonly string[]): string[] {
    let realBoundary: string;
    try {
        realBoundary = fs.realpathSync(boundary);
    } catch {
        realBoundary = boundary;
    }
    if (realBoundary === corpusRoot) return inCorpus.map((path) => nodePath.join(corpusRoot, path));
    const found: { path: string; absolute: string }[] = [];
    listCorpus(realBoundary, { include: ANNOTATION_FILE_GLOBS }, found);
    return found.map((file) => file.absolute);
}

/** Corpus-relative paths of the documents the annotation files use as claim paths. */
function answerPaths(annotationFiles: readonly string[], boundary: string, corpusRoot: string): Set<string> {
    const answers = new Set<string>();
    if (annotationFiles.length === 0) return answers;
    const configs = boundedConfigs(boundary);
    // Through the safe reader, the opened file under the boundary: a folder swapped mid-read leads nowhere.
    const within = realOrSelf(boundary);
    for (const file of annotationFiles) {
        const read = readTextFile(realOrSelf(file), { maxBytes: MAX_ANNOTATION_FILE_BYTES, within });
        if (!read.ok) continue; // unreadable: it names no answer
        const text = read.text;
        const paths = claimPathsOf(parseJsonText(text).value);
        if (paths.length === 0) continue;
        const documentRoot = realOrSelf(resolveDocumentRoot(file, { fallback: boundary, configs }).root);
        for (const path of paths) {
            const absolute = nodePath.resolve(documentRoot, path);
            if (!isInside(corpusRoot, absolute)) continue;
            answers.add(nodePath.relative(corpusRoot, absolute).split(nodePath.sep).join("/"));
        }
    }
    return answers;
}

function realOrSelf(path: string): string {
    try {
        return fs.realpathSync(path);
    } catch {
        return path;
    }
}

/** The folder `corpus` names under `root` (default the root itself), or why it may not be searched. */
function corpusFolder(
    root: string,
    corpus: string | undefined,
): { absolute: string; prefix: string } | DocumentFailure {
    if (corpus === undefined || corpus === "." || corpus === "./") return { absolute: root, prefix: "" };
    const verdict = resolveUnderRoot(root, corpus);
    if (!verdict.ok) return { code: "path-outside-root", message: verdict.message };
    const quoted = JSON.stringify(corpus);
    let real: string;
    try {
        real = fs.realpathSync(verdict.absolute);
        if (!isInside(fs.realpathSync(root), real)) {
            return {
                code: "path-outside-root",
                message: `the folder ${quoted} is a symlink leading outside the document root`,
            };
        }
    } catch {
        return { code: "unreadable-document", message: `no folder ${quoted} under the document root` };
    }
    if (!fs.statSync(real).isDirectory()) return { code: "unreadable-document", message: `${quoted} is not a folder` };
    const prefix = nodePath.relative(root, verdict.absolute).split(nodePath.sep).join("/");
    return { absolute: verdict.absolute, prefix };
}

/** The answers an agent named (root-relative), as paths in the corpus folder `prefix` ("" the root). */
function answersInCorpus(answer: string | readonly string[] | undefined, prefix: string): string[] {
    if (answer === undefined) return [];
    const paths = typeof answer === "string" ? [answer] : answer;
    const found: string[] = [];
    for (const path of paths) {
        const normal = nodePath.posix.normalize(path.replace(/\\/g, "/")).replace(/^(?:\.\/)+/, "");
        if (prefix === "") found.push(normal);
        else if (normal.startsWith(`${prefix}/`)) found.push(normal.slice(prefix.length + 1));
    }
    return found;
}

/**
 * The indexes a long-lived server (the MCP server, the language server's agent tools) keeps in memory
 * between queries, by corpus folder and index directory: a query then pays the stat walk of the
 * corpus, not the reading of its index file (docs/evidence-internals.md, "In a server").
 */
export interface KeptIndexes {
    get(key: string): OpenedIndex | undefined;
    set(key: string, opened: OpenedIndex): void;
    /**
     * Whether the kept index of `folder` is current without a walk (WatchedIndexes: a watcher saw
     * every change, now applied); absent or false: the query walks the corpus.
     */
    current?(key: string, folder: string, opened: OpenedIndex | undefined): boolean;
}

/**
 * Kept indexes that follow the operating system's file events (workspace/corpusWatcher.ts): a query
 * walks the corpus only when the watcher cannot vouch for what changed (its first query, a new file
 * or folder, an error), and otherwise reads again only the files it heard of.
 */
export class WatchedIndexes implements KeptIndexes {
    private readonly kept = new Map<string, OpenedIndex>();
    private readonly watchers = new Map<string, CorpusWatcher>();
    /** Keys whose last search stopped before it ended (Find Sources cancelled): the next one walks. */
    private readonly unfinished = new Set<string>();

    get(key: string): OpenedIndex | undefined {
        return this.kept.get(key);
    }

    set(key: string, opened: OpenedIndex): void {
        this.kept.set(key, opened);
    }

    current(key: string, folder: string, opened: OpenedIndex | undefined): boolean {
        let watcher = this.watchers.get(key);
        if (!watcher) {
            // Started before the first walk, so nothing written during it goes unheard.
            // A folder that cannot be resolved is watched as named: the watcher then vouches for nothing.
            watcher = new CorpusWatcher(realOrSelf(folder));
            this.watchers.set(key, watcher);
        }
        const changed = watcher.take();
        // What a stopped walk heard is taken but not applied: only a walk can vouch for the index now.
        if (this.unfinished.delete(key)) return false;
        return opened !== undefined && changed !== undefined && refreshChanged(opened, changed);
    }

    /** The search of `key` stopped before it ended: its next query walks (with the index kept). */
    unfinishedSearch(key: string): void {
        this.unfinished.add(key);
    }

    close(): void {
        for (const watcher of this.watchers.values()) watcher.close();
        this.watchers.clear();
    }
}

/**
 * The agent tools' search (MCP, VS Code): a folder under `root` (default the root), paths of hits,
 * refs and answers relative to the root, so a hit's ref goes into an annotation as it is.
 */
export function searchEvidenceUnderRoot(
    root: string,
    corpus: string | undefined,
    request: EvidenceQuery,
    kept?: KeptIndexes,
): EvidenceAnswer | DocumentFailure {
    const folder = corpusFolder(root, corpus);
    if ("code" in folder) return folder;
    // An agent's exclude globs add to the default ones (node_modules) rather than replace them.
    const exclude = request.exclude === undefined ? undefined : [...DEFAULT_EXCLUDE, ...request.exclude];
    const alsoSkip = [...(request.alsoSkip ?? []), ...answersInCorpus(request.answer, folder.prefix)];
    // The patterns are part of the key: a kept index is current only for the files they chose.
    const key = JSON.stringify([folder.absolute, request.indexDir ?? "", request.include ?? [], exclude ?? []]);
    const previous = kept?.get(key);
    const upToDate = kept?.current?.(key, folder.absolute, previous) === true;
    const query = { ...request, exclude, alsoSkip, upToDate };
    const { answer, opened } = searchCorpus(folder.absolute, root, query, previous);
    kept?.set(key, opened);
    if (folder.prefix === "") return answer;
    const under = (path: string) => `${folder.prefix}/${path}`;
    const underHit = (hit: TextHit): TextHit => ({
        ...hit,
        path: under(hit.path),
        ref: hit.ref === null ? null : ({ ...hit.ref, path: under(hit.ref.path) } as Ref),
        chunkRef: hit.chunkRef === null ? null : ({ ...hit.chunkRef, path: under(hit.chunkRef.path) } as Ref),
    });
    return {
        ...answer,
        hits: answer.hits.map(underHit),
        searched: { ...answer.searched, answers: answer.searched.answers.map(under) },
        ...(answer.belowFloor ? { belowFloor: answer.belowFloor.map(underHit) } : {}),
    };
}
