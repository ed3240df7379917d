/**
 * Commands beyond the four of the first wave, one module each (README, "The `sourcecheck` CLI"). Each parses its own
 * arguments, so adding a command touches only its module and one line here.
 */
import { annotateCommand } from "./annotateCommand";
import { citeCommand } from "./citeCommand";
import type { CliCommand } from "./command";
import { convertCommand } from "./convertCommand";
import { evidenceCommand } from "./evidenceCommand";
import { lockCommand } from "./lockCommand";
import { mcpCommand } from "./mcpCommand";
import { notesCommand } from "./notesCommand";
import { renderCommand } from "./renderCommand";
import { repairCommand } from "./repairCommand";
import { reportCheckCommand } from "./reportCheckCommand";
import { traceCommand } from "./traceCommand";

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
