/**
 * `importCitations(workspace, options)` of the library (docs/library.md, docs/import.md): a model API's
 * response becomes its answer file and an annotation file, through the one import operation
 * (operations/import.ts) over a `Workspace` (memory or Node), and returns the object `sourcecheck
 * import --json` prints for the same files on disk. Every file is reached through the workspace: the
 * response and request files, the configuration, the documents, the writes (only while unchanged).
 */
import * as nodePath from "node:path";
import { EXIT } from "../../../shared/exitCodes";
import { PROVIDERS, type Provider } from "../core/import/types";
import { normalizeRefPath } from "../core/refPath";
import {
    defaultAnnotationPath,
    defaultAnswerPath,
    type ImportJson,
    type ImportResult,
    importJson,
    importResponse,
    isInlineContent,
} from "../operations/import";
import { asyncDiscoveryFs, configFileSystem, NO_SYNC_WALK } from "./checkWorkspace";
import { AnnotationRecognizer, Discovery } from "./discovery";
import { isInside } from "./pathSafety";
import { formatConfigProblem, ProjectConfigs, resolveDocumentRoot } from "./projectConfig";
import { documentsOf, relativeTo, type Workspace, WorkspaceWriteError } from "./workspace";

export type { ImportJson } from "../operations/import";

export interface ImportOptions {
    /**
     * The response: the path of its JSON file (relative to the workspace's root), or the response
     * itself (its JSON text, a stream's `data:` lines, or the parsed value).
     */
    response: unknown;
    /** The request that produced it (Anthropic: the documents' texts and titles), in the same forms. */
    request?: unknown;
    /** The provider, when its shape should not be recognised (`--from`). */
    from?: Provider;
    /** `--document N=PATH|NAME=PATH`: the provider's document number or name -> a path from the root. */
    documents?: Record<string, string>;
    /** The answer file (default: the response file's name with `.md`; required for a response given inline). */
    answer?: string;
    /** The annotation file (default: the answer's name without its extension, `.sourcecheck.json`). */
    output?: string;
    /** Write the answer and the annotation file (default true); false: only report. */
    write?: boolean;
}

/** Bad input (the command's exit 2): nothing was written. `code` is the `--json` error code. */
export class ImportError extends Error {
    readonly exitCode = EXIT.usage;
    constructor(
        readonly code: string,
        message: string,
    ) {
        super(message);
    }
}

/** As the CLI caps an input file (cli/files.ts). */
const MAX_INPUT_BYTES = 256 * 1024 * 1024;
/** At most this many candidate documents are listed, as `listCandidateDocuments` lists them. */
const MAX_CANDIDATES = 50_000;

export async function importCitations(workspace: Workspace, options: ImportOptions): Promise<ImportJson> {
    const planned = await planImport(workspace, options);
    if (options.write !== false) await writeImport(workspace, planned);
    return importJson(planned.result, planned.answer, planned.output);
}

interface PlannedImport {
    result: ImportResult;
    answer: string;
    output: string;
    /** The annotation file's text when it was read, null when there was none. */
    outputBefore: string | null;
}

async function planImport(workspace: Workspace, options: ImportOptions): Promise<PlannedImport> {
    if (options.from !== undefined && !PROVIDERS.includes(options.from))
        throw new ImportError(
            "invalid-arguments",
            `from takes ${PROVIDERS.join(", ")}, not ${JSON.stringify(options.from)}`,
        );
    const response = input(workspace, options.response, "response");
    const request = options.request === undefined ? undefined : input(workspace, options.request, "request");
    if (options.answer === undefined && response.path === undefined)
        throw new ImportError("invalid-arguments", "a response given inline needs answer: the answer file's path");
    const answer = underRoot(workspace, options.answer ?? defaultAnswerPath(response.path as string), "answer");
    const output = underRoot(workspace, options.output ?? defaultAnnotationPath(answer.path), "output");
    const configs = new ProjectConfigs(configFileSystem(workspace));
    const resolution = resolveDocumentRoot(output.absolute, { fallback: workspace.root, configs });
    if (resolution.problem)
        throw new ImportError(
            "invalid-arguments",
            formatConfigProblem(resolution.problem, relativeTo(workspace.root, resolution.problem.file)),
        );
    const root = resolution.root;
    const fromRoot = (absolute: string, what: string) => {
        if (!isInside(root, absolute) || absolute === root)
            throw new ImportError("invalid-arguments", `the ${what} is not under the document root ${root}`);
        return relativeTo(root, absolute);
    };
    const documents = Object.entries(options.documents ?? {}).map(([key, path]) => ({
        key,
        path: fromRoot(underRoot(workspace, path, `document ${key}`).absolute, `document ${key}`),
    }));
    const existingAnswer = readIfThere(workspace, answer.absolute, answer.path);
    const outputBefore = readIfThere(workspace, output.absolute, output.path) ?? null;
    const lookup = documentsOf(workspace, root, { maxBytes: resolution.config?.maxDocumentSize });
    const files = await candidateDocuments(workspace, root, configs);
    const excluded = [response.path, request?.path, output.path].flatMap((path) =>
        path === undefined ? [] : [relativeTo(root, nodePath.resolve(workspace.root, path))],
    );
    const outcome = importResponse(
        {
            response: response.content,
            request: request?.content,
            from: options.from,
            answerPath: fromRoot(answer.absolute, "answer"),
            existingAnswer,
            documents,
            exclude: excluded,
        },
        {
            document(path) {
                return lookup.get(path) ?? { code: "unreadable-document", message: `no file ${JSON.stringify(path)}` };
            },
            files: () => files,
        },
    );
    if (!outcome.ok) throw new ImportError(outcome.error.code, outcome.error.message);
    return { result: outcome.result, answer: answer.path, output: output.path, outputBefore };
}

async function writeImport(workspace: Workspace, planned: PlannedImport): Promise<void> {
    const { result } = planned;
    const absolute = (path: string) => nodePath.resolve(workspace.root, path);
    try {
        if (result.writeAnswer)
            await workspace.write(absolute(planned.answer), result.answerText, { ifUnchanged: null });
        await workspace.write(absolute(planned.output), result.annotationText, { ifUnchanged: planned.outputBefore });
    } catch (error) {
        if (!(error instanceof WorkspaceWriteError)) throw error;
        throw new ImportError("write-failed", `cannot write the import's files: ${error.message}`);
    }
}

/** The response or request: read from the workspace when it is a path, else as given. */
function input(workspace: Workspace, value: unknown, what: string): { content: unknown; path?: string } {
    if (typeof value !== "string" || isInlineContent(value)) return { content: value };
    const file = underRoot(workspace, value, what);
    const read = workspace.readText(file.absolute, MAX_INPUT_BYTES);
    if (!read.ok)
        throw new ImportError("unreadable-document", `cannot read the ${what} ${file.path}: it ${read.message}`);
    return { content: read.text, path: file.path };
}

function underRoot(workspace: Workspace, path: string, what: string): { path: string; absolute: string } {
    const normal = normalizeRefPath(path);
    if (!normal.ok) throw new ImportError("invalid-arguments", `${what}: ${normal.message}`);
    return { path: normal.path, absolute: nodePath.resolve(workspace.root, normal.path) };
}

function readIfThere(workspace: Workspace, absolute: string, shown: string): string | undefined {
    const read = workspace.readText(absolute, MAX_INPUT_BYTES);
    if (read.ok) return read.text;
    if (read.reason === "missing") return undefined;
    throw new ImportError("unreadable-document", `cannot read ${shown}: it ${read.message}`);
}

/**
 * The files that may be a cited document, relative to the document root, as the command lists them
 * (`listCandidateDocuments`): no `.gitignore`, no dot entries, no symlinks, never an annotation file or
 * a lock.
 */
async function candidateDocuments(workspace: Workspace, root: string, configs: ProjectConfigs): Promise<string[]> {
    const discovery = new Discovery(
        { base: root, gitignore: false, dotEntries: false, symlinkedFiles: false },
        NO_SYNC_WALK,
        asyncDiscoveryFs(workspace),
    );
    const recognizer = new AnnotationRecognizer([], configs);
    const { files } = await discovery.walk(root, MAX_CANDIDATES);
    return files
        .filter((file) => {
            const kind = recognizer.kind(file.path);
            return kind !== "annotation" && kind !== "lock";
        })
        .map((file) => file.fromBase)
        .sort();
}
