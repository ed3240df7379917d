/**
 * `sourcecheck evidence` as a bundle of its own (dist/evidence.js; bin/sourcecheck.js routes the
 * command here). The full CLI bundle carries every command's libraries, and loading them took longer
 * than a whole warm search (docs/evidence.md, "Speed"); the command and its output are the same.
 */
import type { CliIo } from "./commands";
import { evidenceCommand } from "./evidenceCommand";
import { processIo, reportError } from "./processIo";

/** `argv` as for the full CLI: its first word is `evidence`. */
export function main(argv: string[], io: CliIo): number {
    try {
        return evidenceCommand.run(argv.slice(1), io) as number;
    } catch (error) {
        return reportError(error, io);
    }
}

export { processIo };
