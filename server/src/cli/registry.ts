/**
 * Commands beyond the four of the first wave, one module each (docs/cli.md). Each parses its own
 * arguments, so adding a command touches only its module and one line here.
 */
import { annotateCommand } from "./annotateCommand";
import { citeCommand } from "./citeCommand";
import type { CliIo } from "./commands";
import { convertCommand } from "./convertCommand";
import { evidenceCommand } from "./evidenceCommand";
import { lockCommand } from "./lockCommand";
import { mcpCommand } from "./mcpCommand";
import { notesCommand } from "./notesCommand";
import { renderCommand } from "./renderCommand";
import { repairCommand } from "./repairCommand";
import { reportCheckCommand } from "./reportCheckCommand";
import { traceCommand } from "./traceCommand";

export interface CliCommand {
    /** The first word on the command line, e.g. `repair`; `trace verify-files` is `trace`'s business. */
    name: string;
    /** Usage lines shown by `sourcecheck --help`. */
    usage: string;
    /** Exit status; a CliError (from ./files) becomes one clear line on stderr and its exit code. */
    run(argv: string[], io: CliIo): number | Promise<number>;
}

export const COMMANDS: CliCommand[] = [
    citeCommand,
    annotateCommand,
    mcpCommand,
    evidenceCommand,
    traceCommand,
    notesCommand,
    reportCheckCommand,
    convertCommand,
    repairCommand,
    lockCommand,
    renderCommand,
];
