/**
 * `sourcecheck lock [--root DIR] [--json] PATH|GLOB...` (docs/lock.md): beside each annotation file,
 * the lock of what each of its refs resolves to. Exit 0 every lock written with every ref locked,
 * 1 some ref could not be locked (listed; its last known entry is kept), 2 bad input (a file or its
 * existing lock that cannot be read, schema errors: that file's lock is left untouched).
 */

import * as nodePath from "node:path";
import { EXIT, type ExitStatus, type ReportExitStatus, worstExit } from "../../../shared/exitCodes";
import type { LockRefSite } from "../core/lock/sites";
import { visible } from "../core/visible";
import { type LockResult, lockPlan } from "../operations/lock";
import { placeLabel } from "../operations/numbers";
import { DiskDocuments } from "../workspace/diskDocuments";
import {
    isLockOnBasis,
    type LockOnBasis,
    type LockRead,
    lockPathFor,
    readLockOnBasis,
    sha256,
} from "../workspace/lockFiles";
import { nodeProjectConfigs } from "../workspace/nodeConfigs";
import { formatConfigProblem, resolveDocumentRoot } from "../workspace/projectConfig";
import { type CliCommand, sourceCheckExits } from "./command";
import { type CommandSpec, defineCommand, ROOT_AND_JSON, usageError } from "./commandLine";
import type { CliIo } from "./commands";
import { discoverFiles } from "./discovery";
import { CliError, isCliError, readTextInputHashed, writeFileAtomic } from "./files";
import { jsonEnvelope } from "./jsonEnvelope";

const USAGE = `  sourcecheck lock [--root DIR] [--json] [--accept [N,M...]] PATH|GLOB...
            write beside each annotation file X.sourcecheck.json its lock X.sourcecheck.lock.json:
            what each ref resolves to now, so check reports text-changed when a cited text changes;
            a ref whose cited text changed keeps its locked text unless --accept is given (alone:
            every changed text; --accept 2,5: only the refs of annotations 2 and 5, from 1);
            exit 1 when a ref does not resolve or its changed text is not accepted (its entry is kept)`;

const SPEC: CommandSpec = {
    name: "lock",
    usage: USAGE,
    exits: sourceCheckExits({
        clean: "every lock written with every ref locked",
        findings: "some ref could not be locked, or its changed text was not accepted (listed)",
    }),
};

/** The lock operation's result for one file, with the CLI's envelope (`file`, `exitCode`, `error`). */
export type FileLockResult = LockResult & {
    file: string;
    exitCode: ReportExitStatus;
    error?: { code: string; message: string };
};

/** `--accept 2,5` (or `--accept=2,5`): annotation numbers from 1, kept apart so `--accept` alone stays a flag. */
const ACCEPT_LIST = /^[0-9]+(,[0-9]+)*$/;

/** `--accept N,M` out of argv as `--accept-annotations N,M`, which parseArgs can read. */
export function takeAcceptList(argv: readonly string[]): string[] {
    const out: string[] = [];
    for (let i = 0; i < argv.length; i++) {
        const arg = argv[i];
        if (arg === "--") {
            out.push(...argv.slice(i));
            break;
        }
        const inline = arg.startsWith("--accept=") ? arg.slice("--accept=".length) : undefined;
        if (inline !== undefined && ACCEPT_LIST.test(inline)) out.push(`--accept-annotations=${inline}`);
        else if (arg === "--accept" && ACCEPT_LIST.test(argv[i + 1] ?? ""))
            out.push(`--accept-annotations=${argv[++i]}`);
        else out.push(arg);
    }
    return out;
}

/** What `--accept` asks the lock operation to accept: all, none, or the refs of some annotations (0-based inside). */
function acceptOption(values: {
    accept?: boolean;
    "accept-annotations"?: string;
}): boolean | ((site: LockRefSite) => boolean) {
    const list = values["accept-annotations"];
    if (list === undefined) return values.accept === true;
    const wanted = new Set(list.split(",").map((n) => Number(n) - 1));
    if (wanted.has(-1)) throw usageError(SPEC, ": --accept takes annotation numbers from 1 (annotations count from 1)");
    return (site) => wanted.has(site.annotation);
}

const parsedLockCommand = defineCommand({
    spec: SPEC,
    options: { ...ROOT_AND_JSON, accept: { type: "boolean" }, "accept-annotations": { type: "string" } },
    run({ values, positionals }, io): ExitStatus {
        if (positionals.length === 0) throw usageError(SPEC, " takes at least one annotation FILE, folder or glob");
        if (positionals.includes("-")) throw usageError(SPEC, ": a lock is written beside a file, not for stdin");
        const configs = nodeProjectConfigs();
        const found = discoverFiles(positionals, {
            cwd: io.cwd,
            exclude: [],
            configs,
            warn: (message) => io.stderr(`sourcecheck: warning: ${visible(message)}\n`),
        });
        if (found.length === 0) throw new CliError(`lock: no annotation files found in ${positionals.join(" ")}`);
        const root = values.root !== undefined ? nodePath.resolve(io.cwd, values.root) : undefined;
        const accept = acceptOption(values);
        const results = found.map((file) => {
            return lockFile(file.path, file.shown, root, io, configs, true, { accept });
        });
        const exitCode = worstExit(results.map((r) => r.exitCode));
        if (values.json) {
            io.stdout(jsonEnvelope({ files: results }, exitCode));
        } else {
            io.stdout(results.map(formatResult).join(""));
        }
        return exitCode;
    },
});
export const lockCommand: CliCommand = {
    ...parsedLockCommand,
    run: (argv, io) => parsedLockCommand.run(takeAcceptList(argv), io),
};

/** Lock one annotation file through the lock operation (operations/lock.ts). */
export function lockFile(
    path: string,
    shown: string,
    explicitRoot: string | undefined,
    io: Pick<CliIo, "cwd">,
    configs = nodeProjectConfigs(),
    write = true,
    /** Accept changed texts (`--accept`, or `--accept N,M`: some annotations'): never by default (docs/security.md). */
    { accept = false }: { accept?: boolean | ((site: LockRefSite) => boolean) } = {},
): FileLockResult {
    const lockPath = lockPathFor(path);
    const lockShown = nodePath.join(nodePath.dirname(shown), nodePath.basename(lockPath)).replace(/\\/g, "/");
    const fail = (code: string, message: string): FileLockResult => ({
        ...emptyFileResult(shown, lockShown),
        exitCode: EXIT.usage,
        error: { code, message },
    });

    let text: string;
    let textSha256: string | undefined;
    try {
        ({ text, sha256: textSha256 } = readTextInputHashed(path, shown));
    } catch (error) {
        if (isCliError(error)) return fail("unreadable-file", error.message);
        throw error;
    }
    const resolution = resolveDocumentRoot(path, { explicitRoot, fallback: io.cwd, configs });
    if (resolution.problem) return fail("config", formatConfigProblem(resolution.problem));
    // Every document's hash goes in the basis: hashed from the bytes as they are read.
    const disk = new DiskDocuments(resolution.root, {
        maxBytes: resolution.config?.maxDocumentSize,
        contentSha256: true,
    });
    const plan = lockPlan(
        { text, fileName: nodePath.basename(path), accept, textSha256 },
        {
            documents: disk,
            lock: () =>
                named(
                    readLockOnBasis(path, () => textSha256 ?? sha256(text)),
                    lockShown,
                ),
            sha256,
        },
    );
    if (!plan.ok) return fail(plan.error.code, plan.error.message);
    if (write) writeFileAtomic(lockPath, plan.content);
    const { lock: _lock, ...result } = plan.result;
    return {
        file: shown,
        lock: lockShown,
        ...result,
        written: write,
        exitCode: result.notLocked.length > 0 ? EXIT.findings : EXIT.clean,
    };
}

/** The lock as read, named as the user named its annotation file (messages and `lock` in the result). */
function named(read: LockRead | LockOnBasis, shown: string): LockRead | LockOnBasis {
    if (isLockOnBasis(read)) return { ...read, path: shown, load: () => ({ ...read.load(), path: shown }) };
    return { ...read, path: shown };
}

function emptyFileResult(file: string, lock: string): Omit<FileLockResult, "exitCode"> {
    return { file, lock, written: false, locked: 0, accepted: 0, changed: 0, unresolved: 0, notLocked: [] };
}

/** Names and messages escaped: a file name or a cited text is shown, never acted on (docs/security.md, "Outputs"). */
function formatResult(result: FileLockResult): string {
    if (result.error) return `${visible(result.lock)}: ${result.error.code}: ${visible(result.error.message)}\n`;
    const lines = result.notLocked.map(
        (n) =>
            `${visible(result.file)}:${n.line}:${n.column}: ${placeLabel(n)}: ${n.code}: ${visible(n.message)}` +
            (n.code === "text-changed"
                ? " (its locked text is kept: lock --accept accepts the new text)"
                : n.kept
                  ? " (its last locked entry is kept)"
                  : " (not locked)"),
    );
    const total = result.locked + result.notLocked.length;
    lines.push(
        `${visible(result.lock)}: ${result.locked} of ${total} ref${total === 1 ? "" : "s"} locked` +
            (result.accepted > 0
                ? `, ${result.accepted} changed text${result.accepted === 1 ? "" : "s"} accepted`
                : "") +
            (result.notLocked.length > 0 ? `, ${result.notLocked.length} could not be` : "") +
            ` (exit ${result.exitCode})`,
    );
    return `${lines.join("\n")}\n`;
}
