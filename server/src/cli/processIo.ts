/**
 * The process side of the CLI: stdin/stdout/stderr as a CliIo, and how an error becomes one line and
 * an exit status. Shared by the CLI (cli.ts) and the commands, each in a bundle of its own
 * (scripts/build.mjs), so it imports nothing large.
 */
import * as fs from "node:fs";
import * as nodePath from "node:path";
import { EXIT, type ExitStatus } from "../../../shared/exitCodes";
import { visible } from "../core/visible";
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
        version: packageVersion(),
    };
}

/** Written in by the build (scripts/build.mjs `define`), so no bundle parses package.json at start-up. */
declare const SOURCECHECK_VERSION: string | undefined;

function packageVersion(): string {
    if (typeof SOURCECHECK_VERSION === "string") return SOURCECHECK_VERSION;
    // Unbundled (tsc's out/, in tests): the nearest package.json upward.
    for (let dir = __dirname; ; dir = nodePath.dirname(dir)) {
        const candidate = nodePath.join(dir, "package.json");
        if (fs.existsSync(candidate))
            return (JSON.parse(fs.readFileSync(candidate, "utf8")) as { version: string }).version;
        if (nodePath.dirname(dir) === dir) return "unknown";
    }
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

export function reportError(error: unknown, io: CliIo): ExitStatus {
    // A message names user input (paths, options): shown escaped, one line (docs/security.md, "Outputs").
    if (isCliError(error)) {
        io.stderr(`sourcecheck: ${visible(error.message)}\n${error.usage ? `Usage:\n${error.usage}\n` : ""}`);
        return error.exitCode;
    }
    // Not ours to expect: still one line, no stack trace, and a distinct status from check's 0/1/2.
    io.stderr(`sourcecheck: internal error: ${visible(error instanceof Error ? error.message : String(error))}\n`);
    return EXIT.internal;
}
