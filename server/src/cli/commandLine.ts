/**
 * One way for every command to read its arguments (docs/cli.md): node:util's parseArgs, strict,
 * with `-h`/`--help` added; a parse error or a wrong number of operands is a usage error that names
 * the command and shows its usage, with the command's own exit code for bad usage.
 */
import { type ParseArgsConfig, parseArgs } from "node:util";
import type { CliIo } from "./commands";
import { CliError } from "./files";

type Options = NonNullable<ParseArgsConfig["options"]>;

const HELP = { help: { type: "boolean", short: "h" } } as const;

export interface CommandSpec {
    /** As typed: `render`, `trace verify-files`. */
    name: string;
    usage: string;
    /** The exit code of a usage error: 2 for SourceCheck's commands, 1 for TraceCite's. */
    exitCode?: number;
    /** Said after a parse error, e.g. how to pass an operand that starts with `-`. */
    hint?: string;
}

type CommandLine<O extends Options> = ReturnType<
    typeof parseArgs<{ args: string[]; allowPositionals: true; strict: true; options: O & typeof HELP }>
>;

export function parseCommandLine<const O extends Options>(
    spec: CommandSpec,
    argv: string[],
    options: O,
): CommandLine<O> {
    try {
        return parseArgs({ args: argv, allowPositionals: true, strict: true, options: { ...options, ...HELP } });
    } catch (error) {
        throw usageError(spec, `: ${(error as Error).message}${spec.hint ?? ""}`);
    }
}

/** `--help`: the usage on stdout, exit 0. */
export function printUsage(io: CliIo, spec: CommandSpec): number {
    io.stdout(`Usage:\n${spec.usage}\n`);
    return 0;
}

/** `message` follows the command's name: `" takes one FILE"`, `": unknown option"`. */
export function usageError(spec: CommandSpec, message: string): CliError {
    return new CliError(`${spec.name}${message}\nUsage:\n${spec.usage}`, spec.exitCode ?? 2);
}
