/** File I/O of the CLI: reading inputs as text, and atomic writes (temp file renamed into place). */
import * as fs from "node:fs";
import * as path from "node:path";
import { decodeText } from "../workspace/diskDocuments";

export class CliError extends Error {
    constructor(
        message: string,
        readonly exitCode: number = 2,
    ) {
        super(message);
    }
}

/**
 * Read an input file (or "-" for stdin) as UTF-8 text; a clear CliError otherwise, naming the file
 * as the user wrote it (`shown`), not as resolved.
 */
export function readTextInput(file: string, readStdin: () => Buffer, shown = file): string {
    let bytes: Buffer;
    if (file === "-") {
        bytes = readStdin();
    } else {
        let stats: fs.Stats;
        try {
            stats = fs.statSync(file);
        } catch (error) {
            const code = (error as NodeJS.ErrnoException).code;
            throw new CliError(
                code === "ENOENT" ? `cannot read ${shown}: no such file` : `cannot read ${shown}: ${code}`,
            );
        }
        if (stats.isDirectory()) throw new CliError(`cannot read ${shown}: it is a directory`);
        if (!stats.isFile()) throw new CliError(`cannot read ${shown}: not a regular file`);
        try {
            bytes = fs.readFileSync(file);
        } catch (error) {
            throw new CliError(`cannot read ${shown}: ${(error as NodeJS.ErrnoException).code ?? "error"}`);
        }
    }
    const decoded = decodeText(bytes);
    if (!decoded.ok) throw new CliError(`cannot read ${file === "-" ? "stdin" : shown}: it ${decoded.message}`);
    return decoded.text;
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
