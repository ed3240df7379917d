/**
 * The `sourcecheck` command (DESIGN section 5): argument parsing and error handling only; the work
 * is in cli/commands.ts over the same core and workspace code as the language server.
 */
import * as fs from "node:fs";
import { parseArgs } from "node:util";
import packageJson from "../../package.json";
import { type CliIo, type OutputFormat, runCheck, runIndex, runSession, runValidate } from "./cli/commands";
import { CliError } from "./cli/files";
import { COMMANDS as MORE_COMMANDS } from "./cli/registry";

export const USAGE = `Usage:
  sourcecheck [check] [--json|--format text|json|sarif] [--root DIR] [--max-size BYTES] [FILE|-]
  sourcecheck session FILE... [-o session.json]
  sourcecheck validate SESSION.json ANNOTATIONS.json [--json|--format text|json|sarif]
  sourcecheck index FILE...

check     resolve and validate every annotation of FILE (or stdin); documents come from the
          file's embedded session, or are files under --root (default: the current directory)
session   build an LF-normalised session from files, paths as given (-o writes atomically)
validate  check the annotations of one file against the session of another
index     print files with 1-based line numbers, for authoring refs

Exit status: 0 all refs resolve; 1 a ref fails to resolve; 2 invalid JSON, schema or usage error.`;

function usage(): string {
    const more = MORE_COMMANDS.map((command) => command.usage.trimEnd()).join("\n");
    return more.length > 0 ? `${USAGE}\n\nMore commands:\n${more}` : USAGE;
}

const COMMANDS = new Set(["check", "session", "validate", "index", "help"]);

/** Exit status; a promise for the commands that do I/O asynchronously (fetching, workers, servers). */
export function main(argv: string[], io: CliIo): number | Promise<number> {
    try {
        const command = MORE_COMMANDS.find((candidate) => candidate.name === argv[0]);
        const status = command ? command.run(argv.slice(1), io) : dispatch(argv, io);
        return typeof status === "number" ? status : status.catch((error: unknown) => reportError(error, io));
    } catch (error) {
        return reportError(error, io);
    }
}

function reportError(error: unknown, io: CliIo): number {
    if (error instanceof CliError) {
        io.stderr(`sourcecheck: ${error.message}\n`);
        return error.exitCode;
    }
    // Not ours to expect: still one line, no stack trace, and a distinct status from check's 0/1/2.
    io.stderr(`sourcecheck: internal error: ${error instanceof Error ? error.message : String(error)}\n`);
    return 3;
}

function dispatch(argv: string[], io: CliIo): number {
    let parsed: ReturnType<typeof parseCli>;
    try {
        parsed = parseCli(argv);
    } catch (error) {
        throw new CliError(`${(error as Error).message}\n${USAGE}`);
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
        case "check": {
            if (positionals.length > 1) throw new CliError(`check takes one FILE, got ${positionals.length}\n${USAGE}`);
            return runCheck(
                { file: positionals[0], format, root: values.root, maxBytes: maxSize(values["max-size"]) },
                io,
            );
        }
        case "validate":
            if (positionals.length !== 2)
                throw new CliError(`validate takes SESSION.json and ANNOTATIONS.json\n${USAGE}`);
            return runValidate(positionals[0], positionals[1], format, io);
        case "session":
            return runSession(positionals, values.output, io);
        default:
            return runIndex(positionals, io);
    }
}

function parseCli(argv: string[]) {
    return parseArgs({
        args: argv,
        allowPositionals: true,
        strict: true,
        options: {
            json: { type: "boolean" },
            format: { type: "string" },
            root: { type: "string" },
            "max-size": { type: "string" },
            output: { type: "string", short: "o" },
            help: { type: "boolean", short: "h" },
            version: { type: "boolean", short: "v" },
        },
    });
}

function outputFormat(json: boolean | undefined, format: string | undefined): OutputFormat {
    if (json) {
        if (format !== undefined && format !== "json") throw new CliError(`--json contradicts --format ${format}`);
        return "json";
    }
    if (format === undefined) return "text";
    if (format === "text" || format === "json" || format === "sarif") return format;
    throw new CliError(`unknown --format ${JSON.stringify(format)}: use text, json or sarif`);
}

function maxSize(value: string | undefined): number | undefined {
    if (value === undefined) return undefined;
    const bytes = Number(value);
    if (!Number.isInteger(bytes) || bytes < 0)
        throw new CliError(`--max-size must be a whole number of bytes, not ${value}`);
    return bytes;
}

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
        stdout: (text) => process.stdout.write(text),
        stderr: (text) => process.stderr.write(text),
        readStdin: () => fs.readFileSync(0),
        stdinIsPiped,
        version: packageJson.version,
    };
}

if (require.main === module) {
    // Set the exit code rather than exiting: large reports are written asynchronously to pipes.
    void Promise.resolve(main(process.argv.slice(2), processIo())).then((status) => {
        process.exitCode = status;
    });
}
