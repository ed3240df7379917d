/**
 * The process side of the CLI: stdin/stdout/stderr as a CliIo, and how an error becomes one line and
 * an exit status. Shared by the full CLI (cli.ts) and the evidence command's own bundle
 * (cli/evidenceMain.ts), which must not load every other command's libraries.
 */
import * as fs from "node:fs";
import packageJson from "../../../package.json";
import type { CliIo } from "./commands";
import { DEFAULT_MAX_INPUT_BYTES, isCliError, readBoundedSync } from "./files";
import { writeAllSync } from "./stdout";

export function processIo(): CliIo {
    let stdinIsPiped = false;
    try {
        const stats = fs.fstatSync(0);
        stdinIsPiped = stats.isFIFO() || stats.isFile() || stats.isSocket();
    } catch {
        stdinIsPiped = false;
    }
    return {
        cwd: process.cwd(),
        stdout: stdoutWriter(),
        stderr: (text) => process.stderr.write(text),
        readStdin: (maxBytes = DEFAULT_MAX_INPUT_BYTES) => readBoundedSync(0, maxBytes),
        stdinIsPiped,
        version: packageJson.version,
    };
}

/**
 * Writes to stdout synchronously (streamed reports must not queue up in memory); a reader that went
 * away (`| head`) ends the output quietly, as other command-line tools do.
 */
function stdoutWriter(): (text: string) => void {
    let closed = false;
    return (text) => {
        if (closed) return;
        try {
            writeAllSync(1, text);
        } catch (error) {
            if ((error as NodeJS.ErrnoException).code !== "EPIPE") throw error;
            closed = true;
        }
    };
}

export function reportError(error: unknown, io: CliIo): number {
    if (isCliError(error)) {
        io.stderr(`sourcecheck: ${error.message}\n`);
        return error.exitCode;
    }
    // Not ours to expect: still one line, no stack trace, and a distinct status from check's 0/1/2.
    io.stderr(`sourcecheck: internal error: ${error instanceof Error ? error.message : String(error)}\n`);
    return 3;
}
