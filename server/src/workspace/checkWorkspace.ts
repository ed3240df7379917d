/**
 * `check(workspace, { paths, locked })` of the library (docs/library.md): the annotation files of a
 * workspace checked by the one check (operations/check.ts) into the object `sourcecheck check --json`
 * prints for the same files on disk. One path naming a file gives that file's report (docs/contract.md
 * section 5); folders or several paths give `{ files, validCount, invalidCount, ok, exitCode }` (docs/ci.md).
 * Every file is reached through the workspace: its discovery walk, its configuration files, its
 * documents, the lock beside each file.
 */
import * as nodePath from "node:path";
import { EXIT, type ReportExitStatus, worstExit } from "../../../shared/exitCodes";
import { lockFileNameFor, parseLock } from "../core/lock";
import { isLockFileName } from "../core/lock/names";
import { type CheckLockRead, checkOperation, checkReport } from "../operations/check";
import { Discovery } from "./discovery";
import type { AsyncDiscoveryFileSystem, DiscoveryFileSystem } from "./discoveryFs";
import { isInside } from "./pathSafety";
import {
    type ConfigFileSystem,
    formatConfigProblem,
    ProjectConfigs,
    resolveDocumentRoot,
    UNREADABLE_CONFIG,
} from "./projectConfig";
import { sha256 } from "./sha256";
import { documentsOf, relativeTo, type Workspace } from "./workspace";

export interface CheckOptions {
    /** Files, folders (searched for annotation files) relative to the workspace's root; default the root. */
    paths?: readonly string[];
    /** Drift and refs missing from the lock are errors (`check --locked`, docs/lock.md). */
    locked?: boolean;
}

/** Bad input to the check as a whole (a path that names nothing, a broken configuration): `check` exits 2 on it. */
export class CheckError extends Error {
    readonly exitCode = EXIT.usage;
}

/** As the CLI caps an annotation file (cli/files.ts) and a lock (workspace/lockFiles.ts). */
const MAX_INPUT_BYTES = 256 * 1024 * 1024;
const MAX_LOCK_BYTES = 256 * 1024 * 1024;

/** The report `sourcecheck check --json` prints, as plain JSON data. */
export type CheckJson = Record<string, unknown>;

export async function check(workspace: Workspace, options: CheckOptions = {}): Promise<CheckJson> {
    const paths = options.paths && options.paths.length > 0 ? options.paths : ["."];
    const configs = new ProjectConfigs(configFileSystem(workspace));
    const absolute = (path: string) => nodePath.resolve(workspace.root, path);
    if (paths.length === 1 && workspace.stat(absolute(paths[0])) !== undefined) {
        const stat = workspace.stat(absolute(paths[0]));
        if (stat !== "pending" && stat?.kind !== "directory") {
            refuseLock(paths[0]);
            return plain(checkOne(workspace, absolute(paths[0]), paths[0], options, configs));
        }
    }
    const found = await discover(workspace, paths, configs);
    if (found.length === 0) throw new CheckError(`no annotation files found in ${paths.join(" ")}`);
    const files: CheckJson[] = found.map(([path, shown]) => ({
        file: shown,
        ...checkOne(workspace, path, shown, options, configs),
    }));
    let validCount = 0;
    let invalidCount = 0;
    for (const file of files) {
        validCount += file.validCount as number;
        invalidCount += file.invalidCount as number;
    }
    const exitCode = worstExit(files.map((file) => file.exitCode as ReportExitStatus));
    return plain({ files, validCount, invalidCount, ok: exitCode === EXIT.clean, exitCode });
}

function checkOne(
    workspace: Workspace,
    path: string,
    shown: string,
    options: CheckOptions,
    configs: ProjectConfigs,
): CheckJson {
    const resolution = resolveDocumentRoot(path, { fallback: workspace.root, configs });
    if (resolution.problem) {
        throw new CheckError(
            formatConfigProblem(resolution.problem, relativeTo(workspace.root, resolution.problem.file)),
        );
    }
    const read = workspace.readText(path, MAX_INPUT_BYTES);
    if (!read.ok) {
        const error = { code: "invalid-json", pointer: "", message: `cannot read ${shown}: it ${read.message}` };
        return { ok: false, exitCode: EXIT.usage, validCount: 0, invalidCount: 0, schemaErrors: [error], entries: [] };
    }
    const documents = documentsOf(workspace, resolution.root, { maxBytes: resolution.config?.maxDocumentSize });
    const outcome = checkOperation(
        { text: read.text, locked: options.locked, keep: true, coverage: true },
        { documents, lock: lockBeside(workspace, path, shown), sha256 },
    );
    return checkReport(outcome);
}

/** The lock beside an annotation file, named beside the file as shown (as `check` names it). */
function lockBeside(workspace: Workspace, path: string, shown: string): CheckLockRead {
    const name = lockFileNameFor(nodePath.basename(path));
    const lockPath = nodePath.join(nodePath.dirname(path), name);
    const named = nodePath.posix.join(nodePath.posix.dirname(shown), name);
    const read = workspace.readText(lockPath, MAX_LOCK_BYTES);
    if (!read.ok) {
        if (read.reason === "missing") return {};
        return { path: named, error: { code: "lock-unreadable", message: `the lock ${read.message}` } };
    }
    const parsed = parseLock(read.text, nodePath.basename(path));
    return parsed.lock ? { path: named, lock: parsed.lock } : { path: named, error: parsed.error };
}

function refuseLock(path: string): void {
    if (isLockFileName(nodePath.basename(path))) {
        throw new CheckError(
            `${path} is a lock file (docs/lock.md), not an annotation file: give the annotation file it sits beside`,
        );
    }
}

/** The annotation files under `paths` as [absolute, shown], sorted by shown name as `check` sorts them. */
async function discover(
    workspace: Workspace,
    paths: readonly string[],
    configs: ProjectConfigs,
): Promise<[string, string][]> {
    const discovery = new Discovery(
        {
            base: workspace.root,
            configs,
            onConfigProblem: (problem) => {
                throw new CheckError(formatConfigProblem(problem, relativeTo(workspace.root, problem.file)));
            },
        },
        NO_SYNC_WALK,
        asyncDiscoveryFs(workspace),
    );
    const found = new Map<string, string>();
    for (const path of paths) {
        const absolute = nodePath.resolve(workspace.root, path);
        const stat = workspace.stat(absolute);
        if (stat === undefined || stat === "pending")
            throw new CheckError(`cannot check ${path}: no such file or directory`);
        if (stat.kind === "file") {
            refuseLock(path);
            if (!found.has(absolute)) found.set(absolute, path);
            continue;
        }
        for (const file of (await discovery.walk(absolute)).files) {
            if (discovery.isAnnotationFile(file.path, file.fromBase) && !found.has(file.path))
                found.set(file.path, file.fromBase);
        }
    }
    return [...found].sort(([, a], [, b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** The walk's questions asked of the workspace (the walk is asynchronous: a host may answer later). */
export function asyncDiscoveryFs(workspace: Workspace): AsyncDiscoveryFileSystem {
    const kind = (path: string) => {
        const stat = workspace.stat(path);
        return stat === "pending" ? undefined : stat?.kind;
    };
    return {
        list: async (directory) => (await workspace.list(directory)) ?? undefined,
        readText: async (file) => {
            const read = workspace.readText(file, 1024 * 1024);
            return read.ok ? read.text : undefined;
        },
        exists: async (path) => kind(path) !== undefined,
        isFile: async (path) => kind(path) === "file",
        realPath: async (path) => workspace.realPath(path),
    };
}

/** The walk above is only ever asynchronous here. */
export const NO_SYNC_WALK: DiscoveryFileSystem = {
    list: () => undefined,
    readText: () => undefined,
    exists: () => false,
    isFile: () => false,
    realPath: () => undefined,
};

/** Configuration files at or below the root only: the library reads nothing above its workspace. */
export function configFileSystem(workspace: Workspace): ConfigFileSystem {
    return {
        readConfig(path) {
            if (!isInside(workspace.root, path)) return undefined;
            const read = workspace.readText(path, 4 * 1024 * 1024);
            if (read.ok) return read.text;
            if (read.reason === "missing" || read.reason === "pending") return undefined;
            return `${UNREADABLE_CONFIG}${read.message}`;
        },
    };
}

/** Plain JSON data: what `check --json` prints, read back (no undefined fields, no class instances). */
function plain(value: CheckJson): CheckJson {
    return JSON.parse(JSON.stringify(value)) as CheckJson;
}
