/** File I/O of the CLI: reading inputs as text, and atomic writes (temp file renamed into place). */
import * as fs from "node:fs";
import { EXIT, type ExitStatus } from "../../../shared/exitCodes";
import { decodeText, formatBytes, readTextFile } from "../workspace/safeFile";
import { describeWriteError, type FileSnapshot, type SafeWriteOptions, writeFileSafely } from "../workspace/safeWrite";

/**
 * An error meant for the user: one line on stderr and its exit code, never a stack trace. Told
 * apart by its `code` (isCliError), not by `instanceof`, which a second copy of this module (another
 * bundle, a worker) would defeat.
 */
export class CliError extends Error {
    readonly code = "sourcecheck-cli-error";

    constructor(
        message: string,
        readonly exitCode: ExitStatus = EXIT.usage,
        /** The command's usage, printed as is after the message (which is shown escaped: it names user input). */
        readonly usage?: string,
    ) {
        super(message);
    }
}

export function isCliError(value: unknown): value is CliError {
    return (
        typeof value === "object" &&
        value !== null &&
        (value as { code?: unknown }).code === "sourcecheck-cli-error" &&
        typeof (value as { exitCode?: unknown }).exitCode === "number"
    );
}

/**
 * The cap on an input the CLI reads whole (stdin included) unless --max-size says otherwise: room
 * for a million annotations (about 200 MB), not for `check - < /dev/zero`.
 */
export const DEFAULT_MAX_INPUT_BYTES = 256 * 1024 * 1024;

/** `--max-size BYTES`: a whole number of bytes, or a usage error. */
export function parseMaxSize(value: string | undefined): number | undefined {
    if (value === undefined) return undefined;
    if (!/^[0-9]{1,15}$/.test(value.trim()))
        throw new CliError(`--max-size must be a whole number of bytes, not ${JSON.stringify(value)}`);
    return Number(value);
}

/** The most worker threads `check --jobs` starts, whatever it is asked (each costs tens of MB). */
export const MAX_JOBS = 32;

/**
 * Read an input file (or "-" for stdin) as UTF-8 text; a clear CliError otherwise, naming the file
 * as the user wrote it (`shown`), not as resolved. Both are capped at `maxBytes`.
 */
export function readTextInput(
    file: string,
    readStdin: (maxBytes?: number) => Buffer,
    shown = file,
    maxBytes: number = DEFAULT_MAX_INPUT_BYTES,
): string {
    return readInput(file, readStdin, shown, maxBytes, false).text;
}

/** readTextInput, with what was read for an in-place rewrite through writeFileAtomic's `expected`. */
export function readTextInputForUpdate(
    file: string,
    shown = file,
    maxBytes: number = DEFAULT_MAX_INPUT_BYTES,
): { text: string; snapshot: FileSnapshot } {
    const read = readInput(file, () => Buffer.alloc(0), shown, maxBytes, true);
    return { text: read.text, snapshot: read.snapshot as FileSnapshot };
}

/** readTextInput, with the SHA-256 of the text hashed from the bytes as read (a lock's basis: docs/lock.md). */
export function readTextInputHashed(
    file: string,
    shown = file,
    maxBytes: number = DEFAULT_MAX_INPUT_BYTES,
): { text: string; sha256: string | undefined } {
    const read = readInput(file, () => Buffer.alloc(0), shown, maxBytes, false, true);
    return { text: read.text, sha256: read.textSha256 };
}

function readInput(
    file: string,
    readStdin: (maxBytes?: number) => Buffer,
    shown: string,
    maxBytes: number,
    snapshot: boolean,
    textSha256 = false,
): { text: string; snapshot?: FileSnapshot; textSha256?: string } {
    if (file === "-") {
        const bytes = readStdin(maxBytes);
        if (bytes.length > maxBytes)
            throw new CliError(`cannot read stdin: it is over the ${formatBytes(maxBytes)} size cap (--max-size)`);
        const decoded = decodeText(bytes);
        if (!decoded.ok) throw new CliError(`cannot read stdin: it ${decoded.message}`);
        return { text: decoded.text };
    }
    // The one safe reader (workspace/safeFile.ts): a FIFO or device given as FILE is refused, not waited on.
    const read = readTextFile(file, { maxBytes, snapshot, textSha256 });
    if (read.ok) return read;
    if (read.reason === "missing") throw new CliError(`cannot read ${shown}: no such file`);
    if (read.reason === "directory") throw new CliError(`cannot read ${shown}: it is a directory`);
    if (read.reason === "not-regular") throw new CliError(`cannot read ${shown}: not a regular file`);
    if (read.reason === "error")
        throw new CliError(`cannot read ${shown}: ${read.message.replace("cannot be read: ", "")}`);
    throw new CliError(`cannot read ${shown}: it ${read.message}`);
}

/** Read a descriptor (stdin) up to `maxBytes` + 1 bytes: enough to tell it is over the cap, never more. */
export function readBoundedSync(fd: number, maxBytes: number): Buffer {
    const chunks: Buffer[] = [];
    let total = 0;
    const chunk = Buffer.allocUnsafe(64 * 1024);
    for (;;) {
        let n: number;
        try {
            n = fs.readSync(fd, chunk, 0, chunk.length, null);
        } catch (error) {
            const code = (error as NodeJS.ErrnoException).code;
            if (code === "EAGAIN") continue;
            if (code === "EOF") break;
            throw error;
        }
        if (n === 0) break;
        chunks.push(Buffer.from(chunk.subarray(0, n)));
        total += n;
        if (total > maxBytes) break;
    }
    return Buffer.concat(chunks, total);
}

/**
 * Write a whole file or nothing, through the one safe writer (workspace/safeWrite.ts): never over a
 * device, FIFO, directory, symlink (unless `followSymlinks`), read-only file or one of the command's
 * `inputs`; an in-place rewrite given the `expected` snapshot refuses a file changed meanwhile.
 * `shown` names the target as the user wrote it.
 */
export function writeFileAtomic(
    target: string,
    content: string | Uint8Array,
    options: SafeWriteOptions = {},
    shown: string = target,
): void {
    try {
        writeFileSafely(target, content, options);
    } catch (error) {
        throw new CliError(describeWriteError(shown, error), 2);
    }
}
