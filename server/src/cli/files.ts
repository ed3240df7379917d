/** File I/O of the CLI: reading inputs as text, and atomic writes (temp file renamed into place). */
import * as fs from "node:fs";
import * as path from "node:path";
import { decodeText, readTextFile } from "../workspace/safeFile";

/** Marks a CliError whichever bundle made it: `check` loads further commands from another bundle. */
const CLI_ERROR = Symbol.for("sourcecheck.CliError");

/** An error meant for the user: one line on stderr and its exit code, never a stack trace. */
export class CliError extends Error {
    readonly [CLI_ERROR] = true;

    constructor(
        message: string,
        readonly exitCode: number = 2,
    ) {
        super(message);
    }

    /** `instanceof` across bundles (dist/check.js catches what dist/cli.js throws). */
    static override [Symbol.hasInstance](value: unknown): boolean {
        return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[CLI_ERROR] === true;
    }
}

/**
 * Read an input file (or "-" for stdin) as UTF-8 text; a clear CliError otherwise, naming the file
 * as the user wrote it (`shown`), not as resolved.
 */
export function readTextInput(file: string, readStdin: () => Buffer, shown = file): string {
    if (file === "-") {
        const decoded = decodeText(readStdin());
        if (!decoded.ok) throw new CliError(`cannot read stdin: it ${decoded.message}`);
        return decoded.text;
    }
    // The one safe reader (workspace/safeFile.ts): a FIFO or device given as FILE is refused, not waited on.
    const read = readTextFile(file);
    if (read.ok) return read.text;
    if (read.reason === "missing") throw new CliError(`cannot read ${shown}: no such file`);
    if (read.reason === "directory") throw new CliError(`cannot read ${shown}: it is a directory`);
    if (read.reason === "not-regular") throw new CliError(`cannot read ${shown}: not a regular file`);
    if (read.reason === "error")
        throw new CliError(`cannot read ${shown}: ${read.message.replace("cannot be read: ", "")}`);
    throw new CliError(`cannot read ${shown}: it ${read.message}`);
}

/** Write a whole file or nothing: a temp file beside the target, flushed, then renamed over it. */
export function writeFileAtomic(target: string, content: string): void {
    const directory = path.dirname(path.resolve(target));
    const temp = path.join(directory, `.${path.basename(target)}.${process.pid}.${Date.now()}.tmp`);
    let fd: number | undefined;
    try {
        fd = fs.openSync(temp, "wx", 0o644);
        fs.writeSync(fd, content);
        fs.fsyncSync(fd);
        fs.closeSync(fd);
        fd = undefined;
        fs.renameSync(temp, target);
    } catch (error) {
        if (fd !== undefined) fs.closeSync(fd);
        fs.rmSync(temp, { force: true });
        throw new CliError(`cannot write ${target}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
    }
}
