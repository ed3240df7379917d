/**
 * The `sourcecheck` command (docs/contract.md section 5): argument parsing and error handling only; the work
 * is in cli/commands.ts over the same core and workspace code as the language server.
 */
import * as fs from "node:fs";
import * as nodePath from "node:path";
import { parseArgs } from "node:util";
import type { CliCommand } from "./cli/command";
import { parseErrorMessage } from "./cli/commandLine";
import { type CliIo, type OutputFormat, runCheck, runIndex, runSession, runValidate } from "./cli/commands";
import { parseShard } from "./cli/discovery";
import { CliError, MAX_JOBS, parseMaxSize } from "./cli/files";
import { processIo, reportError } from "./cli/processIo";
import { allCommands, COMMAND_NAMES, loadCommand } from "./cli/registry";
import { levenshtein } from "./core/editDistance";
import { globProblem, MAX_PATTERNS } from "./workspace/globs";

export const USAGE = `Usage:
  sourcecheck [check] [--json|--format text|json|sarif|github] [--root DIR] [--max-size BYTES] [FILE|-]
  sourcecheck check [options] PATH|GLOB... [--exclude GLOB]... [--jobs N] [--shard K/N] [--locked]
  sourcecheck session FILE... [-o session.json [--follow-symlinks]]
  sourcecheck validate SESSION.json ANNOTATIONS.json [--json|--format text|json|sarif]
  sourcecheck index FILE...

check     resolve and validate every annotation of FILE (or stdin); documents come from the
          file's embedded session, or are files under --root (default: the folder of the nearest
          sourcecheck.config.json, else the current directory). Folders are searched for
          annotation files (.gitignore and --exclude honoured); --jobs N checks N files at once;
          --shard K/N checks the K-th of N deterministic shares. With a lock beside a file
          (sourcecheck lock), a ref whose text changed since it was locked gets the warning
          text-changed; --locked makes that, and a ref the lock lacks, an error (the CI gate)
session   build an LF-normalised session from files, paths as given (-o writes atomically,
          never over a device, symlink or one of the FILEs: docs/security.md)
validate  check the annotations of one file against the session of another
index     print files with 1-based line numbers, for authoring refs

Exit status: 0 all refs resolve; 1 a ref fails to resolve; 2 invalid JSON, schema or usage error.`;

function usage(): string {
    const more = moreCommands()
        .map((command) => `${command.usage.trimEnd()}\n            exit status: ${command.exitCodes}`)
        .join("\n");
    return more.length > 0 ? `${USAGE}\n\nMore commands:\n${more}` : USAGE;
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
        const names = [...COMMANDS].filter((name) => name !== "help").concat(COMMAND_NAMES);
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

const COMMANDS = new Set(["check", "session", "validate", "index", "help"]);
/** Commands (and option-first command lines) that never need the other command modules. */
const FIRST_WAVE = new Set([...COMMANDS, "--json", "--format", "--root", "--max-size", "--locked", "-"]);

/** Every further command, each module loaded: `--help` lists them all. */
function moreCommands(): CliCommand[] {
    return allCommands();
}

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
        const status = command ? command.run(argv.slice(1), io) : dispatch(argv, io);
        return typeof status === "number" ? status : status.catch((error: unknown) => reportError(error, io));
    } catch (error) {
        return reportError(error, io);
    }
}

function dispatch(argv: string[], io: CliIo): number | Promise<number> {
    let parsed: ReturnType<typeof parseCli>;
    try {
        parsed = parseCli(argv);
    } catch (error) {
        throw new CliError(`${parseErrorMessage(error as Error, CLI_OPTIONS)}\n${USAGE}`);
    }
    const { values, positionals } = parsed;
    if (values.version) {
        io.stdout(`${io.version}\n`);
        return 0;
    }
    const command = positionals.length > 0 && COMMANDS.has(positionals[0]) ? positionals.shift()! : "check";
    if (values.help || command === "help") {
        io.stdout(`${usage()}\n`);
        return 0;
    }
    const format = outputFormat(values.json, values.format);
    switch (command) {
        case "check":
            return runCheck(
                {
                    paths: positionals,
                    format,
                    root: values.root,
                    maxBytes: parseMaxSize(values["max-size"]),
                    exclude: checkedGlobs(values.exclude ?? []),
                    jobs: jobCount(values.jobs),
                    shard: values.shard !== undefined ? parseShard(values.shard) : undefined,
                    locked: values.locked === true,
                },
                io,
            );
        case "validate":
            if (positionals.length !== 2)
                throw new CliError(`validate takes SESSION.json and ANNOTATIONS.json\n${USAGE}`);
            return runValidate(positionals[0], positionals[1], format, io);
        case "session":
            return runSession(positionals, values.output, io, values["follow-symlinks"] === true);
        default:
            return runIndex(positionals, io);
    }
}

const CLI_OPTIONS = {
    json: { type: "boolean" },
    format: { type: "string" },
    root: { type: "string" },
    "max-size": { type: "string" },
    exclude: { type: "string", multiple: true },
    jobs: { type: "string", short: "j" },
    shard: { type: "string" },
    locked: { type: "boolean" },
    output: { type: "string", short: "o" },
    "follow-symlinks": { type: "boolean" },
    help: { type: "boolean", short: "h" },
    version: { type: "boolean", short: "v" },
} as const;

function parseCli(argv: string[]) {
    return parseArgs({ args: argv, allowPositionals: true, strict: true, options: CLI_OPTIONS });
}

function outputFormat(json: boolean | undefined, format: string | undefined): OutputFormat {
    if (json) {
        if (format !== undefined && format !== "json") throw new CliError(`--json contradicts --format ${format}`);
        return "json";
    }
    if (format === undefined) return "text";
    if (format === "text" || format === "json" || format === "sarif" || format === "github") return format;
    throw new CliError(`unknown --format ${JSON.stringify(format)}: use text, json, sarif or github`);
}

/** `--exclude` globs within the wildcard budget of workspace/globs.ts, or a usage error naming the glob. */
function checkedGlobs(globs: string[]): string[] {
    if (globs.length > MAX_PATTERNS) throw new CliError(`--exclude: at most ${MAX_PATTERNS} globs`);
    for (const glob of globs) {
        const problem = globProblem(glob);
        if (problem) throw new CliError(`--exclude: ${problem}`);
    }
    return globs;
}

/** A whole number of at least 1, written in digits; capped at MAX_JOBS (and at the file count, later). */
function jobCount(value: string | undefined): number | undefined {
    if (value === undefined) return undefined;
    if (!/^[0-9]{1,12}$/.test(value.trim()) || Number(value) < 1)
        throw new CliError(`--jobs must be a whole number, at least 1, not ${JSON.stringify(value)}`);
    return Math.min(Number(value), MAX_JOBS);
}

export { processIo };

if (require.main === module) {
    // Set the exit code rather than exiting: large reports are written asynchronously to pipes.
    void Promise.resolve(main(process.argv.slice(2), processIo())).then((status) => {
        process.exitCode = status;
    });
}
