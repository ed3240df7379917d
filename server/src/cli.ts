/**
 * The `sourcecheck` command (docs/contract.md section 5): which command a command line names, and
 * error handling. The first commands (cli/checkCommand.ts) and each further one (cli/registry.ts) load
 * when named, each a bundle of its own (docs/architecture.md, "CLI bundles"); the work is in
 * cli/commands.ts over the same core and workspace code as the language server.
 */
import * as fs from "node:fs";
import * as nodePath from "node:path";
import { type CliCommand, FIRST_COMMANDS } from "./cli/command";
import type { CliIo } from "./cli/commands";
import { CliError } from "./cli/files";
import { processIo, reportError } from "./cli/processIo";
import { allCommands, COMMAND_NAMES, loadCommand, loadFirstCommands } from "./cli/registry";
import { levenshtein } from "./core/editDistance";

/** The further commands' usage, for `--help` after the first commands' (cli/checkCommand.ts). */
function moreUsage(): string {
    return allCommands()
        .map((command) => `${command.usage.trimEnd()}\n            exit status: ${command.exitCodes}`)
        .join("\n");
}

/** `sourcecheck NAME --help`: that command's usage and what its exit statuses mean. */
function commandHelp(command: CliCommand): string {
    return `Usage:\n${command.usage.trimEnd()}\n\nExit status: ${command.exitCodes}\n`;
}

/**
 * A lowercase word that names no command, no file or folder and no glob: `unknown command "lock"`
 * with the nearest command names (exit 2), rather than a missing file to check.
 */
function unknownCommand(word: string, io: CliIo): CliError | undefined {
    if (picomatchFree(word) && !exists(nodePath.resolve(io.cwd, word))) {
        const names = [...FIRST_COMMANDS].filter((name) => name !== "help").concat(COMMAND_NAMES);
        const nearest = names
            .map((name) => ({ name, distance: levenshtein(word, name) }))
            .sort((a, b) => a.distance - b.distance || (a.name < b.name ? -1 : 1))
            .slice(0, 3)
            .map((candidate) => candidate.name);
        return new CliError(
            `unknown command "${word}"; the nearest: ${nearest.join(", ")} (sourcecheck --help lists them all)`,
        );
    }
    return undefined;
}

function picomatchFree(word: string): boolean {
    return !/[*?[\]{}!]/.test(word);
}

function exists(path: string): boolean {
    try {
        fs.statSync(path);
        return true;
    } catch {
        return false;
    }
}

/** Commands (and option-first command lines) that never need the other command modules. */
const FIRST_WAVE = new Set([...FIRST_COMMANDS, "--json", "--format", "--root", "--max-size", "--locked", "-"]);

/** Only a lowercase word can name a command: `sourcecheck answer.json` never needs the registry. */
const COMMAND_NAME = /^[a-z][a-z-]*$/;

/** Exit status; a promise for the commands that do I/O asynchronously (fetching, workers, servers). */
export function main(argv: string[], io: CliIo): number | Promise<number> {
    try {
        const command = FIRST_WAVE.has(argv[0]) || !COMMAND_NAME.test(argv[0] ?? "") ? undefined : loadCommand(argv[0]);
        if (command && argv.length === 2 && (argv[1] === "--help" || argv[1] === "-h")) {
            io.stdout(commandHelp(command));
            return 0;
        }
        if (!command && !FIRST_WAVE.has(argv[0]) && COMMAND_NAME.test(argv[0] ?? "")) {
            const unknown = unknownCommand(argv[0], io);
            if (unknown) throw unknown;
        }
        const status = command
            ? command.run(argv.slice(1), io)
            : loadFirstCommands().runFirstCommands(argv, io, moreUsage);
        return typeof status === "number" ? status : status.catch((error: unknown) => reportError(error, io));
    } catch (error) {
        return reportError(error, io);
    }
}

export { processIo };

if (require.main === module) {
    // Set the exit code rather than exiting: large reports are written asynchronously to pipes.
    void Promise.resolve(main(process.argv.slice(2), processIo())).then((status) => {
        process.exitCode = status;
    });
}
