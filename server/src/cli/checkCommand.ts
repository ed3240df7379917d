/**
 * The first commands of `sourcecheck` (docs/contract.md section 5): check, session, validate and
 * index, parsed here and run by cli/commands.ts. A bundle of its own (dist/checkCommand.js), loaded by
 * cli.ts only when a command line names none of the further commands (docs/architecture.md,
 * "CLI bundles").
 */
import { parseArgs } from "node:util";
import { globProblem, MAX_PATTERNS } from "../workspace/globs";
import { FIRST_COMMANDS } from "./command";
import { parseErrorMessage } from "./commandLine";
import { type CliIo, type OutputFormat, runCheck, runIndex, runSession, runValidate } from "./commands";
import { parseShard } from "./discovery";
import { CliError, MAX_JOBS, parseMaxSize } from "./files";

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
/** The usage after its heading: a CliError prints it after the (escaped) message. */
const USAGE_BODY = USAGE.replace(/^Usage:\n/, "");

/**
 * `sourcecheck [check|session|validate|index|help] ...`; `moreUsage` is the usage of the further
 * commands, which `--help` lists after these.
 */
export function runFirstCommands(argv: string[], io: CliIo, moreUsage: () => string): number | Promise<number> {
    let parsed: ReturnType<typeof parseCli>;
    try {
        parsed = parseCli(argv);
    } catch (error) {
        throw new CliError(parseErrorMessage(error as Error, CLI_OPTIONS), 2, USAGE_BODY);
    }
    const { values, positionals } = parsed;
    if (values.version) {
        io.stdout(`${io.version}\n`);
        return 0;
    }
    const command = positionals.length > 0 && FIRST_COMMANDS.has(positionals[0]) ? positionals.shift()! : "check";
    if (values.help || command === "help") {
        const more = moreUsage();
        io.stdout(`${more.length > 0 ? `${USAGE}\n\nMore commands:\n${more}` : USAGE}\n`);
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
                throw new CliError("validate takes SESSION.json and ANNOTATIONS.json", 2, USAGE_BODY);
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
