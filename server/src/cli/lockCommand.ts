/**
 * `sourcecheck lock [--root DIR] [--json] PATH|GLOB...` (docs/lock.md): beside each annotation file,
 * the lock of what each of its refs resolves to. Exit 0 every lock written with every ref locked,
 * 1 some ref could not be locked (listed; its last known entry is kept), 2 bad input (a file or its
 * existing lock that cannot be read, schema errors: that file's lock is left untouched).
 */
import * as nodePath from "node:path";
import { pointerWithReading } from "../../../shared/numbering";
import {
    changedDocuments,
    type LockError,
    lockAnnotationText,
    type NotLocked,
    refCountIfAllResolve,
    siteLabel,
} from "../core/lock";
import { visible } from "../core/visible";
import { DiskDocuments } from "../workspace/diskDocuments";
import { isLockOnBasis, lockPathFor, readLockOnBasis, sha256 } from "../workspace/lockFiles";
import { formatConfigProblem, ProjectConfigs, resolveDocumentRoot } from "../workspace/projectConfig";
import { sourceCheckExits } from "./command";
import { type CommandSpec, defineCommand, ROOT_AND_JSON, usageError } from "./commandLine";
import type { CliIo } from "./commands";
import { discoverFiles } from "./discovery";
import { CliError, readTextInputHashed, writeFileAtomic } from "./files";

const USAGE = `  sourcecheck lock [--root DIR] [--json] [--accept] PATH|GLOB...
            write beside each annotation file X.sourcecheck.json its lock X.sourcecheck.lock.json:
            what each ref resolves to now, so check reports text-changed when a cited text changes;
            a ref whose cited text changed keeps its locked text unless --accept is given;
            exit 1 when a ref does not resolve or its changed text is not accepted (its entry is kept)`;

const SPEC: CommandSpec = {
    name: "lock",
    usage: USAGE,
    exits: sourceCheckExits({
        clean: "every lock written with every ref locked",
        findings: "some ref could not be locked, or its changed text was not accepted (listed)",
    }),
};

export interface FileLockResult {
    file: string;
    lock: string;
    written: boolean;
    exitCode: 0 | 1 | 2;
    locked: number;
    /** Refs whose changed text was accepted (`--accept`): their entries now hold the new text. */
    accepted: number;
    notLocked: NotLocked[];
    error?: { code: string; message: string };
}

export const lockCommand = defineCommand({
    spec: SPEC,
    options: { ...ROOT_AND_JSON, accept: { type: "boolean" } },
    run({ values, positionals }, io): number {
        if (positionals.length === 0) throw usageError(SPEC, " takes at least one annotation FILE, folder or glob");
        if (positionals.includes("-")) throw usageError(SPEC, ": a lock is written beside a file, not for stdin");
        const configs = new ProjectConfigs();
        const found = discoverFiles(positionals, { cwd: io.cwd, exclude: [], configs });
        if (found.length === 0) throw new CliError(`lock: no annotation files found in ${positionals.join(" ")}`);
        const root = values.root !== undefined ? nodePath.resolve(io.cwd, values.root) : undefined;
        const results = found.map((file) => {
            const { text: _text, ...result } = lockFile(file.path, file.shown, root, io, configs, true, {
                accept: values.accept === true,
            });
            return result;
        });
        const exitCode = Math.max(0, ...results.map((r) => r.exitCode));
        if (values.json) {
            io.stdout(`${JSON.stringify({ files: results, exitCode }, null, 2)}\n`);
        } else {
            io.stdout(results.map(formatResult).join(""));
        }
        return exitCode;
    },
});

/** Lock one annotation file (exported for the MCP tool, which writes only on request). */
export function lockFile(
    path: string,
    shown: string,
    explicitRoot: string | undefined,
    io: Pick<CliIo, "cwd">,
    configs = new ProjectConfigs(),
    write = true,
    /** Accept changed texts (`--accept`, the MCP tool's `accept`): never by default (docs/security.md). */
    { accept = false }: { accept?: boolean } = {},
): FileLockResult & { text?: string } {
    const lockPath = lockPathFor(path);
    const lockShown = nodePath.join(nodePath.dirname(shown), nodePath.basename(lockPath)).replace(/\\/g, "/");
    const base = { file: shown, lock: lockShown, written: false, locked: 0, accepted: 0, notLocked: [] as NotLocked[] };
    const fail = (code: string, message: string): FileLockResult => ({
        ...base,
        exitCode: 2,
        error: { code, message },
    });

    let text: string;
    let textSha256: string | undefined;
    try {
        ({ text, sha256: textSha256 } = readTextInputHashed(path, shown));
    } catch (error) {
        if (error instanceof CliError) return fail("unreadable-file", error.message);
        throw error;
    }
    const resolution = resolveDocumentRoot(path, { explicitRoot, fallback: io.cwd, configs });
    if (resolution.problem) return fail("config", formatConfigProblem(resolution.problem));
    // Every document's hash goes in the basis: hashed from the bytes as they are read.
    const disk = new DiskDocuments(resolution.root, {
        maxBytes: resolution.config?.maxDocumentSize,
        contentSha256: true,
    });
    let previous = readLockOnBasis(path, () => textSha256 ?? sha256(text));
    if (isLockOnBasis(previous)) {
        // Nothing the lock was taken over changed and every ref resolves: locking again would write
        // these very bytes (docs/lock.md, "Basis"), so they are written without building the entries.
        const count =
            changedDocuments(previous.basis, disk, sha256).size === 0 ? refCountIfAllResolve(text, disk) : undefined;
        // The bytes are read again for the rewrite, and used only if their entries still verify.
        const same = count !== undefined && write ? previous.bytes() : undefined;
        if (count !== undefined && (!write || same)) {
            if (same) writeFileAtomic(lockPath, same);
            return { ...base, written: write, locked: count, notLocked: [], exitCode: 0 };
        }
        previous = previous.load();
    }
    if (previous.error) return fail(previous.error.code, lockErrorMessage(previous.error));

    const result = lockAnnotationText(text, nodePath.basename(path), disk, previous.lock, sha256, accept, textSha256);
    if (result.schemaErrors) {
        const first = result.schemaErrors[0];
        const count = result.schemaErrors.length;
        return fail(
            first.code,
            `${count} schema error${count === 1 ? "" : "s"}, the first at ${pointerWithReading(first.pointer)}: ${first.message}; the lock is left as it was`,
        );
    }
    const { content, locked, notLocked, accepted } = result;
    let written = false;
    if (write) {
        writeFileAtomic(lockPath, content);
        written = true;
    }
    return { ...base, written, locked, accepted, notLocked, exitCode: notLocked.length > 0 ? 1 : 0, text: content };
}

function lockErrorMessage(error: LockError): string {
    return `${error.message}; fix or delete the lock file to lock again (nothing was written)`;
}

/** Names and messages escaped: a file name or a cited text is shown, never acted on (docs/security.md, "Outputs"). */
function formatResult(result: FileLockResult): string {
    if (result.error) return `${visible(result.lock)}: ${result.error.code}: ${visible(result.error.message)}\n`;
    const lines = result.notLocked.map(
        (n) =>
            `${visible(result.file)}:${n.line}:${n.column}: ${siteLabel(n.annotation, n.role)}: ${n.code}: ${visible(n.message)}` +
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
