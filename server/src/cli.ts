/**
 * The `sourcecheck` command (docs/cli.md): which command a command line names, the overall `--help`
 * and `--version`, and error handling. Every command is declared in its own module and listed in
 * cli/registry.ts; a command line that names none is `check`'s (`sourcecheck answer.json`).
 */
import * as fs from "node:fs";
import * as nodePath from "node:path";
import { EXIT, type ExitStatus } from "../../shared/exitCodes";
import { type CliCommand, exitSummary } from "./cli/command";
import { commandHelp } from "./cli/commandLine";
import type { CliIo } from "./cli/commands";
import { CliError } from "./cli/files";
import { processIo, reportError } from "./cli/processIo";
import { allCommands, COMMAND_NAMES, loadCommand } from "./cli/registry";
import { closestStrings, levenshtein } from "./core/editDistance";

/** `sourcecheck --help`: every command's usage and exit statuses. */
function overallHelp(): string {
    const commands = allCommands()
        .map((command) => `${command.usage.trimEnd()}\n            exit status: ${exitSummary(command.exits)}`)
        .join("\n");
    return `Usage:\n${commands}\n  sourcecheck help COMMAND | COMMAND --help    one command's usage\n  sourcecheck --version\n`;
}

/**
 * A lowercase word that names no command, no file or folder and no glob: `unknown command "lokc"`
 * with the nearest command names (exit 2), rather than a missing file to check.
 */
function unknownCommand(word: string, io: CliIo): CliError | undefined {
    if (/[*?[\]{}!]/.test(word) || exists(nodePath.resolve(io.cwd, word))) return undefined;
    const nearest = [...COMMAND_NAMES]
        .sort((a, b) => levenshtein(word, a) - levenshtein(word, b) || (a < b ? -1 : 1))
        .slice(0, 3);
    return new CliError(
        `unknown command "${word}"; the nearest: ${nearest.join(", ")} (sourcecheck --help lists them all)`,
    );
}

function exists(path: string): boolean {
    try {
        fs.statSync(path);
        return true;
    } catch {
        return false;
    }
}

/** Only a lowercase word can name a command: `sourcecheck answer.json` is checked. */
const COMMAND_NAME = /^[a-z][a-z-]*$/;

/** The command a command line names, and its arguments; `check` when it names none. */
function commandOf(argv: string[], io: CliIo): { command: CliCommand; args: string[] } {
    const first = argv[0] ?? "";
    const named = COMMAND_NAME.test(first) ? loadCommand(first) : undefined;
    if (named) return { command: named, args: argv.slice(1) };
    if (COMMAND_NAME.test(first)) {
        const unknown = unknownCommand(first, io);
        if (unknown) throw unknown;
    }
    return { command: loadCommand("check") as CliCommand, args: argv };
}

/** Exit status; a promise for the commands that do I/O asynchronously (fetching, workers, servers). */
export function main(argv: string[], io: CliIo): ExitStatus | Promise<ExitStatus> {
    try {
        const first = argv[0];
        if (first === "--version" || first === "-v") {
            io.stdout(`${io.version}\n`);
            return EXIT.clean;
        }
        if (first === "--help" || first === "-h" || (first === "help" && argv.length === 1)) {
            io.stdout(overallHelp());
            return EXIT.clean;
        }
        if (first === "help") return help(argv.slice(1), io);
        const { command, args } = commandOf(argv, io);
        const status = command.run(args, io);
        return typeof status === "number" ? status : status.catch((error: unknown) => reportError(error, io));
    } catch (error) {
        return reportError(error, io);
    }
}

/** `sourcecheck help COMMAND`. */
function help(args: string[], io: CliIo): ExitStatus {
    const command = args.length === 1 ? loadCommand(args[0]) : undefined;
    if (!command) {
        const meant = args.length === 1 ? closestStrings(args[0], COMMAND_NAMES, 2)[0] : undefined;
        throw new CliError(
            `help takes one command name${meant ? ` (did you mean ${meant}?)` : ""}; sourcecheck --help lists them all`,
        );
    }
    io.stdout(commandHelp(command));
    return EXIT.clean;
}

export { processIo };

if (require.main === module) {
    // Set the exit code rather than exiting: large reports are written asynchronously to pipes.
    void Promise.resolve(main(process.argv.slice(2), processIo())).then((status) => {
        process.exitCode = status;
    });
}
